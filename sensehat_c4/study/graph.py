"""A review's values as a compact text graph, one column per position (``review`` prints it).

Five lines: the first row has a bar wherever the player who started wins with perfect
play, the second a line wherever it is a draw, the third a bar wherever the other player
wins; a taller bar is a nearer win (a full one when the winner's next move wins, one
eighth less for each move more it needs, down to one eighth).  Under them ``!`` marks the moves that changed the outcome (the key
moments), and a ruler numbers the moves (column 0 is the empty board, column ``k`` the
position after move ``k``).  A position not solved is ``?`` on the draw row.

It reads without colour (rows, not colours, say who wins); with colour the bars are in
the players' colours.  Outside a UTF-8 locale the bars are ``#`` and the line ``-``.
Pure: a review in, text out.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from gamelib.backends.terminal_screen import CSI, ColourMode, xterm_256
from gamelib.colours import RGB

from ..i18n import N_, _
from .review import Review, ending

BARS = "▁▂▃▄▅▆▇█"
"""Bar heights, lowest first (one eighth to a whole character)."""
DRAW = {True: "─", False: "-"}
BAR = "#"
"""Every bar outside UTF-8 (the height is lost, the outcome is not)."""
UNKNOWN = "?"
KEY = "!"
HEADING = N_("outcome with perfect play after each move (a taller bar: a nearer win); !: the move changed it")
"""The graph's first line (``!``: :data:`KEY`), translated where it is drawn."""


def height(cells: int, stones: int, value: int) -> int:
    """A bar's height in eighths, 1-8, for a position of ``stones`` stones won (``value``, for the
    player who started, not 0): 8 when the winner's next move wins (or has won), one less for
    each move more it needs, at least 1."""
    _, moves = ending(cells, stones, value if stones % 2 == 0 else -value)
    return max(1, min(8, 9 - moves))


def _paint(text: str, colour: Optional[RGB], mode: Optional[ColourMode]) -> str:
    if colour is None or mode is None or not text.strip():
        return text
    sgr = f"38;2;{colour[0]};{colour[1]};{colour[2]}" if mode is ColourMode.TRUECOLOR else f"38;5;{xterm_256(colour)}"
    return f"{CSI}{sgr}m{text}{CSI}0m"


def _runs(cells: Sequence[str], colour: Optional[RGB], mode: Optional[ColourMode]) -> str:
    """The row's characters, each run of bars painted once."""
    out: List[str] = []
    run: List[str] = []
    for char in cells:
        if char == " ":
            if run:
                out.append(_paint("".join(run), colour, mode))
                run = []
            out.append(char)
        else:
            run.append(char)
    if run:
        out.append(_paint("".join(run), colour, mode))
    return "".join(out).rstrip()


def ruler(count: int) -> str:
    """Move numbers every 5 columns (``0    5    10   15``) over ``count`` columns (the last
    number may run one character past them)."""
    chars = [" "] * (count + 1)
    for at in range(0, count, 5):
        label = str(at)
        chars[at:at + len(label)] = label
    return "".join(chars).rstrip()


def graph(review: Review, *, utf8: bool = True, colour: Optional[ColourMode] = None) -> str:
    """The graph (see the module); ``colour``: a mode in colour (``truecolor``, ``256``) paints the bars in the
    players' colours, ``None`` paints nothing."""
    match, rnd = review.match, review.round
    values = review.values()
    cells = review.cells
    keys = set(review.key_moments())
    starter, other = rnd.starter, 3 - rnd.starter
    labels = [_("{who} wins").format(who=match.label(starter)), _("draw"),
              _("{who} wins").format(who=match.label(other)), "", _("move")]
    width = max(len(label) for label in labels) + 2
    wins, draws, losses = [], [], []
    for stones, value in enumerate(values):
        bar = " " if value is None or value == 0 else (BARS[height(cells, stones, value) - 1] if utf8 else BAR)
        wins.append(bar if value is not None and value > 0 else " ")
        draws.append(UNKNOWN if value is None else DRAW[utf8] if value == 0 else " ")
        losses.append(bar if value is not None and value < 0 else " ")
    marks = "".join(KEY if ply in keys else " " for ply in range(len(values))).rstrip()
    rows = [_runs(wins, match.sides[starter - 1].colour, colour), _runs(draws, None, None),
            _runs(losses, match.sides[other - 1].colour, colour), marks, ruler(len(values))]
    lines = [_(HEADING)]
    for label, row in zip(labels, rows):
        lines.append(f"{label:>{width - 2}}  {row}".rstrip())
    return "\n".join(lines)
