"""Input from other threads for a backend's wait: a bounded queue and a wake-up pipe.

A phone's press arrives on a server's thread, the computer's move on its search
thread; the game waits on the backend in the main thread, blocked in ``select()``
on the joystick.  :class:`Inbox` is how the one reaches the other without a timer:
:meth:`Inbox.put` queues an event and writes a byte to a pipe whose read end
(:meth:`Inbox.fileno`) sits in that same ``select()``, so the wait returns at once.
:meth:`Inbox.wake` writes the byte without an event (the computer has its move: the
loop should look).

The pipe is made at the first :meth:`fileno` (a backend that never waits never
opens it) and closed by :meth:`close` or when the inbox is garbage-collected.
"""
from __future__ import annotations

import os
import threading
import weakref
from collections import deque
from typing import Deque, List, Optional, Tuple

from .events import Action, Direction

LIMIT = 256
"""Events queued at most; more are refused until the game has read some (a flood is dropped)."""

Injected = Tuple[Direction, Action, str]
"""A queued event: its direction, its action and its source (the backend stamps the time on receipt)."""


def _close_fds(fds: List[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
    fds.clear()


class Inbox:
    """Thread-safe: :meth:`put` and :meth:`wake` from any thread; the rest from the waiting one."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._events: Deque[Injected] = deque()
        self._fds: List[int] = []     # [read end, write end] once made
        self._signalled = False
        self._early = False
        self._closed = False
        self._finalizer = weakref.finalize(self, _close_fds, self._fds)

    def fileno(self) -> int:
        """The pipe's read end, for ``select()``: readable once an event or a wake-up is waiting."""
        with self._lock:
            if not self._fds:
                if self._closed:
                    raise ValueError("the inbox is closed")
                read_end, write_end = os.pipe()
                for fd in (read_end, write_end):
                    os.set_blocking(fd, False)
                self._fds.extend((read_end, write_end))
                if self._early:         # an event or a wake-up before anyone waited: the wait must not block
                    self._signal()
            return self._fds[0]

    def put(self, direction: Direction, action: Action, source: str) -> bool:
        """Queue an event and wake the wait; False if it was refused (closed, or :attr:`limit` queued)."""
        with self._lock:
            if self._closed or len(self._events) >= self.limit:
                return False
            self._events.append((direction, action, source))
            self._signal()
            return True

    def wake(self) -> None:
        """Make the wait in progress (or the next one) return at once, with no event."""
        with self._lock:
            if not self._closed:
                self._signal()

    def _signal(self) -> None:  # with the lock held
        if not self._fds:
            self._early = True   # no pipe yet: fileno() writes the byte when it makes it
            return
        self._early = False
        if not self._signalled:
            try:
                os.write(self._fds[1], b"\0")
            except OSError:  # full (cannot be: one byte at a time): the byte already there wakes the wait
                return
            self._signalled = True

    def drain(self) -> None:
        """Empty the pipe (the waiter saw it readable); queued events stay for :meth:`take`."""
        with self._lock:
            self._signalled = False
            if self._fds:
                try:
                    while os.read(self._fds[0], 512):
                        pass
                except OSError:  # BlockingIOError: empty
                    pass

    def take(self) -> Optional[Injected]:
        """The oldest queued event, or ``None``."""
        with self._lock:
            return self._events.popleft() if self._events else None

    def discard(self) -> int:
        """Drop every queued event; how many."""
        with self._lock:
            count = len(self._events)
            self._events.clear()
            return count

    def close(self) -> None:
        """Refuse everything from now on and close the pipe (safe to call twice)."""
        with self._lock:
            self._closed = True
            self._events.clear()
            _close_fds(self._fds)
