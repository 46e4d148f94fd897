"""The LED matrix's size: the one place it is written."""

SIDE = 8
"""LEDs along each side of the matrix."""
PIXELS = SIDE * SIDE
"""LEDs in a frame (64), row by row from the top left: index ``y * SIDE + x``."""
