import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # test helpers: frames.py ...

import pytest

SETUP = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]', then .venv/bin/python -m pytest"
"""README's test command, split where the tests begin (say it when this Python cannot run them)."""


def missing_for_tests() -> list:
    """The distributions the tests need (the package's own and its ``test`` extra's, as setup.cfg names them,
    for this Python) that this interpreter does not have; ``["sensehat-c4"]`` when the package is not
    installed in it at all."""
    from importlib import metadata

    from packaging.requirements import Requirement  # pytest's own dependency

    try:
        requires = metadata.requires("sensehat-c4") or []
    except metadata.PackageNotFoundError:
        return ["sensehat-c4"]
    missing = []
    for line in requires:
        wanted = Requirement(line)
        if wanted.marker is not None and not any(wanted.marker.evaluate({"extra": extra}) for extra in ("", "test")):
            continue                                   # another extra's, or not for this Python
        try:
            metadata.distribution(wanted.name)         # present is enough (Debian's older h11 stands in: test_debian_libs)
        except metadata.PackageNotFoundError:
            missing.append(wanted.name)
    return missing


def pytest_configure(config):
    """Stop at once, in one line, when this Python lacks what the tests import (not 36 collection errors)."""
    missing = missing_for_tests()
    if missing:
        pytest.exit(f"this Python ({sys.executable}) lacks what the tests need ({', '.join(missing)}): {SETUP}",
                    returncode=4)


@pytest.fixture(autouse=True)
def games_db(tmp_path_factory, monkeypatch):
    """Every test, and every program a test starts, records into its own database, never the user's."""
    path = tmp_path_factory.mktemp("records") / "games.db"
    monkeypatch.setenv("SENSEHAT_C4_DB", str(path))
    return path
