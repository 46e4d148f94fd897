"""The settings file: where it lives, atomic writes, a corrupt file reported once and kept."""
import json
import logging
import os

import pytest

from gamelib.launcher.settings import Settings, SettingsFile, default_path


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
