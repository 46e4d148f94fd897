"""Hints and take-backs against the computer (helps on), on the mock backend's fake clock: the exact
frames of a hint's blink and of a take-back, the words, and the counts the records keep."""
import sqlite3

import pytest

from frames import g, grid
from records_data import ticking
from scripted import ClockThinker, answering

from gamelib.backends.mock import MockBackend
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.controller import MatchOptions, MatchResult, play
from sensehat_c4.records import Recorder, Records, RoundFacts

HUMAN_MOVE = 0.5   # longer than a fall (8 rows of 30 ms)


def hinting(backend, column, delay=0.3, asked=None):
    """A hint factory answering ``column`` ``delay`` after it is asked (``asked`` gets each computer it is made for)."""
    def make(computer, seed):
        if asked is not None:
            asked.append(computer)
        return ClockThinker(backend, column, delay)
    return make


def grids_between(mock, start, end):
    return [grid(f) for t, f in mock.frames if start <= t < end]


def rows(path, sql):
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


HELPS = MatchOptions(computer=Computer("easy", player=2), helps=True)
EMPTY = """
    ........
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
"""


def test_middle_asks_the_solver_and_its_column_blinks_in_the_cursor_row_then_the_cursor_stays_there(tmp_path):
    mock = MockBackend()
    asked = []
    mock.tap("middle", at=0.2)                      # red (the person) asks for a hint
    mock.tap("down", at=2.5)                        # then drops where the cursor was left: column 2
    mock.tap("up", "up", at=4.0)
    path = tmp_path / "games.db"
    result = play(mock, HELPS, thinker=answering(mock, [0]), hinter=hinting(mock, 1, asked=asked),
                  recorder=Recorder(path, clock=ticking()))
    assert result == MatchResult(None, (0, 0), True, 1)
    assert asked == [Computer("perfect", player=1, seconds=2.0)]   # the solver, for the person's seat
    lit = LIT   # (below: the hint's column 2 lit over an empty field)
    # the answer comes 0.3 s after the press (polled every 0.1 s); three blinks of 0.25 s, then the
    # cursor stays over it
    shown = [(round(t, 2), grid(f)) for t, f in mock.frames if 0.2 <= t < 2.5]
    assert shown == [(0.5, lit), (0.75, g(EMPTY)), (1.0, lit), (1.25, g(EMPTY)), (1.5, lit), (1.75, g(EMPTY)),
                     (2.0, lit)]
    said = [s for t, s in mock.statuses if s.phase == "playing"]
    assert said[0].text == "round 1 (0-0, 7x6): player 1 (red) to move (no helps used)"
    assert said[-1].text == "round 1 (0-0, 7x6): player 1 (red) to move (1 hint, 0 take-backs)"
    assert said[-1].details["hints"] == 1 and said[-1].details["takebacks"] == 0
    keys = "player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, ↑ then ↓ or u: take back, ↑ abandons"
    assert said[0].caption == keys + " (no helps used)"
    assert said[-1].caption == keys + " (1 hint, 0 take-backs)"           # under the board: the round's counts
    thinking = [s for t, s in mock.statuses if s.phase == "thinking"]
    assert thinking[-1].caption == "computer (easy, yellow) thinking (1 hint, 0 take-backs)"
    assert rows(path, "SELECT moves, result, level, hints, takebacks FROM rounds") == [("21", "abandoned", "easy", 1, 0)]
    with Records(path) as stored:
        rnd = stored.matches()[0].rounds[0]
    assert (rnd.hints, rnd.takebacks, rnd.helped) == (1, 0, True)


def test_a_take_back_undoes_the_persons_move_and_the_computers_reply(tmp_path):
    mock = MockBackend()
    mock.tap("down")                                # red drops in column 4 at 0.2; yellow replies in column 1
    mock.wait_until(2.0)
    mock.tap("up", at=2.0)                          # the question ...
    mock.tap("down", at=2.5)                        # ... then down: take back
    mock.tap("right", "down", at=3.0)               # red plays column 5 instead; yellow replies in column 2
    mock.wait_until(5.0)
    mock.tap("up", "up")
    path = tmp_path / "games.db"
    result = play(mock, HELPS, thinker=answering(mock, [0, 1]), hinter=hinting(mock, 0),
                  recorder=Recorder(path, clock=ticking()))
    assert result == MatchResult(None, (0, 0), True, 1)
    before = g("""
        ...R....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        YBBRBBB.
    """)
    assert grid([f for t, f in mock.frames if t < 2.0][-1]) == before
    question = [(round(t, 2), grid(f).splitlines()[0]) for t, f in mock.frames if 2.0 <= t < 2.5]
    assert question == [(2.0, "RRRRRRRR"), (2.25, "........")]    # the question blinks the cursor row
    assert [(round(t, 2), grid(f)) for t, f in mock.frames if 2.5 <= t < 3.0] == [(2.5, g("""
        ...R....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
    """))]                                                  # both moves gone, red's cursor in the middle
    confirming = [s for t, s in mock.statuses if s.phase == "confirming"]
    assert confirming[0].caption == ("abandon the match? ↑ again: yes, ↓: take back your last move, another key: "
                                     "play on")
    assert rows(path, "SELECT moves, result, hints, takebacks FROM rounds") == [("52", "abandoned", 0, 1)]
    assert [s.text for t, s in mock.statuses if s.phase == "playing"][-1] == \
        "round 1 (0-0, 7x6): player 1 (red) to move (0 hints, 1 take-back)"


def test_a_take_back_to_the_empty_board_is_kept_and_nothing_to_take_back_plays_on(tmp_path):
    mock = MockBackend()
    start = mock.tap("up", "down")                  # nothing played yet: down plays on
    mock.wait_until(start + 0.5)
    mock.tap("down")                                # red in column 4, yellow in column 1
    mock.wait_until(mock._cursor + 2.0)
    mock.tap("up", "down")                          # taken back: the board is empty again
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up", "up")
    path = tmp_path / "games.db"
    play(mock, HELPS, thinker=answering(mock, [0]), hinter=hinting(mock, 0), recorder=Recorder(path, clock=ticking()))
    assert rows(path, "SELECT moves, result, takebacks FROM rounds") == [("", "abandoned", 1)]
    with Records(path) as stored:                   # a round with every move taken back reads as a round
        assert [(r.moves, r.takebacks) for r in stored.matches()[0].rounds] == [("", 1)]
        assert stored.notes == []


def test_helps_off_middle_drops_and_up_then_down_plays_on():
    mock = MockBackend()
    mock.tap("middle")                              # drops in column 4
    mock.wait_until(2.0)
    mock.tap("up", "down")                          # plays on: nothing taken back
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up", "up")
    asked = []
    play(mock, MatchOptions(computer=Computer("easy", player=2)), thinker=answering(mock, [0]),
         hinter=hinting(mock, 0, asked=asked))
    assert asked == []
    last_board = [grid(f) for t, f in mock.frames if grid(f).splitlines()[0] == "...R...."][-1]
    assert last_board.splitlines()[7] == "YBBRBBB."
    assert all("hint" not in (s.caption or "") for t, s in mock.statuses)


def test_helps_are_for_the_person_only_against_the_computer():
    mock = MockBackend()
    mock.tap("middle")                              # two people: middle drops, whatever helps says
    mock.wait_until(1.0)
    mock.tap("up", "up")
    asked = []
    play(mock, MatchOptions(helps=True), hinter=hinting(mock, 0, asked=asked))
    assert asked == []
    assert [s.text for t, s in mock.statuses if s.phase == "playing"][-1] == \
        "round 1 (0-0, 7x6): player 2 (yellow) to move"


def test_a_hint_still_searching_is_cancelled_by_the_move():
    mock = MockBackend()
    mock.tap("middle", "down")                      # asks, then drops before the answer (5 s away)
    mock.wait_until(3.0)
    mock.tap("up", "up")
    made = []

    def slow(computer, seed):
        made.append(ClockThinker(mock, 6, 5.0))
        return made[-1]

    play(mock, HELPS, thinker=answering(mock, [0]), hinter=slow)
    assert [h.cancelled for h in made] == [True]
    assert not any(grid(f).splitlines()[0] == "......R." for t, f in mock.frames)   # never blinked


def test_a_hint_asked_before_the_abandon_question_still_blinks_after_it():
    mock = MockBackend()
    mock.tap("middle", at=0.2)                      # a hint, answered 1 s later ...
    mock.tap("up", at=0.4)                          # ... the question meanwhile ...
    mock.tap("left", at=0.6)                        # ... and play on
    mock.tap("up", "up", at=4.0)
    play(mock, HELPS, thinker=answering(mock, [0]), hinter=hinting(mock, 5, delay=1.0))
    tops = [(round(t, 2), grid(f).splitlines()[0]) for t, f in mock.frames if 1.0 <= t < 3.0]
    assert tops[:3] == [(1.2, ".....R.."), (1.45, "........"), (1.7, ".....R..")]


# -- a press during a hint's blinks ends them and does what it does ------------------------------------------

LIT = g("""
    .R......
    ........
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
    BBBBBBB.
""")


def falling_in_column_2(start):
    """Red's token falling down column 2 of the empty board from ``start``: the cursor row, the gap row, the
    six rows (30 ms a row), as (time, grid)."""
    frames = []
    for row in range(8):
        rows = ["........", "........"] + ["BBBBBBB."] * 6
        line = rows[row]
        rows[row] = line[:1] + "R" + line[2:]
        frames.append((round(start + 0.03 * row, 2), "\n".join(rows)))
    return frames


@pytest.mark.parametrize("after", [0.6, 1.0, 1.3])
def test_a_press_during_a_hints_blinks_ends_them_and_drops_the_token(tmp_path, after):
    mock = MockBackend()
    mock.tap("middle", at=0.2)                      # a hint, answered at 0.4: column 2 blinks until 1.9
    mock.tap("down", at=0.2 + after)                # down 0.6, 1.0 or 1.3 s after the middle: red drops at once
    mock.tap("up", "up", at=5.0)
    path = tmp_path / "games.db"
    play(mock, HELPS, thinker=answering(mock, [0]), hinter=hinting(mock, 1, delay=0.2),
         recorder=Recorder(path, clock=ticking()))
    pressed = round(0.2 + after, 2)
    blinks = [(0.4, LIT), (0.65, g(EMPTY)), (0.9, LIT), (1.15, g(EMPTY)), (1.4, LIT), (1.65, g(EMPTY))]
    shown = [(round(t, 2), grid(f)) for t, f in mock.frames if 0.2 <= t < pressed + 0.22]
    assert shown == [(t, f) for t, f in blinks if t < pressed] + falling_in_column_2(pressed)
    assert rows(path, "SELECT moves, result, hints FROM rounds") == [("21", "abandoned", 1)]   # yellow replied


def test_another_press_during_a_hints_blinks_does_what_it_does_too():
    mock = MockBackend()
    mock.tap("middle", at=0.2)                      # a hint: column 2 blinks from 0.5
    mock.tap("right", at=0.8)                       # during its dark half: the blinks end, the cursor moves on
    mock.tap("middle", at=1.2)                      # a second hint (column 2 again) ...
    mock.tap("up", at=1.6)                          # ... its blinks cut by up: the question
    mock.tap("left", at=2.0)                        # play on
    mock.tap("up", "up", at=3.0)
    play(mock, HELPS, thinker=answering(mock, [0]), hinter=hinting(mock, 1))
    third = LIT.replace(".R......", "..R.....", 1)
    shown = [(round(t, 2), grid(f)) for t, f in mock.frames if 0.2 <= t < 2.3]
    assert shown == [(0.5, LIT), (0.75, g(EMPTY)), (0.8, third),     # right from the hint's column
                     (1.5, LIT),                                    # the second hint (asked at 1.2) blinks
                     (1.6, LIT.replace(".R......", "RRRRRRRR", 1)),  # up: the question blinks the cursor row
                     (1.85, g(EMPTY)),
                     (2.0, LIT)]                                    # left plays on: the cursor over the hint
    said = [s.text for t, s in mock.statuses if s.phase == "playing"]
    assert said[-1] == "round 1 (0-0, 7x6): player 1 (red) to move (2 hints, 0 take-backs)"


def test_presses_during_the_fall_after_a_hint_and_during_the_win_flash_are_still_dropped():
    mock = MockBackend()
    for k in range(4):                              # four hints (column 1), each cut short by down: red wins
        start = 0.2 + 2.0 * k
        mock.tap("middle", at=start)                # answered at start + 0.3
        mock.tap("down", at=start + 0.5)            # during the blinks: drops in column 1
        mock.tap("right", "down", at=start + 0.55, gap=0.05)   # during the fall: dropped
    won = 6.82                                      # the fourth token lands on row 4 (2 rows + 3 stones under it)
    mock.tap("left", "down", at=won + 0.3, gap=0.3)            # during the win flash and the score: dropped
    mock.tap("up", "up", at=won + 6.0)
    result = play(mock, HELPS, thinker=answering(mock, [1, 1, 1, 6]), hinter=hinting(mock, 0))
    assert result == MatchResult(None, (1, 0), True, 2)
    landed = [(round(t, 2), grid(f).splitlines()) for t, f in mock.frames if t < won + 0.01][-1]
    assert landed == (won, ["........", "........", "BBBBBBB.", "BBBBBBB.",
                            "RBBBBBB.", "RYBBBBB.", "RYBBBBB.", "RYBBBBB."])   # the replies in column 2, no more
    flash = [grid(f).splitlines()[4:] for t, f in mock.frames if won + 0.01 < t < won + 1.5]
    assert flash[:2] == [["BBBBBBB.", "BYBBBBB.", "BYBBBBB.", "BYBBBBB."],
                         ["RBBBBBB.", "RYBBBBB.", "RYBBBBB.", "RYBBBBB."]]   # the four blink, nothing else moves
    round2 = [grid(f).splitlines() for t, f in mock.frames if t < won + 6.0][-1]
    assert round2 == ["...R....", "........"] + ["BBBBBBB."] * 5 + ["BBBBBBY."]   # yellow started round 2


# -- the Helps part on its own (sensehat_c4/match/helps.py) ------------------------------------------------


class _Search:
    """A hint's search answering ``answers`` one poll after another (``None``: not yet)."""

    kind = "computer"
    source = None
    gone = False

    def __init__(self, answers):
        self.answers, self.started, self.cancelled = list(answers), None, False

    def start(self, board):
        self.started = board

    def poll(self):
        return self.answers.pop(0)

    def cancel(self):
        self.cancelled = True


def _helps(*searches):
    import random

    from sensehat_c4.match.helps import HINT_SECONDS, Helps
    made = []

    def make(computer, seed):
        made.append((computer, searches[len(made)]))
        return searches[len(made) - 1]
    return Helps(make, random.Random(1)), made, HINT_SECONDS


def test_helps_asks_the_perfect_solver_once_a_turn_and_counts_the_hint_it_shows():
    from sensehat_c4.rules import Board
    search = _Search([None, 4])
    helps, made, seconds = _helps(search)
    board = Board.from_moves("44")
    assert helps.ask(board, 1) is True
    assert helps.ask(board, 1) is False            # one search at a time
    assert [(c.level, c.player, c.seconds) for c, _ in made] == [("perfect", 1, seconds)]
    assert search.started.notation() == "44" and search.started is not board
    assert (helps.answer(board), helps.searching, helps.hints) == (None, True, 0)
    assert (helps.answer(board), helps.searching, helps.hints) == (4, False, 1)
    assert helps.facts("easy") == RoundFacts(level="easy", hints=1, takebacks=0)


def test_helps_drops_a_column_it_cannot_play_and_a_search_the_turn_ended():
    from sensehat_c4.rules import Board
    full = Board.from_moves("111111")
    bad, dropped = _Search([0]), _Search([])
    helps, made, _ = _helps(bad, dropped, _Search([]))
    helps.ask(full, 1)
    assert (helps.answer(full), helps.searching, helps.hints) == (None, False, 0)
    helps.ask(full, 1)
    helps.drop()
    assert (dropped.cancelled, helps.searching) == (True, False)
    board = Board.from_moves("4455")
    helps.ask(board, 1)
    helps.take_back(board)
    assert (board.notation(), helps.searching, made[-1][1].cancelled) == ("44", False, True)
    helps.take_back(board)
    assert board.ply == 0 and helps.facts(None) == RoundFacts(level=None, hints=0, takebacks=2)
    helps.restart(2, 1)
    assert (helps.hints, helps.takebacks) == (2, 1)
    helps.restart()
    assert (helps.hints, helps.takebacks) == (0, 0)
