"""``sensehat-c4 --lan`` in a real terminal (a pty read through pyte): the status line under the board says the
LAN screens' words (waiting for a guest, who asks, the dropped link), the game's words in between."""
import re

from lan_client import LanClient
from pty_terminal import leds
from test_terminal_backend import board, hex_colours, sandbox, start  # noqa: F401 (the fixture)

from gamelib.lan import screens

NOTE = re.compile(r"web: http://127\.0\.0\.1:(\d+)/")


def port(program):
    for line in program.screen.display:
        found = NOTE.search(line)
        if found:
            return int(found.group(1))
    return None


def says(text):
    return lambda program: any(text in line for line in program.screen.display)


def test_the_status_line_says_the_lan_screens(sandbox):  # noqa: F811
    program = start(sandbox, "--backend", "terminal", "--lan", "127.0.0.1:0", "--names", "Bob", columns=60, lines=18)
    try:
        program.wait_for(lambda p: port(p) is not None and says("waiting for a guest (↑ leaves)")(p),
                         what="the lobby's words")
        assert says(f"web: http://127.0.0.1:{port(program)}/  (watch only)")(program)   # no PIN: nobody takes a seat
        assert leds(program.screen) in [hex_colours(f) for f in screens.frames(screens.offering())]
        client = LanClient(port(program), ping=True)
        client.hello("Ann")
        program.wait_for(says("Ann asks to play (Enter: yes, ↑: no)"), what="the request's words")
        program.press("enter")                                        # middle: yes
        assert client.until("welcome")["host"] == "Bob"
        program.wait_for(lambda p: leds(p.screen) == hex_colours(board("", 3)), what="the board: Bob to move")
        client.close()                                                # the guest's Wi-Fi goes
        program.wait_for(says("link to Ann dropped: waiting (↑ abandons)"), what="the dropped link's words")
        program.press("q")
        assert program.process.wait(10) == 0
    finally:
        program.close()
