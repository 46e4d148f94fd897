"""The ``sensehat-c4`` command: play (the default), ``analyse MOVES``, or the record commands
(``history``, ``stats``, ``replay ID``, ``review ID``: :mod:`.record_commands`)."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from gamelib import app, backends
from gamelib.app import Parser
from gamelib.colours import BLACK, BLUE, NAMES, RGB, ColourError, led_colour, parse_colour
from gamelib.files import state_home
from gamelib.launcher.log import LauncherLog
from gamelib.players import MAX_LENGTH as MAX_NAME, parse_names

from . import __version__, analysis
from .computer import DEFAULT_SECONDS, OPPONENTS, PERFECT_SECONDS, Computer, sizes_for
from .controller import FIRST_CHOICES, MatchOptions, MatchResult, Timing
from .errors import BoardSizeError, ConfigError, MoveListError, SearchAborted
from .game import play_matches, print_result
from .progress import ProgressLine
from .record_commands import COMMANDS
from .records import DB_ENV, Recorder
from .rules import Size

PROG = "sensehat-c4"
EXIT_UNSOLVED = 3
"""``analyse --solve`` could not finish within its time limit."""
SOLVE_SECONDS = 30.0


def refusal(colour: RGB) -> Optional[str]:
    """Why ``colour`` cannot be a player's, or ``None``; compared as the LEDs show it
    (#0000fc is the field's blue there, #000003 is dark)."""
    if led_colour(colour) == led_colour(BLUE):
        return "is the field's blue"
    if led_colour(colour) == BLACK:
        return "is black, which is an empty LED"
    return None


PLAYER_COLOUR_NAMES = [name for name, colour in NAMES.items() if refusal(colour) is None]


def parse_colours(text: str) -> Tuple[RGB, RGB]:
    """``"red,yellow"`` or ``"#ff0000,#ffff00"`` -> two colours the board can show apart."""
    parts = [p for p in text.split(",")]
    if len(parts) != 2:
        raise ConfigError(f"--colors takes two colours separated by a comma (not {text!r})")
    try:
        p1, p2 = (parse_colour(p, PLAYER_COLOUR_NAMES) for p in parts)
    except ColourError as exc:
        raise ConfigError(f"--colors: {exc}") from exc
    for name, colour in (("player 1", p1), ("player 2", p2)):
        why = refusal(colour)
        if why is not None:
            raise ConfigError(f"--colors: {name}'s colour {why}; pick another")
    if led_colour(p1) == led_colour(p2):
        raise ConfigError("--colors: the two players need different colours")
    return p1, p2


def _positive_int(text: str, maximum: Optional[int] = None) -> int:
    """An argparse ``type``: a whole number from 0 (up to ``maximum`` if given)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0 or (maximum is not None and value > maximum):
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text!r}" if maximum is None
                                         else f"must be from 0 to {maximum}: {text!r}")
    return value


MAX_FALL_MS = 1000
"""The slowest fall ``--fall-ms`` allows: a second a row (more is no game, and a time past
``time_t`` made ``select()`` raise)."""


_seconds = app.seconds(3600)


def _board_size(text: str) -> Size:
    try:
        return Size.parse(text)
    except BoardSizeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_board(parser: Parser, default: Optional[Size], more: str = "") -> None:
    parser.add_argument("--board", type=_board_size, default=default, metavar="COLSxROWS",
                        help=f"the board's size: 4-8 columns by 4-6 rows (default: 7x6{more})")


def play_parser() -> Parser:
    parser = Parser(prog=PROG, description="Connect 4 on the Sense HAT's LEDs and joystick. "
                    "Left/right move, down or middle drops, up abandons the match (up again to confirm). "
                    f"'{PROG} analyse MOVES' describes a position; '{PROG} history', 'stats', "
                    "'replay ID' and 'review ID' show the games kept.")
    backends.add_arguments(parser)
    parser.add_argument("--colors", "--colours", dest="colours", default="red,yellow", metavar="P1,P2",
                        help="the players' colours, names or hex (default: red,yellow)")
    parser.add_argument("--first", choices=FIRST_CHOICES, default="alternate",
                        help="who starts each round (default: alternate, player 1 first)")
    parser.add_argument("--opponent", choices=OPPONENTS, default=None,
                        help="human (two players) or the computer's level; without this option the "
                        "players choose with the joystick before each match (2P, then levels 1-4)")
    parser.add_argument("--computer-plays", choices=("1", "2", "alternate"), default="2",
                        help="which player the computer is (default: 2; alternate swaps every match)")
    parser.add_argument("--think", type=_seconds, default=None, metavar="SECONDS",
                        help=f"the computer's thinking budget per move (default: {DEFAULT_SECONDS}; "
                        f"{PERFECT_SECONDS:g} for perfect)")
    parser.add_argument("--matches", type=_positive_int, default=0, metavar="N",
                        help="stop after N matches (default: 0, play match after match)")
    parser.add_argument("--fall-ms", type=lambda text: _positive_int(text, MAX_FALL_MS), default=30, metavar="MS",
                        help=f"milliseconds per row of a falling token, 0 to {MAX_FALL_MS} (default: 30)")
    _add_board(parser, None, "; without this option or --opponent the players choose it with the "
               "joystick after the opponent")
    parser.add_argument("--names", default=None, metavar="NAME1,NAME2",
                        help="the players' names, for the printed results, the records and the winner's "
                        f"name scrolling on the LEDs (at most {MAX_NAME} characters each)")
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help=f"the games database (default: ${DB_ENV}, else ~/.local/share/sensehat-c4/games.db)")
    parser.add_argument("--version", action=VersionAction)
    return parser


class VersionAction(argparse.Action):
    """``--version``: the version and which solver core runs (``native`` or ``python``)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and the solver core in use, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: Optional[str] = None) -> None:
        from .engine.cores import core_name  # noqa: PLC0415 (loads the native core, if any)

        print(f"{PROG} {__version__} (solver core: {core_name()})")
        parser.exit()


def analyse_parser() -> Parser:
    parser = Parser(prog=f"{PROG} analyse", description="Describe a position given as a move list "
                    "(1-based column digits, player 1 first, e.g. 4453).")
    parser.add_argument("moves", nargs="?", default="", metavar="MOVES")
    _add_board(parser, Size())
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--solve", action="store_true",
                        help="add every legal move's exact score and the best move")
    parser.add_argument("--time-limit", type=_seconds, default=SOLVE_SECONDS, metavar="SECONDS",
                        help=f"give up solving after this long, exit 3 (default: {SOLVE_SECONDS:g})")
    return parser


def run_analyse(argv: Sequence[str]) -> int:
    args = analyse_parser().parse_args(argv)
    try:
        board = args.board.from_moves(args.moves.strip())
    except MoveListError as exc:
        app.report(f"{PROG} analyse", str(exc))
        return app.EXIT_USAGE
    scores = engine = None
    if args.solve:
        from .engine import Limit, default_oracle, move_scores  # noqa: PLC0415 (only analyse --solve needs the engine)

        try:
            with ProgressLine(sys.stderr) as line:  # erased before anything else is printed
                scores = move_scores(board, limit=Limit(seconds=args.time_limit), progress=line)
            engine = default_oracle(board.layout).solver.name
        except SearchAborted:
            app.report(f"{PROG} analyse", f"not solved within {args.time_limit:g} s (try a longer --time-limit)")
            return EXIT_UNSOLVED
        except ConfigError as exc:  # a board size the solver does not take (8 x 6)
            app.report(f"{PROG} analyse", f"--solve: {exc}")
            return app.EXIT_USAGE
    print(json.dumps(analysis.describe(board, scores, engine)) if args.json else analysis.text(board, scores))
    return app.EXIT_OK


def run_play(argv: Sequence[str]) -> int:
    parser = play_parser()
    args = parser.parse_args(argv)
    try:
        options = MatchOptions(colours=parse_colours(args.colours), first=args.first,
                               timing=Timing(fall_row=args.fall_ms / 1000), size=args.board or Size(),
                               names=(None, None) if args.names is None else parse_names(args.names))
    except ConfigError as exc:
        parser.error(str(exc))
    if args.opponent and args.board and args.board not in sizes_for(args.opponent):
        offered = " ".join(str(size) for size in sizes_for(args.opponent))
        parser.error(f"--opponent {args.opponent} plays on the boards {offered} only (not {args.board})")

    def notice(message: str) -> None:
        app.report(PROG, message)

    def report(number: int, computer: Optional[Computer], result: MatchResult) -> None:
        print_result(number, computer, result, options.names)

    def main() -> int:
        # the log (the recorder's one line) as the launcher routes its own: never over the board
        with LauncherLog("warning", state_home() / PROG / f"{PROG}.log", prog=PROG) as logs, \
                backends.from_args(args, notice=notice) as backend, contextlib.closing(Recorder(args.db)) as recorder:
            if backend.name == "terminal":
                logs.aside()
            play_matches(backend, options, opponent=args.opponent, computer_plays=args.computer_plays,
                         size=args.board, think=args.think, matches=args.matches, report=report,
                         recorder=recorder)
        return app.EXIT_OK

    return app.run(main, PROG)


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``sensehat-c4`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["analyse"] or argv[:1] == ["analyze"]:
        return run_analyse(argv[1:])
    if argv[:1] and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    if argv[:1] == ["play"]:
        argv = argv[1:]
    return run_play(argv)
