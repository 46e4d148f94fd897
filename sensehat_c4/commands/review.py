"""``sensehat-c4 review ID``: every move of a stored round against the solver's exact scores;
``--train``: find the better move on the LEDs."""
from __future__ import annotations

import json
import os
import sys
from typing import Optional, Sequence, TextIO, Tuple

from gamelib import app, backends
from gamelib.backends.terminal_screen import ColourMode, colour_mode

from ..i18n import _
from ..records import load_round
from ..study import review
from ..study.graph import BARS, graph
from ..study.progress import ProgressLine
from ..study.training import positions, train
from .common import PROG, add_db, add_round_id, add_threads, done, parser, show, use_threads

SECONDS = 10.0
"""``review``'s default time limit per position."""


def progress(stream: TextIO) -> ProgressLine:
    """``reviewing: move 3 of 17`` on a terminal, redrawn in place (nothing elsewhere)."""
    return ProgressLine(stream, every=0.0,
                        text=lambda done, total, nodes: _("reviewing: move {move} of {total}").format(
                            move=done + 1, total=total))


def graph_style(stream: TextIO) -> Tuple[bool, Optional[ColourMode]]:
    """How ``stream`` takes the graph: UTF-8 bars or not, and the colour mode (``None``: no colour,
    as when it is not a terminal, or ``NO_COLOR`` is set, or ``TERM`` is dumb)."""
    try:
        (BARS + "─").encode(stream.encoding or "ascii")
        utf8 = True
    except (LookupError, UnicodeEncodeError):
        utf8 = False
    mode = colour_mode(os.environ) if stream.isatty() else ColourMode.PLAIN
    return utf8, mode if mode.coloured else None


def run(argv: Sequence[str]) -> int:
    args_parser = parser("review", _("Every move of a stored round with its exact score from the solver: best, "
                                     "only move, inaccuracy (keeps the win, draw or loss but scores worse), mistake "
                                     "(the outcome drops a step) or blunder (a win into a loss), and a graph of the "
                                     "outcome; --train: find the better move where it changed, on the LEDs."))
    add_db(args_parser)
    add_round_id(args_parser)
    how = args_parser.add_mutually_exclusive_group()
    how.add_argument("--json", action="store_true", help=_("print one JSON object"))
    args_parser.add_argument("--time-limit", type=app.seconds(3600), default=SECONDS, metavar="SECONDS",
                             help=_("per position; one not solved in time is reported so (default: "
                                    "{seconds:g})").format(seconds=SECONDS))
    how.add_argument("--train", action="store_true",
                     help=_("on the LEDs: each position where a move changed the outcome, to find a better move "
                            "(left/right, middle or down tries, up leaves)"))
    add_threads(args_parser)
    backends.add_arguments(args_parser)
    args = args_parser.parse_args(argv)
    use_threads(args.threads)
    match, rnd, notes = load_round(args.db, args.id)
    with progress(sys.stderr) as line:  # erased before the review is printed
        result = review.review_round(match, rnd, seconds=args.time_limit,
                                     progress=lambda moved, total: line(moved, total, 0) if moved < total else None)
    if args.train:

        if not positions(result):
            show(_("round {round}: no move changed the outcome, nothing to train on").format(round=rnd.id))
        else:
            with backends.from_args(args, notice=lambda message: app.report(PROG, message)) as backend:
                trained = train(backend, result)
            show(trained.line)
    elif args.json:
        show(json.dumps(review.as_json(result)))
    else:
        table, summary = review.text_parts(result)
        show(table)
        utf8, colour = graph_style(sys.stdout)
        print(graph(result, utf8=utf8, colour=colour))   # its own colour codes: the names in it were checked when read
        show(summary)
    return done("review", notes)
