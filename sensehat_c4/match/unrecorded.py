"""Before play, when the games cannot be recorded: the warning on the LEDs.

A game opens its records before play starts (:meth:`~sensehat_c4.records.Recorder.open`; the
commands do it before the backend takes the terminal, so the recorder's one line is printed
there first).  If they cannot be written (:attr:`~sensehat_c4.records.Recorder.failed` says
why), :data:`WORDS` (``GAMES NOT RECORDED``) scrolls once across the LEDs in the backend's palette's
warning colour, any press at the stick ending it, while the words say why (phase
``unrecorded``: the terminal's line under the board, the web page); then play goes on, unrecorded.
A lock another program holds is no failure (the moves wait for it): nothing is shown then.
"""
from __future__ import annotations

from typing import Optional

from gamelib.backends.base import Backend
from gamelib.scroll import scroll

from ..i18n import N_, _
from ..records import Reason, Recorder
from . import words

WORDS = N_("GAMES NOT RECORDED")
"""What scrolls (translated where it scrolls)."""


def warn(backend: Backend, why: str, *, reason: Optional[Reason] = None) -> None:
    """Say that the games are not being recorded (``why``, in words; ``reason``, as values, when it has a code),
    and scroll :data:`WORDS` once."""
    backend.screen.say(words.unrecorded(why, reason))
    scroll(backend, _(WORDS), backend.palette.warning, backend.palette.background)


def check(backend: Backend, recorder: Recorder) -> bool:
    """Open ``recorder`` (at once if it is open already) and :func:`warn` if it cannot record; True if it can."""
    recorder.open()
    if recorder.failed is None:
        return True
    warn(backend, recorder.failed, reason=recorder.failed_reason)
    return False
