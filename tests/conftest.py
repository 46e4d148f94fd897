import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # test helpers: frames.py ...

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def games_db(tmp_path_factory, monkeypatch):
    """Every test, and every program a test starts, records into its own database, never the user's."""
    path = tmp_path_factory.mktemp("records") / "games.db"
    monkeypatch.setenv("SENSEHAT_C4_DB", str(path))
    return path
