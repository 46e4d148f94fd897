"""Shared pieces for Sense HAT games: colours, a pixel font, the backends (real HAT,
emulator, mock) behind one interface, process lifetime, and (later) the game launcher."""
