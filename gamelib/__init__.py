"""Shared pieces for Sense HAT games: colours, a pixel font, icons, the backends (real HAT,
emulator, terminal, mock) behind one interface, the games protocol, process lifetime.

The games launcher (the ``gamelib`` command: menu, settings, autostart) is the
application built on them, in :mod:`gamelib.launcher`; nothing here imports it.
"""
