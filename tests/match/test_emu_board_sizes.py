"""Other board sizes on the real ``sense_emu`` library: a whole match of 6x5 and of 8x6.

The game runs as a child process on the emulator's files (see ``emu_sandbox``), and
each step waits for the exact LEDs: the empty field where it belongs, the cursor
wrapping over that board's columns, a win, a draw on a full board, a second win.
"""
import subprocess
import sys

import pytest

from emu_sandbox import child_env, lit
from gamelib.colours import BLACK, RED, YELLOW
from sensehat_c4.match import render
from sensehat_c4.rules import Size

from scripted import DRAW_6X5, DRAW_8X6

pytestmark = pytest.mark.slow  # the fast tier (-m "not slow") leaves these out

P = render.Palette()
SWAPPED = render.Palette(YELLOW, RED)


def expected(size, moves, cursor=None, palette=P):
    """The exact LEDs for a position (the player to move's cursor over ``cursor``, 0-based)."""
    board = size.from_moves(moves)
    return lit(render.board_frame(board, palette, cursor=(size.columns - 1) // 2 if cursor is None else cursor))


def play_moves(emulator, size, moves, palette=P):
    """Play ``moves`` (1-based columns), waiting for the exact frame before each press."""
    start = (size.columns - 1) // 2
    for ply, move in enumerate(moves):
        before = moves[:ply]
        emulator.wait_screen(lambda px: px == expected(size, before, palette=palette))
        steps = int(move) - 1 - start
        emulator.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps))
        emulator.wait_screen(lambda px: px == expected(size, before, int(move) - 1, palette))
        emulator.tap("down")


@pytest.mark.parametrize("size, win, draw, wrap", [
    (Size(6, 5), "3434343", DRAW_6X5, [1, 0, 5, 4, 5, 0]),      # from column 2: left x4, right x2
    (Size(8, 6), "5566778", DRAW_8X6, [2, 1, 0, 7, 0, 1]),      # from column 3
])
def test_a_match_on_another_size(emulator, emu_dir, size, win, draw, wrap):
    game = subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", "--board", str(size),
         "--matches", "1", "--fall-ms", "5"],
        env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        emulator.wait_client()
        # the empty field on the bottom row, centred, the cursor in the middle
        emulator.wait_screen(lambda px: px == expected(size, ""))
        for step, column in zip(["left"] * 4 + ["right"] * 2, wrap):
            emulator.tap(step)
            emulator.wait_screen(lambda px: px == expected(size, "", column))
        emulator.tap("right", "right")                                # back to the middle
        play_moves(emulator, size, win)                               # round 1: red wins
        emulator.wait_screen(lambda px: px == lit(render.board_frame(size.from_moves(win), P)))
        emulator.wait_screen(lambda px: px == lit(render.digit_frame(1, RED, P)))
        play_moves(emulator, size, draw, SWAPPED)                     # round 2: yellow starts, a draw
        emulator.wait_screen(lambda px: px == lit(render.board_frame(size.from_moves(draw), SWAPPED)))
        play_moves(emulator, size, win)                               # round 3: red starts and wins
        out, err = game.communicate(timeout=60)
    finally:
        game.kill()
    assert (game.returncode, out, err) == (0, "match 1: player 1 wins 2-0\n", "")
    assert emulator.pixels() == [BLACK] * 64
