"""Frames as text grids, so tests compare exact 64-pixel frames readably."""
from typing import Dict, Sequence, Tuple

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, BLUE, GREEN, ORANGE, RED, WHITE, YELLOW

RGB = Tuple[int, int, int]

LETTERS: Dict[RGB, str] = {BLACK: ".", BLUE: "B", RED: "R", YELLOW: "Y", WHITE: "W", GREEN: "G", ORANGE: "O"}
COLOURS: Dict[str, RGB] = {v: k for k, v in LETTERS.items()}


def grid(frame: Sequence[RGB]) -> str:
    """Eight lines of eight letters ('.' black, B blue, R red, Y yellow, W white, G green, O orange)."""
    assert len(frame) == 64
    return "\n".join("".join(LETTERS[tuple(frame[y * 8 + x])] for x in range(8)) for y in range(8))


def frame(text: str) -> list:
    """The inverse of :func:`grid`: eight rows of letters (blank lines and spaces ignored)."""
    rows = [row.strip() for row in text.strip().splitlines() if row.strip()]
    assert len(rows) == 8 and all(len(r) == 8 for r in rows), rows
    return [COLOURS[ch] for row in rows for ch in row]


def g(text: str) -> str:
    """Normalise a grid literal written in a test (indentation stripped)."""
    return grid(frame(text))


def in_order(wanted: Sequence, seen: Sequence) -> bool:
    """True if the ``wanted`` frames appear in ``seen`` in this order (others may come between)."""
    it = iter(seen)
    return all(any(frame == w for frame in it) for w in wanted)


def turned(frame: Sequence[RGB], rotation: int) -> Tuple[RGB, ...]:
    """The physical LEDs a frame lights when the picture is turned ``rotation`` degrees."""
    mock = MockBackend(rotation=rotation)
    mock.screen.show(frame)
    return mock.leds


def board(moves, cursor=None):
    """The LEDs of a board after ``moves`` in the default palette (``cursor``: a column, 0-based)."""
    from sensehat_c4.match import render
    from sensehat_c4.rules import Board

    return render.board_frame(Board.from_moves(moves), render.Palette(), cursor=cursor)
