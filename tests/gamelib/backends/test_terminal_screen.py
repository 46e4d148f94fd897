"""What the terminal backend draws: colour modes, colours, and the painted screen (through pyte)."""
import pyte
import pytest
from pyte.graphics import FG_BG_256

from pty_terminal import hex_colours, led_cells, leds, letters

from gamelib.backends.terminal_screen import (CSI, HINT, OFF_DOT, PAIR_HINT, PLAIN_RULE, SHORT_PAIR_HINT, ColourMode, Painter,
                                              colour_mode, dim, dot_colour, hint, letter, too_small_message, xterm_256)
from gamelib.colours import BLACK, BLUE, NAMES, ORANGE, RED, WHITE, YELLOW
from sensehat_c4.match import render
from sensehat_c4.rules import Board

FRAME = render.board_frame(Board.from_moves("4453"), render.Palette(), cursor=3)


@pytest.mark.parametrize("env, colours, mode", [
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, 256, "truecolor"),
    ({"TERM": "xterm-256color", "COLORTERM": "24bit"}, None, "truecolor"),
    ({"TERM": "xterm-256color"}, 256, "256"),
    ({"TERM": "screen"}, 8, "256"),                   # tmux/screen translate 256 colours themselves
    ({"TERM": "some-new-terminal"}, None, "256"),     # not in terminfo: colour is the safe bet
    ({"TERM": "vt100"}, 0, "letters"),                # terminfo: no colours
    ({"TERM": "vt220"}, 0, "letters"),
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"}, 256, "letters"),
    ({"TERM": "xterm", "NO_COLOR": ""}, 8, "256"),    # no-color.org: only a non-empty value counts
    ({"TERM": "dumb", "COLORTERM": "truecolor"}, None, "plain"),
    ({}, None, "plain"),
])
def test_colour_mode(env, colours, mode):
    assert colour_mode(env, lambda term: colours) is ColourMode(mode)


@pytest.mark.parametrize("rgb, index", [
    (BLACK, 16), (RED, 196), (YELLOW, 226), (BLUE, 21), (WHITE, 231), (ORANGE, 208),
    ((128, 128, 128), 244), ((8, 8, 8), 232), ((100, 0, 0), 52), ((102, 102, 0), 58),
])
def test_nearest_xterm_256_colour(rgb, index):
    assert xterm_256(rgb) == index


def test_every_named_colour_has_its_own_letter():
    assert [letter(rgb) for rgb in NAMES.values()] == list(".WRGBYOCMVP")
    assert letter((200, 10, 10)) == "R" and letter((20, 20, 20)) == "."


def test_low_light_dims():
    assert dim(RED) == (102, 0, 0) and dim((10, 20, 30)) == (4, 8, 12)


def paint(*texts, columns=30, lines=14):
    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    for text in texts:
        stream.feed(text.encode())
    return screen


def test_truecolor_frame_is_the_exact_colours_in_a_box_with_the_hint():
    painter = Painter("truecolor")
    start = painter.resize(46, 14)
    screen = paint(start, painter.frame(FRAME), columns=46)
    assert leds(screen) == hex_colours(FRAME)
    assert leds(screen)[:8] == ["303030"] * 3 + ["ff0000"] + ["303030"] * 4     # off LEDs are dark dots
    assert screen.display[1][13:32] == "┌─────────────────┐"   # centred: 10 + 2 lines in 14, (46 - 19) // 2
    assert screen.display[2][13:32] == "│ ● ● ● ● ● ● ● ● │"   # each LED a dot with a gap, on every side
    gaps = [cell for row in led_cells(screen) for cell in row[0::2]]
    assert len(gaps) == 8 * 9 and {(cell.data, cell.bg) for cell in gaps} == {(" ", "000000")}
    assert screen.display[11].rstrip() == " " * ((46 - len(HINT)) // 2) + HINT


def test_256_colour_frame():
    painter = Painter("256")
    screen = paint(painter.resize(30, 12), painter.frame(FRAME))
    assert leds(screen) == [FG_BG_256[xterm_256(dot_colour(p))] for p in FRAME]
    assert leds(screen)[3] == "ff0000" and leds(screen)[63] == FG_BG_256[xterm_256(OFF_DOT)] == "303030"


def test_low_light_is_dimmer_in_colour():
    painter = Painter("truecolor")
    screen = paint(painter.resize(30, 12), painter.frame(FRAME))
    assert leds(screen) == hex_colours(FRAME)
    pyte.ByteStream(screen).feed(painter.set_low_light(True).encode())
    assert leds(screen) == hex_colours([dim(p) for p in FRAME])
    assert painter.frame(FRAME) == ""                                         # still the same frame


def test_letters_mode_has_no_colour_at_all():
    painter = Painter("letters", utf8=False)
    text = painter.resize(30, 12) + painter.frame(FRAME)
    assert "48;" not in text and "38;" not in text
    screen = paint(text)
    assert letters(screen) == [
        ". . . R . . . . ", ". . . . . . . . ", "B B B B B B B . ", "B B B B B B B . ",
        "B B B B B B B . ", "B B B B B B B . ", "B B B Y B B B . ", "B B Y R R B B . "]
    assert screen.display[0][5:24] == "+-----------------+"                  # ASCII when not UTF-8


def test_plain_mode_prints_each_new_frame_below_the_last_and_nothing_for_the_same_frame():
    painter = Painter("plain")
    assert painter.resize(80, 24) == "" and painter.set_low_light(True) == ""   # nothing to place or dim
    first = painter.frame(FRAME)
    assert CSI not in first and first.splitlines()[0] == ". . . R . . . ."
    moved = render.board_frame(Board.from_moves("4453"), render.Palette(), cursor=4)
    again = painter.frame(moved)
    assert again == ("\r\n".join([". . . . R . . .", ". . . . . . . .", "B B B B B B B .", "B B B B B B B .",
                                  "B B B B B B B .", "B B B B B B B .", "B B B Y B B B .",
                                  "B B Y R R B B ."]) + "\r\n" + PLAIN_RULE + "\r\n")
    assert PLAIN_RULE == "---------------"                                 # as wide as a picture
    assert painter.frame(moved) == ""


def test_only_changed_leds_are_redrawn_and_an_unchanged_frame_writes_nothing():
    painter = Painter("truecolor")
    painter.resize(30, 12)
    painter.frame(FRAME)
    assert painter.frame(list(FRAME)) == ""
    moved = render.board_frame(Board.from_moves("4453"), render.Palette(), cursor=4)
    text = painter.frame(moved)
    # box at row 0, column 6 (12 lines: no room to centre); LED (x, 0) at row 1, column 6 + 1 + 2x
    assert text == (f"{CSI}2;14H{CSI}48;2;0;0;0;38;2;48;48;48m● "      # x=3 off (1-based: row 2, column 14)
                    f"{CSI}2;16H{CSI}48;2;0;0;0;38;2;255;0;0m● "       # x=4 red
                    f"{CSI}0m")


def test_a_terminal_too_small_gets_a_message_then_the_board_when_it_grows():
    painter = Painter("truecolor")
    screen = paint(painter.resize(16, 6), painter.frame(FRAME), columns=16, lines=6)
    assert leds(screen) is None
    assert "\n".join(line.rstrip() for line in screen.display) == "\n".join(
        too_small_message(16, 6) + [""] * (6 - len(too_small_message(16, 6))))
    assert too_small_message(16, 6) == ["Too small: needs", "19x10, has 16x6.", "Make it bigger,", "or press q to",
                                        "quit."]
    assert painter.frame(FRAME) == ""                                         # nothing drawn over it
    screen.resize(12, 30)
    pyte.ByteStream(screen).feed(painter.resize(30, 12).encode())
    assert leds(screen) == hex_colours(FRAME)


def test_too_small_message_wraps_to_the_width():
    assert too_small_message(20, 10) == ["This terminal is too", "small for the board:", "it needs 19 x 10",
                                         "characters and has", "20 x 10. Make it", "bigger (or press q",
                                         "to quit)."]


@pytest.mark.parametrize("columns, lines, message", [
    (16, 8, ["Too small: needs", "19x10, has 16x8.", "Make it bigger,", "or press q to", "quit."]),
    (16, 3, ["Too small: needs", "19x10. q quits."]),
    (10, 3, ["Too small.", "q quits."]),
    (5, 2, ["Too s", "mall."]),                # nothing fits whole: the shortest, cut
])
def test_a_tiny_terminal_gets_a_shorter_message_that_fits_whole(columns, lines, message):
    assert too_small_message(columns, lines) == message


def test_status_line_under_the_hint():
    painter = Painter("truecolor")
    screen = pyte.Screen(30, 13)
    stream = pyte.ByteStream(screen)
    stream.feed((painter.resize(30, 13) + painter.frame(FRAME)).encode())
    stream.feed(painter.set_status("match 1: player 1 wins 2-0").encode())
    assert screen.display[10] == "    arrows, Enter; q quits    "          # the short hint, narrower than HINT
    assert screen.display[11].strip() == "match 1: player 1 wins 2-0"
    stream.feed(painter.resize(30, 13).encode())                              # kept on a full redraw
    assert screen.display[11].strip() == "match 1: player 1 wins 2-0"


@pytest.mark.parametrize("utf8, shown", [
    (True, "Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons"),
    (False, "Ann (red) to move: left/right choose, Enter drops, up abandons"),   # no arrows outside UTF-8
])
def test_the_status_line_names_the_terminals_keys(utf8, shown):
    painter = Painter("truecolor", utf8=utf8)
    screen = pyte.Screen(80, 13)
    stream = pyte.ByteStream(screen)
    stream.feed((painter.resize(80, 13) + painter.frame(FRAME)).encode())
    stream.feed(painter.set_status("Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons").encode())
    assert [line.strip() for line in screen.display[10:12]] == ["arrows and Enter (or space) play, q quits", shown]
    assert not {"stick", "middle"} & set(" ".join(screen.display).split())


def test_a_note_gets_a_line_of_its_own_under_the_status_and_the_board_moves_up_for_it():
    painter = Painter("truecolor")
    screen = pyte.Screen(44, 14)
    stream = pyte.ByteStream(screen)
    stream.feed((painter.resize(44, 14) + painter.frame(FRAME)).encode())
    stream.feed(painter.set_status("match 1: player 1 wins 2-0").encode())
    assert screen.display[1].strip().startswith("┌") and screen.display[12].strip() == "match 1: player 1 wins 2-0"
    stream.feed(painter.set_note("web: http://192.168.1.20:8080/  PIN 1234").encode())
    assert screen.display[0].strip().startswith("┌")                          # one line up: room for three
    assert leds(screen) == hex_colours(FRAME)
    assert [line.strip() for line in screen.display[10:13]] == [
        "arrows and Enter (or space) play, q quits", "match 1: player 1 wins 2-0",
        "web: http://192.168.1.20:8080/  PIN 1234"]
    stream.feed(painter.set_note("web: http://192.168.1.20:8080/  PIN 5678").encode())   # a fresh PIN
    assert screen.display[12].strip() == "web: http://192.168.1.20:8080/  PIN 5678"
    assert painter.set_note("web: x  PIN 1") and Painter("plain").set_note("web: x  PIN 1") == "web: x  PIN 1\r\n"


def test_while_the_web_view_serves_seats_the_key_help_names_p():
    assert [hint(columns, pairing) for columns, pairing in ((80, False), (40, False), (80, True), (57, True))] == [
        "arrows and Enter (or space) play, q quits", "arrows, Enter; q quits",
        "arrows and Enter (or space) play, p pairs a phone, q quits", "arrows, Enter; p pairs; q quits"]
    assert len(SHORT_PAIR_HINT) <= 40 and len(PAIR_HINT) == 58
    painter = Painter("truecolor")
    screen = pyte.Screen(64, 14)
    stream = pyte.ByteStream(screen)
    stream.feed((painter.resize(64, 14) + painter.frame(FRAME)).encode())
    assert screen.display[11].strip() == HINT
    painter.pairing = True                                        # the web view started: drawn with its note
    stream.feed(painter.set_note("web: http://192.168.1.20:8080/").encode())
    assert screen.display[10].strip() == PAIR_HINT and screen.display[12].strip() == "web: http://192.168.1.20:8080/"
    turn = "Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons"   # the turn's words under the key help
    stream.feed(painter.set_status(turn).encode())
    assert [line.strip() for line in screen.display[10:13]] == [PAIR_HINT, turn, "web: http://192.168.1.20:8080/"]
    plain = Painter("plain")                                      # the hint was printed at the start: p's line once
    plain.pairing = True
    assert plain.set_note("web: x") == "p: pair a phone\r\nweb: x\r\n" and plain.set_note("web: x  PIN 1") == \
        "web: x  PIN 1\r\n"


HOSTILE_WORDS = [   # a caption, a refusal, a name or a note from another Pi, a phone or an mDNS advertisement
    ("\x1b]0;pwned\x07\x1b[2J\x1b[Htype your password:", "type your password:"),   # a title, a clear screen
    ("\x1b]52;c;cm0gLXJmIH4=\x1b\\Bob said no", "Bob said no"),                      # a clipboard write
    ("\x9b2J\x9d0;t\x9cAnn\u202e\u2066 wins\u200b\x00\x7f\x85!", "Ann wins !"),       # 8-bit forms, bidi, zero-width
    ("Bob\r\nquit\there", "Bob  quit here"),
]


@pytest.mark.parametrize("words, shown", HOSTILE_WORDS)
def test_words_from_outside_reach_the_terminal_without_their_control_characters(words, shown):
    painter = Painter("truecolor")
    screen = pyte.Screen(44, 14)
    stream = pyte.ByteStream(screen)
    stream.feed((painter.resize(44, 14) + painter.frame(FRAME)).encode())
    title = screen.title
    for write, below in ((painter.set_status, 1), (painter.set_note, 2)):   # the lines under the hint
        out = write(words)
        assert "\x1b]" not in out and "\x1bP" not in out and not any(c in out for c in "\x07\x9b\x9d\x9c\x00\x7f")
        stream.feed(out.encode())
        hint = next(row for row, line in enumerate(screen.display) if line.strip() == HINT)
        assert screen.display[hint + below].strip() == shown.strip() and leds(screen) == hex_colours(FRAME)
    assert screen.title == title
    assert Painter("plain").set_status(words) == shown + "\r\n" == Painter("plain").set_note(words)
    printed = Painter("truecolor")                                 # the last printed line (a result), kept
    printed.set_printed(words)
    assert printed.printed == shown


LONG = ("player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, ↑ then ↓ or u: take back, ↑ abandons "
        "(1 hint, 0 take-backs)")


def test_a_line_wider_than_the_terminal_wraps_between_words_and_the_next_clears_what_it_left():
    painter = Painter("truecolor")
    screen = paint(painter.resize(80, 24), painter.frame(FRAME), painter.set_status(LONG), columns=80, lines=24)
    top = next(row for row, line in enumerate(screen.display) if line.strip().startswith("┌"))
    assert top == 6                                                     # (24 - 10 - 2) // 2: as with one line
    assert [line.rstrip() for line in screen.display[16:19]] == [
        " " * 19 + HINT,
        "player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, ↑ then ↓ or u:",   # 80 wide, whole
        " " * 18 + "take back, ↑ abandons (1 hint, 0 take-backs)"]                     # centred, take-backs whole
    stream = pyte.ByteStream(screen)
    stream.feed(painter.set_status("abandon the match? ↑ again: yes, another key: play on").encode())
    assert [line.strip() for line in screen.display[17:19]] == [
        "abandon the match? ↑ again: yes, another key: play on", ""]       # the second line cleared
    assert leds(screen) == hex_colours(FRAME)


def test_the_board_moves_up_for_wrapped_lines_only_when_the_terminal_has_no_room_for_them():
    painter = Painter("truecolor")
    screen = paint(painter.resize(40, 14), painter.frame(FRAME), columns=40)
    assert screen.display[1].strip().startswith("┌")                   # (14 - 10 - 2) // 2
    stream = pyte.ByteStream(screen)
    stream.feed(painter.set_status("Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons").encode())
    assert screen.display[1].strip().startswith("┌")                   # two lines: there is room for them
    assert [line.strip() for line in screen.display[11:14]] == [
        "arrows, Enter; q quits", "Ann (red) to move: ←/→ choose, Enter", "drops, ↑ abandons"]
    stream.feed(painter.set_status(LONG).encode())                      # four lines: the board goes up a line
    assert screen.display[0].strip().startswith("┌") and leds(screen) == hex_colours(FRAME)
    assert [line.strip() for line in screen.display[10:14]] == [        # as many as the terminal has, whole
        "arrows, Enter; q quits", "player 1 (red) to move: ←/→ choose, ↓", "drops, Enter or h: a hint, ↑ then ↓ or",
        "u: take back, ↑ abandons (1 hint, 0"]


def test_plain_mode_prints_a_long_line_wrapped_to_the_terminal():
    painter = Painter("plain")
    painter.resize(40, 24)
    assert painter.set_status("Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons") == (
        "Ann (red) to move: ←/→ choose, Enter\r\ndrops, ↑ abandons\r\n")
