"""Scrolling text and the font it draws with: exact frames on the mock, on its fake clock."""
from __future__ import annotations

import pytest

from frames import frame, g, grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLUE, GREEN, RED
from gamelib.font import CHARACTERS, FALLBACK, glyph, text_width
from gamelib.players import check_name
from gamelib.scroll import SPEED, Scrolling, scroll, scroll_frames


def test_every_letter_digit_and_name_punctuation_is_five_rows_of_even_width():
    for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:'/()+-!?":
        rows = glyph(char)
        assert len(rows) == 5 and len({len(r) for r in rows}) == 1, char
        assert set("".join(rows)) <= {"#", "."}, char
    assert "a" in CHARACTERS and "ñ" not in CHARACTERS
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
    assert scroll(mock, "OK", GREEN, (0, 0, 0), speed=0.1) is False
    times = [round(t, 6) for t, _ in mock.frames]
    assert times == [round(0.1 * i, 6) for i in range(8 + text_width("OK"))]
    assert [list(f) for _, f in mock.frames] == [f for f, _ in scroll_frames("OK", GREEN, (0, 0, 0))]

    pressed = MockBackend()
    pressed.tap("left", at=0.45)
    assert scroll(pressed, "OK", GREEN, (0, 0, 0), speed=0.1) is True
    assert [round(t, 6) for t, _ in pressed.frames] == [0.0, 0.1, 0.2, 0.3, 0.4]


def test_presses_can_be_ignored():
    mock = MockBackend()
    mock.tap("middle", at=0.05)
    assert scroll(mock, "1", GREEN, (0, 0, 0), speed=0.1, stop_on_press=False) is False
    assert len(mock.frames) == 8 + 3


def test_a_character_the_font_lacks_is_a_small_box_and_lowercase_is_drawn_as_capitals():
    assert FALLBACK == ("...", "###", "#.#", "###", "...")
    assert FALLBACK not in [glyph(char) for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:'/()+-!?"]
    for char in ("_", "<", "~", "ñ", "Å", "ÿ", "ß", "\U0001F600", "\x1b", "\u202e"):    # ß's capital is two letters
        assert glyph(char) == FALLBACK, char
    assert glyph("b") == glyph("B") and text_width("Bob_") == 3 + 1 + 3 + 1 + 3 + 1 + 3
    assert grid(list(scroll_frames("ñ", RED, BLUE))[5][0]) == g("""
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBRRRBBB
        BBRBRBBB
        BBRRRBBB
        BBBBBBBB
        BBBBBBBB""")


FRENCH = "ÉÈÊËÀÂÇÎÏÔÙÛÜŒ"


def test_french_accented_capitals_and_their_lower_case_are_drawn_not_boxed():
    plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:'/()+-!?"
    for char in FRENCH + FRENCH.lower():
        rows = glyph(char)
        assert rows != FALLBACK and len(rows) == 5 and len({len(r) for r in rows}) == 1, char
        assert set("".join(rows)) <= {"#", "."}, char
        assert char in CHARACTERS and glyph(char.lower()) == glyph(char.upper()), char
    shapes = [glyph(char) for char in plain + FRENCH]
    assert len(set(shapes)) == len(shapes)     # no two characters look the same
    assert check_name("Zoé") == "Zoé" and check_name("Œdipe") == "Œdipe"


def test_accented_glyphs_columns():
    assert glyph("é") == ("..#", "...", "###", "##.", "###")
    assert glyph("À") == ("#..", "...", ".#.", "###", "#.#")
    assert glyph("ç") == (".##", "#..", "#..", ".##", ".#.")
    assert glyph("Ü") == ("#.#", "...", "#.#", "#.#", "###")
    assert glyph("œ") == (".####", "#.#..", "#.###", "#.#..", ".####") and text_width("Œé") == 5 + 1 + 3
    assert grid(list(scroll_frames("é", RED, BLUE))[5][0]) == g("""
        BBBBBBBB
        BBBBBBBB
        BBBBRBBB
        BBBBBBBB
        BBRRRBBB
        BBRRBBBB
        BBRRRBBB
        BBBBBBBB""")


def test_frames_are_made_as_they_are_asked_for_whatever_the_texts_length():
    long = Scrolling("B" * 15000 + "I", RED, BLUE)
    assert len(long) == 15000 * 4 + 3 + 8 == long.width + 8
    assert long[len(long) - 5] == long[-5] == (tuple(frame("""
        BBBBBBBB
        BBBBBBBB
        BRRRBBBB
        BBRBBBBB
        BBRBBBBB
        BBRBBBBB
        BRRRBBBB
        BBBBBBBB""")), SPEED)
    with pytest.raises(IndexError):
        long[len(long)]
    marked = Scrolling("HI", RED, BLUE, marks={3: GREEN})
    assert [f for f, _ in marked[:]] == [tuple(f[:3] + [GREEN] + f[4:]) for f, _ in scroll_frames("HI", RED, BLUE)]


def test_the_scrolls_keys_are_every_press_and_only_its_own_sticks():
    from gamelib.backends.base import STICK, Action, Direction, StickEvent
    from gamelib.scroll import Scroll
    assert set(Scroll.KEYS) == {(direction, Action.PRESSED) for direction in Direction}
    screen = Scroll(MockBackend(), iter(()), stop_on_press=True)
    assert screen.done                                      # nothing to scroll: done at once
    assert screen.heeds(StickEvent(0.0, Direction.UP, Action.PRESSED, STICK))
    assert not screen.heeds(StickEvent(0.0, Direction.UP, Action.PRESSED, "phone"))
    assert not Scroll(MockBackend(), iter(()), stop_on_press=False).heeds(StickEvent(0.0, Direction.UP, Action.PRESSED, STICK))
