"""Scripted joystick sessions on the mock backend (fake clock: no test sleeps)."""
import sys

import pytest
from frames import grid

from gamelib.colours import BLACK, RED, YELLOW
from gamelib.backends.base import Action, Direction, StickEvent
from gamelib.backends.mock import MockBackend
from sensehat_c4.match.controller import Match, MatchOptions, MatchResult, State, Timing, play
from sensehat_c4.errors import ConfigError
from sensehat_c4.rules import Starts
from scripted import ROUND_SETTLE, moves

T = Timing()


def screen_at(mock, when):
    """The grid the LEDs showed at fake time ``when`` (the last frame written by then)."""
    shown = [f for t, f in mock.frames if t <= when]
    return grid(shown[-1]) if shown else None


def top_rows(mock):
    return [grid(f).splitlines()[0] for _, f in mock.frames]


def digit_frames(mock):
    """The score frames: a digit on black (no field, not a full fill)."""
    return [grid(f) for _, f in mock.frames
            if len(set(f)) == 2 and (0, 0, 0) in f and all(p in ((0, 0, 0), RED, YELLOW) for p in f)]


def test_two_nil_match():
    mock = MockBackend()
    moves(mock, "4545454")                              # round 1: red starts and stacks column 4
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14142424")                             # round 2: yellow starts; red stacks column 4
    result = play(mock)
    assert result == MatchResult(winner=1, score=(2, 0), abandoned=False, rounds=2)
    assert [d.splitlines()[2:7] for d in digit_frames(mock)] == [
        ["....R...", "...RR...", "....R...", "....R...", "...RRR.."],
        ["...RR...", ".....R..", "....R...", "...R....", "...RRR.."]]
    assert mock.frames[-2][1] == (RED,) * 64            # the match winner's colour fills the screen
    assert mock.leds == (BLACK,) * 64                 # then clears
    assert mock.frames[-1][0] - mock.frames[-2][0] == pytest.approx(T.match_end)


def test_two_one_match_and_first_alternates():
    mock = MockBackend()
    moves(mock, "4545454")                    # round 1: p1 starts, p1 wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                    # round 2: p2 starts with column 4 and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                    # round 3: p1 starts and wins
    result = play(mock)
    assert result == MatchResult(1, (2, 1), False, 3)
    digits = [(d.replace(".", "").replace("\n", "")[0], d.splitlines()[2]) for d in digit_frames(mock)]
    assert digits == [("R", "....R..."), ("Y", "....Y..."), ("R", "...RR...")]   # 1, 1, then 2
    assert mock.pending == 0


def test_start_frame_and_wrap_around():
    mock = MockBackend()
    mock.tap("left", "left", "left", "left", "right", "right", "up", "up")
    result = play(mock)
    assert result.abandoned
    tops = top_rows(mock)
    cursor = [row.index("R") for row in tops if row.count("R") == 1]
    assert cursor == [3, 2, 1, 0, 6, 0, 1]


def test_held_repeat_is_throttled():
    mock = MockBackend()
    mock.hold("right", 1.0)                    # press + held at 0.25, 0.30, ... 0.95
    mock.tap("up", "up")
    play(mock)
    cursor = [row.index("R") for row in top_rows(mock) if row.count("R") == 1]
    # press: 4; held events acted on every 0.15 s: 0.25, 0.40, 0.55, 0.70, 0.85 -> 5, 6, 0, 1, 2
    assert cursor == [3, 4, 5, 6, 0, 1, 2]


def test_drop_animates_through_the_gap_row():
    mock = MockBackend()
    mock.tap("down")
    pressed = mock._cursor - 0.05
    mock.tap("up", "up", at=pressed + 1.0)
    play(mock)
    fall = [(t, grid(f)) for t, f in mock.frames if pressed <= t < pressed + 0.9]
    times = [round(t - pressed, 3) for t, _ in fall]
    assert times == [0.0, 0.03, 0.06, 0.09, 0.12, 0.15, 0.18, 0.21, 0.24]
    ys = [next(i for i, row in enumerate(g.splitlines()) if "R" in row) for _, g in fall[:8]]
    assert ys == [0, 1, 2, 3, 4, 5, 6, 7]
    assert fall[8][1].splitlines()[0] == "...Y...."      # next turn: yellow, centred
    assert fall[8][1].splitlines()[7] == "BBBRBBB."


def test_full_column_flashes_and_keeps_the_turn():
    mock = MockBackend()
    moves(mock, "444444")
    mock.tap("down")                                  # red tries the full column 4
    flash_at = mock._cursor - 0.05
    mock.wait_until(flash_at + 1.0)
    mock.tap("up", "up")
    play(mock)
    after = [(round(t - flash_at, 2), grid(f).splitlines()) for t, f in mock.frames if t >= flash_at]
    assert [rows[0] for _, rows in after[:4]] == ["...W....", "...R....", "...W....", "...R...."]
    assert [t for t, _ in after[:5]] == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert after[4][1][0] == "...R...." and after[4][1][2:] == ["BBBYBBB.", "BBBRBBB."] * 3


def test_events_during_animation_are_discarded():
    mock = MockBackend()
    mock.tap("down")
    t = mock._cursor
    mock.tap("right", "right", "down", at=t + 0.05, gap=0.05)   # all inside the 0.24 s fall
    mock.tap("up", "up", at=t + 1.0)
    play(mock)
    before_abandon = screen_at(mock, t + 0.99).splitlines()
    assert before_abandon[0] == "...Y...."          # yellow's turn, still centred
    assert before_abandon[7] == "BBBRBBB."          # and yellow never dropped


def test_events_during_result_display_are_discarded():
    mock = MockBackend()
    moves(mock, "4545454", settle=0.3)
    won = mock._cursor
    mock.tap("left", "down", "left", "down", at=won + 0.5, gap=0.4)  # during blink + score
    mock.tap("up", "up", at=won + ROUND_SETTLE)
    result = play(mock)
    assert result == MatchResult(None, (1, 0), True, 2)
    round2 = screen_at(mock, won + ROUND_SETTLE - 0.01).splitlines()
    assert round2[0] == "...Y...." and round2[2:] == ["BBBBBBB."] * 6   # p2 starts, nothing dropped


def test_draw_scores_nothing():
    mock = MockBackend()
    moves(mock, "455714637617614767242476316455122212535333", settle=0.35)
    end = mock._cursor                       # the last token has landed by now
    mock.tap("up", "up", at=end + 2.0)
    result = play(mock)
    assert result == MatchResult(None, (0, 0), True, 2)
    full = screen_at(mock, end).splitlines()
    assert full[0] == "........" and "B" not in "".join(full[2:])        # the full board stays up
    assert screen_at(mock, end + 1.0) == screen_at(mock, end)
    assert digit_frames(mock) == []                                      # no score shown
    round2 = screen_at(mock, end + 1.99).splitlines()
    assert round2[0] == "...Y...." and round2[2:] == ["BBBBBBB."] * 6    # round 2: p2 starts


def test_abandon_asks_and_up_again_confirms():
    mock = MockBackend()
    mock.tap("up")
    mock.tap("up", at=mock._cursor + 1.0)
    result = play(mock)
    assert result == MatchResult(None, (0, 0), True, 1)
    tops = top_rows(mock)
    assert tops[:6] == ["...R....", "RRRRRRRR", "........", "RRRRRRRR", "........", "RRRRRRRR"]
    assert mock.leds == (BLACK,) * 64


def test_abandon_cancelled_by_another_direction_or_timeout():
    mock = MockBackend()
    mock.tap("up", "left")           # cancel: the left is not a move
    mock.tap("up", at=mock._cursor + 0.5)
    mock.wait_until(mock._cursor + T.confirm_timeout + 1.0)   # ... gives up by itself
    mock.tap("right", "up", "up")
    result = play(mock)
    assert result.abandoned
    cursor = [row.index("R") for row in top_rows(mock) if row.count("R") == 1]
    assert cursor == [3, 3, 3, 4]


def test_first_player_options():
    for first, colour in ((Starts.P2, "Y"), (Starts.P1, "R")):
        mock = MockBackend()
        mock.tap("up", "up")
        play(mock, MatchOptions(first=first))
        assert grid(mock.frames[0][1]).splitlines()[0] == f"...{colour}...."
    starters = []
    for seed in range(6):
        mock = MockBackend()
        mock.tap("up", "up")
        play(mock, MatchOptions(first=Starts.RANDOM, seed=seed))
        starters.append(grid(mock.frames[0][1])[3])
    assert set(starters) == {"R", "Y"}
    again = []
    for seed in range(6):
        mock = MockBackend()
        mock.tap("up", "up")
        play(mock, MatchOptions(first=Starts.RANDOM, seed=seed))
        again.append(grid(mock.frames[0][1])[3])
    assert again == starters
    with pytest.raises(ConfigError, match="first must be one of"):
        MatchOptions(first="p3")


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


class EndlessStarterWins(MockBackend):
    """Feeds a never-ending stream: the round's starter stacks column 4, the other column 5."""

    def __init__(self):
        super().__init__(history=4)
        self.depths = []
        self.stick._read = self.endless       # the stick's one wait

    def endless(self, timeout):
        self.depths.append(stack_depth())
        self._clock += 1.0
        match = self.match
        if match.state is not State.SELECTING:
            return None
        target = 3 if match.board.ply % 2 == 0 else 4
        if match.cursor != target:
            return StickEvent(self._clock, Direction.RIGHT, Action.PRESSED)
        return StickEvent(self._clock, Direction.DOWN, Action.PRESSED)


def test_many_rounds_in_constant_stack():
    """199 rounds under a recursion limit 60 frames above the start: any per-round recursion
    would pass it within 60 rounds (so far fewer than the kiosk's months of rounds prove it)."""
    backend = EndlessStarterWins()
    zero = Timing(fall_row=0, win_blink=0, score=0, draw=0, match_end=0, flash=0)
    match = Match(backend, MatchOptions(wins=100, timing=zero))
    backend.match = match
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 60)   # any per-round recursion would blow this
    try:
        result = match.run()
    finally:
        sys.setrecursionlimit(limit)
    assert result == MatchResult(1, (100, 99), False, 199)
    assert len(backend.depths) > 2_000
    assert max(backend.depths[-500:]) == max(backend.depths[:500])   # no growth over 199 rounds


def test_a_turn_s_words_are_said_before_its_cursor_is_shown():
    """A watcher (the web view) that acts on the cursor it sees finds the words already in that turn: a
    phone pressing as soon as its cursor is up is never refused as out of turn."""
    mock = MockBackend()
    seen = []

    class Watcher:
        def shown(self, frame):
            top = frame[:8]
            cursor = [c for c in top if c != BLACK]
            if len(cursor) == 1:                        # the cursor row: one token, the mover's colour
                seen.append(("cursor", cursor[0]))

        def said(self, status):
            seen.append(("turn", status.turn))

    mock.screen.observe(Watcher())
    moves(mock, "4545454")
    mock.tap("up", "up", at=mock._cursor + ROUND_SETTLE)
    play(mock)
    colours = {1: RED, 2: YELLOW}
    turn = None
    checked = 0
    for kind, value in seen:
        if kind == "turn":
            turn = value
        elif turn is not None:
            assert value == colours[turn], seen      # a cursor in the colour of the seat the words say
            checked += 1
    assert checked >= 7


def test_match_is_made_of_parts_and_has_at_most_20_methods():
    """Every ``def`` in the class (public, private, nested) counted from its source: the rest lives in its
    parts (Lineup, Tally, Question, Helps, Bookkeeper), each with its own tests."""
    import ast
    import inspect

    from sensehat_c4.match import controller
    tree = ast.parse(inspect.getsource(controller))
    [match] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Match"]
    defs = [node.name for node in ast.walk(match) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert len(defs) <= 20, defs
