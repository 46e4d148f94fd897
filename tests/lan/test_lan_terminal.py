"""``sensehat-c4 --lan`` in a real terminal (a pty read through pyte): the status line under the board says the
LAN screens' words (waiting for a guest, who asks, the dropped link), the game's words in between."""
import json
import re
import subprocess
import sys

import pytest

from lan_client import LanClient
from pty_terminal import leds, board, hex_colours, start

from gamelib.backends.terminal_input import REPEAT_DELAY
from gamelib.backends.terminal_screen import LEAVE
from gamelib.lan import screens
from gamelib.palette import palette as default_palette

NOTE = re.compile(r"web: http://127\.0\.0\.1:(\d+)/")


def port(program):
    for line in program.screen.display:
        found = NOTE.search(line)
        if found:
            return int(found.group(1))
    return None


def says(text):
    return lambda program: any(text in line for line in program.screen.display)


def test_the_status_line_says_the_lan_screens(sandbox):
    program = start(sandbox, "--backend", "terminal", "--lan", "127.0.0.1:0", "--names", "Bob", columns=60, lines=18)
    try:
        program.wait_for(lambda p: port(p) is not None and says("waiting for a guest (↑ leaves)")(p),
                         what="the lobby's words")
        assert says(f"web: http://127.0.0.1:{port(program)}/  (watch only)")(program)   # no PIN: nobody takes a seat
        assert leds(program.screen) in [hex_colours(f) for f in screens.frames(screens.offering(default_palette()))]
        client = LanClient(port(program), ping=True)
        client.hello("Ann")
        program.wait_for(says("Ann at 127.0.0.1 asks (Enter: yes, ↑: no)"), what="the request's words")
        program.press("enter")                                        # middle: yes
        assert client.until("welcome")["host"] == "Bob"
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("", 3)), what="the board: Bob to move")
        client.close()                                                # the guest's Wi-Fi goes
        program.wait_for(says("link to Ann dropped: waiting (↑ abandons)"), what="the dropped link's words")
        program.press("q")
        assert program.process.wait(10) == 0
    finally:
        program.close()


@pytest.mark.slow
def test_a_guest_leaving_before_a_move_is_no_match_and_the_next_is_match_1_as_in_history(sandbox):
    db = f"{sandbox}/games.db"
    program = start(sandbox, "--backend", "terminal", "--lan", "127.0.0.1:0", "--names", "Bob", "--db", db,
                    columns=60, lines=18)
    try:
        program.wait_for(lambda p: port(p) is not None and says("waiting for a guest (↑ leaves)")(p),
                         what="the lobby's words")
        first = LanClient(port(program), ping=True)
        first.hello("Ann")
        program.wait_for(says("Ann at 127.0.0.1 asks (Enter: yes, ↑: no)"), what="the request's words")
        program.press("enter")
        first.until("welcome")
        first.send({"type": "bye"})                                    # Ann leaves before a move
        program.wait_for(says("waiting for a guest (↑ leaves)"), what="the lobby again")
        second = LanClient(port(program), source="127.0.0.2", ping=True)
        second.hello("Cy")
        program.wait_for(says("Cy at 127.0.0.2 asks (Enter: yes, ↑: no)"), what="the second request")
        program.press("enter")
        second.until("welcome")
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("", 3)), what="the board: Bob to move")
        program.pump(REPEAT_DELAY)                                    # Enter's press has ended
        program.press("space")                                        # Bob drops in column 4
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("4", 3)), what="Cy to move")
        program.press("up")
        program.press("up")                                           # Bob abandons the match
        program.wait_for(lambda p: leds(p.screen) != hex_colours(board("4", 3)) and
                         says("waiting for a guest (↑ leaves)")(p), what="the lobby after the match")
        program.press("q")
        program.finish()
        assert program.process.returncode == 0
    finally:
        program.close()
    after = program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()
    assert after == "match 1: abandoned at 0-0\r\n"                 # the one match played, as history numbers it
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "history", "--json", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert [(m["match"], m["status"], [r["moves"] for r in m["rounds"]], m["players"]["2"]["name"])
            for m in json.loads(done.stdout)] == [(1, "abandoned", ["4"], "Cy")]
