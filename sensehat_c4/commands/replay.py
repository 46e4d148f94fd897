"""``sensehat-c4 replay ID``: a stored round played again on the LEDs."""
from __future__ import annotations

from typing import Sequence

from gamelib import app, backends

from ..i18n import _
from ..records import load_round
from ..study.replay import replay
from .common import PROG, add_db, add_round_id, done, parser


def run(argv: Sequence[str]) -> int:
    args_parser = parser("replay", _("Play a stored round again on the LEDs: right/left step forward/back, "
                                     "middle pauses (at the end: again from the start), up leaves."))
    add_db(args_parser)
    add_round_id(args_parser)
    backends.add_arguments(args_parser)
    args = args_parser.parse_args(argv)
    match, rnd, notes = load_round(args.db, args.id)
    with backends.from_args(args, notice=lambda message: app.report(PROG, message)) as backend:
        replay(backend, match, rnd)
    return done("replay", notes)
