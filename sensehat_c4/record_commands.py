"""The record commands of ``sensehat-c4``: ``history``, ``stats``, ``replay ID`` and ``review ID``.

Each takes ``--db PATH`` (else ``$SENSEHAT_C4_DB``, else the XDG data directory).  A
missing or empty database holds no matches.  One that cannot be read or is not ours, or an
ID that names no round that can be shown, is one line on stderr and exit 2.  A row that makes
no sense is skipped with one line on stderr, the rest is shown, and the exit is 1.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Dict, List, Sequence, TextIO

from gamelib import app, backends
from gamelib.app import Parser

from . import history, review
from .progress import ProgressLine
from .computer import LEVELS
from .records import DB_ENV, Records, RecordsError, default_path, load_round

PROG = "sensehat-c4"
REVIEW_SECONDS = 10.0
"""``review``'s default time limit per position."""
HISTORY_LIMIT = 10


def _parser(command: str, description: str) -> Parser:
    parser = Parser(prog=f"{PROG} {command}", description=description)
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help=f"the games database (default: ${DB_ENV}, else {default_path({'HOME': '~'})})")
    return parser


def _round_id(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="a round's ID from 'history', or 'last'")


def _count(text: str) -> int:
    if not text.isdigit() or not text.isascii():
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def _fail(command: str, exc: RecordsError) -> int:
    print(f"{PROG} {command}: {exc}", file=sys.stderr)
    return app.EXIT_USAGE


def _done(command: str, notes: List[str]) -> int:
    """Each note (a row skipped, rounds that may be missing) as one line; exit 1 if there was one."""
    for note in notes:
        app.report(f"{PROG} {command}", note)
    return app.EXIT_ERROR if notes else app.EXIT_OK


def run_history(argv: Sequence[str]) -> int:
    parser = _parser("history", "Recent matches and their rounds, newest first.")
    parser.add_argument("--limit", type=_count, default=HISTORY_LIMIT, metavar="N",
                        help=f"show the last N matches (default: {HISTORY_LIMIT}; 0: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON array")
    args = parser.parse_args(argv)
    try:
        with Records(args.db) as stored:
            matches = stored.matches(args.limit or None)
    except RecordsError as exc:
        return _fail("history", exc)
    print(json.dumps(history.history_json(matches)) if args.json else history.history_text(matches, stored.empty))
    return _done("history", stored.notes)


def run_stats(argv: Sequence[str]) -> int:
    parser = _parser("stats", "Wins, draws and losses per named player and against each computer level.")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        with Records(args.db) as stored:
            result = history.stats(stored.matches(), list(LEVELS))
    except RecordsError as exc:
        return _fail("stats", exc)
    print(json.dumps(history.stats_json(result)) if args.json else history.stats_text(result))
    return _done("stats", stored.notes)


def run_replay(argv: Sequence[str]) -> int:
    parser = _parser("replay", "Play a stored round again on the LEDs: right/left step forward/back, "
                     "middle pauses (at the end: again from the start), up leaves.")
    _round_id(parser)
    backends.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        match, rnd, notes = load_round(args.db, args.id)
    except RecordsError as exc:
        return _fail("replay", exc)
    from .replay import replay  # noqa: PLC0415

    def main() -> int:
        with backends.from_args(args, notice=lambda m: print(f"{PROG}: {m}", file=sys.stderr)) as backend:
            replay(backend, match, rnd)
        return _done("replay", notes)

    return app.run(main, PROG)


def review_progress(stream: TextIO) -> ProgressLine:
    """``reviewing: move 3 of 17`` on a terminal, redrawn in place (nothing elsewhere)."""
    return ProgressLine(stream, every=0.0, text=lambda done, total, _: f"reviewing: move {done + 1} of {total}")


def run_review(argv: Sequence[str]) -> int:
    parser = _parser("review", "Every move of a stored round with its exact score from the solver: best, "
                     "inaccuracy (keeps the win, draw or loss but scores worse) or mistake (changes it).")
    _round_id(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--time-limit", type=app.seconds(3600), default=REVIEW_SECONDS, metavar="SECONDS",
                        help=f"per position; one not solved in time is reported so (default: {REVIEW_SECONDS:g})")
    args = parser.parse_args(argv)
    try:
        match, rnd, notes = load_round(args.db, args.id)
    except RecordsError as exc:
        return _fail("review", exc)

    def main() -> int:
        with review_progress(sys.stderr) as line:  # erased before the review is printed
            result = review.review_round(match, rnd, seconds=args.time_limit,
                                         progress=lambda done, total: line(done, total, 0) if done < total else None)
        print(json.dumps(review.as_json(result)) if args.json else review.text(result))
        return _done("review", notes)

    return app.run(main, PROG)


COMMANDS: Dict[str, Callable[[Sequence[str]], int]] = {
    "history": run_history, "stats": run_stats, "replay": run_replay, "review": run_review,
}
