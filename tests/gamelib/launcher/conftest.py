import pytest


@pytest.fixture
def mock(launcher_mock):
    """In the launcher's tests, ``mock`` is the backend the launcher opens (tests/conftest.py's ``launcher_mock``)."""
    return launcher_mock


@pytest.fixture(autouse=True)
def environment_language():
    """Each test starts and ends speaking the environment's language (tests/conftest.py's English): a
    launcher whose language setting was changed, or a ``--language``, chose one for the whole process."""
    from gamelib.i18n import choose

    choose(None)
    yield
    choose(None)
