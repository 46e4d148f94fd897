"""Screens that declare their keys, and the one loop that runs them (as Textual's ``BINDINGS``).

A screen is a :class:`Screen`: its class declares :attr:`Screen.KEYS`, a table from a
:data:`Press` (a direction and an action of the stick) to a :class:`Key` (the method it calls,
with an optional help word); an instance says when it is :attr:`~Screen.done`, when something is
due next (:meth:`~Screen.deadline`, e.g. an animation's next frame) and what to do then
(:meth:`~Screen.due`), and which events it heeds at all (:meth:`~Screen.heeds`: the choosers only
their own stick's).  :func:`run` is the loop: it waits through :func:`gamelib.waiting.wait` (one
``select()``, never a busy loop), calls ``due()`` at the deadline and the bound method of each
event heeded; a press with no key does nothing.  :class:`Animated` is a screen whose only deadline
is its :class:`~gamelib.animation.Animation`'s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Dict, Generic, Mapping, Optional, Tuple, TypeVar

from .animation import Animation
from .backends.base import Action, Backend, Direction, StickEvent
from .waiting import DUE, wait

__all__ = ["Animated", "Key", "Keys", "Press", "Screen", "bind", "run"]

Press = Tuple[Direction, Action]
"""What a key is bound to: a direction of the stick and what it did (pressed, held, released)."""

S = TypeVar("S", bound="Screen")


@dataclass(frozen=True)
class Key(Generic[S]):
    """What a press does on a screen: its method ``do(screen, event)``, and the word (marked for the
    catalogue, ``N_``) a help line may show for it."""

    do: Callable[[S, StickEvent], None]
    help: Optional[str] = None


Keys = Mapping[Press, "Key[Any]"]
"""A screen's key table."""


def bind(do: Callable[[S, StickEvent], None], *presses: Press, help: Optional[str] = None) -> Dict[Press, Key[S]]:
    """``presses`` each bound to one :class:`Key` calling ``do`` (merge several with ``{**a, **b}``)."""
    key = Key(do, help)
    return {press: key for press in presses}


class Screen:
    """A screen run by :func:`run`; subclasses set :attr:`KEYS` and :attr:`done`, and override the rest
    as they need."""

    KEYS: ClassVar[Keys] = {}
    """The key table: what each press does (a press not in it does nothing)."""
    done: bool = False
    """True ends :func:`run` (checked before each wait)."""

    def deadline(self) -> Optional[float]:
        """When (on the backend's clock) :meth:`due` is to be called next; ``None``: nothing due."""
        return None

    def due(self) -> None:
        """What to do at :meth:`deadline`."""

    def heeds(self, event: StickEvent) -> bool:
        """Whether ``event`` goes on to the key table (all events unless overridden): ``False`` drops it
        (another stick's), or says it did all it does here (the launcher's press that wakes the LEDs)."""
        return True

    def keys(self) -> Keys:
        """The key table in force: :attr:`KEYS` unless overridden (a screen with several tables by its
        state: the launcher's games, system menu and power-off question)."""
        return self.KEYS


class Animated(Screen):
    """A screen whose deadline is its :attr:`animation`'s, advanced when due (the replay, the training)."""

    animation: Animation

    def deadline(self) -> Optional[float]:
        return self.animation.deadline

    def due(self) -> None:
        self.animation.advance()


def run(backend: Backend, screen: Screen) -> None:
    """Run ``screen`` on ``backend`` until it is done: wait for the next event or its deadline, call
    ``due()`` at the deadline, each heeded event's bound method (nothing for a press not bound, nor
    when the wait was woken)."""
    while not screen.done:
        got = wait(backend, screen.deadline())
        if got is DUE:
            screen.due()
        elif isinstance(got, StickEvent) and screen.heeds(got):
            key = screen.keys().get((got.direction, got.action))
            if key is not None:
                key.do(screen, got)
