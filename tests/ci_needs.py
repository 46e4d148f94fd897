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
