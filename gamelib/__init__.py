"""Shared pieces for Sense HAT games: colours, a pixel font, icons, the backends (real HAT,
emulator, mock) behind one interface, process lifetime, and the games launcher (``gamelib``)."""
