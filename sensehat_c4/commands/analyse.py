"""``sensehat-c4 analyse MOVES``: a position described as text or JSON, its moves scored with ``--solve``."""
from __future__ import annotations

import json
import sys
from typing import Sequence

from gamelib import app
from gamelib.app import Parser
from gamelib.errors import UsageError

from ..errors import ConfigError, SearchAborted
from ..i18n import _
from ..rules import Size
from ..study import analysis
from ..study.progress import ProgressLine
from .common import add_board, add_threads, parser, seconds, show, use_threads

SOLVE_SECONDS = 30.0


def analyse_parser() -> Parser:
    args_parser = parser("analyse", _("Describe a position given as a move list "
                                      "(1-based column digits, player 1 first, e.g. 4453)."))
    args_parser.add_argument("moves", nargs="?", default="", metavar="MOVES")
    add_board(args_parser, Size())
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    args_parser.add_argument("--solve", action="store_true",
                             help=_("add every legal move's exact score and the best move"))
    args_parser.add_argument("--time-limit", type=seconds, default=SOLVE_SECONDS, metavar="SECONDS",
                             help=_("give up solving after this long, exit 3 (default: {seconds:g})").format(
                                 seconds=SOLVE_SECONDS))
    add_threads(args_parser)
    return args_parser


def run(argv: Sequence[str]) -> int:
    args = analyse_parser().parse_args(argv)
    use_threads(args.threads)
    board = args.board.from_moves(args.moves.strip())   # MoveListError: one line, exit 2
    scores = engine = None
    if args.solve:
        from ..engine import Limit, default_oracle, move_scores  # noqa: PLC0415 (start-up: only --solve needs it)

        try:
            with ProgressLine(sys.stderr) as line:  # erased before anything else is printed
                scores = move_scores(board, limit=Limit(seconds=args.time_limit), progress=line)
            engine = default_oracle(board.layout).solver.name
        except SearchAborted:
            raise SearchAborted(_("not solved within {seconds:g} s (try a longer --time-limit)").format(
                seconds=args.time_limit)) from None
        except ConfigError as exc:  # a board the solver does not take (none of the offered sizes today)
            raise UsageError(_("--solve: {error}").format(error=exc)) from None
    show(json.dumps(analysis.describe(board, scores, engine)) if args.json else analysis.text(board, scores))
    return app.EXIT_OK
