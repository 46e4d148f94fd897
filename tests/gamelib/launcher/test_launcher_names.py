"""Names the launcher keeps: ``gamelib names``, the settings file, and the games it starts using them."""
import json

import pytest

from gamelib.colours import RED
from gamelib.launcher import cli
from gamelib.launcher.settings import Settings
from gamelib.scroll import scroll_frames
from records_data import rows
from scripted import ROUND_SETTLE, moves


def test_gamelib_names_shows_sets_and_clears(config, capsys):
    assert cli.main(["names"]) == 0
    assert capsys.readouterr().out == "no names kept\n"
    assert cli.main(["names", "Ann, Bob"]) == 0
    assert capsys.readouterr().out == "Ann,Bob\n"
    assert json.loads(config.path.read_text()) == {"low_light": False, "names": ["Ann", "Bob"], "rotation": 0}
    assert cli.main(["names"]) == 0 and capsys.readouterr().out == "Ann,Bob\n"
    assert cli.main(["names", "--clear"]) == 0 and capsys.readouterr().out == "no names kept\n"
    assert json.loads(config.path.read_text()) == {"low_light": False, "rotation": 0}


def test_a_bad_name_is_one_line_and_exit_2(config, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["names", "Ann,Bob,Cy"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == ("gamelib names: error: names takes one or two names separated by a comma "
                                       "(not 'Ann,Bob,Cy') (see --help)\n")
    assert not config.path.exists()


def test_a_game_started_from_the_menu_uses_the_kept_names(config, mock, games_db):
    config.save(Settings(names=("Ann", "Bob")))
    mock.tap("middle", "middle", "middle")                      # Connect 4; two players; 7x6
    mock.wait_until(mock._cursor + 1.0)
    moves(mock, "4545454")                                      # Ann (red) wins round 1 ...
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14142424")                                     # ... and round 2
    mock.wait_until(mock._cursor + 20.0)                        # the match ends, her name scrolls
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")                        # quit from the system menu
    assert cli.main(["--log-level", "error"]) == 0
    assert rows(games_db, "SELECT status, winner, p1_name, p2_name FROM matches") == [("finished", 1, "Ann", "Bob")]
    frames = [list(f) for _, f in mock.frames]
    text = [f for f, _ in scroll_frames("Ann", RED, (0, 0, 0))]
    start = frames.index(text[0])
    assert frames[start:start + len(text)] == text
