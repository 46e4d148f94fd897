"""The opponent chooser: browsing at a steady pace, choosing, backing out."""
import pytest
from frames import grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, WHITE
from gamelib.scroll import SPEED, scroll_frames
from gamelib.palette import palette as default_palette
from sensehat_c4.engine.rungs import number
from sensehat_c4.match.chooser import CHOICES, RULES, RULES_INDEX, choice_frame, choose_opponent
from sensehat_c4.match.opponents import HUMAN, Opponent


def test_the_chooser_steps_at_a_steady_pace_while_right_is_held():
    mock = MockBackend()
    mock.hold("right", 0.6)                        # press, then held at 0.25, 0.30 ... 0.55 s
    mock.tap("middle")
    assert choose_opponent(mock) == CHOICES[4][0]                  # 2P -> 1 (press), 2, 3, 4 (held at 0.25, 0.40, 0.55)
    assert [f for _, f in mock.frames][:5] == [tuple(choice_frame(i, default_palette())) for i in range(5)]


def test_down_or_middle_chooses_up_backs_out_and_each_clears_the_leds():
    for direction, expected in (("down", Opponent.computer("easy")), ("middle", Opponent.computer("easy")), ("up", None)):
        mock = MockBackend()
        mock.tap("right", direction)
        assert choose_opponent(mock) == expected
        assert [f for _, f in mock.frames] == [tuple(choice_frame(0, default_palette())), tuple(choice_frame(1, default_palette())), (BLACK,) * 64]


def test_it_starts_from_the_default():
    mock = MockBackend()
    mock.tap("left", "middle")
    hard = number("hard")                                   # its place in the chooser: after 2P
    assert choose_opponent(mock, Opponent.computer("hard")) == CHOICES[hard - 1][0]   # the level below it
    assert [f for _, f in mock.frames][:2] == [tuple(choice_frame(hard, default_palette())), tuple(choice_frame(hard - 1, default_palette()))]


def test_question_mark_scrolls_the_rules_then_comes_back_to_it():
    mock = MockBackend()
    mock.tap("left", "middle")                     # 2P -> ? (wraps to the last choice), choose it
    mock.tap("right", "down", at=200.0)            # long after the text: ? -> 2P, choose
    assert choose_opponent(mock) == HUMAN
    shown = [f for _, f in mock.frames]
    assert grid(shown[1]).splitlines()[:4] == [".......W", "........", "...WW...", ".....W.."]   # "?" (its place dot: the last of 2P, 1-9, LAN, ?)
    text = [tuple(f) for f, _ in scroll_frames(RULES, WHITE, (0, 0, 0))]
    assert shown[2] == (BLACK,) * 64
    assert shown[3:3 + len(text)] == text
    assert shown[3 + len(text):] == [tuple(choice_frame(RULES_INDEX, default_palette())), tuple(choice_frame(0, default_palette())), (BLACK,) * 64]
    times = [t for t, _ in mock.frames][3:3 + len(text)]
    assert times[1] - times[0] == pytest.approx(SPEED) and len(text) > 300


def test_any_press_ends_the_rules_and_does_nothing_else():
    for direction in ("up", "down", "middle", "left", "right"):
        mock = MockBackend()
        mock.tap("left", "middle")
        mock.tap(direction, at=1.0)                # during the text
        mock.tap("up", at=2.0)                     # back out of the chooser
        assert choose_opponent(mock) is None
        shown = [f for _, f in mock.frames]
        assert shown[-2:] == [tuple(choice_frame(RULES_INDEX, default_palette())), (BLACK,) * 64]
        assert len(shown) == 3 + 8 + 2   # the text from 0.4 s, a frame each 0.08 s, until the press at 1.0 s


def test_another_sources_presses_do_nothing_here():
    mock = MockBackend()
    mock.tap("right", "middle", source="phone:1")   # a phone's presses: not in the chooser
    mock.tap("left", "middle")                      # 2P -> ? : the rules scroll
    mock.tap("down", source="phone:1", at=1.0)      # a phone's press does not stop them
    mock.tap("up", at=200.0)                        # the stick's up, after the text: back out
    assert choose_opponent(mock) is None
    shown = [f for _, f in mock.frames]
    assert shown[:3] == [tuple(choice_frame(0, default_palette())), tuple(choice_frame(RULES_INDEX, default_palette())), (BLACK,) * 64]
    assert len(shown) > 300 and shown[-2:] == [tuple(choice_frame(RULES_INDEX, default_palette())), (BLACK,) * 64]   # the whole text


def test_the_entries_in_words_are_the_tables_and_the_help_says_them():
    """``--help`` lists the opponent chooser's entries from its table (``CHOICES``), in its order: the levels of
    the ladder as one run of their labels, match me, the LAN, the rules; a table without a row says so."""
    import subprocess
    import sys

    from sensehat_c4.engine.levels import LADDER
    from sensehat_c4.match.entries import CHOICES, MATCH_ME_INDEX, RULES_INDEX, entries_in_words

    assert entries_in_words() == (f"2P (two players), 1-{len(LADDER)} (the computer's levels, {LADDER[0].name} to "
                                  f"{LADDER[-1].name}), M (match me), the waves (another Pi over the LAN), ? (the rules)")
    without = list(CHOICES[:MATCH_ME_INDEX]) + list(CHOICES[MATCH_ME_INDEX + 1:])
    assert "match me" not in entries_in_words(without) and entries_in_words(without).endswith(", ? (the rules)")
    three = [CHOICES[0], *CHOICES[1:4], CHOICES[RULES_INDEX]]   # a ladder of three levels
    assert entries_in_words(three) == (f"2P (two players), 1-3 (the computer's levels, {LADDER[0].name} to "
                                       f"{LADDER[2].name}), ? (the rules)")
    shown = subprocess.run([sys.executable, "-m", "sensehat_c4", "--help"], capture_output=True, text=True,
                           timeout=60).stdout
    assert f"before each match, from: {entries_in_words()}" in " ".join(shown.split())


def test_the_choosers_keys_are_their_screens_table():
    from gamelib.backends.base import Action, Direction
    from sensehat_c4.match.chooser import Browse
    keys = Browse.KEYS
    steps = {(d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD)}
    assert {press for press, key in keys.items() if key.do is Browse.step} == steps
    assert {press for press, key in keys.items() if key.do is Browse.choose} == {
        (Direction.DOWN, Action.PRESSED), (Direction.MIDDLE, Action.PRESSED)}
    assert {press for press, key in keys.items() if key.do is Browse.back} == {(Direction.UP, Action.PRESSED)}
    assert len(keys) == 7                                    # releases, up held... do nothing
