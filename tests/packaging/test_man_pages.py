"""``tools/man_pages.py``: the man pages the Debian package installs, written with help2man from this tree and
rendered by groff as ``man`` does, with every warning on: none, at 80 columns and at 60; every command's name
whole (help2man used to join ``install-`` and ``service`` across argparse's line break).

Needs help2man (a build dependency: ``.ci/install-package-deps``); skipped without it (failed under CI).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_needs import require

from gamelib.launcher.cli import COMMANDS as LAUNCHER
from sensehat_c4.commands import COMMANDS

REPO = Path(__file__).resolve().parents[2]
PAGES = ("sensehat-c4.6", "gamelib.6")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    require([tool for tool in ("help2man", "groff") if shutil.which(tool) is None], "cannot write the man pages here",
            ".ci/install-package-deps")
    out = tmp_path_factory.mktemp("man")
    environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    subprocess.run([sys.executable, str(REPO / "tools" / "man_pages.py"), str(out)], check=True, capture_output=True,
                   env={**environ, "PYTHONPATH": str(REPO)}, timeout=300)
    return {name: out / name for name in PAGES}


def render(page: Path, columns: int) -> subprocess.CompletedProcess:
    """The page as ``man`` sets it for a terminal ``columns`` wide (``MANWIDTH``), plain text, every warning on."""
    width = f"{columns - 2}n"
    return subprocess.run(["groff", "-man", "-Tutf8", "-ww", f"-rLL={width}", f"-rLT={width}", "-P-cbou", str(page)],
                          capture_output=True, text=True, check=True)


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("name", PAGES)
def test_each_page_renders_without_a_warning(pages, name, columns):
    done = render(pages[name], columns)
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) > 100


def test_every_command_s_name_is_whole(pages):
    words = {name: " ".join(render(pages[name], 80).stdout.split()) for name in PAGES}
    names = [f"sensehat-c4 {c.name}" for c in COMMANDS[1:]] + [f"gamelib {name}" for name in LAUNCHER]
    for name in names:
        page = words["gamelib.6" if name.startswith("gamelib") else "sensehat-c4.6"]
        assert page.count(name) >= 2, name          # its section's title and its usage line
    assert "'gamelib install-service', 'gamelib uninstall-service'" in words["gamelib.6"]
    joined = re.compile(r"\b(installservice|uninstallservice|autodetect|lowlight)\b")
    assert [found for page in words.values() for found in joined.findall(page)] == []
    assert "else auto-detect)" in words["gamelib.6"]
