"""The Debian package's files, read from the ``.deb`` ``tools/build-deb`` builds (no machine booted: ``test_deb``
installs it): its maintainer scripts, what it puts in ``dist-packages`` and ``/usr/share/doc`` (every link of a
shipped document reaches a shipped file), its units' documentation, its description, and what lintian says.

Needs Debian's build tools and lintian (``.ci/install-package-deps``); skipped without them (failed under CI).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import PurePosixPath

import pytest
from ci_needs import require
from debian_package import REPO, build_deb, members

from gamelib.launcher.service import PACKAGED_DOCUMENTATION
from sensehat_c4.engine.levels import LADDER

pytestmark = pytest.mark.slow

SITE = "usr/lib/python3/dist-packages"
DOCS = PurePosixPath("usr/share/doc/sensehat-c4")
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    return build_deb(tmp_path_factory.mktemp("debs"))


@pytest.fixture(scope="module")
def files(deb):
    return members(deb, "data")


def test_removing_the_package_has_systemd_forget_its_units(deb):
    """dh_installsystemd writes no postrm for a template unit: the package's own reloads systemd on remove (else
    ``systemctl`` lists ``sensehat-games@pi.service`` as changed on disk); ``test_deb`` removes it from a booted
    Debian and looks."""
    scripts = members(deb, "control")
    assert "postrm" in scripts
    postrm = scripts["postrm"].decode()
    assert 'if [ "$1" = remove ] && [ -d /run/systemd/system ]; then\n' \
           "    systemctl --system daemon-reload >/dev/null || true\nfi\n" in postrm
    assert subprocess.run(["sh", "-n"], input=scripts["postrm"], capture_output=True).returncode == 0


def test_dist_packages_holds_what_runs_not_what_it_is_made_from(files):
    """The compiled catalogues (.mo), not the templates or the .po files they are made from; the native core, not
    its C source."""
    site = [name for name in files if name.startswith(SITE + "/")]
    made_from = [name for name in site if name.endswith((".po", ".pot", ".c", ".h"))]
    assert made_from == []
    for domain in ("gamelib", "sensehat_c4"):
        languages = [po.parts[-3] for po in (REPO / domain / "locale").glob(f"*/LC_MESSAGES/{domain}.po")]
        assert len(languages) >= 2
        for language in languages:
            assert f"{SITE}/{domain}/locale/{language}/LC_MESSAGES/{domain}.mo" in files
    assert f"{SITE}/sensehat_c4/engine/_c4core.so" in files


def markdown_links(text: str):
    return re.findall(r"\]\(([^)\s]+)\)", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))


def test_every_link_of_a_shipped_document_reaches_a_shipped_file(files):
    documents = [name for name in files if name.startswith(f"{DOCS}/") and name.endswith(".md")]
    assert f"{DOCS}/README.md" in documents and f"{DOCS}/docs/guide/pi-install.md" in documents
    broken, pictures = [], set()
    for document in documents:
        for link in markdown_links(files[document].decode()):
            target = link.split("#", 1)[0]
            if not target or re.match(r"[a-z]+:", target):
                continue
            resolved = PurePosixPath(re.sub(r"[^/]+/\.\./", "", f"{PurePosixPath(document).parent}/{target}"))
            while "/../" in str(resolved):
                resolved = PurePosixPath(re.sub(r"[^/]+/\.\./", "", str(resolved), count=1))
            if str(resolved) not in files:
                broken.append(f"{document}: {link}")
            elif resolved.suffix == ".png":
                pictures.add(resolved.name)
    assert broken == []
    assert {"terminal.png", "web-phone.png", "review.png", "emulator-window.png"} <= pictures


def test_the_units_name_documentation_the_package_has(files):
    for unit in ("lib/systemd/system/sensehat-games@.service", "usr/lib/systemd/user/sensehat-games.service"):
        lines = files[unit].decode().splitlines()
        assert f"Documentation={PACKAGED_DOCUMENTATION}" in lines
    for uri in PACKAGED_DOCUMENTATION.split():
        if uri.startswith("man:"):
            name, section = re.fullmatch(r"man:(.+)\((\d)\)", uri).groups()
            assert f"usr/share/man/man{section}/{name}.{section}.gz" in files
        else:
            assert uri.startswith("file:/") and uri[len("file:/"):] in files


def test_the_description_counts_the_levels(deb):
    description = " ".join(subprocess.run(["dpkg-deb", "--field", str(deb), "Description"], capture_output=True,
                                          text=True, check=True).stdout.split())
    assert f"({NUMBERS[len(LADDER)]} levels, the last one perfect," in description


def test_lintian_says_nothing(deb):
    """Every tag, pedantic ones too (``-EvIL +pedantic``), but those ``debian/sensehat-c4.lintian-overrides``
    explains."""
    require([] if shutil.which("lintian") else ["lintian"], "lintian is missing", ".ci/install-package-deps")
    done = subprocess.run(["lintian", "-EvIL", "+pedantic", str(deb)], capture_output=True, text=True, timeout=600)
    tags = [line for line in done.stdout.splitlines() if re.match(r"[EWIPX]: ", line)]
    assert tags == []
