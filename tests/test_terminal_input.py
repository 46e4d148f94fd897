"""Keys from a raw terminal: escape-sequence decoding, and the stick's events made from auto-repeat."""
import pytest

from gamelib.backends.base import Action, Direction
from gamelib.backends.terminal_input import INTERRUPT, QUIT, REPEAT_WINDOW, KeyDecoder, KeyRepeat

U, D, L, R, M = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.MIDDLE
P, H, X = Action.PRESSED, Action.HELD, Action.RELEASED


@pytest.mark.parametrize("data, keys", [
    (b"\x1b[A\x1b[B\x1b[C\x1b[D", [U, D, R, L]),            # normal cursor keys
    (b"\x1bOA\x1bOB\x1bOC\x1bOD", [U, D, R, L]),            # application cursor keys (tmux, screen)
    (b"\x1b[1;2C\x1b[1;5D", [R, L]),                        # with Shift / Ctrl: still arrows
    (b"\r\n ", [M, M, M]),                                  # Enter (either byte) and space
    (b"q", [QUIT]), (b"Q", [QUIT]), (b"\x03", [INTERRUPT]),
    (b"x1\x1b[H\x1b[15~\x1bOP\x7f\t", []),                  # letters, Home, F5, F1, backspace, tab: nothing
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


def test_a_tap_is_a_press_and_a_release_when_no_repeat_comes():
    keys = KeyRepeat()
    assert keys.key(L, 1.0) == [(1.0, L, P)]
    assert keys.release_due == pytest.approx(1.0 + REPEAT_WINDOW)
    assert keys.expire(1.1) == []
    assert keys.expire(1.2) == [(1.0 + REPEAT_WINDOW, L, X)]
    assert keys.release_due is None and keys.expire(9.0) == []


def test_auto_repeat_is_held_like_the_stick():
    keys = KeyRepeat()
    events = keys.key(R, 0.0)                               # press; the terminal repeats after its delay
    events += keys.expire(0.5)
    for t in (0.5, 0.533, 0.566, 0.599):                    # then every 33 ms
        events += keys.key(R, t)
    events += keys.expire(2.0)
    assert events == [(0.0, R, P), (0.15, R, X), (0.5, R, P), (0.533, R, H), (0.566, R, H),
                      (0.599, R, H), (0.599 + REPEAT_WINDOW, R, X)]


def test_another_key_releases_the_first():
    keys = KeyRepeat()
    keys.key(L, 0.0)
    assert keys.key(M, 0.05) == [(0.05, L, X), (0.05, M, P)]


def test_two_quick_taps_of_one_key_are_two_presses():
    keys = KeyRepeat()
    assert keys.key(M, 0.0) == [(0.0, M, P)]
    assert keys.key(M, 0.2) == [(REPEAT_WINDOW, M, X), (0.2, M, P)]
