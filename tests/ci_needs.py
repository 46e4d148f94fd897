"""Tests that need something a ``.ci/`` step installs: skipped where it is missing, failed under CI."""
import os
import sys
from typing import Sequence

import pytest


def require(missing: Sequence[str], what: str, step: str, *, root: bool = True) -> None:
    """Skip (or, with ``CI`` set, fail) when ``missing`` names anything, saying what and which step installs it
    (a step run ``as root`` unless ``root`` is false)."""
    if missing:
        reason = f"{what} ({', '.join(missing)}): run {step}" + (" as root" if root else "")
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def require_bitbully(what: str) -> None:
    """Skip (or under ``CI`` fail) when bitbully, the independent solver, is missing; it has no build for
    CPython 3.9, where it is skipped even under CI (.ci/pythons runs the fast tier there)."""
    try:
        import bitbully  # noqa: F401 (whether it is there)
    except ImportError:
        if sys.version_info < (3, 10):
            pytest.skip(f"{what} (bitbully) needs Python 3.10 or newer")
        require(["bitbully"], what, "pip install -e '.[test]' on Python 3.10 or newer", root=False)
