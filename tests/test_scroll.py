"""Scrolling text and the font it draws with: exact frames on the mock, on its fake clock."""
from __future__ import annotations

import pytest

from frames import g, grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLUE, GREEN, RED
from gamelib.font import CHARACTERS, glyph, text_width
from gamelib.scroll import scroll, scroll_frames


def test_every_letter_digit_and_name_punctuation_is_five_rows_of_even_width():
    for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:'/()+-!?":
        rows = glyph(char)
        assert len(rows) == 5 and len({len(r) for r in rows}) == 1, char
        assert set("".join(rows)) <= {"#", "."}, char
    assert "a" in CHARACTERS and "é" not in CHARACTERS
    assert text_width("MW") == 11 and text_width("ANN") == 3 + 1 + 4 + 1 + 4 and text_width("") == 0


def test_the_frames_of_a_short_word():
    steps = list(scroll_frames("HI", RED, BLUE, speed=0.05))
    assert len(steps) == 8 + text_width("HI")  # enters at x=7, the last frame is empty
    assert {s for _, s in steps} == {0.05}
    assert grid(steps[0][0]) == g("""
        BBBBBBBB
        BBBBBBBB
        BBBBBBBR
        BBBBBBBR
        BBBBBBBR
        BBBBBBBR
        BBBBBBBR
        BBBBBBBB""")
    assert grid(steps[7][0]) == g("""
        BBBBBBBB
        BBBBBBBB
        RBRBRRRB
        RBRBBRBB
        RRRBBRBB
        RBRBBRBB
        RBRBRRRB
        BBBBBBBB""")
    assert grid(steps[13][0]) == g("""
        BBBBBBBB
        BBBBBBBB
        RBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        RBBBBBBB
        BBBBBBBB""")
    assert grid(steps[-1][0]) == g("\n".join(["BBBBBBBB"] * 8))


def test_scroll_plays_at_its_pace_and_a_press_ends_it():
    mock = MockBackend()
    assert scroll(mock, "OK", GREEN, speed=0.1) is False
    times = [round(t, 6) for t, _ in mock.frames]
    assert times == [round(0.1 * i, 6) for i in range(8 + text_width("OK"))]
    assert [list(f) for _, f in mock.frames] == [f for f, _ in scroll_frames("OK", GREEN)]

    pressed = MockBackend()
    pressed.tap("left", at=0.45)
    assert scroll(pressed, "OK", GREEN, speed=0.1) is True
    assert [round(t, 6) for t, _ in pressed.frames] == [0.0, 0.1, 0.2, 0.3, 0.4]


def test_presses_can_be_ignored():
    mock = MockBackend()
    mock.tap("middle", at=0.05)
    assert scroll(mock, "1", GREEN, speed=0.1, stop_on_press=False) is False
    assert len(mock.frames) == 8 + 3


def test_an_unknown_character_is_a_key_error():
    with pytest.raises(KeyError):
        list(scroll_frames("é", RED))
