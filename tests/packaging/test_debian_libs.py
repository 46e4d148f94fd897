"""The Debian package depends on Debian 12's ``python3-h11`` and ``python3-zeroconf``, older than ``setup.cfg`` asks
(h11 0.14.0-1.1~deb12u1 with the CVE-2025-43859 fix backported, for 0.16; zeroconf 0.47.3, for 0.131): the web
server's and the LAN's tests run here with exactly those versions first on the path.

``apt-get download`` fetches Debian 12's packages (and ``python3-ifaddr`` and ``python3-async-timeout``, which
that zeroconf needs), they are unpacked into a directory put first on ``PYTHONPATH``, and pytest runs the test
files that use the two libraries: the web server (HTTP parsing, limits, hostile requests), the LAN's host and
flows, the two-program LAN game and, where ``.ci/install-lan-deps`` ran, real mDNS beside ``avahi-daemon`` in
network namespaces.  Needs ``apt-get`` (Debian) and its lists; skipped without them (failed under CI).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_needs import require

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PACKAGES = {"python3-h11": "0.14.0-1.1~deb12u1", "python3-zeroconf": "0.47.3-1", "python3-ifaddr": None,
            "python3-async-timeout": None}
"""Debian 12's packages, and the versions ``debian/control`` names as the lowest."""
TESTS = ["tests/gamelib/web/test_web_server.py", "tests/gamelib/web/test_web_hostile.py", "tests/web/test_webpages.py", "tests/web/test_web_game.py",
         "tests/gamelib/lan/test_lan_host.py", "tests/gamelib/lan/test_lan_guest.py", "tests/gamelib/lan/test_lan_flows.py", "tests/lan/test_lan_cli.py",
         "tests/lan/test_lan_game.py", "tests/lan/test_lan_netns.py"]


def test_the_web_and_lan_tests_pass_with_debian_12s_h11_and_zeroconf(tmp_path):
    require([] if shutil.which("apt-get") and shutil.which("dpkg-deb") else ["apt-get"],
            "Debian's package tools are missing", "(a Debian 12 machine)", root=False)
    shown = subprocess.run(["apt-cache", "policy", *PACKAGES], capture_output=True, text=True).stdout
    for name, version in PACKAGES.items():
        if version is not None and f"Candidate: {version}" not in shown:
            require([f"{name} {version}"], "Debian 12's package lists lack", "apt-get update", root=True)
    debs = tmp_path / "debs"
    debs.mkdir()
    os.chmod(debs, 0o777)   # apt downloads as _apt where it can
    subprocess.run(["apt-get", "download", "-q", *(f"{n}={v}" if v else n for n, v in PACKAGES.items())],
                   cwd=debs, check=True, capture_output=True)
    unpacked = tmp_path / "root"
    for deb in debs.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
    site = unpacked / "usr" / "lib" / "python3" / "dist-packages"
    env = {**os.environ, "PYTHONPATH": str(site)}
    versions = subprocess.run([sys.executable, "-c", "import h11, zeroconf; print(h11.__file__, h11.__version__, "
                               "zeroconf.__file__, zeroconf.__version__)"], env=env, capture_output=True, text=True,
                              check=True).stdout.split()
    assert versions == [str(site / "h11" / "__init__.py"), "0.14.0", str(site / "zeroconf" / "__init__.py"), "0.47.3"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    print("\n" + done.stdout.strip().splitlines()[-1], file=sys.stderr)
