"""Waiting for the stick inside an event loop: the one helper every game's loop calls.

A loop with something due later (an animation's next frame, a blink, a menu's dimming)
asks :func:`wait` for the next thing to do: :data:`DUE` when its deadline has come
(at once, without waiting, if it already had), else the next stick event, else
:data:`WOKEN` (the deadline passed while waiting, or another thread woke the backend:
look again).  It blocks in the backend's one ``select()`` until then, so a loop waiting
costs no CPU; it never sleeps and never polls.  The screens' one loop over it, with their key
tables, is :func:`gamelib.keys.run`.
"""
from __future__ import annotations

import enum
from typing import Optional, Union

from .backends.base import Backend, StickEvent

__all__ = ["DUE", "WOKEN", "Wake", "wait"]


class Wake(enum.Enum):
    """What ended a :func:`wait` other than an event."""

    DUE = "due"
    """The deadline has come: do what was due."""
    WOKEN = "woken"
    """No event: the wait timed out, or another thread woke the backend (ask again)."""


DUE = Wake.DUE
WOKEN = Wake.WOKEN


def wait(backend: Backend, deadline: Optional[float]) -> Union[StickEvent, Wake]:
    """The next stick event of ``backend``, waiting at most until ``deadline`` (its clock;
    ``None``: until an event or a wake-up); :data:`DUE` at once if the deadline has come,
    :data:`WOKEN` if the wait ended without an event."""
    now = backend.now()
    if deadline is not None and now >= deadline:
        return DUE
    event = backend.stick.wait_event(None if deadline is None else deadline - now)
    return WOKEN if event is None else event

