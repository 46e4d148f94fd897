"""The games launcher, the ``gamelib`` command: a menu of the installed games on the LEDs.

Built on the rest of :mod:`gamelib` (backends, colours, font, icons, the games
protocol), which never imports it:

- :mod:`.menu`: the menu as one loop over events with explicit state (:class:`~.menu.Launcher`);
- :mod:`.settings`: what the system menu changes, kept in a file;
- :mod:`.service`: ``install-service`` / ``uninstall-service`` and the units in ``systemd/``;
- :mod:`.system`: running the system's commands (``systemctl``);
- :mod:`.cli`: the command (``gamelib``, ``python -m gamelib``).
"""

PROG = "gamelib"
"""The command's name, in its messages and log lines."""
