"""The ``sensehat-c4`` command: play (the default) or ``analyse MOVES``."""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from gamelib import app, backends
from gamelib.app import Parser
from gamelib.colours import BLACK, BLUE, RGB, ColourError, led_colour, parse_colour

from . import __version__, analysis
from .chooser import choose_opponent
from .computer import DEFAULT_SECONDS, OPPONENTS, PERFECT_SECONDS, computer_for
from .controller import FIRST_CHOICES, MatchOptions, Timing, play
from .errors import ConfigError, MoveListError, SearchAborted
from .names import MAX_LENGTH as MAX_NAME, parse_names
from .record_commands import COMMANDS
from .records import DB_ENV, Recorder
from .rules import Board

PROG = "sensehat-c4"
EXIT_UNSOLVED = 3
"""``analyse --solve`` could not finish within its time limit."""
SOLVE_SECONDS = 30.0


def parse_colours(text: str) -> Tuple[RGB, RGB]:
    """``"red,yellow"`` or ``"#ff0000,#ffff00"`` -> two colours the board can show apart."""
    parts = [p for p in text.split(",")]
    if len(parts) != 2:
        raise ConfigError(f"--colors takes two colours separated by a comma (not {text!r})")
    try:
        p1, p2 = (parse_colour(p) for p in parts)
    except ColourError as exc:
        raise ConfigError(f"--colors: {exc}") from exc
    # compared as the LEDs show them: #0000fc is the field's blue there, #000003 is dark
    for name, colour in (("player 1", p1), ("player 2", p2)):
        if led_colour(colour) == led_colour(BLUE):
            raise ConfigError(f"--colors: {name}'s colour is the field's blue; pick another")
        if led_colour(colour) == BLACK:
            raise ConfigError(f"--colors: {name}'s colour is black, which is an empty LED; pick another")
    if led_colour(p1) == led_colour(p2):
        raise ConfigError("--colors: the two players need different colours")
    return p1, p2


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text!r}")
    return value


_seconds = app.seconds(3600)


def play_parser() -> Parser:
    parser = Parser(prog=PROG, description="Connect 4 on the Sense HAT's LEDs and joystick. "
                    "Left/right move, down or middle drops, up abandons the match (up again to confirm). "
                    f"'{PROG} analyse MOVES' describes a position.")
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
    parser.add_argument("--fall-ms", type=_positive_int, default=30, metavar="MS",
                        help="milliseconds per row of a falling token (default: 30)")
    parser.add_argument("--names", default=None, metavar="NAME1,NAME2",
                        help="the players' names, for the printed results, the records and the winner's "
                        f"name scrolling on the LEDs (at most {MAX_NAME} characters each)")
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help=f"the games database (default: ${DB_ENV}, else ~/.local/share/sensehat-c4/games.db)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return parser


def analyse_parser() -> Parser:
    parser = Parser(prog=f"{PROG} analyse", description="Describe a position given as a move list "
                    "(1-based column digits, player 1 first, e.g. 4453).")
    parser.add_argument("moves", nargs="?", default="", metavar="MOVES")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--solve", action="store_true",
                        help="add every legal move's exact score and the best move")
    parser.add_argument("--time-limit", type=_seconds, default=SOLVE_SECONDS, metavar="SECONDS",
                        help=f"give up solving after this long, exit 3 (default: {SOLVE_SECONDS:g})")
    return parser


def run_analyse(argv: Sequence[str]) -> int:
    args = analyse_parser().parse_args(argv)
    try:
        board = Board.from_moves(args.moves.strip())
    except MoveListError as exc:
        print(f"{PROG} analyse: {exc}", file=sys.stderr)
        return app.EXIT_USAGE
    scores = None
    if args.solve:
        from .engine import move_scores  # noqa: PLC0415 (only analyse --solve needs the engine)

        try:
            scores = move_scores(board, seconds=args.time_limit)
        except SearchAborted:
            print(f"{PROG} analyse: not solved within {args.time_limit:g} s (try a longer --time-limit)",
                  file=sys.stderr)
            return EXIT_UNSOLVED
    print(json.dumps(analysis.describe(board, scores)) if args.json else analysis.text(board, scores))
    return app.EXIT_OK


def run_play(argv: Sequence[str]) -> int:
    parser = play_parser()
    args = parser.parse_args(argv)
    try:
        options = MatchOptions(colours=parse_colours(args.colours), first=args.first,
                               timing=Timing(fall_row=args.fall_ms / 1000),
                               names=(None, None) if args.names is None else parse_names(args.names))
    except ConfigError as exc:
        parser.error(str(exc))

    def notice(message: str) -> None:
        print(f"{PROG}: {message}", file=sys.stderr)

    def main() -> int:
        recorder = Recorder(args.db)
        with backends.from_args(args, notice=notice) as backend, contextlib.closing(recorder):
            played, last = 0, args.opponent or "human"
            while args.matches == 0 or played < args.matches:
                opponent = args.opponent or choose_opponent(backend, last)
                if opponent is None:  # up on the chooser: nothing to go back to here
                    continue
                last = opponent
                computer = computer_for(opponent, args.computer_plays, played + 1, args.think)
                result = play(backend, dataclasses.replace(options, computer=computer), recorder=recorder)
                played += 1
                who = "" if computer is None else f" (computer: {computer.level}, player {computer.player})"
                if result.abandoned:
                    print(f"match {played}{who}: abandoned at {result.score[0]}-{result.score[1]}", flush=True)
                else:
                    winner = options.names[result.winner - 1] or f"player {result.winner}"
                    print(f"match {played}{who}: {winner} wins "
                          f"{result.score[0]}-{result.score[1]}", flush=True)
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
