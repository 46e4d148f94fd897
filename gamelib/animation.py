"""Playing animations inside an event loop: frames shown one after another, then a callback.

An animation is an iterable of ``(frame, seconds)`` steps (a pure generator, like the
renderers').  :class:`Animation` shows one step at a time on a backend and keeps the
deadline of the next; the owner's loop waits on the stick until :attr:`deadline` and
then calls :meth:`advance`.  So animating never blocks the stick and never spins.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional, Sequence, Tuple

from .backends.base import Backend
from .colours import RGB

Step = Tuple[Sequence[RGB], float]
"""A frame and how long it stays up, in seconds."""


def _nothing() -> None:
    return None


class Animation:
    """At most one running animation (or plain wait) on ``backend``."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.deadline: Optional[float] = None
        """When the next step is due (backend clock), ``None`` when idle."""
        self._steps: Iterator[Step] = iter(())
        self._then: Callable[[], None] = _nothing

    @property
    def then(self) -> Callable[[], None]:
        """What runs when the current animation ends."""
        return self._then

    def play(self, steps: Iterable[Step], then: Callable[[], None] = _nothing) -> None:
        """Show the first step now; ``then`` runs once the last one's time is over."""
        self._steps = iter(steps)
        self._then = then
        self.advance()

    def wait(self, seconds: float, then: Callable[[], None]) -> None:
        """Show nothing new; run ``then`` after ``seconds``."""
        self.play(((None, seconds),), then)  # type: ignore[arg-type]

    def advance(self) -> None:
        """Show the next step, or end: clear the deadline and run ``then``."""
        step = next(self._steps, None)
        if step is None:
            then, self._then, self.deadline = self._then, _nothing, None
            then()
            return
        frame, seconds = step
        if frame is not None:
            self.backend.screen.show(frame)
        self.deadline = self.backend.now() + seconds

    def stop(self) -> None:
        """Drop the rest of the animation (its ``then`` does not run)."""
        self._steps = iter(())
        self._then = _nothing
        self.deadline = None

