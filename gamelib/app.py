"""Process lifetime shared by every command: signals, exit codes, one-line errors, the output.

SIGTERM (systemd's stop) and SIGHUP become :class:`SystemExit`, so ``finally``
blocks and context managers run and the LEDs are cleared whichever way we leave;
a second signal while that happens is ignored.  Standard output is written through
:class:`GuardedOutput`: a reader that has gone (``| head -1``) ends the program quietly
(exit 141), a full disk or an I/O error is one line (exit 74), never a traceback.
"""
from __future__ import annotations

import argparse
import logging
import os
import re
import shlex
import signal
import sys
import textwrap
from typing import Any, Callable, Iterable, List, NoReturn, Optional, Sequence, TextIO, Tuple, Type, cast

from .errors import GamelibError, OutputClosed, OutputError, QuitRequested, SetupError, UsageError
from .i18n import CATALOGUE, N_, _

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_OUTPUT = 74
"""Standard output cannot be written: a full disk, an I/O error (sysexits' ``EX_IOERR``)."""
EXIT_SETUP = 78
"""A :class:`SetupError` (sysexits' ``EX_CONFIG``): the units' ``RestartPreventExitStatus=`` names it."""
EXIT_INTERRUPTED = 130
EXIT_OUTPUT_CLOSED = 141
"""Standard output's reader has gone (``| head``): quiet, the status a shell shows for a program
killed by SIGPIPE (128 + 13), as ``git log | head`` ends."""
EXIT_TERMINATED = 143

Exits = Sequence[Tuple[Type[GamelibError], int]]
"""Error types and their exit codes, the first that matches wins (:func:`run`'s ``exits``)."""
EXITS: Exits = ((SetupError, EXIT_SETUP), (UsageError, EXIT_USAGE), (OutputClosed, EXIT_OUTPUT_CLOSED),
                (OutputError, EXIT_OUTPUT))
"""The exit codes of our errors that are not :data:`EXIT_ERROR`."""


def exit_code(error: GamelibError, exits: Exits = ()) -> int:
    """The exit code of ``error``: from ``exits``, then :data:`EXITS`, else :data:`EXIT_ERROR`."""
    return next((code for kind, code in (*exits, *EXITS) if isinstance(error, kind)), EXIT_ERROR)


def one_line(text: str) -> str:
    """``text`` with control characters (newlines, escapes, tabs...) written as ``\\n``, ``\\x1b``."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def report(prog: str, message: str) -> None:
    """Print ``prog: message`` on stderr as one line, whatever the message holds (the one place errors
    are printed, so a hostile argument cannot split or colour them).  A stderr that cannot be
    written (closed, full) is left at that: there is nowhere else to say it."""
    if sys.stderr is None:
        return
    try:
        print(f"{prog}: {one_line(message)}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


class GuardedOutput:
    """Stands in for ``sys.stdout`` while :func:`run` runs.

    A write or flush that fails raises :class:`OutputClosed` (the reader has gone: a broken
    pipe) or :class:`OutputError` (a full disk, an I/O error) instead of a bare ``OSError``,
    and the first failure is kept in :attr:`failed`: it decides the exit code even where
    something on the way swallowed it (argparse ignores the errors of its ``--help``).
    Everything else is the stream's (``fileno()``, ``isatty()``, ``encoding``...).
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.failed: Optional[OutputError] = None

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise self._failure(exc) from None

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise self._failure(exc) from None

    def _failure(self, exc: OSError) -> OutputError:
        if isinstance(exc, OutputError):
            error = exc
        elif isinstance(exc, (BrokenPipeError, ConnectionResetError)):
            error = OutputClosed(_("the output's reader has gone"))
        else:
            error = OutputError(_("cannot write the output: {error}").format(error=exc.strerror or exc))
        if self.failed is None:
            self.failed = error
        return error

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def discard(self) -> None:
        """Point the stream's file descriptor at ``/dev/null``: what its buffer still holds goes there
        when the interpreter flushes it at exit (which would else print "Exception ignored ...")."""
        try:
            fd = self.stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
        except (OSError, ValueError, AttributeError):  # not a file (a test's capture), or closed
            return
        try:
            os.dup2(null, fd)
        except OSError:
            pass
        finally:
            os.close(null)


class _LastResort(logging.Handler):
    """The log's handler of last resort while :func:`run` runs (``logging.lastResort``: used only
    when no handler is set up, as in the commands that set up no log): one line, ``prog: LEVEL:
    message``, escaped, through :func:`report`."""

    def __init__(self, prog: str) -> None:
        super().__init__(logging.WARNING)
        self.prog = prog

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a bad logging call: its text, unformatted)
            message = str(record.msg)
        report(self.prog, f"{record.levelname}: {message}")


ARGPARSE_WORDS = (
    N_("usage: "), N_("options"), N_("optional arguments"), N_("positional arguments"), N_("subcommands"),
    N_("show this help message and exit"), N_("show program's version number and exit"), N_("%(heading)s:"),
    N_(" (default: %(default)s)"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"), N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"), N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"), N_("can't open '%(filename)s': %(error)s"),
)
"""argparse's own words a person reads (its help's frame, its errors), as each Python from 3.9 to 3.13
writes them: Python ships no catalogue for them, so they are in gamelib's (its programmers' errors, which
name a parser's mistakes, are left in English).  :class:`Parser` has argparse look them up there."""


def speak_argparse() -> None:
    """Has argparse look its words up in gamelib's catalogue, in the process's language (argparse calls
    the module's ``_``/``ngettext`` when it builds a parser, formats help and reports an error; with no
    translation a message is argparse's own English)."""
    argparse._ = CATALOGUE.gettext  # type: ignore[attr-defined]  # (argparse's private names: no stub)
    argparse.ngettext = CATALOGUE.ngettext  # type: ignore[attr-defined]


_KEPT = "\x00"
"""Stands for a space no line may break at while help is wrapped (no help text holds it)."""
_UNBREAKABLE = re.compile(r" (?=[:;?!\u00bb])|(?<=\u00ab) ")
"""The spaces French typography sets before ``: ; ? ! »`` and after ``«``: a line must not break there."""


def fill(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` columns as :func:`textwrap.fill` does, but no line starts with ``: ; ? !``
    or ``»`` (nor ends with ``«``): the space French sets before them is not a place to break."""
    return textwrap.fill(_UNBREAKABLE.sub(_KEPT, text), width).replace(_KEPT, " ")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, wrapping as :func:`fill` does (a French help never has a line starting with ``:``)."""

    def _split_lines(self, text: str, width: int) -> List[str]:
        return [line.replace(_KEPT, " ") for line in super()._split_lines(_UNBREAKABLE.sub(_KEPT, text), width)]

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return super()._fill_text(_UNBREAKABLE.sub(_KEPT, text), width, indent).replace(_KEPT, " ")

    def start_section(self, heading: Optional[str]) -> None:
        if heading and sys.version_info < (3, 13):   # argparse adds a bare ':' (3.13 asks for "%(heading)s:")
            said = _("%(heading)s:") % {"heading": heading}
            heading = said[:-1] if said.endswith(":") else said   # French: "options :"
        super().start_section(heading)


class RawDescriptionHelpFormatter(HelpFormatter):
    """:class:`HelpFormatter` with the description and epilog as written (lines already made: :func:`fill`)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit 2), and whose every word, argparse's own
    too (``usage:``, ``options:``), is in the process's language, its help wrapped by :class:`HelpFormatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        speak_argparse()
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Optional[Sequence[str]] = None,  # type: ignore[override]
                   namespace: Optional[argparse.Namespace] = None) -> argparse.Namespace:
        """As argparse's, but the arguments it does not know are quoted as a shell would
        (an empty argument shows as ``''``, not as nothing), and ``--option=--`` is refused as
        ``--option`` alone is (Python 3.13's argparse would take ``--`` as the value; 3.9-3.12's
        store ``[]`` without calling the option's ``type``)."""
        for arg in sys.argv[1:] if args is None else args:   # ``--db=--``: refused alike by every Python
            if arg == "--":
                break
            name, equals, value = str(arg).partition("=")
            action = self._option_string_actions.get(name) if equals and value == "--" else None
            if action is not None and action.nargs is None:
                self.error(_("argument {option}: expected one argument").format(option="/".join(action.option_strings)))
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(_("unrecognized arguments: {arguments}").format(arguments=" ".join(shlex.quote(arg) for arg in extras)))
        for action in self._actions:
            # ``--db=--``: Python 3.11's argparse drops the "--" and stores [] without calling ``type``
            if action.option_strings and action.nargs is None and getattr(parsed, action.dest, None) == [] \
                    and action.default != []:
                self.error(_("argument {option}: expected one argument").format(option="/".join(action.option_strings)))
        return parsed

    def error(self, message: str) -> NoReturn:
        report(self.prog, _("error: {message} (see --help)").format(message=message))
        self.exit(EXIT_USAGE)


def seconds(maximum: float, *, zero: Optional[str] = None) -> Callable[[str], float]:
    """An argparse ``type`` for a number of seconds up to ``maximum``; 0 is allowed only
    when ``zero`` says what it means (e.g. ``N_("never")``: English, shown through ``_()``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("not a number of seconds: {text}").format(text=repr(text))) from None
        if zero is not None and not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(_("must be from 0 ({zero}) to {maximum}: {text}").format(
                zero=_(zero), maximum=f"{maximum:g}", text=repr(text)))
        if zero is None and not 0 < value <= maximum:
            raise argparse.ArgumentTypeError(_("must be more than 0 and at most {maximum}: {text}").format(
                maximum=f"{maximum:g}", text=repr(text)))
        return value

    return parse


class _Stopper:
    """The handler of SIGTERM, SIGHUP and SIGINT while :func:`run` runs: the first signal raises
    (``SystemExit(128 + signal)``, or ``KeyboardInterrupt`` for SIGINT) and starts the way out;
    later ones are ignored, so they cannot cut short the cleanup the first one started
    (clearing the LEDs, giving the terminal back)."""

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def run(main: Callable[[], int], prog: str, *, exits: Exits = ()) -> int:
    """Call ``main`` with SIGTERM/SIGHUP turned into ``SystemExit``; map errors to exit codes.

    Our own errors print as one line on stderr (``prog: message``) and exit with the code
    :func:`exit_code` gives (``exits``, then 78 for a :class:`SetupError`, which no retry can
    fix, 2 for a :class:`UsageError`, else 1); Ctrl+C exits 130.  Once one of SIGTERM,
    SIGHUP, SIGINT has arrived, the others are ignored until ``main`` has finished
    unwinding; after that they end the process.

    Standard output is a :class:`GuardedOutput` meanwhile, flushed before ``run`` returns
    (also after ``--help``): if it could not be written, that decides the exit, unless a
    signal ended the program: 141 and nothing said when its reader has gone (a pipe closed
    early), else 74 and one line; what it still holds is dropped (``/dev/null``).  Log
    records with no handler set up to take them are one line each on stderr, as errors are.
    """
    stopper = _Stopper()
    previous = {sig: signal.signal(sig, stopper) for sig in STOP_SIGNALS}
    output = None if sys.stdout is None or isinstance(sys.stdout, GuardedOutput) else GuardedOutput(sys.stdout)
    if output is not None:
        sys.stdout = cast(TextIO, output)
    last_resort, logging.lastResort = logging.lastResort, _LastResort(prog)
    leaving: Optional[SystemExit] = None
    interrupted = False
    try:
        try:
            code = main()
        except QuitRequested:
            code = EXIT_OK
        except KeyboardInterrupt:  # SIGINT, or Ctrl+C read as a key (the terminal backend)
            interrupted = True
            code = EXIT_INTERRUPTED
        except OutputError as exc:
            if output is None:  # a run inside a run: the outer one says it
                raise
            code = exit_code(exc, exits)
        except GamelibError as exc:
            report(prog, str(exc))
            code = exit_code(exc, exits)
        except SystemExit as exc:  # --help, a bad option, a signal
            leaving, code = exc, EXIT_OK
        finally:
            if output is not None:
                try:
                    output.flush()  # inside the guard: what is still buffered is written now
                except OutputError:
                    pass  # kept in output.failed
        if output is not None and output.failed is not None and not (stopper.stopping or interrupted):
            if not isinstance(output.failed, OutputClosed):
                report(prog, str(output.failed))
            return exit_code(output.failed, exits)
        if leaving is not None:
            raise leaving
        return code
    finally:
        logging.lastResort = last_resort
        if output is not None:
            if output.failed is not None:
                output.discard()
            if sys.stdout is output:
                sys.stdout = output.stream
        for sig, handler in previous.items():
            # on the way out, a late signal ends the process (as 128 + signal) instead of
            # raising a Python exception somewhere in the interpreter's own shutdown
            signal.signal(sig, signal.SIG_DFL if stopper.stopping and callable(handler) else handler)
