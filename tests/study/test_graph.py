"""The review's text graph: exact lines with and without colour, in and outside UTF-8."""
from __future__ import annotations

import io

import pytest

from gamelib.backends.terminal_screen import ColourMode
from gamelib.colours import GREEN
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.study import graph, review
from sensehat_c4.commands.review import graph_style
from sensehat_c4.errors import SearchAborted
from sensehat_c4.records import Recorder, Records, Side
from sensehat_c4.rules import Board


def reviewed(tmp_path, moves, table, sides=(ANN, BOB), columns=7, rows=6, rounds=()):
    """The review of the last of ``rounds`` + ``moves`` with made-up scores (``table``: position -> scores)."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), [*rounds, moves], sides=sides, columns=columns, rows=rows)
    with Records(path) as records:
        match, rnd = records.round("last")

    def scorer(board: Board, seconds: float):
        scores = table.get(board.notation())
        if scores is None:
            raise SearchAborted("not in the table")
        return scores

    return review.review_round(match, rnd, seconds=1.0, scorer=scorer)


MOVES = "1234567123"
TABLE = {  # scores for the side to move, made up: Ann (who started) wins, throws it to a draw, then loses
    "": {0: 1, 1: -1},
    "1": {1: -1, 0: -1},
    "12": {2: 1, 0: 0},
    "123": {3: -1, 4: -1},
    "1234": {4: 0, 1: 2},                 # move 5: Ann draws where she won: a mistake
    "12345": {5: 0},
    "123456": {6: -3, 1: 0},              # move 7: Ann loses where she drew: a mistake
    "1234567": {0: 3, 1: 2},
    "12345671": None,                     # not solved in time: the next position's best says the value
    "123456712": {2: 17},
}


def test_the_graph_rows_bars_marks_and_ruler(tmp_path):
    result = reviewed(tmp_path, MOVES, TABLE)
    assert result.values() == (1, 1, 1, 1, 1, 0, 0, -3, -3, -17, -17)
    assert result.key_moments() == (5, 7)
    assert graph.graph(result).splitlines() == [
        graph.HEADING,
        "Ann wins  ▁▁▁▁▁",
        "    draw       ──",
        "Bob wins         ▁▁██",
        "               ! !",
        "    move  0    5    10",
    ]
    assert graph.graph(result, utf8=False).splitlines()[1:4] == ["Ann wins  #####", "    draw       --",
                                                                 "Bob wins         ####"]


def test_the_heights_say_how_near_the_win_is():
    # 7 x 6, the starter to move at 0 stones: +1 wins with its 21st stone (far: 1/8), +18 with its
    # 4th (4 moves to go: 5/8); after 6 stones +18 wins with the next (8/8); won: full
    assert [graph.height(42, 0, v) for v in (1, 15, 16, 17, 18)] == [1, 2, 3, 4, 5]
    assert graph.height(42, 6, 18) == 8 and graph.height(42, 7, 18) == 8
    assert [graph.height(42, 7, -v) for v in (18, 17, 11)] == [8, 7, 1]   # the second player's wins


def test_unknown_values_are_question_marks_on_the_draw_row(tmp_path):
    result = reviewed(tmp_path, "12", {"": {0: 0, 1: 0}})   # the position after one move was not solved
    assert result.values() == (0, 0, None)
    assert graph.graph(result).splitlines()[1:4] == ["Ann wins", "    draw  ──?", "Bob wins"]


def test_colour_paints_each_player_s_bars_in_their_colour(tmp_path):
    result = reviewed(tmp_path, MOVES, TABLE, sides=(Side(GREEN, name="Ann"), BOB))
    lines = graph.graph(result, colour=ColourMode.TRUECOLOR).splitlines()
    assert lines[1] == "Ann wins  \x1b[38;2;0;255;0m▁▁▁▁▁\x1b[0m"
    assert lines[2] == "    draw       ──"
    assert lines[3] == "Bob wins         \x1b[38;2;255;255;0m▁▁██\x1b[0m"
    assert graph.graph(result, colour=ColourMode.COLOURS_256).splitlines()[1] == "Ann wins  \x1b[38;5;46m▁▁▁▁▁\x1b[0m"


def test_the_starter_s_wins_are_on_top_whoever_started(tmp_path):
    # round 2: Bob started; the values are his, his row first
    result = reviewed(tmp_path, MOVES, TABLE, rounds=["4455667"])
    assert result.round.starter == 2
    assert graph.graph(result).splitlines()[1:4] == ["Bob wins  ▁▁▁▁▁", "    draw       ──",
                                                     "Ann wins         ▁▁██"]


def test_a_long_game_on_8x6_fits_80_columns(tmp_path):
    # a drawn 8 x 6 board: columns 1, 2, 5, 6 red at the bottom, then alternating; 3, 4, 7, 8 yellow
    moves = "133113311331" "244224422442" "577557755775" "688668866886"
    board = Board.from_moves(moves, 8, 6)
    assert board.outcome is not None and board.outcome.winner is None
    sides = (Side(GREEN, level="perfect", seconds=8.0), Side(BOB.colour, level="perfect", seconds=8.0))
    result = reviewed(tmp_path, moves, {}, sides=sides, columns=8, rows=6)
    lines = graph.graph(result).splitlines()
    assert max(len(line) for line in lines[1:]) <= 80
    assert lines[2] == " " * 23 + "draw  " + "?" * 49
    assert lines[5].endswith("40   45")


class Stream(io.StringIO):
    def __init__(self, tty: bool, encoding: str) -> None:
        super().__init__()
        self._tty, self._encoding = tty, encoding

    def isatty(self) -> bool:
        return self._tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding


@pytest.mark.parametrize("tty, encoding, env, style", [
    (True, "utf-8", {"TERM": "xterm-256color", "COLORTERM": "truecolor"}, (True, "truecolor")),
    (True, "utf-8", {"TERM": "xterm-256color"}, (True, "256")),
    (True, "utf-8", {"TERM": "xterm-256color", "NO_COLOR": "1"}, (True, None)),
    (True, "utf-8", {"TERM": "dumb"}, (True, None)),
    (False, "utf-8", {"TERM": "xterm-256color", "COLORTERM": "truecolor"}, (True, None)),   # a pipe, a file
    (True, "ascii", {"TERM": "xterm-256color"}, (False, "256")),
    (True, "latin-1", {"TERM": "xterm"}, (False, "256")),
])
def test_the_command_s_style_follows_the_terminal(monkeypatch, tty, encoding, env, style):
    for name in ("TERM", "COLORTERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert graph_style(Stream(tty, encoding)) == (style[0], None if style[1] is None else ColourMode(style[1]))
