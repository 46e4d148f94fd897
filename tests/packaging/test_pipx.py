"""A way in on a Pi (README, docs/guide/pi-install.md): ``pipx install --system-site-packages .``, with Debian's pipx.

A copy of this tree is installed by ``pipx`` (Debian 12's 1.1.0, run by the system's Python) into
a pipx home of the test's own; the programs it puts on its ``bin`` directory must answer: the
version with the native core (built by the install), ``analyse``, and ``doctor``, whose Python is
the venv pipx made, and which sees the system's packages (where Raspberry Pi OS's
``python3-sense-hat`` is): a module of ``/usr/lib/python3/dist-packages`` imports in that venv.
Installed again without a C compiler (pip hides the build's warning), the first run says once that the
Python core plays and ``doctor`` names pipx's fix.
Needs ``pipx`` (``.ci/install-package-deps``) and the package index (``h11``, ``zeroconf``,
``setuptools``); skipped without pipx (failed under CI).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_needs import require

from sensehat_c4 import __version__

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SYSTEM_SITE = "/usr/lib/python3/dist-packages"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""Debian's PATH: its pipx and python3, not a venv's or a pyenv's."""


def pipx_install(work, **more):
    """``pipx install --system-site-packages`` of a copy of this tree into ``work`` (``more``: the build's
    environment): its ``bin`` folder, its venv and the environment to run its programs in."""
    require([] if shutil.which("pipx", path=PATH) else ["pipx"], "pipx is missing", ".ci/install-package-deps")
    source = work / "sensehat-c4"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".pytest_cache", "_c4core*.so*"))
    env = {"PATH": PATH, "HOME": str(work / "home"), "PIPX_HOME": str(work / "pipx"),
           "PIPX_BIN_DIR": str(work / "bin"), "LANG": "C.UTF-8"}
    env.update({k: v for k, v in os.environ.items() if k.startswith(("PIP_", "http_", "https_", "no_proxy"))})
    done = subprocess.run(["pipx", "install", "--system-site-packages", str(source)], env={**env, **more},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return work / "bin", work / "pipx" / "venvs" / "sensehat-c4", env


@pytest.fixture(scope="module")
def pipx_bin(tmp_path_factory):
    bin_dir, venv, _ = pipx_install(tmp_path_factory.mktemp("pipx"))
    return bin_dir, venv


def test_pipx_puts_both_programs_on_its_path(pipx_bin):
    bin_dir, _ = pipx_bin
    assert sorted(p.name for p in bin_dir.iterdir()) == ["gamelib", "sensehat-c4"]


def test_the_version_with_the_native_core_built_by_the_install(pipx_bin):
    bin_dir, _ = pipx_bin
    done = subprocess.run([str(bin_dir / "sensehat-c4"), "--version"], capture_output=True, text=True, check=True)
    assert done.stdout == f"sensehat-c4 {__version__} (solver core: native)\n"


def test_analyse_as_this_tree_does(pipx_bin):
    bin_dir, _ = pipx_bin
    for args in (["analyse", "4453"], ["analyse", "4453", "--solve", "--json"]):
        here = subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                              check=True, cwd=REPO).stdout
        assert subprocess.run([str(bin_dir / "sensehat-c4"), *args], capture_output=True, text=True,
                              check=True).stdout == here


def test_the_venv_sees_the_systems_packages(pipx_bin):
    """Where ``sudo apt install sense-hat`` puts ``sense_hat``: a module the system has there (Debian's
    ``installer``, which the package's build needs) imports in pipx's venv."""
    _, venv = pipx_bin
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    done = subprocess.run([str(venv / "bin" / "python"), "-c", "import installer; print(installer.__file__)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith(SYSTEM_SITE + "/")


def test_doctor_runs_from_pipx(pipx_bin):
    bin_dir, venv = pipx_bin
    done = subprocess.run([str(bin_dir / "sensehat-c4"), "doctor", "--json", "--backend", "terminal"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    report = json.loads(done.stdout)
    found = {c["check"]: c for c in report["checks"]}
    assert done.returncode == 1 and found["terminal"]["status"] == "fail"   # not a terminal: exit 1
    assert found["python"]["detail"].endswith(f"({venv}/bin/python)")
    assert found["core"]["status"] == "ok" and found["core"]["detail"].startswith(f"native ({venv}/lib/")
    assert found["zeroconf"]["status"] == "ok"
    # its fixes are pipx's: what pipx's own metadata says it installed, and pipx inject
    assert found["emulator"]["fix"] == "pipx inject sensehat-c4 sense-emu"
    told = subprocess.run([str(venv / "bin" / "python"), "-c", "from gamelib import install; i = install.this(); "
                           "print(i.kind.value, i.system_site, i.source, i.with_system_site(), sep='|')"],
                          capture_output=True, text=True, check=True)
    source = venv.parents[2] / "sensehat-c4"
    assert told.stdout == f"pipx|True|{source}|pipx install --force --system-site-packages {source}\n"


@pytest.fixture(scope="module")
def pipx_without_compiler(tmp_path_factory):
    """The copy installed where the build finds no C compiler (``CC``, which the build reads, names none)."""
    return pipx_install(tmp_path_factory.mktemp("pipx-no-cc"), CC="/nonexistent/cc")


def test_without_a_compiler_the_first_run_says_so_once_and_doctor_names_pipx_s_fix(pipx_without_compiler):
    bin_dir, venv, env = pipx_without_compiler
    engine = next(venv.glob("lib/python3*/site-packages/sensehat_c4/engine"))
    why = (engine / "_c4core.so.not-built").read_text()    # (the compiler's error as pip's setuptools words it)
    assert why.endswith("\n") and "/nonexistent/cc" in why and "No such file or directory" in why
    runs = [subprocess.run([str(bin_dir / "sensehat-c4"), "--version"], capture_output=True, text=True, env=env)
            for _ in range(2)]
    assert [run.stdout for run in runs] == [f"sensehat-c4 {__version__} (solver core: python)\n"] * 2
    assert [run.stderr for run in runs] == [
        f"sensehat-c4: the native solver core did not build when sensehat-c4 was installed ({why.strip()}): the "
        "pure-Python core plays, and the strong levels think more slowly; 'sensehat-c4 doctor' says how to build "
        "it\n", ""]
    done = subprocess.run([str(bin_dir / "sensehat-c4"), "doctor", "--json", "--backend", "terminal"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env)
    core = [c for c in json.loads(done.stdout)["checks"] if c["check"] == "core"]
    assert [(c["status"], c["fix"]) for c in core] == [
        ("fail", "install a C compiler and build it again: sudo apt install gcc, then pipx reinstall sensehat-c4")]
