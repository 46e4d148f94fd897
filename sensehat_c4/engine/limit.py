"""How much a search may do: :class:`Limit` (what the caller asks), :class:`Budget` (its running form).

python-chess style: every call into the engine takes one :class:`Limit`; the engine
starts it once as a :class:`Budget` (the deadline fixed, the nodes counted) and hands
that budget down to every search it makes for the call.  A search looks at the budget
every few thousand nodes and raises :class:`~sensehat_c4.errors.SearchAborted` when it
has run out.  No code sets a search's limits any other way.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Limit:
    """How much one call may do; ``None`` means no limit of that kind.

    The levels below perfect do the same work whatever the limit (their horizon bounds it):
    a limit changes their move only when it runs out.  Perfect's exact search may need more
    than ``seconds`` on a slow machine, and then plays its best move known so far; ``nodes``
    keeps that reproducible with one thread (with more, which move a spent budget leaves depends
    on the threads' timing: ``--threads 1``).
    """

    seconds: Optional[float] = None
    nodes: Optional[int] = None
    stop: Optional[threading.Event] = None
    """Set from another thread to end the search now (the best move so far is played)."""

    @property
    def bounded(self) -> bool:
        """True if the time or the nodes are limited."""
        return self.seconds is not None or self.nodes is not None

    def start(self) -> "Budget":
        """The running budget of a call starting now."""
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        return Budget(deadline, self.nodes, self.stop)


@dataclass
class Budget:
    """A started :class:`Limit`: an absolute deadline (``time.monotonic()``), a node cap,
    a stop event, and the nodes searched so far (each search adds its own)."""

    deadline: Optional[float] = None
    max_nodes: Optional[int] = None
    stop: Optional[threading.Event] = None
    nodes: int = 0
    progress: Optional[Callable[[int], None]] = None
    """Told the nodes searched so far at each look at the budget (every few thousand nodes),
    so a long search can show that it is moving (both cores call it)."""

    def spent(self) -> bool:
        """True if the stop event is set, the node cap reached or the deadline passed."""
        if self.stop is not None and self.stop.is_set():
            return True
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def capped(self, nodes: int) -> "Budget":
        """A budget for one attempt: this one's deadline and stop event, and at most ``nodes``
        more nodes.  Add its :attr:`nodes` back with :meth:`absorb`."""
        cap = self.nodes + nodes
        if self.max_nodes is not None:
            cap = min(cap, self.max_nodes)
        return Budget(self.deadline, cap, self.stop, self.nodes)

    def part(self, share: float) -> "Budget":
        """A budget for the first ``share`` (0-1) of what is left of this one's time and nodes,
        with the same stop event.  Add its :attr:`nodes` back with :meth:`absorb`."""
        deadline = max_nodes = None
        if self.deadline is not None:
            now = time.monotonic()
            deadline = now + share * max(0.0, self.deadline - now)
        if self.max_nodes is not None:
            max_nodes = self.nodes + int(share * max(0, self.max_nodes - self.nodes))
        return Budget(deadline, max_nodes, self.stop, self.nodes)

    def absorb(self, attempt: "Budget") -> None:
        """Take over the node count of a budget made with :meth:`capped` or :meth:`part`."""
        self.nodes = attempt.nodes
