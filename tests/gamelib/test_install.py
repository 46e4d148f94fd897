"""``gamelib/install.py``: how the program was installed, told from faked paths, and the commands each kind gets.

A venv and pipx's venv are folders the test makes (``pyvenv.cfg``, ``pipx_metadata.json`` as pipx 1.1
writes it); Debian's package and a system's Python are paths alone.  The real pipx's venv is told
apart in ``tests/packaging/test_pipx.py``.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamelib.install import BITBULLY_DATABASES, SENSE_EMU, ZEROCONF, Install, Kind, detect

USR = Path("/usr")


def venv(folder: Path, *, system_site: bool, pipx_source: object = None) -> Path:
    """A venv as ``python3 -m venv`` leaves it (and pipx, given ``pipx_source``)."""
    folder.mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text(f"home = /usr/bin\ninclude-system-site-packages = {str(system_site).lower()}\n"
                                       "version = 3.11.2\n")
    if pipx_source is not None:
        (folder / "pipx_metadata.json").write_text(json.dumps({
            "main_package": {"package": "sensehat-c4", "package_or_url": pipx_source, "pip_args": [],
                             "include_dependencies": False, "include_apps": True, "apps": ["gamelib", "sensehat-c4"]},
            "python_version": "Python 3.11.2", "venv_args": ["--system-site-packages"] if system_site else [],
            "injected_packages": {}, "pipx_metadata_version": "0.2"}))
    return folder


def test_debians_package_and_a_systems_python():
    deb = detect(Path("/usr/lib/python3/dist-packages/gamelib/install.py"), prefix=USR, base_prefix=USR)
    assert deb == Install(Kind.DEBIAN, USR, True, "")
    assert [deb.add(library) for library in (SENSE_EMU, ZEROCONF, BITBULLY_DATABASES)] == [
        "sudo apt install python3-sense-emu sense-emu-tools", "sudo apt install python3-zeroconf", None]
    for place in ("/usr/local/lib/python3.11/dist-packages", "/home/pi/.local/lib/python3.11/site-packages"):
        system = detect(Path(place) / "gamelib" / "install.py", prefix=USR, base_prefix=USR)
        assert system == Install(Kind.SYSTEM, USR, True, "")
        assert system.add(ZEROCONF) == "sudo apt install python3-zeroconf"


def test_pipx_s_venv(tmp_path):
    home = tmp_path / "pipx" / "venvs" / "sensehat-c4"
    venv(home, system_site=True, pipx_source="/home/pi/sensehat-c4")
    found = detect(home / "lib" / "python3.11" / "site-packages" / "gamelib" / "install.py", prefix=home,
                   base_prefix=USR)
    assert found == Install(Kind.PIPX, home, True, "/home/pi/sensehat-c4")
    assert (found.app, found.add(SENSE_EMU), found.add(BITBULLY_DATABASES)) == (
        "sensehat-c4", "pipx inject sensehat-c4 sense-emu", "pipx inject sensehat-c4 bitbully-databases")
    assert found.with_system_site() == "pipx install --force --system-site-packages /home/pi/sensehat-c4"


@pytest.mark.parametrize("source", ["/home/pi/a\nb", 7, None])
def test_pipx_s_metadata_unreadable_or_odd_names_the_venv(tmp_path, source):
    home = venv(tmp_path / "venvs" / "sensehat-c4", system_site=False, pipx_source=source if source else "x")
    if source is None:
        (home / "pipx_metadata.json").write_text("{not json")
    found = detect(home / "lib" / "gamelib" / "install.py", prefix=home, base_prefix=USR)
    assert found == Install(Kind.PIPX, home, False, "")
    assert found.with_system_site() == "pipx install --force --system-site-packages sensehat-c4"


def test_a_venv_by_hand_or_a_clone_s_editable_install(tmp_path):
    clone = tmp_path / "my games"
    prefix = venv(clone / ".venv", system_site=False)
    found = detect(clone / "gamelib" / "install.py", prefix=prefix, base_prefix=Path("/root/.pyenv/versions/3.11.7"))
    assert found == Install(Kind.VENV, prefix, False, "")
    assert found.add(SENSE_EMU) == f"'{prefix}/bin/pip' install sense-emu"   # quoted: the space
    assert found.with_system_site() == f"python3 -m venv --system-site-packages '{prefix}'"
    seeing = venv(tmp_path / "other", system_site=True)
    assert detect(seeing / "lib" / "gamelib" / "install.py", prefix=seeing, base_prefix=USR).system_site is True
    bare = tmp_path / "no-cfg"
    bare.mkdir()
    assert detect(bare / "gamelib" / "install.py", prefix=bare, base_prefix=USR) == Install(Kind.VENV, bare, False)
