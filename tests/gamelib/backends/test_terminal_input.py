"""Keys from a raw terminal: escape-sequence decoding, and the stick's events made from auto-repeat."""
import pytest

from gamelib.backends.base import PAIR_HOLD, Action, Direction, StickEvent
from gamelib.backends.terminal_input import (FOLLOW, INTERRUPT, PAIR, QUIT, REPEAT_DELAY, REPEAT_WINDOW, UP_DOWN,
                                             KeyDecoder, KeyRepeat)
from gamelib.stepper import Stepper

U, D, L, R, M = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.MIDDLE
P, H, X = Action.PRESSED, Action.HELD, Action.RELEASED


@pytest.mark.parametrize("data, keys", [
    (b"\x1b[A\x1b[B\x1b[C\x1b[D", [U, D, R, L]),            # normal cursor keys
    (b"\x1bOA\x1bOB\x1bOC\x1bOD", [U, D, R, L]),            # application cursor keys (tmux, screen)
    (b"\x1b[1;2C\x1b[1;5D", [R, L]),                        # with Shift / Ctrl: still arrows
    (b"\r\n ", [M, M, M]),                                  # Enter (either byte) and space
    (b"q", [QUIT]), (b"Q", [QUIT]), (b"\x03", [INTERRUPT]),
    (b"p", [PAIR]), (b"P", [PAIR]),                        # the pairing gesture's key
    (b"x1\x1b[H\x1b[15~\x1bOP\t", []),                      # letters, Home, F5, F1, tab: nothing
    (b"hHuU\x7f\x08", [M, M, UP_DOWN, UP_DOWN, UP_DOWN, UP_DOWN]),  # hint: the middle; u, Backspace: up then down
    (b"\x1bx\x1b[C", [R]),                                  # Alt+x, then right
    (b"\x1b\x1b[A", [U]),                                   # Escape, then up
])
def test_decoding(data, keys):
    decoder = KeyDecoder()
    assert decoder.feed(data) == keys
    assert not decoder.pending


def test_a_sequence_split_across_reads_is_kept_until_it_ends():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == [] and decoder.pending
    assert decoder.feed(b"[") == [] and decoder.pending
    assert decoder.feed(b"1;2") == [] and decoder.pending
    assert decoder.feed(b"Dq") == [L, QUIT] and not decoder.pending


def test_a_lone_escape_is_flushed_away():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == [] and decoder.pending
    assert decoder.flush() == [] and not decoder.pending
    assert decoder.feed(b"A") == []                         # not taken for the end of an arrow


def test_several_keys_in_one_read_are_each_decoded():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b[D" * 3 + b"\x1bOC\x1b[C\r") == [L, L, L, R, R, M]
    assert decoder.feed(b"\x1b[D\x1b[D\x1b") == [L, L] and decoder.pending   # the third cut across reads
    assert decoder.feed(b"[D\x1b[C") == [L, R] and not decoder.pending


@pytest.mark.parametrize("key", [U, D, M])
def test_a_tap_is_a_press_and_a_release_when_no_repeat_comes(key):
    keys = KeyRepeat()
    assert keys.key(key, 1.0) == [(1.0, key, P)]
    assert keys.release_due == pytest.approx(1.0 + REPEAT_DELAY)   # a repeat may still come
    assert keys.expire(1.5) == []
    assert keys.expire(1.8) == [(1.0 + REPEAT_DELAY, key, X)]
    assert keys.release_due is None and keys.expire(9.0) == []


TAP_GAPS = (0.0, 0.01, 0.04, 0.08, 0.1, 0.14, 0.2, 0.5, 1.0)


@pytest.mark.parametrize("key", [L, R])
@pytest.mark.parametrize("gap", TAP_GAPS)
def test_every_left_right_arrival_is_a_whole_tap_whatever_the_gap(key, gap):
    keys = KeyRepeat()
    times = [1.0 + i * gap for i in range(4)]
    assert stream(keys, key, times, 9.0) == [event for t in times for event in ((t, key, P), (t, key, X))]
    assert keys.release_due is None


@pytest.mark.parametrize("gap", TAP_GAPS)
def test_quick_taps_through_the_stepper_step_once_each(gap):
    """The cursor, the menus and the chooser step with a Stepper: it paces ``held``, never a tap."""
    keys, stepper = KeyRepeat(), Stepper()
    times = [1.0 + i * gap for i in range(5)]
    events = stream(keys, L, times[:3], times[3]) + keys.key(R, times[3]) + keys.key(L, times[4])
    steps = [stepper.step(StickEvent(*event)) for event in events]
    assert [step for step in steps if step] == [-1, -1, -1, 1, -1]


def stream(keys, key, times, until):
    events = []
    for t in times:
        events += keys.expire(t) + keys.key(key, t)
    return events + keys.expire(until)


REPEATS = (0.0, 0.5, 0.533, 0.566)   # press; the first repeat after the delay; then every 33 ms


@pytest.mark.parametrize("key", [L, R])
def test_held_left_right_step_at_the_terminals_pace(key):
    assert stream(KeyRepeat(), key, REPEATS, 2.0) == [event for t in REPEATS for event in ((t, key, P), (t, key, X))]


@pytest.mark.parametrize("key", [U, D, M])
def test_held_up_down_middle_is_one_press_then_held(key):
    keys = KeyRepeat()
    assert keys.key(key, 0.0) == [(0.0, key, P)]
    assert keys.key(key, 0.5) == []                         # a repeat, or a second tap? wait and see
    assert keys.release_due == pytest.approx(0.5 + FOLLOW)
    assert keys.key(key, 0.533) == [(0.5, key, H), (0.533, key, H)]   # a repeat: no second press
    assert stream(keys, key, (0.566,), 2.0) == [(0.566, key, H), (0.566 + REPEAT_WINDOW, key, X)]


def test_enter_held_for_the_pairing_gesture_is_held_middle_all_along():
    """Enter held down (X11's delay 0.66 s, then 30 repeats a second) reads as the stick's middle held: one
    press, then held events past :data:`PAIR_HOLD` seconds, a release when the repeats stop."""
    times = [0.0] + [0.66 + k / 30 for k in range(int((PAIR_HOLD + 0.2 - 0.66) * 30))]
    events = stream(KeyRepeat(), M, times, 10.0)
    assert events[0] == (0.0, M, P) and events[-1] == (times[-1] + REPEAT_WINDOW, M, X)
    assert [(t, d, a) for t, d, a in events[1:-1]] == [(t, M, H) for t in times[1:]]
    assert times[-1] >= PAIR_HOLD


@pytest.mark.parametrize("key", [U, D, M])
def test_two_taps_of_up_down_middle_are_two_presses(key):
    keys = KeyRepeat()
    assert keys.key(key, 0.0) == [(0.0, key, P)]
    assert keys.key(key, 0.3) == []
    assert keys.expire(0.3 + FOLLOW - 0.01) == []
    assert keys.expire(0.45) == [(0.3, key, X), (0.3, key, P)]
    assert keys.expire(2.0) == [(0.3 + REPEAT_DELAY, key, X)]


def test_a_second_tap_cut_short_by_another_key():
    keys = KeyRepeat()
    keys.key(U, 0.0)
    assert keys.key(U, 0.3) == []
    assert keys.key(L, 0.35) == [(0.3, U, X), (0.3, U, P), (0.35, U, X), (0.35, L, P), (0.35, L, X)]


def test_another_key_releases_the_first():
    keys = KeyRepeat()
    keys.key(U, 0.0)
    assert keys.key(M, 0.05) == [(0.05, U, X), (0.05, M, P)]
    assert keys.key(R, 0.1) == [(0.1, M, X), (0.1, R, P), (0.1, R, X)]


def test_enter_held_around_a_tap_of_left_is_pressed_again():
    """Left between two Enters ends the first: the second is a new press, not the first held."""
    keys = KeyRepeat()
    assert keys.key(M, 0.0) == [(0.0, M, P)]
    assert keys.key(L, 0.03) == [(0.03, M, X), (0.03, L, P), (0.03, L, X)]
    assert keys.key(M, 0.06) == [(0.06, M, P)]


def test_a_key_again_after_the_repeat_delay_is_a_new_press():
    keys = KeyRepeat()
    keys.key(M, 0.0)
    assert keys.key(M, 1.0) == [(REPEAT_DELAY, M, X), (1.0, M, P)]


def test_settle_forgets_an_undecided_arrival_and_a_held_key_stays_held():
    keys = KeyRepeat()
    keys.key(M, 0.0)                                        # Enter drops a token ...
    assert keys.key(M, 0.3) == []                           # ... a second Enter during the fall
    keys.settle()                                           # the fall ends: queued input is dropped
    assert keys.expire(0.5) == []                           # no late second press
    keys = KeyRepeat()
    keys.key(M, 0.0)
    keys.settle()                                           # Enter still held at the end of the fall
    assert keys.key(M, 0.5) == [] and keys.key(M, 0.533) == [(0.5, M, H), (0.533, M, H)]
