"""The gamelib command: option errors, list, the menu on a mock backend, settings and overrides."""
import json
import logging
import re
import subprocess
import sys

import pytest
from frames import turned

from gamelib import backends
from gamelib.backends.entry import Needs
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK
from gamelib.errors import BackendError
from gamelib.games import Entry, as_game
from gamelib.launcher import cli
from gamelib.launcher.settings import Settings
from gamelib.palette import GREEN_PINK, PURPLE_YELLOW
from gamelib.palette import palette as default_palette
from sensehat_c4 import game as c4


@pytest.mark.parametrize("argv, message", [
    (["--rotation", "45"], "argument --rotation: invalid choice: 45 (choose from 0, 90, 180, 270)"),
    (["--dim-after", "-1"], "argument --dim-after: must be from 0 (never) to 86400: '-1'"),
    (["--blank-after", "soon"], "argument --blank-after: not a number of seconds: 'soon'"),
    (["--backend", "tv"], "argument --backend: invalid choice: 'tv' (choose from 'auto', 'hat', 'emu', 'terminal')"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    ([""], "unrecognized arguments: ''"),
    (["--rotation", "90.0"], "argument --rotation: invalid int value: '90.0'"),
    (["--dim-after", "nan"], "argument --dim-after: must be from 0 (never) to 86400: 'nan'"),
    (["--log-level", "x\ny"], "argument --log-level: invalid choice: 'x\\ny' (choose from 'debug', 'info', "
                               "'warning', 'error')"),
])
def test_bad_options_are_one_line_and_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert capsys.readouterr().err == f"gamelib: error: {message} (see --help)\n"


@pytest.mark.parametrize("word", ["frob", "lsit", "menu"])
def test_an_unknown_command_is_one_line_naming_the_commands(capsys, word):
    with pytest.raises(SystemExit) as info:
        cli.main([word])
    assert info.value.code == 2
    assert capsys.readouterr() == ("", f"gamelib: error: unknown command {word!r}: the commands are list, names, "
                                       "install-service, uninstall-service (none: the menu) (see --help)\n")


def test_version(capsys):
    from sensehat_c4 import __version__  # gamelib ships in the sensehat-c4 distribution

    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr() == (f"gamelib {__version__}\n", "")


def test_list_shows_the_installed_games(capsys):
    assert cli.main(["list"]) == 0
    assert "connect4: Connect 4\n" in capsys.readouterr().out


@pytest.mark.parametrize("name, why, line", [
    ("broken", "No module named 'nothing'", "broken: cannot be loaded: ImportError: No module named 'nothing'"),
    ("odd\x1b[31m", "No module named 'nothing'\nsee\x1b[0m",        # one line, escaped
     "odd\\x1b[31m: cannot be loaded: ImportError: No module named 'nothing'\\nsee\\x1b[0m"),
])
def test_list_exits_1_when_a_game_cannot_be_loaded(capsys, monkeypatch, name, why, line):
    from gamelib import games

    class Broken:
        def load(self):
            raise ImportError(why)

    Broken.name = name
    monkeypatch.setattr(games, "entry_points", lambda group=games.GROUP: [Broken()])
    assert cli.main(["list"]) == 1
    assert capsys.readouterr() == (line + "\n", "")


def test_the_menu_uses_the_saved_settings_and_quits_cleanly(config, mock, capsys):
    config.save(Settings(low_light=True, rotation=180))
    mock.hold("down", 2.1)                                      # turned 180: physical down is up
    mock.tap("left", "left", "middle")                          # quit
    assert cli.main(["--backend", "emu"]) == 0
    assert mock.opened == [("emu", 180, True)]
    assert mock.frames[0][1] == turned(c4.ICON(default_palette()), 180)
    assert mock.closed and mock.leds == (BLACK,) * 64
    assert capsys.readouterr().err == "gamelib: INFO: quit from the system menu\n"


def test_command_line_overrides_apply_for_the_run_and_are_not_saved(config, mock):
    config.save(Settings(low_light=False, rotation=90))
    mock.hold("up", 2.1)
    mock.tap("middle")                                          # brightness: low, saved
    mock.tap("right", "right", "middle")                        # quit
    assert cli.main(["--rotation", "0", "--log-level", "error"]) == 0
    assert mock.opened == [(None, 0, False)]
    assert json.loads(config.path.read_text()) == {"low_light": True, "rotation": 90}


def test_palette_on_the_command_line_applies_for_the_run_and_is_not_saved(config, mock):
    config.save(Settings(palette=PURPLE_YELLOW))
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")                        # quit
    assert cli.main(["--palette", "green-pink", "--log-level", "error"]) == 0
    assert mock.palette.name == GREEN_PINK
    assert json.loads(config.path.read_text()) == {"low_light": False, "palette": "purple-yellow", "rotation": 0}
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main(["--log-level", "error"]) == 0
    assert mock.palette.name == PURPLE_YELLOW                        # the saved one


def test_language_on_the_command_line_applies_for_the_run_and_is_not_saved(config, mock):
    config.save(Settings(language="fr"))
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")                        # quit
    assert cli.main(["--language", "id", "--log-level", "error"]) == 0
    assert mock.statuses[0][1].caption == "Connect 4 (←/→ menggeser, Enter bermain, tahan ↑ 2 dtk: menu sistem)"
    assert json.loads(config.path.read_text()) == {"language": "fr", "low_light": False, "rotation": 0}
    mock.statuses.clear()
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main(["--log-level", "error"]) == 0
    assert mock.statuses[0][1].caption == "Puissance 4 (←/→ parcourir, Entrée jouer, tiens ↑ 2 s : menu système)"
    mock.statuses.clear()
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main(["--language", "auto", "--log-level", "error"]) == 0       # the environment's (the tests': English)
    assert mock.statuses[0][1].caption == "Connect 4 (←/→ browse, Enter plays, hold ↑ 2 s: system menu)"


def test_a_corrupt_settings_file_is_reported_once_and_the_menu_starts(config, mock, capsys):
    config.path.parent.mkdir(parents=True)
    config.path.write_text("{not json")
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main(["--log-level", "warning"]) == 0
    assert capsys.readouterr().err == (
        f"gamelib: WARNING: the settings file {config.path} is corrupt (Expecting property name enclosed in "
        f"double quotes: line 1 column 2 (char 1)); kept it as {config.path}.corrupt and went back to the "
        "defaults\n")
    assert (config.path.parent / "settings.json.corrupt").read_text() == "{not json"
    assert mock.opened == [(None, 0, False)]


@pytest.mark.parametrize("environment, message", [
    ({"GAMELIB_BACKEND": "xyz"}, "GAMELIB_BACKEND='xyz'"),
    ({"SENSEHAT_C4_BACKEND": "xyz"}, "SENSEHAT_C4_BACKEND='xyz'"),             # the old name still works
    ({"GAMELIB_BACKEND": "tv", "SENSEHAT_C4_BACKEND": "emu"}, "GAMELIB_BACKEND='tv'"),   # the new one wins
    ({"GAMELIB_BACKEND": "", "SENSEHAT_C4_BACKEND": "xyz"}, "SENSEHAT_C4_BACKEND='xyz'"),  # empty is unset
])
def test_the_backend_variable_is_gamelibs_and_the_old_name_is_read_after_it(config, capsys, monkeypatch,
                                                                            environment, message):
    monkeypatch.delenv("GAMELIB_BACKEND", raising=False)
    monkeypatch.delenv("SENSEHAT_C4_BACKEND", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert cli.main(["--log-level", "error"]) == 78
    assert capsys.readouterr().err == f"gamelib: {message} is not a backend: use one of auto, hat, emu, terminal\n"


def test_the_backend_option_wins_over_the_variables(monkeypatch):
    monkeypatch.setenv("GAMELIB_BACKEND", "emu")
    monkeypatch.setenv("SENSEHAT_C4_BACKEND", "emu")
    with pytest.raises(BackendError) as info:
        backends.open_backend("tv")
    assert str(info.value) == "--backend='tv' is not a backend: use one of auto, hat, emu, terminal"


@pytest.mark.parametrize("content, reason", [
    (b'{"rotation": 90.0}', "rotation must be one of 0, 90, 180, 270 (not 90.0)"),
    (b'{"low_light": false, "rotation": true}', "rotation must be one of 0, 90, 180, 270 (not True)"),
    (b"[" * 60_000, "nested too deeply"),
    (b"[" * 100_000, "larger than 64 KiB"),
])
def test_any_settings_file_starts_the_menu_once_reported_then_never_again(config, capsys, content, reason):
    config.path.parent.mkdir(parents=True)
    config.path.write_bytes(content)
    for run in range(2):
        mock = MockBackend()
        mock.hold("up", 2.1)
        mock.tap("right", "right", "middle")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(backends, "open_backend", lambda *args, **kwargs: mock)
            assert cli.main(["--log-level", "warning"]) == 0
        assert mock.closed and mock.leds == (BLACK,) * 64
        assert capsys.readouterr().err == ("" if run else (
            f"gamelib: WARNING: the settings file {config.path} is corrupt ({reason}); kept it as "
            f"{config.path}.corrupt and went back to the defaults\n"))
    assert (config.path.parent / "settings.json.corrupt").read_bytes() == content
    assert json.loads(config.path.read_text()) == {"low_light": False, "rotation": 0}


def test_while_the_board_fills_the_terminal_the_log_goes_to_a_file_and_is_shown_after(config, mock, capsys,
                                                                                      monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    mock.needs = Needs(terminal=True)                             # as the terminal backend: the board fills it
    during = []

    class Noisy:
        name, icon = "Noisy", c4.ICON(default_palette())

        def play(self, backend):
            logging.getLogger("gamelib.noisy").warning("a warning from the game")
            during.append(capsys.readouterr().err)      # what reached the terminal while the board was up

    monkeypatch.setattr(cli, "discover", lambda: [Entry("noisy", game=as_game(Noisy()))])
    mock.tap("middle")                                            # play
    mock.hold("up", 2.1, at=5)
    mock.tap("right", "right", "middle")                          # quit
    assert cli.main([]) == 0
    path = tmp_path / "state" / "gamelib" / "gamelib.log"
    assert during == [""]
    assert capsys.readouterr().err == (
        "gamelib: INFO: starting Noisy\n"
        "gamelib: WARNING: a warning from the game\n"
        "gamelib: INFO: quit from the system menu\n"
        f"gamelib: the lines above were logged while the board filled the terminal (also in {path})\n")
    lines = path.read_text().splitlines()
    assert [line[24:] for line in lines] == ["gamelib: INFO: starting Noisy", "gamelib: WARNING: a warning from "
                                             "the game", "gamelib: INFO: quit from the system menu"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", line[:24]) for line in lines)


def test_a_log_file_that_cannot_be_written_still_shows_the_lines_after(config, mock, capsys, monkeypatch,
                                                                       tmp_path):
    (tmp_path / "state").write_text("")                            # not a directory
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    mock.needs = Needs(terminal=True)                             # as the terminal backend: the board fills it
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main([]) == 0
    assert capsys.readouterr().err == (
        "gamelib: INFO: quit from the system menu\n"
        "gamelib: the lines above were logged while the board filled the terminal (not kept: cannot write "
        f"{tmp_path}/state/gamelib/gamelib.log (Not a directory))\n")


def test_other_backends_log_to_stderr_and_write_no_file(config, mock, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert cli.main([]) == 0
    assert capsys.readouterr().err == "gamelib: INFO: quit from the system menu\n"
    assert not (tmp_path / "state").exists()


def test_python_dash_m_gamelib_help():
    proc = subprocess.run([sys.executable, "-m", "gamelib", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: gamelib [-h] [--backend {auto,hat,emu,terminal}]")
