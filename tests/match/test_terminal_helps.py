"""Helps in a terminal: the whole program in a pseudo-terminal against the computer with ``--helps on``;
``h`` asks for a hint (the real solver's column blinks), ``u`` takes back, the line under the board
says the keys and the counts, the records keep them."""
import sqlite3

from emu_sandbox import child_env
from pty_terminal import TRUECOLOR, PtyProgram, board, game, shows

from sensehat_c4.match import render
from sensehat_c4.rules import Board

P = render.Palette()


def test_h_shows_a_hint_and_u_takes_back_in_the_terminal(sandbox, tmp_path):
    db = tmp_path / "games.db"
    env = child_env(sandbox)
    for name in ("TERM", "COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"):
        env.pop(name, None)
    env.update(TRUECOLOR)
    program = PtyProgram(game("--opponent", "easy", "--helps", "on", "--fall-ms", "5", "--db", str(db)),
                         columns=120, lines=16, env=env)
    status = lambda p: p.screen.display[13].strip()   # noqa: E731 (the line under the key help)
    try:
        program.wait_for(shows(board("")), what="the empty board")
        program.wait_for(lambda p: status(p) == "player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, "
                                                 "↑ then ↓ or u: take back, ↑ abandons")
        program.press("left", "h")                                    # a hint: perfect's column 4
        program.wait_for(shows(render.board_frame(Board(), P)), what="the hint's dark half")
        program.wait_for(shows(board("", 3)), what="the cursor left over column 4")
        program.pump(1.5)                                             # the blink's end
        program.press("down")
        replies = [board(f"4{c}", 3) for c in range(1, 8)]
        program.wait_for(lambda p: any(shows(r)(p) for r in replies), what="the computer's reply", timeout=15)
        program.press("u")                                            # up then down: both moves taken back
        program.wait_for(shows(board("", 3)), what="the empty board again")
        program.press("q")
        program.finish()
    finally:
        program.close()
    conn = sqlite3.connect(str(db))
    try:
        assert conn.execute("SELECT moves, result, level, hints, takebacks FROM rounds").fetchall() == [
            ("", "abandoned", "easy", 1, 1)]
    finally:
        conn.close()
