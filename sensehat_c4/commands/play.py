"""``sensehat-c4 [play]``: matches on the LEDs (the default command), and its options."""
from __future__ import annotations

import argparse
from typing import List, Optional, Sequence, Tuple

from gamelib import app, backends, language, web
from gamelib.app import Parser
from gamelib.colours import NAMES, RGB, ColourError, colour_name, led_colour, parse_colour
from gamelib.lan import DEFAULT_PORT
from gamelib.palette import Palette, palette
from gamelib.players import MAX_LENGTH as MAX_NAME, parse_names
from gamelib.web.address import Address, argument as web_address, split_address

from .. import __version__
from ..errors import ConfigError
from ..i18n import N_, _
from ..match.entries import entries_in_words
from ..match.computer import DEFAULT_SECONDS, LEVELS, PERFECT_SECONDS, ComputerSeat
from ..match.opponents import HUMAN, Opponent
from ..match.opponents import NAMES as OPPONENTS
from ..rules import FIRST_CHOICES
from . import COMMANDS
from .common import PROG, add_board, add_db, add_threads, check_db_folder, positive_int, seconds, use_threads


def refusal(colour: RGB, board: Palette) -> Optional[str]:
    """Why ``colour`` cannot be a player's on ``board``'s field, or ``None``; compared as the LEDs show it
    (#0000fc is the field's blue there, #000003 is dark)."""
    if led_colour(colour) == led_colour(board.field):
        return _("is the field's blue") if board.field == palette().field else _("is the field's colour")
    if led_colour(colour) == led_colour(board.background):
        return _("is black, which is an empty LED")
    return None


HELPS = {"on": True, "off": False}
"""``--helps``' words and what each means (``None``, not given: chosen with the joystick)."""


def player_colour_names(board: Palette) -> List[str]:
    """The colours' names a player may choose on ``board`` (those :func:`refusal` lets by)."""
    return [name for name, colour in NAMES.items() if refusal(colour, board) is None]


class _Unset(str):
    """``--colors``' default: the palette's players' colours (told apart from the same words typed)."""


def parse_colours(text: str, board: Palette) -> Tuple[RGB, RGB]:
    """``"red,yellow"`` or ``"#ff0000,#ffff00"`` -> two colours ``board`` can show apart."""
    parts = [p for p in text.split(",")]
    if len(parts) != 2:
        raise ConfigError(_("--colors takes two colours separated by a comma (not {text!r})").format(text=text))
    try:
        p1, p2 = (parse_colour(p, player_colour_names(board)) for p in parts)
    except ColourError as exc:
        raise ConfigError(_("--colors: {error}").format(error=exc)) from exc
    for seat, colour in ((1, p1), (2, p2)):
        why = refusal(colour, board)
        if why is not None:
            raise ConfigError(_("--colors: player {seat}'s colour {why}; pick another").format(seat=seat, why=why))
    if led_colour(p1) == led_colour(p2):
        raise ConfigError(_("--colors: the two players need different colours"))
    return p1, p2


LAN_DEFAULT = Address(None, 0)
"""``--lan`` without a value: the port of ``--web``, else :data:`~gamelib.lan.DEFAULT_PORT` (every address)."""

MAX_FALL_MS = 1000
"""The slowest fall ``--fall-ms`` allows: a second a row (more is no game, and a time past
``time_t`` made ``select()`` raise)."""


DESCRIPTION = N_("Connect 4 on the Sense HAT's LEDs and joystick. Left/right move, down or middle drops, up "
                 "abandons the match (up again to confirm).")


def play_parser() -> Parser:
    rows = "\n".join("  {prog} {usage:<16} {summary}".format(prog=PROG, usage=c.usage, summary=_(c.summary))
                     for c in COMMANDS)
    parser = Parser(prog=PROG, description=app.fill(_(DESCRIPTION), 78),
                    epilog=_("commands (each takes --help):\n{rows}").format(rows=rows),
                    formatter_class=app.RawDescriptionHelpFormatter)
    backends.add_arguments(parser)
    parser.add_argument("--colors", "--colours", dest="colours", metavar="P1,P2",
                        default=_Unset(",".join(map(colour_name, palette().players))),   # --palette's default
                        help=_("the players' colours, names or hex (default: %(default)s)"))
    parser.add_argument("--first", choices=FIRST_CHOICES, default="alternate",
                        help=_("who starts each round (default: alternate, player 1 first)"))
    parser.add_argument("--opponent", choices=OPPONENTS, default=None,
                        help=_("human (two players), the computer's level, weakest first (docs/guide/"
                               "computer.md says how each plays), or match-me (a level that steps up or down after "
                               "each round to meet your strength); without this option the players choose with the "
                               "joystick before each match, from: {entries}").format(entries=entries_in_words()))
    parser.add_argument("--helps", choices=tuple(HELPS), default=None,
                        help=_("hints and take-backs against the computer (middle: a hint; up then down: take "
                               "back your last move); without this option they are chosen with the joystick after "
                               "the board size, and are off with --opponent"))
    parser.add_argument("--computer-plays", choices=[seat.value for seat in ComputerSeat], default="2",
                        help=_("which player the computer is (default: 2; alternate swaps every match)"))
    parser.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                        help=_("the computer's thinking budget per move (default: the level's own, {quick:g} for "
                               "{levels}, {slow:g} for the others)").format(
                            quick=DEFAULT_SECONDS, slow=PERFECT_SECONDS,
                            levels=", ".join(n for n, v in LEVELS.items() if v.seconds == DEFAULT_SECONDS)))
    add_threads(parser)
    parser.add_argument("--matches", type=positive_int, default=0, metavar="N",
                        help=_("stop after N matches (default: 0, play match after match)"))
    parser.add_argument("--fall-ms", type=lambda text: positive_int(text, MAX_FALL_MS), default=30, metavar="MS",
                        help=_("milliseconds per row of a falling token, 0 to {most} (default: 30)").format(
                            most=MAX_FALL_MS))
    add_board(parser, None, _("; without this option or --opponent the players choose it with the "
                              "joystick after the opponent"))
    parser.add_argument("--names", default=None, metavar="NAME1,NAME2",
                        help=_("the players' names, for the printed results, the records and the winner's "
                               "name scrolling on the LEDs (at most {most} characters each)").format(most=MAX_NAME))
    add_db(parser)
    web.add_argument(parser)
    lan = parser.add_mutually_exclusive_group()
    lan.add_argument("--lan", type=web_address, nargs="?", const=LAN_DEFAULT, default=None, metavar="[HOST:]PORT",
                     help=_("offer the game to another Pi on the LAN (advertised by mDNS with your name, the first "
                            "of --names): its player asks, you accept with middle (default: the port of --web, else "
                            "{port}; HOST: that address only)").format(port=DEFAULT_PORT))
    lan.add_argument("--join", nargs="?", const="", default=None, metavar="HOST[:PORT]",
                     help=_("play a game another Pi offers: the games found on the LAN scroll by (left/right, "
                            "middle asks), or go straight to HOST (default port {port}) where multicast is "
                            "blocked").format(port=DEFAULT_PORT))
    language.add_argument(parser)
    parser.add_argument("--version", action=VersionAction)
    return parser


class VersionAction(argparse.Action):
    """``--version``: the version and which solver core runs (``native`` or ``python``)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=_("print the version and the solver core in use, and exit"))

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: Optional[str] = None) -> None:
        # start-up: --help makes this action; the native core (ctypes) is loaded only to say which core runs
        from ..engine.cores import WORDS, core_name  # noqa: PLC0415

        print(_("{prog} {version} (solver core: {core})").format(prog=PROG, version=__version__,
                                                                  core=_(WORDS[core_name()])))
        parser.exit()


def unused_name(names: Tuple[Optional[str], Optional[str]], opponent: Optional[Opponent],
                computer_plays: ComputerSeat) -> Optional[str]:
    """The notice when ``--names`` names the seat the computer always plays (that name is never
    used: the computer's seat has none), else ``None``.  With ``--computer-plays alternate`` each
    name is used in the matches where its seat is a person's."""
    if opponent is None or opponent.level is None or computer_plays is ComputerSeat.ALTERNATE:
        return None
    seat = int(computer_plays.value)
    name = names[seat - 1]
    if name is None:
        return None
    return _("--names: the computer plays player {seat}, so {name} is not used").format(seat=seat, name=name)


def run(argv: Sequence[str]) -> int:
    parser = play_parser()
    args = parser.parse_args(argv)
    use_threads(args.threads)
    board = palette(args.palette)   # the choice resolved: from_args gives it to the backend
    try:
        colours = None if isinstance(args.colours, _Unset) else parse_colours(args.colours, board)
        names = (None, None) if args.names is None else parse_names(args.names)
    except ConfigError as exc:
        parser.error(str(exc))
    opponent = None if args.opponent is None else Opponent.parse(args.opponent)   # argparse checked the word
    helps = None if args.helps is None else HELPS[args.helps]                     # likewise
    if helps and opponent == HUMAN:
        parser.error(_("--helps on: hints and take-backs are against the computer (not with --opponent human)"))
    if opponent is not None and args.board and args.board not in opponent.sizes():
        offered = " ".join(str(size) for size in opponent.sizes())
        parser.error(_("--opponent {level} plays on the boards {offered} only (not {board})").format(
            level=args.opponent, offered=offered, board=args.board))

    lan_address: Optional[Address] = None
    if args.lan is not None:
        lan_address = args.web if args.lan is LAN_DEFAULT and args.web is not None else \
            Address(None, DEFAULT_PORT) if args.lan is LAN_DEFAULT else args.lan
        if args.web is not None and args.web != lan_address:
            parser.error(_("--lan {lan} and --web {web}: the game is served on one port (give one)").format(
                lan=lan_address, web=args.web))
    target = None
    if args.join:
        try:
            target = split_address(args.join, DEFAULT_PORT)
        except (ValueError, ConfigError) as exc:
            parser.error(_("--join: {error}").format(error=exc))
    computer_plays = ComputerSeat(args.computer_plays)   # one of its values (argparse's choices)
    unused = unused_name(names, opponent, computer_plays)
    if unused is not None:
        app.report(PROG, unused)
    check_db_folder(parser, args.db)
    # start-up: what plays (the match loop, the LAN: asyncio), loaded once the arguments are read and checked
    # (--help and --version need none of it)
    from .matches import play_chosen  # noqa: PLC0415

    return play_chosen(args, colours=colours, names=names, opponent=opponent, helps=helps, computer_plays=computer_plays, lan=lan_address,
                       join=target)
