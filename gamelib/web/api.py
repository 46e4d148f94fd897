"""The web view's routes: the page's files, the state, the event stream, and the phone's seat.

Every route is documented in ``docs/API.md``; the page (``static/``) uses these and
nothing else.  Reading needs nothing; :data:`CHANGES` (asking for the PIN, taking
and leaving a seat, pressing) need JSON from the page's own origin, and a press
needs the token a seat gave.
"""
from __future__ import annotations

import gettext
import math
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from ..colours import NAMES, hex_colour
from ..i18n import CATALOGUE, _
from ..palette import Palette, css
from ..seats import SeatTable
from .feed import Feed
from .http import (HttpError, Reply, Request, Response, Route, StaticFile, StreamReply, load_files, serve_file,
                   static_file)
from .limits import Limits
from .presence import Presence, Waiting
from .seating import Seating
from .words import VARY, PageWords, Speaker

if TYPE_CHECKING:
    from .pages import Pages

DIRECTIONS = ("left", "right", "up", "down", "middle")

STATIC = Path(__file__).with_name("static")
FILES: Mapping[str, Tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/status.js": ("status.js", "text/javascript; charset=utf-8"),
    "/page.css": ("page.css", "text/css; charset=utf-8"),
}
"""The files served as shipped: URL path -> (file in ``static/``, type).  Nothing else is read from disk
but the icon's drawing (:func:`palette_files`) and the words' sources (:data:`WORDS`)."""
WORDS = ("/page-words.js", ("index.html", "page.js", "status.js"))
"""The live page's words (:class:`~.words.PageWords`): the script's path, and the files whose words it holds
(besides the colours' names, :data:`gamelib.colours.NAMES`, which ``status.js`` says)."""
ICON = "icon.svg"
"""The page's icon in ``static/``, its colours named by the palette's roles (``{field}``) and filled in."""


class Offer(Protocol):
    """A game offered to another Pi on this server (``gamelib.lan``'s host, attached as ``WebServer.lan``)."""

    def upgrade(self, request: Request) -> Reply:
        """``GET /api/lan``: the switch to the LAN protocol (or an :class:`~.http.HttpError`)."""

    def trusts(self, address: str) -> bool:
        """True for the address of the guest it plays with (its connections never give way to strangers')."""


class Console(Waiting, Protocol):
    """What the server needs from the game's side (a backend, through :mod:`.console`): the waits for a
    phone (:class:`~.presence.Waiting`), and the following."""

    seats: SeatTable

    @property
    def palette(self) -> Palette:
        """The palette the LEDs show now (the backend's, which the launcher's menu may change): the pages' colours
        follow it, and the state names it (``palette``), so an open page takes the new colours when it changes."""

    def press(self, direction: str, source: str) -> bool:
        """A press (and release) of ``direction`` from ``source``'s stick; False if refused (a flood)."""

    def show_pin(self, pin: str) -> None:
        """Scroll the PIN on the LEDs (not on the mirrors)."""

    def show_pairing(self, pin: str) -> None:
        """Scroll the pairing PIN on the LEDs (not on the mirrors) at once, ahead of any other scroll."""

    def show_seated(self, seat: int) -> None:
        """Say on the LEDs that a phone took ``seat``."""

    def note(self, text: str) -> None:
        """Show ``text`` (the page's address and the PIN) where the game can show a line (the terminal)."""


PALETTE_FILES = ("/palette.css", "/icon.svg")
"""The files made from the palette shown (:func:`palette_files`)."""


def palette_files(palette: Palette, directory: Path = STATIC) -> Dict[str, StaticFile]:
    """The files made once from ``palette``: ``/palette.css`` (the pages' colours as CSS custom properties,
    which ``page.css`` and a game's style sheets use) and ``/icon.svg`` (the board's colours)."""
    roles = {name: hex_colour(getattr(palette, name)) for name in ("background", "field", "first", "second")}
    icon = (directory / ICON).read_text(encoding="utf-8").format(**roles)
    return {"/palette.css": static_file(css(palette.page).encode(), "text/css; charset=utf-8"),
            "/icon.svg": static_file(icon.encode(), "image/svg+xml")}


def _object(request: Request) -> Dict[str, Any]:
    value = request.json()
    if not isinstance(value, dict):
        raise HttpError(400, "bad_request", _("the body must be a JSON object"))
    return value


class WebApp:
    """The routes over a :class:`Console`, a :class:`~.feed.Feed` and a :class:`~.seating.Seating`."""

    def __init__(self, console: Console, feed: Feed, seating: Seating, limits: Limits = Limits(), *,
                 clock: Callable[[], float], files: Optional[Dict[str, StaticFile]] = None,
                 later: Callable[[float, Callable[[], None]], Any] = lambda delay, call: None,
                 pages: Sequence[Pages] = (), lan: Callable[[], Optional[Offer]] = lambda: None,
                 seats_closed: Optional[Callable[[], bool]] = None) -> None:
        self.console = console
        self.pages = tuple(pages)
        self.lan = lan
        """The game offered over the LAN now (a :class:`gamelib.lan.host.LanHost`), or ``None``: while there
        is one, ``/api/lan`` is its."""
        self.seats_closed = seats_closed or (lambda: self.lan() is not None)
        """True while a game is played over the LAN, offered or joined (default: while one is offered):
        no phone asks for a PIN or takes a seat (only the two Pis' players play)."""
        self.feed = feed
        self.seating = seating
        self.limits = limits
        self._clock = clock
        self._later = later
        self.files = load_files(STATIC, FILES) if files is None else files
        self._palette_files: Dict[Palette, Dict[str, StaticFile]] = {}
        """``/palette.css`` and ``/icon.svg``, made once for each palette the console shows (:func:`palette_files`)."""
        self._pins_later = False
        """A call of :meth:`_scroll_pins` is set for when the next scroll may begin."""
        self.words = PageWords(CATALOGUE, STATIC, WORDS[1], extra=tuple(NAMES))
        self._speakers = [(pages, Speaker(pages.catalogue)) for pages in self.pages if pages.catalogue is not None]
        self.presence = Presence(console, feed, seating, limits, clock=clock, later=later)

    def routes(self) -> List[Route]:
        static = [Route("GET", path, self._file) for path in self.files]
        static += [Route("GET", path, self._palette_file) for path in PALETTE_FILES if path not in self.files]
        return static + [
            self.words.route(WORDS[0]),
            Route("GET", "/api/state", self.state),
            Route("GET", "/api/events", self.events),
            Route("POST", "/api/pin", self.ask_pin, changes=True),
            Route("POST", "/api/seat", self.sit, changes=True),
            Route("POST", "/api/press", self.press, changes=True),
            Route("POST", "/api/leave", self.leave, changes=True),
            Route("GET", "/api/pages", self.links),
            Route("GET", "/api/lan", self.link),
        ] + [route for pages in self.pages for route in pages.routes]

    def link(self, request: Request) -> Any:
        """``GET /api/lan``: another Pi asks for the LAN protocol (``gamelib.lan``; docs/API.md)."""
        lan = self.lan()
        if lan is None:
            raise HttpError(404, "not_found", _("no game is offered over the LAN here (sensehat-c4 --lan offers one)"))
        return lan.upgrade(request)

    def _seats_open(self) -> None:
        if self.seats_closed():
            raise HttpError(403, "lan", _("this game is played with another Pi over the LAN: watch only"))

    # -- reading ---------------------------------------------------------------------

    def _file(self, request: Request) -> Response:
        return serve_file(self.files[request.path], request)

    def _palette_file(self, request: Request) -> Response:
        shown = self.console.palette
        made = self._palette_files.get(shown)
        if made is None:
            made = self._palette_files[shown] = palette_files(shown)
        return serve_file(made[request.path], request)

    def links(self, request: Request) -> Response:
        """``GET /api/pages``: the pages a game adds (its history...), for the page's header, their titles in
        the page's language; and the words of the games' values (:attr:`Pages.values`) in it, where they differ."""
        speakers = dict((id(pages), speaker) for pages, speaker in self._speakers)

        def words(pages: "Pages") -> gettext.NullTranslations:
            speaker = speakers.get(id(pages))
            return gettext.NullTranslations() if speaker is None else speaker.translations(speaker.language(request))

        def title(pages: "Pages", text: str) -> str:
            return words(pages).gettext(text)

        shown = {value: said for pages in self.pages for value, said in pages.said(words(pages)).items()}
        return Response.json({"links": [{"path": link.path, "title": title(pages, link.title)}
                                         for pages in self.pages for link in pages.links],
                              "words": {value: words for value, words in shown.items() if words != value}},
                             headers=(("Vary", VARY),))

    def state(self, request: Request) -> Response:
        """``GET /api/state``: the frame on the LEDs and the state in words."""
        return Response.json({**self.feed.frame_json(), **self.feed.state_json()})

    def events(self, request: Request) -> StreamReply:
        """``GET /api/events``: the state and frame now, then every one as it comes (Server-Sent Events).
        A seated phone's page adds ``?token=...``: while it is open, the phone is there (:mod:`.presence`);
        a token that is not good is a stream like any other."""
        sitter = None
        try:
            token = urllib.parse.parse_qs(request.query, max_num_fields=4).get("token", [None])[0]
            sitter = None if token is None else self.seating.sitter(token)
        except (ValueError, HttpError):   # too many fields, or no seat goes with it
            pass
        return StreamReply("text/event-stream", lambda stream: self.feed.attach(stream, sitter))

    # -- seats -------------------------------------------------------------------------

    def ask_pin(self, request: Request) -> Response:
        """``POST /api/pin``: a PIN for this device, scrolled on the LEDs in its turn (someone wants a seat)."""
        _object(request)
        self._seats_open()
        wait = self.seating.ask(request.peer)
        self._scroll_pins()
        return Response.json({"shown": wait == 0, "seconds": math.ceil(wait)}, 202)

    def _scroll_pins(self) -> None:
        """Scroll the PIN of the next address waiting, if a scroll may begin now; come back when the next may."""
        turn = self.seating.next_pin()
        if turn is not None:
            self.console.show_pin(turn[1])
        due = self.seating.due()
        if due is not None and not self._pins_later:
            self._pins_later = True
            self._later(due + 0.001, self._pins_due)

    def _pins_due(self) -> None:
        self._pins_later = False
        self._scroll_pins()

    def sit(self, request: Request) -> Response:
        """``POST /api/seat`` ``{"pin": "1234", "seat": 1}``: the seat and its token."""
        body = _object(request)
        self._seats_open()
        token, sitter, version = self.seating.sit(body.get("pin"), body.get("seat"), request.peer)
        self.console.show_seated(sitter.seat)   # the seat table tells the feed: the state goes out
        return Response.json({"token": token, "seat": sitter.seat, "version": version})

    def leave(self, request: Request) -> Response:
        """``POST /api/leave`` ``{"token": "..."}``: give the seat back to the players at the HAT."""
        sitter = self.seating.leave(_object(request).get("token"))
        return Response.json({"seat": sitter.seat, "left": True})

    def press(self, request: Request) -> Response:
        """``POST /api/press`` ``{"token": "...", "direction": "left"}``: press the seat's stick."""
        body = _object(request)
        sitter = self.seating.sitter(body.get("token"))
        direction = body.get("direction")
        if not isinstance(direction, str) or direction not in DIRECTIONS:
            raise HttpError(400, "bad_request", _("direction must be one of {directions}").format(
                directions=", ".join(DIRECTIONS)))
        turn = self._turn()
        if turn is not None and turn != sitter.seat:
            raise HttpError(409, "not_your_turn", _("it is seat {seat}'s turn").format(seat=turn))
        if not self.seating.press_allowed(sitter):
            raise HttpError(429, "rate", _("at most {n:g} presses a second").format(n=self.limits.presses_per_second),
                            headers=(("Retry-After", "1"),))
        if not self.console.press(direction, sitter.source):
            raise HttpError(503, "busy", _("the game is not taking presses now"), headers=(("Retry-After", "1"),))
        return Response.json({"seat": sitter.seat, "direction": direction}, 202)

    def _turn(self) -> Optional[int]:
        """The seat to move, when the game's words say (:attr:`~gamelib.status.Status.turn`); ``None`` otherwise."""
        status = self.feed.status
        return None if status is None else status.turn
