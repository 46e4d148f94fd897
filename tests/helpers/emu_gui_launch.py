"""Start the real ``sense_emu_gui`` window as its entry point does, plus a read-only probe.

Run by ``tests/gamelib/backends/test_emu_gui.py`` with the GUI's own Python (Debian's, with
python3-gi and numpy < 2.3; see ``.ci/install-gui-deps``) and ``emu_sandbox``'s
environment, so the window uses a temporary directory, not ``/dev/shm``.

The probe writes ``geometry.json`` beside the emulator's files whenever the window
changes (and every 0.2 s): the X window id, the widget with keyboard focus and how
often it has moved (arrow keys reach the stick only while a joystick button has
the focus), and where the
8x8 LEDs are painted on the screen.  It changes nothing in the app.  SIGTERM
quits the app cleanly (it releases the lock and removes its socket).
"""
import json
import os
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import GdkX11, GLib  # noqa: E402,F401 (GdkX11: windows get get_xid())
from sense_emu import gui  # noqa: E402

LED_X, LED_Y, LED_SIZE = 126, 155, 512
"""Where gui.py composites the LEDs on its board image (before scaling by the window's ratio)."""
JOYSTICK = ("up_button", "down_button", "left_button", "right_button", "enter_button")


FOCUS_MOVES = [0]
"""How many times the keyboard focus has moved (several widgets have the same type name)."""


def snapshot(win):
    gdk_window = win.get_window()
    if gdk_window is None:
        return None
    focus = win.get_focus()
    named = [name for name in JOYSTICK if getattr(win, name, None) is focus]
    info = {"xid": gdk_window.get_xid(), "focus": named[0] if named else type(focus).__name__,
            "focus_moves": FOCUS_MOVES[0]}
    widget = win.screen_widget
    screen_window = widget.get_window()
    if screen_window is not None and widget._rotation == 0:
        origin = screen_window.get_origin()
        sx, sy = origin[-2], origin[-1]
        allocation = widget.get_allocation()
        board = widget._board_scaled
        ratio = widget._ratio
        ox = sx + (allocation.width - board.props.width) // 2
        oy = sy + (allocation.height - board.props.height) // 2
        info["leds"] = {"x": ox + int(LED_X * ratio), "y": oy + int(LED_Y * ratio),
                        "size": int(LED_SIZE * ratio)}
    window_origin = gdk_window.get_origin()
    allocation = win.get_allocation()
    info["window"] = {"x": window_origin[-2], "y": window_origin[-1],
                      "width": allocation.width, "height": allocation.height}
    return info


def write(win, path):
    try:
        info = snapshot(win)
    except Exception as exc:  # noqa: BLE001 (never disturb the app)
        info = {"error": repr(exc)}
    if info is not None:
        with open(path + ".tmp", "w") as f:
            json.dump(info, f)
        os.replace(path + ".tmp", path)
    return True


def main():
    path = os.path.join(os.environ["C4_TEST_EMU_DIR"], "geometry.json")
    gui.init_i18n()
    app = gui.EmuApplication()

    def activated(app):
        win = app.window
        def focus_moved(w, widget):
            FOCUS_MOVES[0] += 1
            GLib.idle_add(lambda: write(w, path) and False)

        win.connect("set-focus", focus_moved)
        win.connect("configure-event", lambda w, e: GLib.idle_add(lambda: write(w, path) and False) and False)
        GLib.timeout_add(200, write, win, path)

    app.connect_after("activate", activated)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, lambda *a: (app.quit(), False)[1])
    return app.run(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
