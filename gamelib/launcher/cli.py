"""The ``gamelib`` command: the games menu (the default), ``list``, ``names``, ``install-service``,
``uninstall-service``."""
from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from importlib import metadata
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence

from .. import app, backends, language, web
from ..errors import ConfigError
from ..games import GROUP, Entry, discover
from ..i18n import N_, _
from ..players import parse_names
from ..web.address import Address, argument as web_address
from . import PROG
from .log import LauncherLog
from .menu import QUIT, Launcher, LauncherOptions
from .service import SERVICE_BACKEND, Installer
from .settings import SettingsFile, default_path

if TYPE_CHECKING:
    from ..web.pages import Pages

LOG_LEVELS = ("debug", "info", "warning", "error")
DISTRIBUTION = "sensehat-c4"
"""The distribution (setup.cfg's name) that installs gamelib: ``--version`` says its version."""


_seconds = app.seconds(86400, zero=N_("never"))


def add_launcher_options(parser: argparse.ArgumentParser) -> None:
    """The options that shape the menu (also passed through by ``install-service``)."""
    defaults = LauncherOptions()
    parser.add_argument("--dim-after", type=_seconds, default=defaults.dim_after, metavar="SECONDS",
                        help=_("dim the idle menu after this long (default: {seconds}; 0: never)").format(
                            seconds=f"{defaults.dim_after:g}"))
    parser.add_argument("--blank-after", type=_seconds, default=defaults.blank_after, metavar="SECONDS",
                        help=_("turn the LEDs off after this long idle (default: {seconds}; 0: never)").format(
                            seconds=f"{defaults.blank_after:g}"))
    parser.add_argument("--allow-poweroff", action="store_true",
                        help=_("offer 'shut down' in the system menu (runs systemctl poweroff)"))


def menu_parser() -> app.Parser:
    parser = app.Parser(prog=PROG, description=_(
                        "A menu of the installed Sense HAT games on the LEDs: "
                        "left/right browse, middle or down starts a game, up held for 2 s opens the "
                        "system menu (brightness, rotation, quit). Saved settings apply unless "
                        "--rotation or --low-light is given. Other commands: 'gamelib list', 'gamelib names', "
                        "'gamelib install-service', 'gamelib uninstall-service'."))
    backends.add_arguments(parser)
    parser.set_defaults(rotation=None, low_light=None, palette=None)  # None: the saved setting
    language.add_argument(parser, saved=True)
    add_launcher_options(parser)
    served = parser.add_mutually_exclusive_group()
    web.add_argument(served)
    served.add_argument("--lan", type=web_address, default=None, metavar="[HOST:]PORT",
                        help=_("as --web, and the menu's Connect 4 over the LAN offers its game on this port "
                               "(and finds others')"))
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}",
                        help=_("print the version and exit"))
    parser.add_argument("--log-level", choices=LOG_LEVELS, default="info", help=_(
                        "what goes to the log (stderr; while the board fills this terminal, "
                        "a file under $XDG_STATE_HOME/gamelib, shown after)"))
    return parser


def run_menu(argv: Sequence[str]) -> int:
    args = menu_parser().parse_args(argv)
    options = LauncherOptions(dim_after=args.dim_after, blank_after=args.blank_after,
                              allow_poweroff=args.allow_poweroff)
    log = logging.getLogger("gamelib")
    with LauncherLog(args.log_level) as logs:
        store = SettingsFile(default_path())
        saved = store.load()
        overrides = {k: v for k, v in (("rotation", args.rotation), ("low_light", args.low_light),
                                       ("palette", args.palette), ("language", args.language)) if v is not None}
        settings = dataclasses.replace(saved, **overrides)
        language.speak(settings.language)
        entries = discover()
        if not entries:
            log.warning(_("no games are installed (entry-point group {group})").format(group=GROUP))
        with backends.open_backend(args.backend, rotation=settings.rotation, low_light=settings.low_light,
                                   notice=log.info) as backend:
            if backend.needs.terminal:  # log lines would land on the board
                logs.aside()
            with web.serving(backend, args.lan or args.web, log.info, pages=lambda: game_pages(entries)):
                result = Launcher(backend, entries, options, settings=settings, saved=saved, store=store).run()
        log.info(_("quit from the system menu") if result == QUIT else _("powering off from the system menu"))
    return app.EXIT_OK


def game_pages(entries: Sequence[Entry]) -> List[Pages]:
    """Each game's own pages for the web view (``Game.web``); a game whose pages fail is logged and left out."""
    found: List[Pages] = []
    for entry in entries:
        if entry.game is not None and entry.game.web is not None:
            try:
                found.append(entry.game.web())
            except Exception:  # a broken game must not stop the launcher
                logging.getLogger("gamelib").error(_("the web pages of {game} cannot be served").format(game=entry.name),
                                                   exc_info=True)
    return found


def run_list(argv: Sequence[str]) -> int:
    """``gamelib list``: each game's key and name, or why it cannot be loaded (escaped: one line each)."""
    parser = app.Parser(prog=f"{PROG} list", description=_("List the installed games (exit 1 if one cannot be loaded)."))
    language.add_argument(parser)
    parser.parse_args(argv)
    quiet = logging.NullHandler()  # the reasons are printed below, one line each, without tracebacks
    logging.getLogger("gamelib").addHandler(quiet)
    try:
        entries = discover()
    finally:
        logging.getLogger("gamelib").removeHandler(quiet)
    for entry in entries:
        status = entry.name if entry.game is not None else _("cannot be loaded: {error}").format(error=entry.error)
        print(app.one_line(f"{entry.key}: {status}"))
    if not entries:
        print(_("no games are installed (entry-point group {group})").format(group=GROUP))
    return app.EXIT_ERROR if any(e.game is None for e in entries) else app.EXIT_OK


def run_names(argv: Sequence[str]) -> int:
    parser = app.Parser(prog=f"{PROG} names", description=_(
                        "Show, set or clear the players' names the launcher "
                        "keeps in its settings and hands to the games it starts (a game's winner's name "
                        "scrolls on the LEDs)."))
    language.add_argument(parser)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("names", nargs="?", metavar="NAME1,NAME2", help=_("one or two names to keep"))
    group.add_argument("--clear", action="store_true", help=_("forget the names"))
    args = parser.parse_args(argv)
    store = SettingsFile(default_path())
    saved = store.load()
    if args.names is None and not args.clear:
        print(",".join(saved.names) if saved.names else _("no names kept"))
        return app.EXIT_OK
    try:
        names = () if args.clear else tuple(n for n in parse_names(args.names, "names") if n is not None)
    except ConfigError as exc:
        parser.error(str(exc))
    if not store.save(dataclasses.replace(saved, names=names)):
        app.report(f"{PROG} names", _("the settings file {path} was not written (see the line above)").format(path=store.path))
        return app.EXIT_ERROR
    print(",".join(names) if names else _("no names kept"))
    return app.EXIT_OK


def _service_backend(name: str) -> str:
    """``--backend`` of ``install-service``: a backend a service can use (not the terminal)."""
    if name in backends.names() and name not in backends.names(service=True):
        others = [n for n in backends.names(service=True) if n not in (SERVICE_BACKEND, backends.AUTO)] + [backends.AUTO]
        raise argparse.ArgumentTypeError(_("a service has no {backend} to play in: use {default} (the default), "
                                           "{others} or {last}").format(backend=name, default=SERVICE_BACKEND,
                                                                         others=", ".join(others[:-1]), last=others[-1]))
    return name


def service_parser(command: str) -> app.Parser:
    installing = command == "install-service"
    parser = app.Parser(prog=f"{PROG} {command}", description=(
        _("Install the launcher as a systemd unit started at boot (system unit: needs root, runs as "
          "--user NAME), or as a user unit (--user-unit), and start it.") if installing else
        _("Stop, disable and remove the launcher's systemd unit.")))
    language.add_argument(parser)
    group = parser.add_mutually_exclusive_group()
    if installing:
        group.add_argument("--user", metavar="NAME", help=_("who the system unit runs as "
                                                                  "(default: the user who ran sudo, else you; never root)"))
    group.add_argument("--user-unit", action="store_true",
                       help=_("a unit of your own systemd user manager (systemctl --user) instead"))
    if installing:
        parser.add_argument("--backend", type=_service_backend, choices=backends.names(service=True),
                            default=SERVICE_BACKEND, help=_("the launcher's --backend (default: {backend})").format(backend=SERVICE_BACKEND))
        add_launcher_options(parser)
        served = parser.add_mutually_exclusive_group()
        served.add_argument("--web", type=_service_web, default=None, metavar="[HOST:]PORT",
                            help=_("the launcher serves the web view on this port: the unit then gets the network, "
                                   "from the LAN's addresses only (default: no network at all)"))
        served.add_argument("--lan", type=_service_web, default=None, metavar="[HOST:]PORT",
                            help=_("as --web, and Connect 4 over the LAN may be offered and joined: the unit also "
                                   "gets mDNS (its multicast groups and UDP port 5353)"))
    return parser


def _service_web(text: str) -> Address:
    address = web_address(text)
    if address.port == 0:
        raise argparse.ArgumentTypeError(_("a service needs a fixed port (1-65535), e.g. 8080"))
    return address


def run_service(command: str, argv: Sequence[str]) -> int:
    args = service_parser(command).parse_args(argv)
    installer = Installer(prog=f"{PROG} {command}")
    if command == "uninstall-service":
        return installer.uninstall(user_unit=args.user_unit, argv=argv)
    launcher_args = ["--backend", args.backend]
    defaults = LauncherOptions()
    for flag, value, default in (("--dim-after", args.dim_after, defaults.dim_after),
                                 ("--blank-after", args.blank_after, defaults.blank_after)):
        if value != default:
            launcher_args += [flag, f"{value:g}"]
    web = args.lan or args.web
    return installer.install(user=args.user, user_unit=args.user_unit, launcher_args=launcher_args,
                             allow_poweroff=args.allow_poweroff, argv=argv,
                             web=None if web is None else str(web), web_port=None if web is None else web.port,
                             lan=args.lan is not None)


COMMANDS: Dict[str, Callable[[Sequence[str]], int]] = {
    "list": run_list,
    "names": run_names,
    "install-service": lambda argv: run_service("install-service", argv),
    "uninstall-service": lambda argv: run_service("uninstall-service", argv),
}
"""The subcommands by name; anything else is the menu's arguments."""


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``gamelib`` console script and ``python -m gamelib``: every subcommand
    runs inside :func:`gamelib.app.run`, the one place its errors, signals and output failures
    become one line and an exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in COMMANDS:
        command, rest = argv[0], argv[1:]
        return app.run(lambda: speaking(argv, lambda: COMMANDS[command](rest)), f"{PROG} {command}")
    if argv[:1] and argv[0][:1] not in ("", "-"):
        return app.run(lambda: speaking(argv, lambda: unknown(argv[0])), PROG)
    return app.run(lambda: speaking(argv, lambda: run_menu(argv)), PROG)


def speaking(argv: Sequence[str], run: Callable[[], int]) -> int:
    """``run()`` in the language ``argv``'s ``--language`` names, chosen before a parser is built (its help
    is translated then); the menu then speaks its setting (:attr:`Settings.language`) unless given."""
    language.speak_from_argv(argv)
    return run()


def unknown(name: str) -> int:
    """A first argument that is neither a command nor an option: one line naming the commands, exit 2."""
    app.Parser(prog=PROG).error(_("unknown command {name}: the commands are {commands} (none: the menu)").format(
        name=repr(name), commands=", ".join(COMMANDS)))


def version() -> str:
    """The installed version of the distribution gamelib ships in."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _("(not installed)")
