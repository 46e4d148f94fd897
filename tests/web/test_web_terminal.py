"""``sensehat-c4 --web`` in a real terminal (a pty read through pyte): the page's address under the board, and
the PIN with it once a phone asked for one (gone once it has seated the phone), the phone's presses on the
board, and a clean exit; the pairing gesture's key (``p``, named in the key help) and Enter held for 3 s,
each showing a pairing PIN at once."""
import re

import pytest

from pty_terminal import leds, board, hex_colours, start
from web_client import Events, call, post

from gamelib.backends.terminal_screen import HINT, PAIR_HINT, SHORT_PAIR_HINT
from gamelib.colours import WHITE
from gamelib.scroll import scroll_frames
from gamelib.web.console import PAIR_TEXT

NOTE = re.compile(r"web: http://127\.0\.0\.1:(\d+)/(?:  PIN (\d{4} \d{4}|\d{4}))?")


def note(program):
    for line in program.screen.display:
        found = NOTE.search(line)
        if found:
            return int(found.group(1)), found.group(2)
    return None


@pytest.mark.slow
def test_the_address_and_the_pin_under_the_board_and_a_phone_playing_its_seat(sandbox):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human", "--web", "127.0.0.1:0",
                    columns=50, lines=16)
    try:
        program.wait_for(lambda p: note(p) is not None and leds(p.screen) == hex_colours(board("")),
                         what="the board with the web line under it")
        port, pin = note(program)
        assert pin is None                                             # no PIN until a phone asks for one
        assert call(port, "GET", "/api/state").json()["pixels"] == [list(p) for p in board("")]
        assert post(port, "/api/pin", {}).status == 202
        program.wait_for(lambda p: note(p) is not None and note(p)[1] is not None, what="the PIN under the board")
        pin = note(program)[1]
        assert post(port, "/api/seat", {"pin": "0000" if pin != "0000" else "1111", "seat": 2}).status == 403
        reply = post(port, "/api/seat", {"pin": pin, "seat": 2})
        assert reply.status == 200
        token = reply.json()["token"]
        program.wait_for(lambda p: note(p) is not None and note(p)[1] is None, what="the PIN spent: gone")
        program.wait_for(lambda p: leds(p.screen) != hex_colours(board("")), what="P2 PHONE scrolling")
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("")), what="the board back")
        program.press("down")                                          # the stick: seat 1 drops in column 4
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("4", 3)), what="seat 2's turn")
        for direction in ("left", "down"):                             # the phone: column 3
            assert post(port, "/api/press", {"token": token, "direction": direction}).status == 202
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("43", 3)), what="the phone's token")
        program.press("q")
        assert program.finish() == "" and program.process.returncode == 0
    finally:
        program.close()


def pairing_scroll(pin):
    """The pairing PIN's scroll, ``pin`` as the terminal's line shows it (``1234 5678``)."""
    return [hex_colours(frame) for frame, _ in scroll_frames(PAIR_TEXT.format(pin=pin), WHITE, (0, 0, 0))]


@pytest.mark.slow
def test_p_and_enter_held_for_3_s_each_show_a_pairing_pin_at_once_and_a_phone_sits_with_it(sandbox):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human", "--web", "127.0.0.1:0",
                    columns=50, lines=16)
    try:
        program.wait_for(lambda p: note(p) is not None and leds(p.screen) == hex_colours(board("")),
                         what="the board with the web line under it")
        assert SHORT_PAIR_HINT in program.text()                      # the key help names p (50 columns: short)
        port, _ = note(program)
        program.press("p")
        program.wait_for(lambda p: note(p)[1] is not None, what="the pairing PIN under the board")
        pin = note(program)[1]
        assert re.fullmatch(r"\d{4} \d{4}", pin)                          # in two groups, as on the LEDs
        program.wait_for(lambda p: leds(p.screen) in pairing_scroll(pin)[1:], what="the pairing PIN on the LEDs")
        reply = post(port, "/api/seat", {"pin": pin.replace(" ", ""), "seat": 2}, source="127.0.0.5")
        assert reply.status == 200, reply.body                         # any address: the first try
        phone = Events(port, source="127.0.0.5", path=f"/api/events?token={reply.json()['token']}")
        program.wait_for(lambda p: note(p)[1] is None, what="the pairing PIN spent: gone")

        program.press("enter")                                         # held (auto-repeat after 0.5 s, 30 a second):
        program.pump(0.5)                                              # its press drops seat 1's token
        program.tap(*["enter"] * 96, gap=1 / 30)                       # 3.7 s in all
        program.wait_for(lambda p: note(p)[1] is not None, what="a new pairing PIN under the board")
        again = note(program)[1]
        assert re.fullmatch(r"\d{4} \d{4}", again)
        program.wait_for(lambda p: leds(p.screen) in pairing_scroll(again)[1:], what="the new one on the LEDs")
        state = call(port, "GET", "/api/state").json()                # the page: the game underneath, never the PIN
        assert state["pixels"] == [list(p) for p in board("4", 3)]     # seat 1's token dropped; seat 2 to move
        phone.close()                                                  # its page open all along: no wait for it
        program.press("q")
        assert program.finish() == "" and program.process.returncode == 0
    finally:
        program.close()


def help_line(program):
    """The key help under the board (the line naming q), as the terminal shows it."""
    lines = [line.strip() for line in program.screen.display if line.strip().endswith("q quits")]
    return lines[0] if len(lines) == 1 else None


def test_the_key_help_names_p_only_while_a_phone_may_take_a_seat(sandbox):
    """``p`` pairs a phone only with ``--web`` and seats to take: not without ``--web``, nor while a game is
    offered over the LAN (``--lan``: the guest from the other Pi plays, the page is to watch)."""
    for args, expected in ((("--opponent", "human", "--web", "127.0.0.1:0"), PAIR_HINT),
                           (("--opponent", "human"), HINT),
                           (("--web", "127.0.0.1:0", "--lan"), HINT)):
        program = start(sandbox, "--backend", "terminal", *args, columns=80, lines=20)
        try:
            web = "--web" in args
            program.wait_for(lambda p: help_line(p) == expected and (note(p) is not None) == web
                             and ("(watch only)" in p.text()) == ("--lan" in args), what=f"{expected!r} ({args})")
            assert PAIR_HINT not in program.text() or expected == PAIR_HINT
            if "--lan" in args:
                port, _ = note(program)
                before = program.text()
                program.press("p")                                     # the gesture does nothing here
                program.pump(1.0)
                assert note(program) == (port, None) and help_line(program) == HINT, before
            program.press("q")
            errors = program.finish()
            assert program.process.returncode == 0
            assert errors == "" or errors.startswith("sensehat-c4: offering connect4 over the LAN on port ")
        finally:
            program.close()
