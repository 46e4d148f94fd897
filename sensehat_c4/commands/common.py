"""What the commands share: the program's name, the :class:`Command` row, and common options."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Mapping, Optional, Sequence, Tuple

from gamelib import app, language
from gamelib.app import Parser
from gamelib.files import atomic_write, state_home

from ..engine.corefiles import build_failure, note_path, pure_python_forced
from ..engine.threads import MAX_THREADS, THREADS_ENV, threads_of
from ..errors import BoardSizeError
from ..i18n import _
from ..records import DB_ENV, default_path, missing_folder
from ..rules import Size

PROG = "sensehat-c4"

Run = Callable[[Sequence[str]], int]
"""A command's ``run(argv)``: its exit code."""


@dataclass(frozen=True)
class Command:
    """One row of the commands table (:data:`sensehat_c4.commands.COMMANDS`).

    ``run(argv)`` parses the command's arguments (a bad one: one line and exit 2, by
    :class:`gamelib.app.Parser`) and returns the exit code; it raises our errors rather
    than printing them: the dispatcher (:func:`sensehat_c4.commands.main`) turns them into
    one line and an exit code.
    """

    name: str
    usage: str
    """What follows ``sensehat-c4`` in the list of commands: ``analyse [MOVES]``."""
    summary: str
    """What it does, in a few words, for that list (marked with ``N_``: translated where it is shown)."""
    run: Run
    aliases: Tuple[str, ...] = ()

    @property
    def prog(self) -> str:
        """The name its messages start with: ``sensehat-c4 analyse`` (``sensehat-c4`` for play)."""
        return PROG if self.name == "play" else f"{PROG} {self.name}"


def show(text: str) -> None:
    """Print ``text`` on standard output, each line escaped (:func:`gamelib.app.one_line`): a ``--db``
    path or a stored value holding a control character (a newline, an escape sequence) or bytes
    that are not text cannot split a line, reach the terminal or fail the write."""
    print("\n".join(app.one_line(line) for line in text.split("\n")))


NOTICED = "core-not-built"
"""The file under ``$XDG_STATE_HOME/sensehat-c4`` that remembers each install whose first run said its native core
did not build (:func:`core_notice`)."""
MAX_NOTICED = 20


def core_notice(environ: Optional[Mapping[str, str]] = None, folder: Optional[Path] = None) -> None:
    """The first run of an install whose native core did not build (no compiler: pip and pipx hide the
    build's warning) says so in one line on stderr, with the fix's command; once per install (the build's
    note, ``engine/corefiles.py``, by its path and time, remembered in :data:`NOTICED`).  Not when
    ``$SENSEHAT_C4_PURE_PYTHON`` asks for the Python core.  Costs a ``stat`` when the core is there."""
    if pure_python_forced(environ):
        return
    reason = build_failure() if folder is None else build_failure(folder)
    if reason is None:
        return
    note = note_path() if folder is None else note_path(folder)
    try:
        info = note.stat()
    except OSError:
        return
    install = f"{info.st_mtime_ns} {note}"
    remembered = state_home(environ) / PROG / NOTICED
    try:
        seen = remembered.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        seen = []
    if install in seen:
        return
    app.report(PROG, _("the native solver core did not build when sensehat-c4 was installed ({reason}): the "
                       "pure-Python core plays, and the strong levels think more slowly; "
                       "'sensehat-c4 doctor' says how to build it").format(reason=reason))
    try:
        atomic_write(remembered, "".join(line + "\n" for line in [*seen[-(MAX_NOTICED - 1):], install]))
    except OSError:
        pass   # (a home that cannot be written: said again next time)


def done(command: str, notes: List[str]) -> int:
    """Each note (a row skipped, rounds that may be missing) as one line on stderr; the exit
    code: 1 if there was one (the rest was shown), else 0."""
    for note in notes:
        app.report(f"{PROG} {command}", note)
    return app.EXIT_ERROR if notes else app.EXIT_OK


def parser(command: str, description: str) -> Parser:
    """A subcommand's parser (``sensehat-c4 COMMAND``), with ``--language``."""
    made = Parser(prog=f"{PROG} {command}", description=description)
    language.add_argument(made)
    return made


def add_db(parser: Parser) -> None:
    """``--db PATH``: the games database."""
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help=_("the games database (default: ${variable}, else {path})").format(
                            variable=DB_ENV, path=default_path({"HOME": "~"})))


def check_db_folder(parser: Parser, path: Optional[Path]) -> None:
    """A game's ``--db``: the folder it names must be there (one line and exit 2 if not, before anything
    is opened or made): a game makes only the default path's folders, so that a typo does not leave a
    database where nobody looks."""
    if path is None:
        return
    folder = missing_folder(path)
    if folder is not None:
        parser.error(_("--db {path}: the folder {folder} does not exist").format(
            path=app.one_line(str(path)), folder=app.one_line(str(folder))))


def add_round_id(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help=_("a round's ID from 'history', or 'last'"))


def count(text: str) -> int:
    """An argparse ``type``: a whole number from 0, in ASCII digits."""
    if text[:1] == "-" and text[1:].isdigit() and text.isascii():
        raise argparse.ArgumentTypeError(_("must be 0 or more: {text!r}").format(text=text))
    if not text.isdigit() or not text.isascii():
        raise argparse.ArgumentTypeError(_("not a whole number: {text!r}").format(text=text))
    return int(text)


def positive_int(text: str, maximum: Optional[int] = None) -> int:
    """An argparse ``type``: a whole number from 0 (up to ``maximum`` if given)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text!r}").format(text=text)) from None
    if value < 0 or (maximum is not None and value > maximum):
        raise argparse.ArgumentTypeError(_("must be 0 or more: {text!r}").format(text=text) if maximum is None
                                         else _("must be from 0 to {maximum}: {text!r}").format(maximum=maximum,
                                                                                                text=text))
    return value


seconds = app.seconds(3600)
"""An argparse ``type``: more than 0 and at most an hour."""


def _board_size(text: str) -> Size:
    try:
        return Size.parse(text)
    except BoardSizeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_threads(parser: Parser) -> None:
    """``--threads N``: the native solver core's threads (see :func:`use_threads`)."""
    parser.add_argument("--threads", type=_threads, default=None, metavar="N",
                        help=_("threads the computer thinks with, 1 to {most} (default: ${variable}, else the "
                               "machine's cores, at most {most})").format(most=MAX_THREADS, variable=THREADS_ENV))


def _threads(text: str) -> int:
    threads = threads_of(text)
    if threads is None:
        raise argparse.ArgumentTypeError(_("must be from 1 to {most}: {text!r}").format(most=MAX_THREADS, text=text))
    return threads


def use_threads(threads: Optional[int]) -> None:
    """Every native solver made from now on searches with ``threads`` threads (``None``: the default);
    the native core is loaded here, only when ``--threads`` was given."""
    if threads is not None:
        from ..engine.native import use_threads as engine_threads  # noqa: PLC0415 (start-up: the core, only when asked)

        engine_threads(threads)


def add_board(parser: Parser, default: Optional[Size], more: str = "") -> None:
    """``--board COLSxROWS`` (``more``: words added to its default's, translated already)."""
    parser.add_argument("--board", type=_board_size, default=default, metavar="COLSxROWS",
                        help=_("the board's size: 4-8 columns by 4-6 rows (default: 7x6{more})").format(more=more))
