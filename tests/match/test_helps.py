"""Hints and take-backs against the computer (helps on), on the mock backend's fake clock: the exact
frames of a hint's blink and of a take-back, the words, and the counts the records keep."""
import sqlite3

from frames import g, grid
from records_data import ticking
from scripted import ClockThinker, answering

from gamelib.backends.mock import MockBackend
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.controller import MatchOptions, MatchResult, play
from sensehat_c4.records import Recorder, Records

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
    lit = g("""
        .R......
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
    """)
    # the answer comes 0.3 s after the press (polled every 0.1 s); three blinks of 0.25 s, then the
    # cursor stays over it
    shown = [(round(t, 2), grid(f)) for t, f in mock.frames if 0.2 <= t < 2.5]
    assert shown == [(0.5, lit), (0.75, g(EMPTY)), (1.0, lit), (1.25, g(EMPTY)), (1.5, lit), (1.75, g(EMPTY)),
                     (2.0, lit)]
    said = [s for t, s in mock.statuses if s.phase == "playing"]
    assert said[0].text == "round 1 (0-0, 7x6): player 1 (red) to move (no helps used)"
    assert said[-1].text == "round 1 (0-0, 7x6): player 1 (red) to move (1 hint, 0 take-backs)"
    assert said[-1].details["hints"] == 1 and said[-1].details["takebacks"] == 0
    assert said[0].caption == ("player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, ↑ then ↓ or u: "
                               "take back, ↑ abandons")
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
