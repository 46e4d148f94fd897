"""Process lifetime shared by every command: signals, exit codes, one-line errors.

SIGTERM (systemd's stop) and SIGHUP become :class:`SystemExit`, so ``finally``
blocks and context managers run and the LEDs are cleared whichever way we leave;
a second signal while that happens is ignored.
"""
from __future__ import annotations

import argparse
import shlex
import signal
import sys
from typing import Callable, NoReturn, Optional, Sequence, Tuple, Type

from .errors import GamelibError, QuitRequested, SetupError, UsageError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_SETUP = 78
"""A :class:`SetupError` (sysexits' ``EX_CONFIG``): the units' ``RestartPreventExitStatus=`` names it."""
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

Exits = Sequence[Tuple[Type[GamelibError], int]]
"""Error types and their exit codes, the first that matches wins (:func:`run`'s ``exits``)."""
EXITS: Exits = ((SetupError, EXIT_SETUP), (UsageError, EXIT_USAGE))
"""The exit codes of our errors that are not :data:`EXIT_ERROR`."""


def exit_code(error: GamelibError, exits: Exits = ()) -> int:
    """The exit code of ``error``: from ``exits``, then :data:`EXITS`, else :data:`EXIT_ERROR`."""
    return next((code for kind, code in (*exits, *EXITS) if isinstance(error, kind)), EXIT_ERROR)


def one_line(text: str) -> str:
    """``text`` with control characters (newlines, escapes, tabs...) written as ``\\n``, ``\\x1b``."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def report(prog: str, message: str) -> None:
    """Print ``prog: message`` on stderr as one line, whatever the message holds (the one place errors
    are printed, so a hostile argument cannot split or colour them)."""
    print(f"{prog}: {one_line(message)}", file=sys.stderr, flush=True)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit 2)."""

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but the arguments it does not know are quoted as a shell would
        (an empty argument shows as ``''``, not as nothing)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(shlex.quote(arg) for arg in extras))
        return parsed

    def error(self, message: str) -> NoReturn:
        report(self.prog, f"error: {message} (see --help)")
        self.exit(EXIT_USAGE)


def seconds(maximum: float, *, zero: Optional[str] = None) -> Callable[[str], float]:
    """An argparse ``type`` for a number of seconds up to ``maximum``; 0 is allowed only
    when ``zero`` says what it means (e.g. ``"never"``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if zero is not None and not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"must be from 0 ({zero}) to {maximum:g}: {text!r}")
        if zero is None and not 0 < value <= maximum:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {maximum:g}: {text!r}")
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
    """
    stopper = _Stopper()
    previous = {sig: signal.signal(sig, stopper) for sig in STOP_SIGNALS}
    try:
        return main()
    except QuitRequested:
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except GamelibError as exc:
        report(prog, str(exc))
        return exit_code(exc, exits)
    finally:
        for sig, handler in previous.items():
            # on the way out, a late signal ends the process (as 128 + signal) instead of
            # raising a Python exception somewhere in the interpreter's own shutdown
            signal.signal(sig, signal.SIG_DFL if stopper.stopping and callable(handler) else handler)
