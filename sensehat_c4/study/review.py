"""``sensehat-c4 review``: every move of a stored round against the solver's exact scores.

For each position of the round the engine scores every legal move (the convention of
``analyse --solve``: positive wins, 0 draws, negative loses, a faster win scores more).
A score's *outcome* is its sign: a win, a draw or a loss for the side to move.

The move played gets one mark, by the first of these rules that holds (``best`` is
the position's best score, ``played`` the move's; this is the one statement of the rules,
which docs/guide/review.md repeats):

* ``unsolved``: the position was not solved within the time limit (never guessed);
* ``blunder``: a win turned into a loss (the outcome drops two steps);
* ``mistake``: the outcome drops one step: a win into a draw, or a draw into a loss;
* ``inaccuracy``: the outcome is kept but ``played < best``: a slower win or a quicker
  loss.  Its :attr:`MoveReview.distance` is ``best - played``: each point is one move of
  the winner's, so the win comes that many moves later, or the loss that many sooner.
  (Every move that keeps a draw scores 0, so a drawn position has no inaccuracy.)
* ``only move``: ``played == best``, and every other legal move would have changed the
  outcome (so there is at least one other).  A lost position has none: every move there
  keeps the loss.  Neither has a position with a single legal column;
* ``best``: ``played == best`` otherwise.

*Missed win* is a flag beside the mark, not a mark of its own: the position was won and
the move played does not win (so the move is a mistake, to a draw, or a blunder).

A player's accuracy is the share of their solved moves that were best (``best`` or
``only move``): a move not solved in time counts for nothing, and the summary says how
many moves the share is of.

The round's *values* (:meth:`Review.values`) are, for each position from the empty board
to the last, its exact score for the player who started (the board's player 1), from
which :func:`value_text` says ``win in 3``, ``draw`` or ``loss in 2``; the *key moments*
are the moves that changed the outcome (mistakes and blunders).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from gamelib.jsonvalue import JSON, JSONObject

from ..errors import ConfigError, SearchAborted
from ..i18n import N_, _, ngettext
from ..records import MatchRecord, RoundRecord
from ..rules import Board
from .history import helps_text, players_json

if TYPE_CHECKING:
    from ..engine.oracle import Oracle

BEST = "best"
ONLY_MOVE = "only move"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
UNSOLVED = "unsolved"
MARKS = (BEST, ONLY_MOVE, INACCURACY, MISTAKE, BLUNDER, UNSOLVED)
CHANGED = (MISTAKE, BLUNDER)
"""The marks of a move that changed the outcome: the key moments."""
MARK_WORDS: Dict[str, str] = {BEST: N_("best"), ONLY_MOVE: N_("only move"), INACCURACY: N_("inaccuracy"),
                              MISTAKE: N_("mistake"), BLUNDER: N_("blunder"), UNSOLVED: N_("not solved in time")}
"""Each mark (a value: ``review --json``'s ``mark``) as the table says it."""

Scorer = Callable[[Board, float], Dict[int, int]]
"""``(board, seconds) -> {column: exact score}``; raises :class:`SearchAborted` when out of time."""


def engine_scorer(oracle: Optional[Callable[[Board], Oracle]] = None, stop: Optional[threading.Event] = None) -> Scorer:
    """The engine's exact scores (``engine.move_scores``) as a :data:`Scorer`: with the process's
    default oracle, or ``oracle(board)``'s (one of the caller's own, so a review does not wait for
    a game's search); ``stop`` set ends a search at once (the move is then ``unsolved``)."""
    def scores(board: Board, seconds: float) -> Dict[int, int]:
        # start-up: the launcher's menu loads the training entry, which imports this module; the engine when it scores
        from ..engine import Limit, move_scores  # noqa: PLC0415

        try:
            return move_scores(board, limit=Limit(seconds=seconds, stop=stop),
                               oracle=None if oracle is None else oracle(board))
        except ConfigError as exc:  # a board size the solver does not take: never solved
            raise SearchAborted(str(exc)) from None

    return scores


_engine_scores = engine_scorer()


def outcome(score: int) -> int:
    """1 a win, 0 a draw, -1 a loss (the sign of ``score``)."""
    return (score > 0) - (score < 0)


def mark(scores: Mapping[int, int], column: int) -> str:
    """The mark of playing ``column`` where the legal moves score ``scores`` (see the module)."""
    best = max(scores.values())
    played = scores[column]
    drop = outcome(best) - outcome(played)
    if drop == 2:
        return BLUNDER
    if drop == 1:
        return MISTAKE
    if played < best:
        return INACCURACY
    keeping = [c for c, s in scores.items() if outcome(s) == outcome(best)]
    return ONLY_MOVE if len(keeping) == 1 < len(scores) else BEST


def ending(cells: int, stones: int, score: int) -> Tuple[int, int]:
    """For a position of ``stones`` stones whose exact score is ``score`` (not 0; for the side to
    move): the number of the winning move in the round (1-based), and how many moves the
    winner still makes, the winning one included (0 once it is on the board).

    A win scores ``(e + 1) // 2``, ``e`` the empty cells just before the winning stone; the
    winner is to move when ``stones`` has the parity of the stones before that stone.
    """
    size = abs(score)
    before = next(b for b in (cells - 2 * size, cells - 2 * size + 1) if (b - stones) % 2 == (score < 0))
    first = stones if (before - stones) % 2 == 0 else stones + 1
    return before + 1, max(0, (before - first) // 2 + 1)


def value_text(cells: int, stones: int, value: Optional[int]) -> str:
    """A position's value for the player who started: ``win in 3`` (the winner's moves to come),
    ``draw``, ``loss in 2``; ``won``/``lost`` once the winning stone is down; ``?`` if unknown."""
    if value is None:
        return "?"
    if value == 0:
        return "draw"
    _, moves = ending(cells, stones, value if stones % 2 == 0 else -value)
    word = "win" if value > 0 else "loss"
    return ("won" if value > 0 else "lost") if moves == 0 else f"{word} in {moves}"


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
        """The columns of the best score."""
        if self.scores is None:
            return ()
        top = max(self.scores.values())
        return tuple(c for c in sorted(self.scores) if self.scores[c] == top)

    @property
    def keeping(self) -> Tuple[int, ...]:
        """The columns that keep the position's outcome (the winning ones in a won position, the
        drawing ones in a drawn one; every one in a lost one)."""
        if self.scores is None:
            return ()
        top = outcome(max(self.scores.values()))
        return tuple(c for c in sorted(self.scores) if outcome(self.scores[c]) == top)

    @property
    def mark(self) -> str:
        return UNSOLVED if self.scores is None else mark(self.scores, self.column)

    @property
    def missed_win(self) -> bool:
        """The position was won and the move played does not win."""
        return self.score is not None and self.best_score is not None and self.best_score > 0 >= self.score

    @property
    def distance(self) -> Optional[int]:
        """``best - played``: for an inaccuracy, how many moves later the win (or sooner the loss) comes."""
        return None if self.score is None or self.best_score is None else self.best_score - self.score


@dataclass(frozen=True)
class Summary:
    """One player's marks over the round (``best`` counts the only moves too)."""

    moves: int
    best: int
    inaccuracies: int
    mistakes: int
    unsolved: int
    blunders: int = 0
    only_moves: int = 0
    missed_wins: int = 0

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

    @property
    def cells(self) -> int:
        return self.match.columns * self.match.rows

    def summary(self, seat: int) -> Summary:
        mine = [m for m in self.moves if m.seat == seat]
        marks = [m.mark for m in mine]
        return Summary(len(marks), marks.count(BEST) + marks.count(ONLY_MOVE), marks.count(INACCURACY),
                       marks.count(MISTAKE), marks.count(UNSOLVED), marks.count(BLUNDER), marks.count(ONLY_MOVE),
                       sum(m.missed_win for m in mine))

    def values(self) -> Tuple[Optional[int], ...]:
        """Each position's exact score for the player who started: ``values()[0]`` before the first
        move, ``values()[k]`` after move ``k``; ``None`` where neither the move's position nor the
        next one was solved."""
        def first(ply: int, score: int) -> int:  # a score for the mover of move ``ply``, as the starter's
            return score if ply % 2 == 1 else -score

        moves = self.moves
        values: List[Optional[int]] = [None] * (len(moves) + 1)
        if moves and moves[0].best_score is not None:
            values[0] = moves[0].best_score
        for index, move in enumerate(moves):
            after = move.score
            if after is None and index + 1 < len(moves) and moves[index + 1].best_score is not None:
                after = -moves[index + 1].best_score  # type: ignore[operator]
            values[index + 1] = None if after is None else first(move.ply, after)
        return tuple(values)

    def key_moments(self) -> Tuple[int, ...]:
        """The moves (their ``ply``) that changed the outcome: the mistakes and blunders."""
        return tuple(m.ply for m in self.moves if m.mark in CHANGED)

    def value_texts(self) -> Tuple[str, ...]:
        """:func:`value_text` of each of :meth:`values`."""
        return tuple(value_text(self.cells, stones, v) for stones, v in enumerate(self.values()))


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


def mark_text(move: MoveReview) -> str:
    """The mark as the table says it: ``mistake (missed win)``, ``not solved in time``."""
    word = _(MARK_WORDS[move.mark])
    if move.mark != UNSOLVED and move.missed_win:
        return _("{mark} (missed win)").format(mark=word)
    return word


def text(review: Review, graph: str = "") -> str:
    """The review as a table, then ``graph`` (if any), then one summary line per player."""
    table, summary = text_parts(review)
    return "\n".join([table, graph, summary] if graph else [table, summary])


def text_parts(review: Review) -> Tuple[str, str]:
    """The review's table (a heading, then a line per move) and its summary (a line per player)."""
    match, rnd = review.match, review.round
    names = {seat: match.label(seat) for seat in (1, 2)}
    lines = [_("round {id} (match {match}, round {number}): {one} v {two}, {columns}x{rows}, {starter} started, "
               "moves {moves}").format(id=rnd.id, match=match.id, number=rnd.number, one=names[1], two=names[2],
                                       columns=match.columns, rows=match.rows, starter=names[rnd.starter],
                                       moves=rnd.moves)
             + (_(", {helps}").format(helps=helps_text(rnd)) if rnd.helped else "")]
    bests = ["" if m.scores is None else f"{','.join(str(c + 1) for c in m.best_columns)} ({_signed(m.best_score)})"
             for m in review.moves]
    heads = (_("move"), _("player"), _("col"), _("score"), _("best"), _("mark"))   # never inside an f-string:
    # Python 3.12's tokenizer shows Babel the calls in an f-string, older ones do not (the templates would differ)
    rows = [(str(m.ply), names[m.seat], str(m.column + 1), _signed(m.score), best, mark_text(m))
            for m, best in zip(review.moves, bests)]
    lines += table(heads, rows, right=(True, False, True, True, False, False), least=(4, 6, 3, 5, 10, 0),
                   spare=(0, 0, 0, 0, 1, 0))
    return "\n".join(lines), "\n".join(summary_text(names[seat], review.summary(seat)) for seat in (1, 2))


def table(heads: Sequence[str], rows: Sequence[Sequence[str]], *, right: Sequence[bool], least: Sequence[int],
          spare: Sequence[int]) -> List[str]:
    """``heads`` over ``rows``, columns two spaces apart, each as wide as its heading (its words, in any
    language) or its widest value and ``spare`` spaces, at least its ``least``; a ``right`` column's cells
    right-aligned; the last column not padded."""
    widths = [max(low, len(heads[index]), *(len(row[index]) + more for row in rows))
              for index, (low, more) in enumerate(zip(least, spare))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.rjust(wide) if on_right else cell.ljust(wide)
                         for cell, wide, on_right in zip(cells, widths, right)).rstrip()

    return [line(heads), *(line(row) for row in rows)]


def summary_text(name: str, s: Summary) -> str:
    """``Ann: 20 moves, 15 best (2 only moves), 3 inaccuracies, 1 mistake, 1 blunder, 2 missed wins;
    accuracy 75% (best in 15 of 20 solved moves)`` (only moves, missed wins and unsolved ones
    said only when there are some)."""
    accuracy = (_("no move solved, no accuracy") if s.accuracy is None else
                ngettext("accuracy {accuracy:.0f}% (best in {best} of {n} solved move)",
                         "accuracy {accuracy:.0f}% (best in {best} of {n} solved moves)", s.solved).format(
                    accuracy=s.accuracy, best=s.best, n=s.solved))
    only = ngettext(" ({n} only move)", " ({n} only moves)", s.only_moves).format(n=s.only_moves) \
        if s.only_moves else ""
    missed = ngettext(", {n} missed win", ", {n} missed wins", s.missed_wins).format(n=s.missed_wins) \
        if s.missed_wins else ""
    unsolved = ngettext(", {n} not solved", ", {n} not solved", s.unsolved).format(n=s.unsolved) if s.unsolved else ""
    return _("{name}: {moves}, {best}{only}, {inaccuracies}, {mistakes}, {blunders}{missed}{unsolved}; "
             "{accuracy}").format(
        name=name, moves=ngettext("{n} move", "{n} moves", s.moves).format(n=s.moves),
        best=ngettext("{n} best", "{n} best", s.best).format(n=s.best), only=only,
        inaccuracies=ngettext("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies).format(n=s.inaccuracies),
        mistakes=ngettext("{n} mistake", "{n} mistakes", s.mistakes).format(n=s.mistakes),
        blunders=ngettext("{n} blunder", "{n} blunders", s.blunders).format(n=s.blunders),
        missed=missed, unsolved=unsolved, accuracy=accuracy)


def summary_json(s: Summary) -> JSONObject:
    return {"moves": s.moves, "best": s.best, "only_moves": s.only_moves, "inaccuracies": s.inaccuracies,
            "mistakes": s.mistakes, "blunders": s.blunders, "missed_wins": s.missed_wins, "unsolved": s.unsolved,
            "solved": s.solved, "accuracy": None if s.accuracy is None else round(s.accuracy, 1)}


def as_json(review: Review) -> JSONObject:
    """The review as a JSON-ready dict (columns 1-based).

    ``values`` has one entry per position (before the first move, then after each move):
    ``null`` if unknown, else the exact ``score`` for the player who started, its ``text``
    (:func:`value_text`), ``end``, the number of the move that ends the round under
    perfect play (the last cell's for a draw), and ``in``, the moves the winner still makes
    (0 once it has won; ``null`` for a draw).
    """
    match, rnd = review.match, review.round
    values: List[JSON] = []
    for stones, (value, words) in enumerate(zip(review.values(), review.value_texts())):
        if value is None:
            values.append(None)
            continue
        end, moves = (review.cells, None) if value == 0 else ending(review.cells, stones,
                                                                   value if stones % 2 == 0 else -value)
        values.append({"score": value, "text": words, "end": end, "in": moves})
    return {
        "round": rnd.id, "match": match.id, "number": rnd.number, "board": [match.columns, match.rows],
        "players": players_json(match), "starter": rnd.starter, "moves": rnd.moves, "result": rnd.result.value,
        "winner": rnd.winner, "hints": rnd.hints, "takebacks": rnd.takebacks,
        "review": [{"ply": m.ply, "player": m.seat, "column": m.column + 1, "score": m.score,
                    "best_score": m.best_score, "best": [c + 1 for c in m.best_columns],
                    "keeping": [c + 1 for c in m.keeping], "mark": m.mark, "missed_win": m.missed_win,
                    "scores": None if m.scores is None else {str(c + 1): s for c, s in sorted(m.scores.items())}}
                   for m in review.moves],
        "values": values,
        "key_moments": list(review.key_moments()),
        "summary": {str(seat): summary_json(review.summary(seat)) for seat in (1, 2)},
    }
