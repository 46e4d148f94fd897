"""``sensehat-c4 doctor``: what this machine has of what the game needs, one line each, with the fixes.

The checks are :mod:`sensehat_c4.commands.checks`'s (and :mod:`gamelib.doctor`'s); this module
prints them: ``✓``, ``✗`` (with ``; fix: ...``) or ``–`` (not needed here, or not checked),
``ok``/``XX``/``--`` where the output cannot take those marks, or one JSON object
with ``--json``.  The last line is the way to play (``--backend``, ``$GAMELIB_BACKEND`` or
``auto``) and whether it works: the exit code is 0 only then, else 1.
"""
from __future__ import annotations

import json
import sys
from typing import Sequence, TextIO

from gamelib import app, backends
from gamelib.doctor import MARKS, System

from ..i18n import _
from .checks import examine
from .common import add_db, parser, show


def marks_fit(stream: TextIO) -> bool:
    """True if ``stream`` can take the marks ``✓ ✗ –``."""
    try:
        "".join(mark for mark, _ in MARKS.values()).encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def run(argv: Sequence[str]) -> int:
    args_parser = parser("doctor", _("Check what this machine has of what the game needs, one line each: ✓ works, "
                                     "✗ broken (with the fix), – not needed here or not checked. Exit 0 only when the way "
                                     "to play (--backend, $GAMELIB_BACKEND or auto) works."))
    args_parser.add_argument("--backend", choices=backends.names(), default=None,
                             help=_("the way to play to judge (default: ${variable}, else what auto picks)").format(
                                 variable=backends.ENV_VAR))
    add_db(args_parser)
    args_parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    args = args_parser.parse_args(argv)
    report = examine(System(), backend=args.backend, db=args.db)
    if args.json:
        show(json.dumps(report.as_json()))
    else:
        utf8 = marks_fit(sys.stdout)
        text = "\n".join(report.lines(utf8=utf8))
        if not utf8:  # a path or a name this output cannot take is escaped, not a traceback
            encoding = sys.stdout.encoding or "ascii"
            text = text.encode(encoding, "backslashreplace").decode(encoding)
        show(text)
    return app.EXIT_OK if report.works else app.EXIT_ERROR
