"""The game on the real ``sense_emu`` (``emu_sandbox``): the exact LEDs a position shows, the launcher
started as a program on it. (Apart from ``emu_sandbox``, which the emulator window's venv imports
without the packages.)"""
import os
import subprocess
import sys

from emu_sandbox import child_env, lit

from sensehat_c4.match import render
from sensehat_c4.rules import Board


P = render.Palette()


def expected(moves, cursor=3, palette=P):
    """The exact LEDs for a position (the player to move's cursor over ``cursor``)."""
    return lit(render.board_frame(Board.from_moves(moves), palette, cursor=cursor))


def start_launcher(emu_dir, *args):
    env = child_env(emu_dir)
    env["XDG_CONFIG_HOME"] = os.path.join(emu_dir, "config")
    return subprocess.Popen([sys.executable, "-m", "gamelib", "--backend", "emu", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
