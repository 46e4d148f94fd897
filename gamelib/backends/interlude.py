"""What the LEDs say over the game for a moment, asked for by another thread: an interlude.

The web server asks the backend to scroll the PIN (someone wants a seat) or to say
that a phone took a seat; the game does not know.  :meth:`Backend.interlude
<gamelib.backends.base.Backend.interlude>` queues the frames from any thread and
wakes the wait; the game's own thread plays them inside
:meth:`~gamelib.backends.base.Backend.wait_event`, one step per deadline, so the
mock's fake clock drives them like everything else.

- It starts at the next moment the game waits for a person: a wait of at least
  :data:`IDLE` seconds, or for ever (the cursor waiting for a move, a chooser, the
  menu), not in the middle of a falling token or the computer's thinking, and in
  any case once it has waited :data:`MOST_DEFERRED` seconds.
- While it plays, the game goes on underneath: its frames are kept, not shown, and
  the last one comes back when the interlude ends.  A press of the backend's own
  stick ends it at once, and reaches the game as it would have without it (no press
  at the Pi is lost to a PIN someone on the network asked for); other sources'
  presses reach the game as usual.
- A private interlude (the PIN) is written to the LEDs only: observers (the web
  page, which anyone on the LAN may watch) keep seeing the game.  A public one (a
  seat was taken) is shown to them too.
- Interludes asked for while one plays wait their turn (at most :data:`QUEUED`; beyond
  that the oldest waiting one is dropped).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple

from gamelib.colours import RGB

from gamelib.status import Status

if TYPE_CHECKING:  # base.py imports this module
    from .base import StickEvent

IDLE = 0.5
"""A wait at least this long (or for ever) is a moment the game waits for a person."""
MOST_DEFERRED = 5.0
"""An interlude waits at most this long (on the backend's clock) for such a moment."""

QUEUED = 4
"""Interludes waiting at most (two seats taken and a PIN asked for at once fit)."""

Step = Tuple[Sequence[RGB], float]


@dataclass
class Interlude:
    """Frames to show, each for its seconds, and whether observers see them."""

    steps: List[Step]
    mirrored: bool = False
    asked: Optional[float] = None
    """When the game's thread first saw it waiting (the backend's clock)."""
    index: int = -1
    due: float = 0.0
    """When the next step is due (once started)."""
    shown: List[Sequence[RGB]] = field(default_factory=list)

    @property
    def started(self) -> bool:
        return self.index >= 0

    def ready(self, now: float, timeout: Optional[float]) -> bool:
        """Whether to start now, in a wait of ``timeout`` seconds (``None``: for ever)."""
        if self.asked is None:
            self.asked = now
        return timeout is None or timeout >= IDLE or now - self.asked >= MOST_DEFERRED

    def next(self, now: float) -> Optional[Sequence[RGB]]:
        """The next frame to show (its deadline set from ``now``), or ``None`` at the end."""
        self.index += 1
        if self.index >= len(self.steps):
            return None
        frame, seconds = self.steps[self.index]
        self.due = now + seconds
        return frame


@dataclass(eq=False)
class Pause:
    """Frames shown over and over, over the game, until released (:meth:`Backend.pause
    <gamelib.backends.base.Backend.pause>`): the game waits for something outside it (another Pi's
    link).  ``pressed`` is told the stick's presses meanwhile (the game gets none)."""

    steps: List[Step]
    pressed: Optional[Callable[["StickEvent"], None]] = None
    status: Optional[Status] = None
    """Said while it is up (the game's words come back after)."""
    released: bool = False
    """Set (from any thread) by :meth:`~gamelib.backends.base.Backend.unpause`."""
    index: int = -1
    due: float = 0.0

    def next(self, now: float) -> Sequence[RGB]:
        """The next frame (after the last, the first again); its deadline set from ``now``."""
        self.index = (self.index + 1) % len(self.steps)
        frame, seconds = self.steps[self.index]
        self.due = now + seconds
        return frame
