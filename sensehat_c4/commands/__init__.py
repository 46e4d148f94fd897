"""The ``sensehat-c4`` command: one table of subcommands, and one dispatcher.

:data:`COMMANDS` is the table: a :class:`~.common.Command` row per module of this
package (``play``, the default, ``analyse``, ``history``, ``stats``, ``replay``,
``review``, ``doctor``, ``puzzle``): its name, usage and summary, and the module whose
``run(argv)`` it runs.  :func:`main` picks the row by the first argument and runs it; the
play command's ``--help`` lists the rows.  A command's module is imported only when that
command runs (:func:`lazy`): ``--help``, ``history`` or ``stats`` load neither the engine
nor the web server (``benchmarks/startup.py`` measures it).  Adding a command is one module
with its ``run`` and one row here.

:func:`main` is the one place a command's errors become one line on stderr
(``sensehat-c4 COMMAND: message``, control characters escaped) and an exit code:
:data:`EXITS` maps our error types to codes (the rest as :func:`gamelib.app.run`
does: a setup error 78, a usage error 2, any other error of ours 1, Ctrl+C 130,
SIGTERM 143); bad arguments are one line and exit 2 from the parser.  ``--language`` (every command
has it, :mod:`gamelib.language`) is read from the arguments before anything is said.
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable, List, Optional, Sequence, Tuple

from gamelib import app, language

from ..errors import MoveListError, SearchAborted
from ..i18n import N_, _
from ..records import RecordsError
from .common import PROG, Command, Run, core_notice

__all__ = ["COMMANDS", "EXITS", "EXIT_UNSOLVED", "PROG", "Command", "find", "lazy", "main", "unknown"]


def lazy(module: str) -> Run:
    """A row's ``run``: ``run(argv)`` of this package's ``module``, imported when the command runs."""
    def run(argv: Sequence[str]) -> int:
        found: Run = importlib.import_module(f"{__name__}.{module}").run
        return found(argv)

    run.__qualname__ = f"lazy({module!r})"
    return run


COMMANDS: Tuple[Command, ...] = (
    Command("play", "[play]", N_("play matches (the default: the options above)"), lazy("play")),
    Command("analyse", "analyse [MOVES]", N_("describe a position given as a move list"), lazy("analyse"),
            aliases=("analyze",)),
    Command("history", "history", N_("recent matches and their rounds"), lazy("history")),
    Command("stats", "stats", N_("wins, draws and losses per player and level"), lazy("stats")),
    Command("replay", "replay ID", N_("play a stored round again on the LEDs"), lazy("replay")),
    Command("review", "review ID [--train]", N_("every move of a stored round against the solver"),
            lazy("review")),
    Command("doctor", "doctor [--json]", N_("check this machine's setup, with the fixes"), lazy("doctor")),
    Command("puzzle", "puzzle", N_("the day's puzzle: find the win"), lazy("puzzle")),
)
"""Every command, each run by its module of this package (by the row's name); the first is the
default (``sensehat-c4 [OPTIONS]`` plays)."""

EXIT_UNSOLVED = 3
"""``analyse --solve`` could not finish within its time limit."""

EXITS: app.Exits = (
    (SearchAborted, EXIT_UNSOLVED),    # analyse --solve out of time
    (RecordsError, app.EXIT_USAGE),    # no games database, or no such round
    (MoveListError, app.EXIT_USAGE),   # analyse's move list cannot be played
)
"""Our errors' exit codes, where they are not :func:`gamelib.app.run`'s."""


def find(argv: Sequence[str]) -> Tuple[Command, List[str]]:
    """The command ``argv`` names (by its first argument: a name or an alias, else the default)
    and the arguments that follow."""
    if argv:
        for command in COMMANDS:
            if argv[0] == command.name or argv[0] in command.aliases:
                return command, list(argv[1:])
    return COMMANDS[0], list(argv)


def unknown(name: str) -> int:
    """A first argument that is neither a command nor an option: one line naming the commands, exit 2."""
    app.Parser(prog=PROG).error(_("unknown command {name!r}: the commands are {commands}").format(
        name=name, commands=", ".join(command.name for command in COMMANDS)))


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command ``argv`` names; its exit code.  Entry point of the ``sensehat-c4`` console script."""
    args = sys.argv[1:] if argv is None else argv
    command, rest = find(args)
    if command is COMMANDS[0] and args and args[0] not in (command.name, *command.aliases) \
            and args[0][:1] not in ("", "-"):
        return app.run(lambda: speaking(args, lambda: unknown(args[0])), PROG, exits=EXITS)
    return app.run(lambda: speaking(args, lambda: command.run(rest)), command.prog, exits=EXITS)


def speaking(args: Sequence[str], run: Callable[[], int]) -> int:
    """``run()`` in the language ``args``' ``--language`` names, chosen before any parser is built (its
    help is translated then); first, once per install, the line saying the native core did not build."""
    language.speak_from_argv(args)
    core_notice()
    return run()
