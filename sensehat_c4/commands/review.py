"""``sensehat-c4 review ID``: every move of a stored round against the solver's exact scores."""
from __future__ import annotations

import json
import sys
from typing import Sequence, TextIO

from gamelib import app

from .. import review
from ..progress import ProgressLine
from ..records import load_round
from .common import Command, add_db, add_round_id, done, parser, show

SECONDS = 10.0
"""``review``'s default time limit per position."""


def progress(stream: TextIO) -> ProgressLine:
    """``reviewing: move 3 of 17`` on a terminal, redrawn in place (nothing elsewhere)."""
    return ProgressLine(stream, every=0.0, text=lambda done, total, _: f"reviewing: move {done + 1} of {total}")


def run(argv: Sequence[str]) -> int:
    args_parser = parser("review", "Every move of a stored round with its exact score from the solver: best, "
                         "inaccuracy (keeps the win, draw or loss but scores worse) or mistake (changes it).")
    add_db(args_parser)
    add_round_id(args_parser)
    args_parser.add_argument("--json", action="store_true", help="print one JSON object")
    args_parser.add_argument("--time-limit", type=app.seconds(3600), default=SECONDS, metavar="SECONDS",
                             help=f"per position; one not solved in time is reported so (default: {SECONDS:g})")
    args = args_parser.parse_args(argv)
    match, rnd, notes = load_round(args.db, args.id)
    with progress(sys.stderr) as line:  # erased before the review is printed
        result = review.review_round(match, rnd, seconds=args.time_limit,
                                     progress=lambda moved, total: line(moved, total, 0) if moved < total else None)
    show(json.dumps(review.as_json(result)) if args.json else review.text(result))
    return done("review", notes)


COMMAND = Command("review", "review ID", "every move of a stored round against the solver", run)
