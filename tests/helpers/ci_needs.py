"""Tests that need something a ``.ci/`` step installs: skipped where it is missing, failed under CI."""
import os
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
    """Skip where bitbully, the independent solver, cannot be installed: it has no build for CPython 3.9
    (.ci/pythons runs the fast tier there).  Elsewhere the test extra has it, and conftest.py stops the
    run at once when it is missing."""
    pytest.importorskip("bitbully", reason=f"{what} (bitbully) needs Python 3.10 or newer")
