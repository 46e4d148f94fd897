"""The web server's bounds, and the rate limiters that enforce some of them.

Every number the server holds to is a field of :class:`Limits`, so a test, the
benchmark or a later server on the same port reads one place.  :class:`TokenBucket`
is a rate (so many a second, with a burst) on an injectable clock;
:class:`RateTable` keeps one bucket per key (a client's address, a seat) in a
bounded table, so a flood of new keys cannot grow memory.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, TypeVar

Clock = Callable[[], float]


@dataclass(frozen=True)
class Limits:
    """What one client, and all of them together, may cost the server."""

    connections: int = 200
    """Connections open at once, from everyone (spectators' streams included).  When all are taken, a new
    one takes the place of a stranger's that has no request in progress (:attr:`fresh_seconds`): an idle
    one first, then one dripping a request, then one whose client reads none of its answers, the longest
    waiting first; never a stream or a link to a stranger, nor a trusted address's (a seated phone's, the
    LAN guest's) connection.  A trusted address's new connection may also take a stranger's stream's
    place, and comes in over this limit if nothing can give way (bounded by :attr:`per_address`).  A
    stranger's, only when none can give way: 503 (with ``Retry-After``, the rest of its request read and
    thrown away: never a silent close)."""
    per_address: int = 24
    """Connections open at once from one address (a phone, a laptop's tabs); more: 503.  A trusted address's
    newest takes the place of its own oldest that has no request in progress instead."""
    fresh_seconds: float = 1.0
    """A connection that has received nothing since it opened, or since its last answer, for less than this
    is not made to give way to a stranger's (its request may be on its way: a phone on Wi-Fi sends it a
    round trip after connecting); nor is one whose request has reached the machine and waits to be read."""
    refusing: int = 64
    """Connections being refused at once (:attr:`connections` or :attr:`per_address` reached): each is sent a
    503 and its end of the connection closed, then what it still sends is read and thrown away until it
    closes, for :attr:`linger_seconds` at most (closing a socket with unread data would reset the
    connection, and the client might never read its 503).  Beyond: closed at once."""
    linger_seconds: float = 2.0
    """How long a refused connection's client is given to read its 503 and close."""
    header_bytes: int = 8 * 1024
    """The request line and headers together; more: 431."""
    body_bytes: int = 1024
    """A request's body (the API's bodies are a few dozen bytes); more: 413."""
    request_seconds: float = 10.0
    """A whole request (head and body) must arrive within this, counted from the connection's start
    or the end of the previous response; else 408 and closed (a slowloris client gains nothing by
    dripping bytes)."""
    streams: int = 160
    """Strangers' event streams open at once; more: 503.  A trusted address's (a seated phone's) are not
    counted and never refused for it (each is bounded by :attr:`per_address`)."""
    stream_buffer: int = 64 * 1024
    """Bytes waiting to go to one stream's client before it counts as behind: it then gets only the
    newest frame and state when it catches up (it never holds up the others, and never costs more)."""
    stalled_seconds: float = 30.0
    """A stream's client that has been behind (read nothing) this long is dropped."""
    heartbeat_seconds: float = 15.0
    """A comment line on every quiet stream this often (keeps proxies and NAT open, finds dead peers)."""
    requests_per_second: float = 50.0
    """Requests from one address, on average; more: 429, and that connection is not read again until
    the ``Retry-After`` it was told has passed."""
    request_burst: int = 100
    send_buffer: int = 32 * 1024
    """Answers waiting for one client, in the server and in the kernel's send buffer each, before its
    connection stops being read (backpressure: a client that pipelines requests without reading
    the answers stops itself; streams and links have :attr:`stream_buffer` instead)."""
    requests_per_turn: int = 4
    """Pipelined requests of one connection answered before every other connection has had its turn."""
    read_bytes: int = 16 * 1024
    """Bytes read from a connection at a time (what a client sends beyond it waits in the kernel)."""
    presses_per_second: float = 10.0
    """Presses of one seat, on average (a quick thumb taps 6-8 a second); more: 429."""
    press_burst: int = 20
    pin_tries: int = 3
    """Wrong guesses at a PIN (from the address it was shown for: no other may use it); then it is void."""
    pin_show_seconds: float = 30.0
    """Least time between the beginnings of two PIN scrolls (one scroll, 6.5 s, hides the game; the
    addresses asking meanwhile wait their turn, in order)."""
    pin_seconds: float = 300.0
    """A PIN shown is good this long (if not used or void before)."""
    pin_queue: int = 64
    """Addresses waiting for their PIN's scroll at once; more: 503."""
    phone_gone_seconds: float = 3.0
    """On its seat's turn, a phone with no event stream open (``GET /api/events?token=...``) this long
    has closed its page (a reload is back sooner): the game waits for it ..."""
    phone_away_seconds: float = 30.0
    """... this long more (or until the stick at the HAT takes the seat back); then the seat goes back to
    the stick at the HAT."""
    pair_seconds: float = 60.0
    """A pairing PIN (the stick's middle held at the Pi: shown at once, good from any address, one try per
    address) is good this long (if not used before)."""
    queued_messages: int = 256
    """Frames and states waiting to go from the game's thread to the server's; beyond it the oldest
    are dropped (only if the server's thread cannot keep up)."""

    # -- another Pi's game over the LAN (``--lan``: gamelib.lan, docs/API.md "The LAN protocol") --
    links: int = 4
    """LAN links open at once (the guest, its reconnection, someone else asking); more: 503."""
    line_bytes: int = 16 * 1024
    """One line of the LAN protocol (a frame is about 1 KiB); longer: an error, and the link is closed."""
    messages_per_second: float = 40.0
    """Lines from one link, on average (a held stick sends 20 a second); more: an error, and closed."""
    message_burst: int = 80
    hello_seconds: float = 10.0
    """The first line (``hello``) must arrive within this after the switch; else closed."""
    ping_seconds: float = 1.0
    """Each side sends ``ping`` when it has sent nothing for this long ..."""
    silent_seconds: float = 5.0
    """... so a link that brought nothing for this long has dropped (Wi-Fi gone, the other Pi off)."""
    consent_seconds: float = 60.0
    """A request not answered at the host's stick within this is refused."""
    refused_seconds: float = 30.0
    """After a refusal, more requests from the same address are refused at once for this long."""
    away_seconds: float = 90.0
    """A guest whose link dropped may come back within this; then the match is abandoned on both sides."""


class TokenBucket:
    """``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        """Spend one token; False (and nothing spent) if there is none."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there (0 if one is)."""
        self._refill()
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) / self.rate


K = TypeVar("K", bound=Hashable)


class RateTable(Generic[K]):
    """One :class:`TokenBucket` per key, at most ``size`` keys (the least recently used go first;
    a key forgotten that way starts again with a full bucket, which bounds memory, not fairness)."""

    def __init__(self, rate: float, burst: int, *, size: int = 1024, clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._clock = clock
        self._buckets: "OrderedDict[K, TokenBucket]" = OrderedDict()

    def take(self, key: K) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._clock)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()

    def wait(self, key: K) -> float:
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def __len__(self) -> int:
        return len(self._buckets)
