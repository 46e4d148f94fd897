"""The game on any screen of the LAN, and a phone as a second joystick (``--web [HOST:]PORT``).

A small HTTP server in a thread of its own serves one static page (``static/``:
no CDN, no build step) and the API the page uses (``docs/API.md``): the LEDs and
the game's words as they change (an event stream), and, with the PIN the LEDs
show (or the pairing PIN they show at once when the stick's middle is held), a seat
whose presses reach the game as the stick's do.  Game-independent:
Connect 4's words and seats are its own (``sensehat_c4.match.words``, ``sensehat_c4.game``).

- :mod:`.limits`   every bound (:class:`~.limits.Limits`) and the rate limiters
- :mod:`.http`     HTTP/1.1 over asyncio and h11: limits, timeouts, security headers, origin checks
- :mod:`.feed`     frames and words from the game's thread to every watcher (Server-Sent Events)
- :mod:`.seating`  the PINs (one per asking device, scrolled in turn) and the tokens
- :mod:`.api`      the routes; :class:`~.api.Console`, what the server needs from the game's side
- :mod:`.console`  that side on a backend (presses injected, the PIN scrolled on the LEDs)
- :mod:`.address`  ``--web [HOST:]PORT`` and the address to tell people
- :mod:`.server`   :class:`~.server.WebServer`: all of it in its own thread
- :mod:`.pages`    what a game adds: :class:`~.pages.Pages` (routes, links; Connect 4's history and reviews)
"""
from __future__ import annotations

import argparse
import contextlib
import threading
import weakref
from typing import TYPE_CHECKING, Callable, Iterator, MutableMapping, Optional, Sequence

from ..errors import SetupError
from ..i18n import _
from .address import Address, argument
from .limits import Limits

if TYPE_CHECKING:  # the server needs h11: imported only when it is asked for
    from ..backends.base import Backend
    from .pages import Pages
    from .server import WebServer

__all__ = ["Address", "add_argument", "lan_game", "running", "serving"]

_RUNNING: "MutableMapping[Backend, WebServer]" = weakref.WeakKeyDictionary()


class _Gesture:
    """A web server's listening for the pairing gesture on its backend: only while phones may take seats
    (not while :attr:`~.server.WebServer.seats_closed`: the gesture would do nothing, and the terminal's
    key help names ``p`` only while someone listens)."""

    def __init__(self, backend: "Backend", server: "WebServer") -> None:
        self._backend, self._server = backend, server
        self._lock = threading.Lock()
        self._closed = False
        self._stop: Optional[Callable[[], None]] = None
        self.update()

    def update(self) -> None:
        """Listen, or stop listening, as the server's seats are now open or closed."""
        with self._lock:
            stop = None
            if self._closed or self._server.seats_closed:
                stop, self._stop = self._stop, None
            elif self._stop is None:
                self._stop = self._backend.stick.watch_pairing(self._server.pair)
        if stop is not None:
            stop()

    def close(self) -> None:
        """Stop listening for good (the server stopped)."""
        with self._lock:
            self._closed = True
        self.update()


_GESTURE: "MutableMapping[Backend, _Gesture]" = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def lan_game(backend: "Backend") -> Iterator[None]:
    """For the ``with`` block a game is played over the LAN on ``backend`` (offered or joined): its web
    server (if any) seats no phone (:attr:`~.server.WebServer.seats_closed`: the seated are given back
    their seats, PINs are refused with 403 ``lan``) and does not listen for the pairing gesture."""
    server = _RUNNING.get(backend)
    gesture = _GESTURE.get(backend)
    if server is not None:
        server.lan_game(True)
    if gesture is not None:
        gesture.update()
    try:
        yield
    finally:
        if server is not None:
            server.lan_game(False)
        if gesture is not None:
            gesture.update()


def running(backend: "Backend") -> Optional["WebServer"]:
    """The web server :func:`serving` runs for ``backend`` now, if any (a game offered over the LAN
    from the launcher's menu uses the launcher's)."""
    return _RUNNING.get(backend)


def add_argument(parser: "argparse._ActionsContainer") -> None:
    """``--web [HOST:]PORT`` (shared by ``sensehat-c4`` and ``gamelib``)."""
    parser.add_argument("--web", type=argument, default=None, metavar="[HOST:]PORT",
                        help=_("show the game live in any browser on the LAN at http://THIS-MACHINE:PORT/, and "
                               "let a phone take a seat with the PIN the LEDs show (PORT alone: every address "
                               "of this machine)"))


@contextlib.contextmanager
def serving(backend: "Backend", address: Optional[Address], notice: Callable[[str], None] = lambda message: None,
            *, limits: Optional["Limits"] = None, seats: bool = True,
            pages: Callable[[], Sequence["Pages"]] = lambda: ()) -> Iterator[Optional["WebServer"]]:
    """Serve the web view of ``backend`` on ``address`` for the ``with`` block (nothing if ``None``):
    the feed watches the backend, phones' presses go to it, and the seats are emptied at the end
    (``seats=False``: watching only, said so, as while a game is offered over the LAN).
    ``pages()`` gives what games add (their history...: :class:`~.pages.Pages`), asked only when serving."""
    if address is None:
        yield None
        return
    try:
        # an optional dependency (h11), and start-up: both load the HTTP server (asyncio, h11)
        from .console import BackendConsole  # noqa: PLC0415
        from .server import WebServer  # noqa: PLC0415
    except ImportError as exc:
        raise SetupError(_("--web needs the {package} package: pip install h11").format(
            package=exc.name or "h11")) from None
    server = WebServer(BackendConsole(backend), address, limits=limits or Limits(), pages=pages())
    stop = backend.screen.observe(server.feed)
    gesture: Optional[_Gesture] = None
    server.feed.shown(backend.screen.frame)          # what is up now, for the first page
    if backend.screen.status is not None:
        server.feed.said(backend.screen.status)
    try:
        server.start()
        _RUNNING[backend] = server
        if seats:   # the stick's middle held (the terminal's p): a pairing PIN at once, while phones may sit
            gesture = _GESTURE[backend] = _Gesture(backend, server)
        if not backend.interludes.shows_notes:   # the terminal has the address (and the PIN) under the board
            urls = ", ".join(server.urls)
            notice(_("web view on {urls} (a phone takes a seat with the PIN the LEDs show)").format(urls=urls)
                   if seats else _("web view on {urls} (watch only)").format(urls=urls))
        yield server
    finally:
        _RUNNING.pop(backend, None)
        _GESTURE.pop(backend, None)
        if gesture is not None:
            gesture.close()
        stop()
        server.close()
        backend.seats.clear()
