"""The web server as a whole: its own thread and event loop, beside the game's.

:class:`WebServer` puts the pieces together (the :class:`~.feed.Feed` the backend
tells its frames to, the :class:`~.seating.Seating`, the routes of :mod:`.api` and
the :class:`~.http.HttpServer`) and runs them in one daemon thread, so the game's
loop never waits for the network: the only things the game's thread does for the
server are :meth:`~.feed.Feed.shown` / :meth:`~.feed.Feed.said` (a queue append)
and reading the injected presses in its own wait.  :meth:`WebServer.close` stops
it within a second, and the thread never keeps the program alive.
"""
from __future__ import annotations

import asyncio
import errno
import logging
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable, List, Optional, Sequence, Tuple

from ..errors import ServerError
from ..i18n import _
from ..matrix import PIXELS
from .address import Address, page_urls
from .api import Console, Offer, WebApp
from .feed import Feed
from .http import HttpServer
from .limits import Limits
from .pages import Pages
from .seating import Seating, grouped

log = logging.getLogger("gamelib.web")

START_SECONDS = 10.0


class WebServer:
    """The web view and the phones' seats of one game, on ``address``.

    Use as a context manager (or :meth:`start` and :meth:`close`).  Tell the backend's
    frames and words to :attr:`feed` (``backend.screen.observe(server.feed)``).
    """

    def __init__(self, console: Console, address: Address = Address("127.0.0.1", 0), *,
                 limits: Limits = Limits(), seating: Optional[Callable[..., Seating]] = None,
                 pages: Sequence[Pages] = ()) -> None:
        self.console = console
        self.pages = tuple(pages)
        """What games add (:class:`~.pages.Pages`): their routes and links; closed with the server."""
        self.address = address
        self.limits = limits
        self.feed = Feed(limits, frame=(console.palette.background,) * PIXELS,
                         extra=lambda: {"seating": self.seating.state(), "palette": console.palette.name})
        self.seating = (seating or Seating)(console.seats, limits, pin_changed=self._pin_changed)
        self.bound: List[Tuple[str, int]] = []
        self.urls: List[str] = []
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.http: Optional[HttpServer] = None
        self._thread: Optional[threading.Thread] = None
        self._stop_watching = console.seats.watch(lambda seat, sitter: self.feed.changed())
        self.lan: Optional[Offer] = None
        """The game offered over the LAN (:class:`gamelib.lan.host.LanHost`) while there is one: ``/api/lan``
        goes to it (set from any thread: :mod:`gamelib.lan` attaches and detaches it)."""
        self._lan_games = 0
        """Games over the LAN on now on this backend, offered or joined (:meth:`lan_game`; counted: one
        may be begun inside another's block)."""
        self._lan_lock = threading.Lock()

    @property
    def port(self) -> int:
        return self.bound[0][1] if self.bound else self.address.port

    @property
    def seats_closed(self) -> bool:
        """True while a game is played over the LAN on this backend (offered here, or joined from here): only
        the two Pis' players play, so no phone asks for a PIN or takes a seat (403 ``lan``), the pairing
        gesture does nothing, and the page is to watch."""
        return self.lan is not None or self._lan_games > 0

    def lan_game(self, started: bool) -> None:
        """A game over the LAN began (``True``: every PIN is void and every phone's seat is given back) or
        ended (after the last, phones may take seats again)."""
        with self._lan_lock:
            self._lan_games += 1 if started else -1
        if started:
            self.seating.void()
            self.console.seats.clear()
        self.console.note(self.note())

    def note(self) -> str:
        """The line the terminal shows under the board: the page's address and the PIN (none while a game
        is played over the LAN)."""
        where = self.urls[0] if self.urls else _("port {port}").format(port=self.port)
        if self.seats_closed:   # a game over the LAN: only the two Pis' players play, the page is to watch
            return _("web: {where}  (watch only)").format(where=where)
        pin = self.seating.pin
        if pin is None:
            return _("web: {where}").format(where=where)
        return _("web: {where}  PIN {pin}").format(where=where, pin=grouped(pin))

    def start(self) -> "WebServer":
        """Listen and serve in a thread of its own; :class:`~gamelib.errors.ServerError` if it cannot listen."""
        loop = asyncio.new_event_loop()
        self.loop = loop
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(loop, ready), name="gamelib-web", daemon=True)
        self._thread.start()
        ready.wait()
        future = asyncio.run_coroutine_threadsafe(self._listen(), loop)
        try:
            self.bound = future.result(START_SECONDS)
        except OSError as exc:
            self.close()
            raise ServerError(_why(self.address, exc)) from None
        except FutureTimeout:
            self.close()
            raise ServerError(_("--web {address}: the server did not start within {seconds:g} s").format(
                address=self.address, seconds=START_SECONDS)) from None
        self.urls = page_urls(self.bound, self.address.host)
        self.console.note(self.note())
        log.info(_("web view on {urls}").format(urls=", ".join(self.urls)))
        return self

    def _run(self, loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _listen(self) -> List[Tuple[str, int]]:
        loop = asyncio.get_running_loop()
        self.feed.start(loop)
        app = WebApp(self.console, self.feed, self.seating, self.limits, clock=loop.time,
                     later=lambda delay, call: loop.call_later(delay, call), pages=self.pages,
                     lan=lambda: self.lan, seats_closed=lambda: self.seats_closed)
        self.http = HttpServer(app.routes(), self.limits, clock=loop.time, trusted=self.trusts)
        return await self.http.listen(self.address.host, self.address.port)

    def trusts(self, address: str) -> bool:
        """True for a seated phone's address and the LAN guest's: their connections are never crowded out."""
        lan = self.lan
        return self.seating.trusts(address) or (lan is not None and lan.trusts(address))

    def pair(self) -> None:
        """The person at the Pi made the pairing gesture (:meth:`gamelib.backends.stick.Stick.pair`; called in
        the game's thread): a pairing PIN, on the LEDs at once.  Nothing while no phone may take a seat (the
        server is not running, or a game is played over the LAN)."""
        loop = self.loop
        if loop is None or self.seats_closed:
            return
        self.console.show_pairing(self.seating.pair())
        try:   # once void: forgotten, and gone from the terminal's line
            loop.call_soon_threadsafe(loop.call_later, self.limits.pair_seconds + 0.01, self._pairing_void)
        except RuntimeError:  # the loop closed meanwhile
            pass

    def _pairing_void(self) -> None:
        self.seating.expire()
        self.console.note(self.note())

    def _pin_changed(self, pin: Optional[str]) -> None:
        if self.loop is not None:
            self.console.note(self.note())

    def close(self) -> None:
        """Stop serving and drop every connection (safe to call twice, from any thread but the server's);
        each of :attr:`pages` is closed."""
        self._stop_watching()
        pages, self.pages = self.pages, ()
        for page in pages:
            try:
                page.close()
            except Exception:  # a game's pages must not keep the server up
                log.error(_("closing a game's web pages failed"), exc_info=True)
        loop, thread = self.loop, self._thread
        if loop is None or thread is None:
            return
        self._thread = None
        if not loop.is_closed():
            def stop() -> None:
                if self.http is not None:
                    self.http.close()
                flushed(0)

            def flushed(tries: int) -> None:   # what the streams were sent goes out first (at most 0.5 s)
                if self.http is None or not self.http.connections or tries >= 50:
                    loop.stop()
                else:
                    loop.call_later(0.01, flushed, tries + 1)
            try:
                loop.call_soon_threadsafe(stop)
            except RuntimeError:  # closed meanwhile
                pass
        thread.join(5.0)

    def __enter__(self) -> "WebServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _why(address: Address, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        said = _("--web {address}: the port is in use by another program (try another port)")
    elif exc.errno == errno.EACCES:
        said = _("--web {address}: not allowed to listen there (ports below 1024 need root: try 8080)")
    elif exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        said = _("--web {address}: this machine has no such address")
    else:
        said = _("--web {address}: cannot listen: {why}")
    return said.format(address=address, why=exc.strerror or exc)
