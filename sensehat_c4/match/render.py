"""Pure rendering: game state in, 64 pixels out.  Nothing here touches a backend.

Layout on the 8x8 matrix (x to the right, y down)::

    y=0  cursor row: one pixel in the current player's colour above the column
    y=1  black gap row (a falling token passes through it)
    y=2..7  the 7 x 6 field at x=0..6, blue where empty (y=7 is the bottom row)
    x=7  black

Every board size sits on the bottom row (y=7), so a token always falls to the
bottom of the matrix and the rows above a shorter field stay dark, like the gap
row.  It is centred across, rounded to the left: a board of ``c`` columns starts
at ``x = (8 - c) // 2`` (7 and 8 columns at x=0, 5 and 6 at x=1, 4 at x=2), so the
cursor's first column, the middle one rounded to the left, is always at x=3.

The colours are a :class:`~gamelib.palette.Palette`'s (a round's: :func:`~gamelib.palette.for_round`).
Animations are generators of ``(frame, seconds)`` steps; the controller plays them.
"""
from __future__ import annotations

from typing import Collection, Iterator, List, Optional, Tuple

from gamelib.colours import RGB
from gamelib.font import HEIGHT as FONT_HEIGHT, centred_text, draw_text, text_width
from gamelib.matrix import SIDE
from gamelib.palette import Palette as Palette  # the colours every function here takes

from ..rules import Board, Cell

CURSOR_ROW = 0
SIZE = SIDE

Pixels = List[RGB]
Step = Tuple[Pixels, float]
"""One animation step: a frame and how long it stays up, in seconds."""


def column_x(board: Board, column: int) -> int:
    """Matrix ``x`` of a board column (the field is centred, rounded to the left)."""
    return (SIZE - board.columns) // 2 + column


def cell_xy(board: Board, column: int, row: int) -> Tuple[int, int]:
    """Matrix ``(x, y)`` of a board cell (row 0 is the bottom, drawn at y=7)."""
    return column_x(board, column), SIZE - 1 - row


def board_frame(board: Board, palette: Palette, *, cursor: Optional[int] = None,
                hide: Collection[Cell] = ()) -> Pixels:
    """The field with its tokens, and the cursor (in the colour of the player to move).

    Cells in ``hide`` are drawn empty (for blinking and for the token in flight).
    """
    pixels: Pixels = [palette.background] * (SIZE * SIZE)
    for column in range(board.columns):
        for row in range(board.rows):
            owner = 0 if (column, row) in hide else board.cell(column, row)
            x, y = cell_xy(board, column, row)
            pixels[y * SIZE + x] = palette.player(owner) if owner else palette.field
    if cursor is not None:
        pixels[CURSOR_ROW * SIZE + column_x(board, cursor)] = palette.player(board.to_move)
    return pixels


def falling(board: Board, column: int, palette: Palette, seconds_per_row: float) -> Iterator[Step]:
    """The token just played in ``column`` falling from the cursor row to where it landed.

    ``board`` already holds the token; it is drawn one row further down each frame.
    """
    row = board.height(column) - 1
    player = board.cell(column, row)
    x, landing = cell_xy(board, column, row)
    for y in range(CURSOR_ROW, landing + 1):
        pixels = board_frame(board, palette, hide={(column, row)})
        pixels[y * SIZE + x] = palette.player(player)
        yield pixels, seconds_per_row


def blink_cells(board: Board, cells: Collection[Cell], palette: Palette, times: int,
                half_period: float) -> Iterator[Step]:
    """Blink ``cells`` (the winning lines) ``times`` times."""
    for _ in range(times):
        yield board_frame(board, palette, hide=cells), half_period
        yield board_frame(board, palette), half_period


def win_blinks(board: Board, cells: Collection[Cell], palette: Palette, seat: int, times: int,
               half_period: float) -> Iterator[Step]:
    """The winning lines of seat ``seat`` blinking ``times`` times, as long as :func:`blink_cells`.

    With the palette's second cue (:attr:`~gamelib.palette.Palette.cue`, the colour-blind palettes) seat 2's
    lines blink twice in each of seat 1's blinks, so who won is told by the rhythm as well as the colour;
    otherwise every line blinks as :func:`blink_cells` does."""
    if not palette.cue or seat != 2:
        yield from blink_cells(board, cells, palette, times, half_period)
        return
    for _ in range(2 * times):
        yield board_frame(board, palette, hide=cells), half_period / 2
        yield board_frame(board, palette), half_period / 2


def flash_column(board: Board, column: int, palette: Palette, cursor_colour: RGB, times: int,
                 half_period: float) -> Iterator[Step]:
    """Flash a (full) column white to say it cannot be played."""
    x = column_x(board, column)
    for _ in range(times):
        pixels = board_frame(board, palette)
        for y in range(SIZE):
            pixels[y * SIZE + x] = palette.flash
        yield pixels, half_period
        pixels = board_frame(board, palette)
        pixels[CURSOR_ROW * SIZE + x] = cursor_colour
        yield pixels, half_period


def confirm_frame(board: Board, palette: Palette, lit: bool) -> Pixels:
    """The "abandon this match?" frame: the whole cursor row lit, or dark (it blinks)."""
    pixels = board_frame(board, palette)
    if lit:
        colour = palette.player(board.to_move)
        for x in range(SIZE):
            pixels[CURSOR_ROW * SIZE + x] = colour
    return pixels


def thinking_frame(board: Board, palette: Palette, tick: int) -> Pixels:
    """The computer is thinking: a dot in its colour sweeps to and fro along the cursor row."""
    pixels = board_frame(board, palette)
    span = board.columns - 1
    x = tick % (2 * span)
    column = x if x <= span else 2 * span - x
    pixels[CURSOR_ROW * SIZE + column_x(board, column)] = palette.player(board.to_move)
    return pixels


def digit_frame(value: int, colour: RGB, palette: Palette) -> Pixels:
    """A score as a digit (or two) in the scorer's colour."""
    return centred_text(str(value), colour, palette.background)


def score_frame(score: Tuple[int, int], colours: Tuple[RGB, RGB], background: RGB) -> Pixels:
    """A match's score: seat 1's round wins as a digit on the left in its colour, seat 2's on the
    right in its colour, at the height of :func:`digit_frame`'s (a score of 10 or more, which
    only a match of more than 10 wins has, is cut at the edge)."""
    pixels: Pixels = [background] * (SIZE * SIZE)
    top = (SIZE - FONT_HEIGHT + 1) // 2
    draw_text(pixels, str(score[0]), colours[0], x=0, y=top)
    draw_text(pixels, str(score[1]), colours[1], x=SIZE - text_width(str(score[1])), y=top)
    return pixels


def fill_frame(colour: RGB) -> Pixels:
    """Every LED in one colour (the match winner's, at the end)."""
    return [colour] * (SIZE * SIZE)
