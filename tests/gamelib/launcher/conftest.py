import pytest


@pytest.fixture
def mock(launcher_mock):
    """In the launcher's tests, ``mock`` is the backend the launcher opens (tests/conftest.py's ``launcher_mock``)."""
    return launcher_mock
