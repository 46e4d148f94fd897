"""Helps on the real ``sense_emu`` library: the whole program against the computer, a hint from the real
solver blinking on the emulator's screen, down during its blinks dropping at once, a take-back, and the
counts in the records (the emulator's part played at its OS boundary by ``emu_sandbox.FakeEmulator``, as in
test_emu_backend.py)."""
import sqlite3
import subprocess
import sys


from emu_sandbox import FakeEmulator, child_env, lit
from gamelib.colours import BLACK
from sensehat_c4.match import render
from sensehat_c4.rules import Board

P = render.Palette()


def test_a_hint_blinks_the_solvers_column_and_a_take_back_clears_both_moves(emu_dir, tmp_path):
    db = tmp_path / "games.db"
    with FakeEmulator(emu_dir) as emulator:
        game = subprocess.Popen(
            [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "easy", "--helps", "on",
             "--matches", "1", "--fall-ms", "5", "--db", str(db)],
            env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            emulator.wait_client()
            cursor = lit(render.board_frame(Board(), P, cursor=3))
            emulator.wait_screen(lambda px: px == cursor)
            emulator.tap("left")                                  # the cursor on column 3 ...
            emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), P, cursor=2)))
            emulator.tap("middle")                                # ... a hint: perfect play's column 4 blinks
            emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), P)))   # its dark half
            emulator.wait_screen(lambda px: px == cursor)         # lit again, the cursor over column 4 ...
            emulator.tap("down")                                  # ... down during the blinks (1 s to go): red
            landed = lit(render.board_frame(Board.from_moves("4"), P))   # drops there (a press the blinks dropped
            emulator.wait_screen(lambda px: px[16:] == landed[16:])      # before: nothing else would drop it)
            replies = [lit(render.board_frame(Board.from_moves(f"4{c}"), P, cursor=3)) for c in range(1, 8)]
            emulator.wait_screen(lambda px: px in replies, timeout=15)   # the computer replies
            emulator.tap("up", "down")                            # take back both moves
            emulator.wait_screen(lambda px: px == cursor)
            emulator.tap("up", "up")                              # abandon
            out, err = game.communicate(timeout=30)
        finally:
            game.kill()
        assert (game.returncode, out, err) == (0, "match 1 (computer: easy, player 2): abandoned at 0-0\n", "")
        assert emulator.pixels() == [BLACK] * 64
    conn = sqlite3.connect(str(db))
    try:
        assert conn.execute("SELECT moves, result, level, hints, takebacks FROM rounds").fetchall() == [
            ("", "abandoned", "easy", 1, 1)]
    finally:
        conn.close()
