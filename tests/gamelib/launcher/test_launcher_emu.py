"""The launcher end to end on the real ``sense_emu`` library (its screen file and joystick socket).

``python -m gamelib --backend emu`` runs in a child process pointed at a temporary
directory (``emu_sandbox``); a :class:`FakeEmulator` plays the emulator's part.
"""
import json
import os
import signal

from sense_emu.screen import GAMMA_DEFAULT, GAMMA_LOW
from emu_play import expected, start_launcher
from emu_sandbox import lit

from gamelib.colours import BLACK
from gamelib.palette import palette as default_palette
from sensehat_c4 import game as c4
from sensehat_c4.match.chooser import choice_frame, size_frame
from sensehat_c4.rules import Size


def test_connect4_from_the_menu_and_back_then_sigterm_clears_the_leds(emulator, emu_dir):
    settings = os.path.join(emu_dir, "config", "gamelib", "settings.json")
    os.makedirs(os.path.dirname(settings))
    with open(settings, "w") as f:
        json.dump({"low_light": True, "rotation": 0}, f)             # saved in an earlier run
    launcher = start_launcher(emu_dir)
    try:
        emulator.wait_client()
        menu = lit(c4.ICON(default_palette()))
        emulator.wait_screen(lambda px: px == menu)
        assert emulator.gamma() == tuple(GAMMA_LOW)
        emulator.tap("middle")                                        # launch Connect 4
        emulator.wait_screen(lambda px: px == lit(choice_frame(0, default_palette())))
        emulator.tap("middle")                                        # 2P
        emulator.wait_screen(lambda px: px == lit(size_frame(Size(), default_palette())))
        emulator.tap("middle")                                        # the 7x6 board
        emulator.wait_screen(lambda px: px == expected(""))
        emulator.tap("up", "up")                                      # abandon, confirm
        emulator.wait_screen(lambda px: px == menu)                   # back in the menu
        launcher.send_signal(signal.SIGTERM)
        out, err = launcher.communicate(timeout=30)
    finally:
        launcher.kill()
    assert (launcher.returncode, out, err) == (143, "match not recorded: abandoned at 0-0\n",
                                               "gamelib: INFO: low light: the LED driver's low-light gamma table\n"
                                               "gamelib: INFO: starting Connect 4\n")
    assert emulator.pixels() == [BLACK] * 64
    assert emulator.gamma() == tuple(GAMMA_DEFAULT)


def test_no_emulator_is_one_line_and_exit_1(emu_dir):
    launcher = start_launcher(emu_dir)
    out, err = launcher.communicate(timeout=60)
    assert (launcher.returncode, out) == (1, "")
    assert err == ("gamelib: the Sense HAT emulator is not running: start sense_emu_gui on a desktop, then try again; "
                   "the window needs Raspberry Pi OS's sense-emu-tools, or elsewhere python3-gi and numpy older "
                   "than 2.3 in a venv made with --system-site-packages (see docs/guide/emulator.md)\n")
