"""The settings file: where it lives, atomic writes, a corrupt file reported once and kept."""
import ctypes
import json
import logging
import os
import subprocess
import sys
import time

import pytest

from gamelib.launcher.settings import Settings, SettingsFile, default_path
from gamelib.palette import DEFAULT, PURPLE_YELLOW


def test_path_follows_xdg_config_home():
    assert str(default_path({"XDG_CONFIG_HOME": "/cfg", "HOME": "/home/pi"})) == "/cfg/gamelib/settings.json"
    assert str(default_path({"HOME": "/home/pi"})) == "/home/pi/.config/gamelib/settings.json"
    assert str(default_path({"XDG_CONFIG_HOME": "rel", "HOME": "/h"})) == "/h/.config/gamelib/settings.json"


def test_missing_file_gives_the_defaults_and_saving_round_trips(tmp_path):
    store = SettingsFile(tmp_path / "gamelib" / "settings.json")
    assert store.load() == Settings(low_light=False, rotation=0)
    assert store.save(Settings(low_light=True, rotation=270)) is True
    assert json.loads(store.path.read_text()) == {"low_light": True, "rotation": 270}
    assert store.load() == Settings(low_light=True, rotation=270)
    assert sorted(os.listdir(store.path.parent)) == ["settings.json"]     # no temporary file left


def test_unknown_keys_are_ignored(tmp_path):
    store = SettingsFile(tmp_path / "settings.json")
    store.path.write_text('{"rotation": 180, "from_a_newer_version": 1}')
    assert store.load() == Settings(rotation=180)


@pytest.mark.parametrize("content, reason", [
    (b'{"rotation": 90', "Expecting ',' delimiter: line 1 column 16 (char 15)"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"rotation": 45}', "rotation must be one of 0, 90, 180, 270 (not 45)"),
    (b'{"rotation": true}', "rotation must be one of 0, 90, 180, 270 (not True)"),
    (b'{"rotation": false}', "rotation must be one of 0, 90, 180, 270 (not False)"),
    (b'{"rotation": 90.0}', "rotation must be one of 0, 90, 180, 270 (not 90.0)"),
    (b'{"rotation": 1e400}', "rotation must be one of 0, 90, 180, 270 (not inf)"),
    (b'{"rotation": ' + b"[" * 500 + b"]" * 500 + b"}", "rotation must be one of 0, 90, 180, 270 (not [[[[[[[...]]]]]]])"),
    (b"[" * 60_000, "nested too deeply"),                                     # RecursionError in json
    (b"[" * 100_000, "larger than 64 KiB"),
    (b'{"low_light": "' + b"y" * 5000 + b'"}', "low_light must be true or false (not 'yyyyyyyyyyyy...yyyyyyyyyyyyy')"),
    (b" " * (64 * 1024 + 1), "larger than 64 KiB"),
    (b'{"low_light": "yes"}', "low_light must be true or false (not 'yes')"),
    (b"\xff\xfe", "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"),
])
def test_a_corrupt_file_is_reported_once_kept_and_replaced_by_the_defaults(tmp_path, caplog, content, reason):
    store = SettingsFile(tmp_path / "settings.json")
    store.path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="gamelib"):
        assert store.load() == Settings()
        assert store.load() == Settings()                                 # the second time: no report
    assert [r.getMessage() for r in caplog.records] == [
        f"the settings file {store.path} is corrupt ({reason}); kept it as {store.path}.corrupt "
        "and went back to the defaults"]
    assert (tmp_path / "settings.json.corrupt").read_bytes() == content
    assert json.loads(store.path.read_text()) == {"low_light": False, "rotation": 0}


def test_a_settings_file_that_cannot_be_written_is_logged_and_play_goes_on(tmp_path, caplog):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    store = SettingsFile(blocker / "settings.json")
    with caplog.at_level(logging.WARNING, logger="gamelib"):
        assert store.save(Settings(rotation=90)) is False
        assert store.load() == Settings()
    assert len(caplog.records) == 2
    assert caplog.records[0].getMessage().startswith(f"cannot save the settings to {store.path} (")
    assert caplog.records[1].getMessage().startswith(f"cannot read the settings file {store.path} (")


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    store = SettingsFile(tmp_path / "settings.json")
    store.save(Settings(rotation=90))

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("gamelib.files.os.fsync", full_disk)
    assert store.save(Settings(rotation=180)) is False
    assert store.load() == Settings(rotation=90)
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]


def _without_root_powers():
    """As root, a child that still runs as root but without the capabilities that let root read any
    file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so a mode-000 file is unreadable to it too."""
    if os.geteuid() != 0:
        return None
    libc = ctypes.CDLL(None, use_errno=True)

    def drop():
        for capability in (1, 2):                   # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP: gone after exec
                os._exit(99)

    return drop


UNREADABLE_CHILD = """
import logging, sys
from gamelib.backends.mock import MockBackend
from gamelib.launcher.menu import Launcher, LauncherOptions
from gamelib.launcher.settings import SettingsFile
logging.basicConfig(format="%(levelname)s: %(message)s", level=logging.INFO, stream=sys.stdout)
store = SettingsFile(sys.argv[1])
saved = store.load()
mock = MockBackend()
mock.hold("up", 2.1)
mock.tap("right", "middle")                     # rotation: 0 -> 90
mock.tap("down", "middle")                      # turned 90: physical down is right; quit
Launcher(mock, [], LauncherOptions(dim_after=0, blank_after=0), settings=saved, saved=saved, store=store).run()
print("rotation in force:", mock.screen.rotation)
"""


def test_a_settings_file_that_cannot_be_read_is_never_overwritten(tmp_path):
    directory = tmp_path / "gamelib"
    directory.mkdir()
    path = directory / "settings.json"
    path.write_text('{"rotation": 270}')
    os.chmod(path, 0o000)                           # the launcher may write beside the file, but not read it
    child = subprocess.run([sys.executable, "-c", UNREADABLE_CHILD, str(path)], capture_output=True,
                           text=True, timeout=60, preexec_fn=_without_root_powers())
    if child.returncode == 99:
        pytest.skip("root here cannot drop CAP_DAC_OVERRIDE, so no file is unreadable to it")
    assert child.stderr == ""
    assert child.stdout == (
        f"WARNING: cannot read the settings file {path} (Permission denied); using the defaults and leaving "
        "the file as it is: changes made in the menu apply until the launcher stops\n"
        f"INFO: not saving the settings to {path}, which is left as it is (it cannot be read: Permission "
        "denied); the change applies until the launcher stops\n"
        "rotation in force: 90\n")
    os.chmod(path, 0o600)
    assert path.read_text() == '{"rotation": 270}'
    assert sorted(os.listdir(directory)) == ["settings.json"]


def test_a_directory_or_a_fifo_in_the_files_place_is_left_alone_and_does_not_hang(tmp_path, caplog):
    for kind in ("directory", "fifo"):
        path = tmp_path / kind / "settings.json"
        path.parent.mkdir()
        path.mkdir() if kind == "directory" else os.mkfifo(path)
        store = SettingsFile(path)
        with caplog.at_level(logging.WARNING, logger="gamelib"):
            assert store.load() == Settings()
            assert store.save(Settings(rotation=90)) is False
        reason = "Is a directory" if kind == "directory" else "not a regular file"
        assert caplog.records[-1].getMessage() == (
            f"cannot read the settings file {path} ({reason}); using the defaults and leaving the file as it "
            "is: changes made in the menu apply until the launcher stops")
        assert sorted(os.listdir(path.parent)) == ["settings.json"]


KILLED_WRITER = """
import os, sys
from pathlib import Path
from gamelib.launcher.settings import Settings, SettingsFile

def stuck(fd):
    print("writing", flush=True)
    os.read(0, 1)                                  # wait here, mid-write, for the kill

os.fsync = stuck
SettingsFile(Path(sys.argv[1])).save(Settings(rotation=180))
"""


def test_temporaries_left_by_a_killed_write_are_removed_at_start(tmp_path, caplog):
    path = tmp_path / "settings.json"
    store = SettingsFile(path)
    store.save(Settings(rotation=90))
    for _ in range(3):                              # three writes killed with SIGKILL mid-write
        child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline() == "writing\n"
        child.kill()
        child.wait(timeout=30)
        child.stdin.close()
        child.stdout.close()
    left = sorted(n for n in os.listdir(tmp_path) if n != "settings.json")
    assert len(left) == 3 and all(n.startswith(".settings.json-") and n.endswith(".tmp") for n in left)
    (tmp_path / ".other.json-abc.tmp").write_text("")          # not ours: kept
    an_hour_ago = time.time() - 3600
    for name in left[:2]:
        os.utime(tmp_path / name, (an_hour_ago, an_hour_ago))
    os.utime(tmp_path / left[2])                               # just written: it may be a write still going
    with caplog.at_level(logging.INFO, logger="gamelib"):      # on, so it stays
        assert store.load() == Settings(rotation=90)
    assert [r.getMessage() for r in caplog.records] == [
        f"removed 2 temporary files left beside {path} by a write that was cut short"]
    assert sorted(os.listdir(tmp_path)) == sorted([".other.json-abc.tmp", left[2], "settings.json"])


def test_names_are_kept_checked_and_left_out_when_there_are_none(tmp_path, caplog):
    store = SettingsFile(tmp_path / "settings.json")
    store.save(Settings(names=("Ann", "Bob")))
    assert json.loads(store.path.read_text()) == {"low_light": False, "names": ["Ann", "Bob"], "rotation": 0}
    assert store.load() == Settings(names=("Ann", "Bob"))
    store.save(Settings(rotation=90))
    assert json.loads(store.path.read_text()) == {"low_light": False, "rotation": 90}
    for bad, reason in ((b'{"names": "Ann"}', "names must be a list of one or two names (not 'Ann')"),
                        (b'{"names": ["A", "B", "C"]}', "names must be a list of one or two names (not ['A', 'B', 'C'])"),
                        (b'{"names": ["Zo\xc3\xb1"]}', "names: name 'Zo\u00f1' has characters the LEDs cannot show "
                                                      "('\u00f1'): use letters A-Z, digits, spaces and . , : ' / ( ) + - ! ?"),
                        (b'{"names": ["ann", "ANN"]}', "names: the two players need different names (not 'ann' twice)")):
        store.path.write_bytes(bad)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="gamelib"):
            assert store.load() == Settings()
        assert [r.getMessage() for r in caplog.records] == [
            f"the settings file {store.path} is corrupt ({reason}); kept it as {store.backup} and went back to the defaults"]


def test_the_palette_is_kept_left_out_when_default_and_a_name_this_version_lacks_is_the_default(tmp_path, caplog):
    store = SettingsFile(tmp_path / "settings.json")
    store.save(Settings(palette=PURPLE_YELLOW))
    assert json.loads(store.path.read_text()) == {"low_light": False, "palette": "purple-yellow", "rotation": 0}
    assert store.load() == Settings(palette=PURPLE_YELLOW)
    store.save(Settings(palette=DEFAULT))
    assert json.loads(store.path.read_text()) == {"low_light": False, "rotation": 0}
    store.path.write_text('{"palette": "sepia", "rotation": 90}')      # a newer version's palette
    with caplog.at_level(logging.WARNING, logger="gamelib"):
        assert store.load() == Settings(rotation=90)
    assert caplog.records == []
    for bad, reason in (('{"palette": 3}', "palette must be a palette's name (not 3)"),
                        ('{"palette": "%s"}' % ("x" * 65), "palette must be a palette's name (not 'xxxxxxxxxxxx...xxxxxxxxxxxxx')")):
        store.path.write_text(bad)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="gamelib"):
            assert store.load() == Settings()
        assert [r.getMessage() for r in caplog.records] == [
            f"the settings file {store.path} is corrupt ({reason}); kept it as {store.backup} and went back to the defaults"]


def test_the_language_is_kept_left_out_when_auto_and_one_this_installation_lacks_is_auto(tmp_path, caplog):
    store = SettingsFile(tmp_path / "settings.json")
    store.save(Settings(language="id"))
    assert json.loads(store.path.read_text()) == {"language": "id", "low_light": False, "rotation": 0}
    assert store.load() == Settings(language="id")
    store.save(Settings(language="auto"))
    assert json.loads(store.path.read_text()) == {"low_light": False, "rotation": 0}
    assert store.load().language == "auto"
    for lacking in ("de", "xx", "", "FR", "fr_FR", "../fr"):             # no catalogue of it: the environment's
        store.path.write_text(json.dumps({"language": lacking, "rotation": 90}))
        with caplog.at_level(logging.WARNING, logger="gamelib"):
            assert store.load() == Settings(rotation=90, language="auto")
        assert caplog.records == [] and not store.backup.exists()
    for bad, reason in (('{"language": 3}', "language must be a language's code (not 3)"),
                        ('{"language": ["fr"]}', "language must be a language's code (not ['fr'])"),
                        ('{"language": "%s"}' % ("x" * 65),
                         "language must be a language's code (not 'xxxxxxxxxxxx...xxxxxxxxxxxxx')")):
        store.path.write_text(bad)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="gamelib"):
            assert store.load() == Settings()                             # language auto, as every other default
        assert [r.getMessage() for r in caplog.records] == [
            f"the settings file {store.path} is corrupt ({reason}); kept it as {store.backup} and went back to the defaults"]
