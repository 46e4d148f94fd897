"""The launcher's log in a real terminal: nothing is written over the board; the lines come after.

``python -m gamelib --backend terminal`` runs with a pty as its controlling terminal and
as its standard error too, as in a person's terminal (``tests/pty_terminal.py``).
"""
import os
import sys

from pty_terminal import PtyProgram, hex_colours, leds

from gamelib.backends.terminal_screen import LEAVE
from sensehat_c4 import game as c4
from sensehat_c4.chooser import choice_frame


def test_no_log_line_lands_on_the_board_and_the_lines_are_shown_after(tmp_path):
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    program = PtyProgram([sys.executable, "-m", "gamelib", "--backend", "terminal"], columns=60, lines=20,
                         env=env, stderr_on_terminal=True)
    try:
        program.wait_for(lambda p: leds(p.screen) == hex_colours(c4.ICON), what="Connect 4's icon")
        program.press("enter")                                       # logs "starting Connect 4"
        program.wait_for(lambda p: leds(p.screen) == hex_colours(choice_frame(0)), what="the chooser")
        program.pump(0.3)
        assert "gamelib" not in "\n".join(program.screen.display)
        program.press("q")
        program.finish()
        assert program.process.returncode == 0
        path = tmp_path / "state" / "gamelib" / "gamelib.log"
        after = program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()
        assert after == ("gamelib: INFO: starting Connect 4\r\n"
                         f"gamelib: the lines above were logged while the board filled the terminal (also in "
                         f"{path})\r\n")
        assert [line[24:] for line in path.read_text().splitlines()] == ["gamelib: INFO: starting Connect 4"]
    finally:
        program.close()
