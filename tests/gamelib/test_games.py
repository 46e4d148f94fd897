"""Finding games through entry points: loaded, unloadable, malformed, duplicates; Connect 4 is one."""
import logging
import types

import pytest

from gamelib.colours import RED
from gamelib.games import GROUP, Entry, Game, as_game, discover, entry_points
from gamelib.icons import Icon, check_picture, picture
from gamelib.palette import PALETTES, PURPLE_YELLOW
from gamelib.palette import palette as default_palette
from sensehat_c4 import game as c4

ICON = (RED,) * 64


class Point:
    """Stands for an ``importlib.metadata.EntryPoint``: a name and a ``load()``."""

    def __init__(self, name, load):
        self.name, self.load = name, load


def fails():
    raise ImportError("No module named 'nothing'")


def test_games_load_sorted_and_broken_ones_are_listed_with_the_reason(caplog):
    module = types.SimpleNamespace(name="Snake", icon=ICON, play=lambda backend: None)
    points = [Point("snake", lambda: module), Point("broken", fails),
              Point("connect4", lambda: c4.GAME), Point("snake", fails)]   # a second "snake" is ignored
    with caplog.at_level(logging.ERROR, logger="gamelib"):
        entries = discover(points)
    assert [(e.key, e.name, e.error) for e in entries] == [
        ("broken", "broken", "ImportError: No module named 'nothing'"),
        ("connect4", "Connect 4", None),
        ("snake", "Snake", None)]
    assert entries[2].game == Game("Snake", ICON, module.play)
    [record] = caplog.records
    assert record.getMessage() == "game 'broken' cannot be loaded: ImportError: No module named 'nothing'"
    assert record.exc_info[0] is ImportError                        # the traceback goes to the log


@pytest.mark.parametrize("obj, message", [
    (types.SimpleNamespace(icon=ICON, play=print), "a game needs a name (a non-empty string)"),
    (types.SimpleNamespace(name="X", icon=ICON, play=None), "game 'X' needs a play(backend) function"),
    (types.SimpleNamespace(name="X", icon=ICON[:63], play=print), "game 'X': bad icon: an icon has 64 pixels, not 63"),
    (types.SimpleNamespace(name="X", icon=[(256, 0, 0)] * 64, play=print),
     "game 'X': bad icon: pixel values go from 0 to 255"),
    (types.SimpleNamespace(name="X", icon="red", play=print), "game 'X': bad icon: an icon is 64 (r, g, b) pixels"),
    (types.SimpleNamespace(name="X", icon=lambda palette: (palette.error,) * 63, play=print),
     "game 'X': bad icon: an icon has 64 pixels, not 63"),           # a drawing, checked in every palette
])
def test_malformed_games_are_refused(obj, message):
    with pytest.raises(TypeError) as info:
        as_game(obj)
    assert str(info.value) == message
    assert discover([Point("x", lambda: obj)]) == [Entry("x", error=f"TypeError: {message}")]


def test_connect4_is_registered_in_this_environment():
    assert "connect4" in [p.name for p in entry_points(GROUP)]
    entries = [e for e in discover() if e.key == "connect4"]
    assert entries == [Entry("connect4", game=c4.GAME)]


def test_the_connect4_icon_is_a_small_board_with_tokens():
    assert check_picture(c4.ICON(default_palette())) == c4.ICON(default_palette())
    assert "".join("B" if p == (0, 0, 255) else "." for p in c4.ICON(default_palette())[16:24]) == "BBBBBBBB"


def test_an_icon_by_roles_is_drawn_in_the_palette_shown():
    """A game's icon may be a drawing in the palette (an ``Icon``): the menu draws it in the backend's."""
    icon = Icon(("R.......",) + ("........",) * 7, lambda p: {"R": p.error})
    game = as_game(types.SimpleNamespace(name="Dot", icon=icon, play=print))
    for chosen in PALETTES.values():
        assert game.drawn(chosen) == (chosen.error,) + (chosen.background,) * 63
    assert as_game(types.SimpleNamespace(name="Fixed", icon=ICON, play=print)).drawn(PALETTES[PURPLE_YELLOW]) == ICON


def test_picture_checks_its_size():
    with pytest.raises(ValueError, match="eight rows of eight"):
        picture(["...."], {}, (0, 0, 0))
