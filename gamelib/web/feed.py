"""The live feed: every frame the LEDs show and every state the game says, to every watcher.

:class:`Feed` is an observer of the backend (:meth:`~gamelib.backends.screen.Screen.observe`):
:meth:`Feed.shown` and :meth:`Feed.said` are called in the game's thread as the frame
is shown, and only append to a bounded queue and, if none is pending, schedule one
call in the server's event loop (no polling, no timer: the frame goes out when it is
shown).  There each message is encoded once and written to every watcher's stream
as a Server-Sent Event (``event: frame`` / ``event: state``).

A slow client never holds up the game or the others: while its connection has
more than :attr:`~.limits.Limits.stream_buffer` bytes waiting, it is *behind* and
is written nothing; when it catches up it gets the newest state and frame (latest
wins), and one that stays behind :attr:`~.limits.Limits.stalled_seconds` is
dropped.  If the server's thread falls behind the game's, the queue between them
keeps the last :attr:`~.limits.Limits.queued_messages` and counts the rest in
:attr:`Feed.dropped`.
"""
from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence, Tuple

from ..backends.base import Observer
from ..colours import RGB
from ..jsonvalue import JSON, JSONObject
from ..seats import Sitter
from ..status import Status
from .http import Stream
from .limits import Limits

Picture = Tuple[RGB, ...]

FRAME, STATE = "frame", "state"
RETRY_MS = 1000
"""How soon a browser's ``EventSource`` reconnects after the stream drops (sent as ``retry:``)."""
HEARTBEAT = b": still here\n\n"


def event(kind: str, data: JSONObject) -> bytes:
    """One Server-Sent Event: ``event: KIND``, ``data: JSON`` (one line), a blank line."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def pixels(frame: Sequence[RGB]) -> List[JSON]:
    """A frame as the API gives it: 64 ``[r, g, b]`` lists, row by row from the top left."""
    return [[int(r), int(g), int(b)] for r, g, b in frame]


class Watcher:
    """One client's event stream (``sitter``: the seated phone whose page it is, by its token)."""

    def __init__(self, feed: "Feed", stream: Stream, sitter: Optional[Sitter] = None) -> None:
        self.feed = feed
        self.stream = stream
        self.sitter = sitter
        self.stale = False
        """Something was not written while it was behind: it gets the newest state and frame."""
        stream.caught_up = self._caught_up
        stream.closed = lambda: feed.detach(self)

    def send(self, data: bytes) -> None:
        if self.stream.behind:
            self.stale = True
        else:
            self.stream.write(data)

    def _caught_up(self) -> None:
        if self.stale:
            self.stale = False
            self.stream.write(self.feed.state_event() + self.feed.frame_event())


class Feed(Observer):
    """The newest frame and state, and the watchers they go to."""

    def __init__(self, limits: Limits = Limits(), *, frame: Picture, extra: Callable[[], Dict[str, Any]] = dict) -> None:
        self.limits = limits
        self.extra = extra
        """Added to every state (the server's seating), read in the event loop."""
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.frame = frame
        """The newest frame (at first: the LEDs dark, in the palette shown)."""
        self.seq = 0
        """Frames shown since the feed began; the newest one's number."""
        self.status: Optional[Status] = None
        self.watchers: "set[Watcher]" = set()
        self.dropped = 0
        self.sent = 0
        """Frames handed to the watchers (each once, whatever their number)."""
        self.counted = 0
        """Frames shown since the feed began (what :attr:`seq` will reach)."""
        self._lock = threading.Lock()
        self._queue: Deque[Tuple[str, int, Any]] = deque()
        self._scheduled = False
        self._heartbeat: Optional[asyncio.TimerHandle] = None
        self._frame_event: Optional[bytes] = None
        self._state_event: Optional[bytes] = None
        self.watching: Callable[[], None] = lambda: None
        """Called in the event loop when a stream opens or closes and when a state has gone out
        (:class:`~.presence.Presence` looks whether the phone to move still has its page open)."""

    # -- the game's thread ------------------------------------------------------------

    def shown(self, frame: Sequence[RGB]) -> None:
        """A frame was shown (called in the game's thread; returns at once)."""
        with self._lock:
            self.counted += 1
            self._post((FRAME, self.counted, tuple(frame)))

    def said(self, status: Status) -> None:
        """The game said what the LEDs show (a :class:`~gamelib.status.Status`)."""
        with self._lock:
            self._post((STATE, 0, status))

    def changed(self) -> None:
        """Something in :attr:`extra` changed (a seat was taken): the state goes out again."""
        with self._lock:
            self._post((STATE, 0, self))

    def _post(self, item: Tuple[str, int, Any]) -> None:  # with the lock held
        if len(self._queue) >= self.limits.queued_messages:
            self._queue.popleft()
            self.dropped += 1
        self._queue.append(item)
        if not self._scheduled and self.loop is not None:
            try:
                self.loop.call_soon_threadsafe(self._flush)
                self._scheduled = True
            except RuntimeError:  # the loop is closed: the server has stopped
                self.loop = None

    # -- the server's event loop ------------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver in ``loop`` from now on (what came before is the starting frame and state)."""
        with self._lock:
            self.loop = loop
            if self._queue and not self._scheduled:
                loop.call_soon_threadsafe(self._flush)
                self._scheduled = True

    def _flush(self) -> None:
        with self._lock:
            items = list(self._queue)
            self._queue.clear()
            self._scheduled = False
        stated = False
        for kind, number, value in items:
            if kind == FRAME:
                self.frame, self.seq = value, number
                self._frame_event = None
                data = self.frame_event()
                self.sent += 1
            else:
                if value is not self:
                    self.status = value
                self._state_event = None
                data = self.state_event()
                stated = True
            for watcher in list(self.watchers):
                watcher.send(data)
        if stated:
            self.watching()

    def frame_json(self) -> JSONObject:
        return {"seq": self.seq, "pixels": pixels(self.frame)}

    def state_json(self) -> JSONObject:
        status = None if self.status is None else self.status.as_json()
        return {"status": status, **self.extra()}

    def frame_event(self) -> bytes:
        if self._frame_event is None:
            self._frame_event = event(FRAME, self.frame_json())
        return self._frame_event

    def state_event(self) -> bytes:
        if self._state_event is None:
            self._state_event = event(STATE, self.state_json())
        return self._state_event

    def attach(self, stream: Stream, sitter: Optional[Sitter] = None) -> Watcher:
        """Send ``stream`` the feed from now on, starting with the state and frame up now (``sitter``:
        the seated phone whose page opened it)."""
        watcher = Watcher(self, stream, sitter)
        self.watchers.add(watcher)
        stream.write(f"retry: {RETRY_MS}\n\n".encode() + self.state_event() + self.frame_event())
        if self._heartbeat is None:
            self._beat_later()
        self.watching()
        return watcher

    def detach(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if not self.watchers and self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
        self.watching()

    def _beat_later(self) -> None:
        assert self.loop is not None
        self._heartbeat = self.loop.call_later(self.limits.heartbeat_seconds, self._beat)

    def _beat(self) -> None:
        for watcher in list(self.watchers):
            if not watcher.stream.behind:
                watcher.stream.write(HEARTBEAT)
        self._heartbeat = None
        if self.watchers:
            self._beat_later()
