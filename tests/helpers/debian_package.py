"""The Debian package built from this tree for the tests that read or install it (``test_deb``, ``test_deb_files``):
``tools/build-deb`` into a folder of the test's, and what this machine lacks to run it."""
from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Dict, List

from ci_needs import require

REPO = Path(__file__).resolve().parents[2]


def build_missing() -> List[str]:
    """What the package's build needs and this machine lacks."""
    if shutil.which("dpkg-checkbuilddeps") is None:
        return ["dpkg-dev"]
    done = subprocess.run(["dpkg-checkbuilddeps"], cwd=REPO, capture_output=True, text=True)
    return [] if done.returncode == 0 else [done.stderr.strip().split(": ")[-1]]


def build_deb(out: Path) -> Path:
    """``tools/build-deb --out OUT`` (skipped, or failed under CI, without the build dependencies): the one
    ``.deb`` it wrote, and how long it took on stderr."""
    require(build_missing(), "cannot build the Debian package here, missing", ".ci/install-package-deps")
    started = time.monotonic()
    subprocess.run([str(REPO / "tools" / "build-deb"), "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    debs = sorted(out.glob("*.deb"))
    assert len(debs) == 1, debs
    print(f"\ntools/build-deb: {time.monotonic() - started:.0f} s", file=sys.stderr)
    return debs[0]


def members(deb: Path, part: str) -> Dict[str, bytes]:
    """The regular files of the package's ``control`` or ``data`` archive (``dpkg-deb --ctrl-tarfile`` or
    ``--fsys-tarfile``), by their path without the leading ``./``."""
    option = {"control": "--ctrl-tarfile", "data": "--fsys-tarfile"}[part]
    tar = subprocess.run(["dpkg-deb", option, str(deb)], capture_output=True, check=True).stdout
    found = {}
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        for member in archive.getmembers():
            if member.isfile():
                extracted = archive.extractfile(member)
                assert extracted is not None
                found[member.name[2:] if member.name.startswith("./") else member.name] = extracted.read()
    return found
