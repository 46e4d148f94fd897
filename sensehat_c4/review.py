"""``sensehat-c4 review``: every move of a stored round against the solver's exact scores.

For each position of the round the engine scores every legal move (the convention of
``analyse --solve``: positive wins, 0 draws, negative loses, a faster win scores more).
The move played is marked:

* ``best``: it scores as well as the best move;
* ``inaccuracy``: it keeps the position's win, draw or loss, but scores worse (a slower
  win, a quicker loss);
* ``mistake``: it turns a win into a draw or loss, or a draw into a loss;
* ``unsolved``: the position was not solved within the time limit (never guessed).

A player's accuracy is the share of their solved moves that were best: a move not solved
in time counts for nothing, and the summary says how many moves the share is of.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from .errors import ConfigError, SearchAborted
from .history import players_json
from .rules import Board
from .stored import MatchRecord, RoundRecord

MARKS = ("best", "inaccuracy", "mistake", "unsolved")

Scorer = Callable[[Board, float], Dict[int, int]]
"""``(board, seconds) -> {column: exact score}``; raises :class:`SearchAborted` when out of time."""


def _engine_scores(board: Board, seconds: float) -> Dict[int, int]:
    from .engine import Limit, move_scores  # noqa: PLC0415 (only review needs the engine)

    try:
        return move_scores(board, limit=Limit(seconds=seconds))
    except ConfigError as exc:  # a board size the solver does not take (8 x 6): never solved
        raise SearchAborted(str(exc)) from None


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


@dataclass(frozen=True)
class MoveReview:
    """One move of the round: who played which column, and what the solver says of it."""

    ply: int
    """1-based: the round's first move is 1."""
    seat: int
    """The match player (1 or 2) who made it."""
    column: int
    """0-based."""
    scores: Optional[Dict[int, int]]
    """Every legal move's exact score (0-based column), ``None`` if not solved in time."""

    @property
    def score(self) -> Optional[int]:
        return None if self.scores is None else self.scores[self.column]

    @property
    def best_score(self) -> Optional[int]:
        return None if self.scores is None else max(self.scores.values())

    @property
    def best_columns(self) -> Tuple[int, ...]:
        if self.scores is None:
            return ()
        top = max(self.scores.values())
        return tuple(c for c in sorted(self.scores) if self.scores[c] == top)

    @property
    def mark(self) -> str:
        if self.score is None or self.best_score is None:
            return "unsolved"
        if self.score == self.best_score:
            return "best"
        return "inaccuracy" if _sign(self.score) == _sign(self.best_score) else "mistake"


@dataclass(frozen=True)
class Summary:
    """One player's marks over the round."""

    moves: int
    best: int
    inaccuracies: int
    mistakes: int
    unsolved: int

    @property
    def solved(self) -> int:
        """The moves whose position was solved: the ones :attr:`accuracy` counts."""
        return self.moves - self.unsolved

    @property
    def accuracy(self) -> Optional[float]:
        """Percent of solved moves that were best (``None`` if none was solved)."""
        return None if self.solved == 0 else 100.0 * self.best / self.solved


@dataclass(frozen=True)
class Review:
    match: MatchRecord
    round: RoundRecord
    moves: Tuple[MoveReview, ...]

    def summary(self, seat: int) -> Summary:
        marks = [m.mark for m in self.moves if m.seat == seat]
        return Summary(len(marks), marks.count("best"), marks.count("inaccuracy"), marks.count("mistake"),
                       marks.count("unsolved"))


def review_round(match: MatchRecord, rnd: RoundRecord, *, seconds: float,
                 progress: Optional[Callable[[int, int], None]] = None,
                 scorer: Scorer = _engine_scores) -> Review:
    """Score every move of ``rnd``; ``progress(done, total)`` is called before each position."""
    board = Board(match.columns, match.rows)
    reviewed: List[MoveReview] = []
    total = len(rnd.moves)
    for ply, char in enumerate(rnd.moves, start=1):
        if progress is not None:
            progress(ply - 1, total)
        column = int(char) - 1
        try:
            scores: Optional[Dict[int, int]] = scorer(board, seconds)
        except SearchAborted:
            scores = None
        reviewed.append(MoveReview(ply, rnd.seat(board.to_move), column, scores))
        board.play(column)
    if progress is not None:
        progress(total, total)
    return Review(match, rnd, tuple(reviewed))


def _signed(score: Optional[int]) -> str:
    return "?" if score is None else f"{score:+d}" if score else "0"


def text(review: Review) -> str:
    """The review as a table, then one summary line per player."""
    match, rnd = review.match, review.round
    names = {seat: match.label(seat) for seat in (1, 2)}
    width = max(6, *(len(n) for n in names.values()))
    lines = [f"round {rnd.id} (match {match.id}, round {rnd.number}): {names[1]} v {names[2]}, "
             f"{match.columns}x{match.rows}, {names[rnd.starter]} started, moves {rnd.moves}"]
    bests = ["" if m.scores is None else f"{','.join(str(c + 1) for c in m.best_columns)} ({_signed(m.best_score)})"
             for m in review.moves]
    best_width = max([10] + [len(b) + 1 for b in bests])
    lines.append(f"{'move':>4}  {'player':<{width}}  {'col':>3}  {'score':>5}  {'best':<{best_width}}  mark")
    for m, best in zip(review.moves, bests):
        mark = "not solved in time" if m.mark == "unsolved" else m.mark
        lines.append(f"{m.ply:>4}  {names[m.seat]:<{width}}  {m.column + 1:>3}  {_signed(m.score):>5}  "
                     f"{best:<{best_width}}  {mark}")
    for seat in (1, 2):
        s = review.summary(seat)
        accuracy = ("no move solved, no accuracy" if s.accuracy is None else
                    f"accuracy {s.accuracy:.0f}% (best in {s.best} of {_count(s.solved, 'solved move')})")
        unsolved = f", {s.unsolved} not solved" if s.unsolved else ""
        lines.append(f"{names[seat]}: {_count(s.moves, 'move')}, {s.best} best, "
                     f"{_count(s.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
                     f"{_count(s.mistakes, 'mistake')}{unsolved}; {accuracy}")
    return "\n".join(lines)


def _count(n: int, one: str, many: str = "") -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def as_json(review: Review) -> Dict[str, Any]:
    """The review as a JSON-ready dict (columns 1-based)."""
    match, rnd = review.match, review.round
    summary = {}
    for seat in (1, 2):
        s = review.summary(seat)
        summary[str(seat)] = {"moves": s.moves, "best": s.best, "inaccuracies": s.inaccuracies,
                              "mistakes": s.mistakes, "unsolved": s.unsolved, "solved": s.solved,
                              "accuracy": None if s.accuracy is None else round(s.accuracy, 1)}
    return {
        "round": rnd.id, "match": match.id, "number": rnd.number, "board": [match.columns, match.rows],
        "players": players_json(match), "starter": rnd.starter, "moves": rnd.moves, "result": rnd.result,
        "winner": rnd.winner,
        "review": [{"ply": m.ply, "player": m.seat, "column": m.column + 1, "score": m.score,
                    "best_score": m.best_score, "best": [c + 1 for c in m.best_columns], "mark": m.mark,
                    "scores": None if m.scores is None else {str(c + 1): s for c, s in sorted(m.scores.items())}}
                   for m in review.moves],
        "summary": summary,
    }
