"""``tools/build-deb``'s checks before it builds: the package's version is written twice (``debian/changelog``,
``sensehat_c4.__version__``, which setup.cfg reads), and when they differ its one line says which file to change,
whichever of the two moved first.

Needs dpkg-dev (``dpkg-parsechangelog``: ``.ci/install-package-deps``); skipped without it (failed under CI).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ci_needs import require

from sensehat_c4 import __version__

REPO = Path(__file__).resolve().parents[2]


def tree(tmp_path: Path, *, changelog: str, package: str) -> Path:
    """What build-deb reads before it builds, with these two versions."""
    require([] if shutil.which("dpkg-parsechangelog") else ["dpkg-dev"], "cannot read a changelog here",
            ".ci/install-package-deps")
    for relative in ("tools/build-deb", "debian/changelog", "sensehat_c4/__init__.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, tmp_path / relative)
    entry = (REPO / "debian" / "changelog").read_text().replace(f"sensehat-c4 ({__version__})",
                                                                 f"sensehat-c4 ({changelog})", 1)
    (tmp_path / "debian" / "changelog").write_text(entry)
    init = tmp_path / "sensehat_c4" / "__init__.py"
    init.write_text(re.sub(r'^__version__ = ".*"$', f'__version__ = "{package}"', init.read_text(), flags=re.M))
    return tmp_path


@pytest.mark.parametrize("changelog, package, fix", [
    ("0.1.1", "0.1.0", 'set __version__ = "0.1.1" in sensehat_c4/__init__.py'),     # after dch -v 0.1.1
    ("0.1.0", "0.2.0", "add a changelog entry for it: dch -v 0.2.0"),              # after a release's commit
    ("0.1.0~rc1", "0.1.0", "add a changelog entry for it: dch -v 0.1.0"),          # Debian's order: ~ sorts first
])
def test_versions_that_differ_are_one_line_naming_the_file_to_change(tmp_path, changelog, package, fix):
    root = tree(tmp_path, changelog=changelog, package=package)
    done = subprocess.run([str(root / "tools" / "build-deb"), "--out", str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"build-deb: debian/changelog says {changelog}, sensehat_c4/__init__.py says {package}: "
                           f"{fix}\n")
    assert not (tmp_path / "out").exists()
