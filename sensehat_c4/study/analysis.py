"""``sensehat-c4 analyse``: describe a position given as a move list, as text or JSON."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict

from ..i18n import _
from ..rules import Board


class _Analysis(TypedDict):
    moves: str
    board: str
    to_move: Optional[int]
    outcome: str
    winner: Optional[int]
    winning_cells: List[List[int]]
    legal: List[int]


class Analysis(_Analysis, total=False):
    """What :func:`describe` gives (``analyse --json``): every key always, ``scores``, ``best`` and
    ``engine`` when asked for."""

    scores: Dict[str, int]
    best: Optional[int]
    engine: str


def describe(board: Board, scores: Optional[Dict[int, int]] = None, engine: Optional[str] = None) -> Analysis:
    """The position as a JSON-ready dict (columns and rows 1-based, row 1 at the bottom).

    ``scores`` (0-based column -> exact score, from the engine) adds ``scores``
    (1-based column as a string -> score) and ``best`` (the lowest column of maximal
    score, or ``None`` once the game is over); ``engine`` adds which solver core found them
    (``"native"`` or ``"python"``).
    """
    outcome = board.outcome
    cells: List[List[int]] = []
    if outcome is None:
        state, winner = "ongoing", None
    elif outcome.winner is None:
        state, winner = "draw", None
    else:
        state, winner = "win", outcome.winner
        cells = [[c + 1, r + 1] for c, r in sorted(outcome.cells)]
    info: Analysis = {
        "moves": board.notation(),
        "board": f"{board.columns}x{board.rows}",
        "to_move": None if outcome else board.to_move,
        "outcome": state,
        "winner": winner,
        "winning_cells": cells,
        "legal": [c + 1 for c in board.legal_moves()],
    }
    if scores is not None:
        info["scores"] = {str(c + 1): s for c, s in sorted(scores.items())}
        info["best"] = None if not scores else 1 + min(c for c, s in scores.items() if s == max(scores.values()))
    if engine is not None:
        info["engine"] = engine
    return info


def text(board: Board, scores: Optional[Dict[int, int]] = None) -> str:
    """The position as text: the board (rows top to bottom), whose turn, the outcome (and scores)."""
    info: Dict[str, Any] = {**describe(board, scores)}   # read as the JSON it is
    mark = {1: "X", 2: "O"}
    lines = [str(board), "".join(str(c + 1) for c in range(board.columns)),
             _("moves: {moves}").format(moves=info["moves"]) if info["moves"] else _("moves: (none)")]
    if info["outcome"] == "ongoing":
        lines.append(_("to move: player {seat} ({mark})").format(seat=info["to_move"], mark=mark[info["to_move"]]))
        lines.append(_("outcome: ongoing"))
        lines.append(_("legal: {columns}").format(columns=" ".join(map(str, info["legal"]))))
        if scores is not None:
            lines.append(_("scores: {scores}").format(scores=" ".join(f"{c}:{s:+d}" if s else f"{c}:0"
                                                                      for c, s in info["scores"].items())))
            lines.append(_("best: {best}").format(best=info["best"]))
    elif info["outcome"] == "draw":
        lines.append(_("outcome: draw (the board is full)"))
    else:
        cells = " ".join(f"{c},{r}" for c, r in info["winning_cells"])
        lines.append(_("outcome: player {seat} ({mark}) wins").format(seat=info["winner"], mark=mark[info["winner"]]))
        lines.append(_("winning cells (column,row): {cells}").format(cells=cells))
    return "\n".join(lines)
