"""Connect 4's pages in the web view: the games played, and each round's review and replay.

``sensehat-c4 --web`` and ``gamelib --web`` serve these beside the live view
(:class:`gamelib.web.pages.Pages`); ``docs/API.md`` documents the routes:

* ``/history``: the recorded matches (as ``history``), each round with links to
* ``/review/ID``: the round's review: the outcome as a graph over the round, its key
  moments, every move's mark, the board stepping along as you move over the graph;
* ``/replay/ID``: the round's moves on a board, played or stepped through;
* ``GET /api/history``, ``/api/round/ID``, ``/api/review/ID``: what those pages read.

A review is made by :class:`Reviews`: in a thread of its own (a handler must not block the
server), one round at a time, with an oracle of its own (so it never waits for the game's
own search, nor makes it wait), at most :data:`QUEUE` rounds waiting and the last
:data:`KEEP` kept.  While it works, ``/api/review/ID`` answers 202 with how far it is,
which the page shows and polls.
"""
from __future__ import annotations

import collections
import logging
import threading
from dataclasses import replace
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Optional, Tuple
from urllib.parse import parse_qs

from gamelib.web.http import HttpError, Request, Response, Route
from gamelib.web.pages import Link, Pages, Said, file_routes
from gamelib.web.words import PageWords

from ..engine import Oracle
from ..engine import rungs
from ..i18n import CATALOGUE, N_, _
from ..match import opponents, words
from ..match.chooser import RULES
from ..match.words import GAME
from ..records import MAX_ID, MatchRecord, NotRecorded, Records, RecordsError, RoundRecord
from ..rules import Board, Layout
from ..study import review
from ..study.history import helps_text, history_json, match_result, round_result

if TYPE_CHECKING:
    from ..engine.oracle import Oracle

log = logging.getLogger("sensehat_c4.web")

STATIC = Path(__file__).with_name("static")
FILES = {
    "/history": ("history.html", "text/html; charset=utf-8"),
    "/review/*": ("round.html", "text/html; charset=utf-8"),
    "/replay/*": ("round.html", "text/html; charset=utf-8"),
    "/history.js": ("history.js", "text/javascript; charset=utf-8"),
    "/round.js": ("round.js", "text/javascript; charset=utf-8"),
    "/records.js": ("records.js", "text/javascript; charset=utf-8"),
    "/records.css": ("records.css", "text/css; charset=utf-8"),
}
"""The pages' files: URL path -> (file in ``static/``, type)."""
WORDS = ("/records-words.js", ("history.html", "round.html", "records.js", "history.js", "round.js"))
"""The pages' words (:class:`gamelib.web.words.PageWords`): the script's path, and the files whose words it holds."""
SHOWN_VALUES: Dict[str, Said] = {
    **{name: name for name in (GAME, words.LAN_GAME, words.PUZZLE_GAME, words.TRAINING_GAME)}, **rungs.NAMES,
    words.MATCH_ME_WORDS: words.MATCH_ME_WORDS, RULES: RULES,
    **{words.LEVEL_WORDS[rung.name]: functools.partial(words.level_words, rung.name) for rung in rungs.RUNGS}}
"""The live state's values that are the game's words (``/api/pages``' ``words``): the games' names (the launcher's
menu names them), its levels' names and how each plays (the opponent chooser's ``about``), and the rules."""
RECORDS_VALUES = opponents.WORDS
"""The records' values the pages show, each with its message (a seat's ``level``: a level's name or
``match-me``): the words script's ``word(value)``."""
TITLE = N_("Games played")
"""The live page's link to the history."""

LIMIT, MOST = 20, 200
"""``/api/history``'s matches: by default, and at most."""
SECONDS = 10.0
"""A review's time limit per position (as ``sensehat-c4 review``'s default)."""
QUEUE = 4
"""Rounds that may wait for their review at once (beyond: 503)."""
KEEP = 16
"""Reviews kept, the most recently made or asked for."""


class Reviews:
    """Reviews of stored rounds, made one at a time in a thread of their own, and kept.

    ``scorer(stop)`` makes the :data:`~..study.review.Scorer` of one review (``stop`` is set when the
    server closes); by default the engine's, with an oracle of this object's own per board size.
    """

    def __init__(self, *, seconds: float = SECONDS, queue: int = QUEUE, keep: int = KEEP,
                 scorer: Optional[Callable[[threading.Event], review.Scorer]] = None) -> None:
        self.seconds = seconds
        self.queue_size = queue
        self.keep = keep
        self._scorer = scorer or self._engine
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._done: "collections.OrderedDict[int, Dict[str, Any]]" = collections.OrderedDict()
        self._waiting: Deque[Tuple[MatchRecord, RoundRecord]] = collections.deque()
        self._working: Optional[int] = None
        self._progress: Tuple[int, int] = (0, 0)
        self._thread: Optional[threading.Thread] = None
        self._oracles: Dict[Layout, Oracle] = {}

    def _engine(self, stop: threading.Event) -> review.Scorer:
        def oracle(board: Board) -> Oracle:

            if board.layout not in self._oracles:
                self._oracles.clear()   # one board size's oracle at a time (8 MB of table each)
                self._oracles[board.layout] = Oracle.installed(board.layout)
            return self._oracles[board.layout]

        return review.engine_scorer(oracle, stop)

    def ask(self, match: MatchRecord, rnd: RoundRecord) -> Tuple[int, Dict[str, Any]]:
        """``(200, the review as review --json gives it)`` if made, else ``(202, how far it is)``
        (and it is queued, if it was not); an :class:`HttpError` 503 if the queue is full."""
        with self._lock:
            if self._stop.is_set():
                raise HttpError(503, "busy", _("the server is stopping"))
            if rnd.id in self._done:
                self._done.move_to_end(rnd.id)
                return 200, self._done[rnd.id]
            if rnd.id != self._working and rnd.id not in [r.id for _match, r in self._waiting]:
                if len(self._waiting) >= self.queue_size:
                    raise HttpError(503, "busy", _("other reviews are being made: try again in a moment"),
                                    headers=(("Retry-After", "2"),))
                self._waiting.append((match, rnd))
                self._start()
                self._wake.notify()
            return self._state(rnd)

    def known(self, ident: int) -> Optional[Tuple[int, Dict[str, Any]]]:
        """What :meth:`ask` would answer for round ``ident`` if it is made, being made or waiting;
        ``None`` if it is none of these."""
        with self._lock:
            if ident in self._done:
                self._done.move_to_end(ident)
                return 200, self._done[ident]
            for _match, rnd in self._waiting:
                if rnd.id == ident:
                    return self._state(rnd)
            return None if ident != self._working else (202, self._position(ident))

    def _state(self, rnd: RoundRecord) -> Tuple[int, Dict[str, Any]]:
        return 202, self._position(rnd.id, len(rnd.moves))

    def _position(self, ident: int, total: int = 0) -> Dict[str, Any]:
        """How far round ``ident``'s review is (the lock held): moves done, of how many, reviews before it."""
        if ident == self._working:
            done, total = self._progress
            return {"round": ident, "done": done, "total": total, "waiting": 0}
        ids = [r.id for _match, r in self._waiting]
        return {"round": ident, "done": 0, "total": total, "waiting": ids.index(ident) + (self._working is not None)}

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sensehat-c4-reviews", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._stop.is_set():
                    self._wake.wait()
                if self._stop.is_set():
                    return
                match, rnd = self._waiting.popleft()
                self._working, self._progress = rnd.id, (0, len(rnd.moves))
            try:
                made: Optional[Dict[str, Any]] = review.as_json(review.review_round(
                    match, rnd, seconds=self.seconds, progress=self._moved, scorer=self._scorer(self._stop)))
            except Exception:  # a bug here must not end the thread: the round reads as failed
                log.exception("reviewing round %s failed", rnd.id)
                made = None
            with self._lock:
                self._working = None
                if made is not None and not self._stop.is_set():
                    self._done[rnd.id] = made
                    while len(self._done) > self.keep:
                        self._done.popitem(last=False)

    def _moved(self, done: int, total: int) -> None:
        with self._lock:
            self._progress = (done, total)

    def close(self) -> None:
        """Stop: the review being made ends at its next check (within milliseconds), the rest are dropped."""
        with self._lock:
            self._stop.set()
            self._waiting.clear()
            self._wake.notify_all()
        thread = self._thread
        if thread is not None:
            thread.join(5.0)


def _number(text: str, most: int) -> Optional[int]:
    """``text`` as a whole number from 1 to ``most`` in ASCII digits, else ``None`` (digits are counted
    before ``int()`` sees them: it refuses more than 4,300, with a traceback)."""
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or len(digits) > len(str(most)):
        return None
    value = int(digits or "0")
    return value if 1 <= value <= most else None


def _limit(request: Request) -> int:
    values = parse_qs(request.query).get("limit", [str(LIMIT)])
    value = _number(values[-1], MOST)
    if value is None:
        raise HttpError(400, "bad_request", _("limit must be a whole number from 1 to {most}").format(most=MOST))
    return value


def _ident(request: Request) -> str:
    """The round's ID from the path's last part: a number (without leading zeros) or ``last``."""
    ident = request.path.rpartition("/")[2]
    if ident == "last":
        return ident
    number = _number(ident, MAX_ID)
    if number is None:
        raise HttpError(400, "bad_request", _("not a round ID: {ident} (a number from the history, or last)").format(
            ident=repr(ident[:20])))
    return str(number)


class RecordsPages:
    """The routes over the games database at ``db`` (``None``: the game's default file)."""

    def __init__(self, db: Optional[Path] = None, reviews: Optional[Reviews] = None) -> None:
        self.db = db
        self.reviews = reviews or Reviews()

    def pages(self) -> Pages:
        routes = file_routes(STATIC, FILES) + [
            PageWords(CATALOGUE, STATIC, WORDS[1], RECORDS_VALUES).route(WORDS[0]),
            Route("GET", "/api/history", self.history),
            Route("GET", "/api/round/*", self.round),
            Route("GET", "/api/review/*", self.review),
        ]
        return Pages(routes, (Link("/history", TITLE),), self.reviews.close, CATALOGUE, values=SHOWN_VALUES)

    def _read(self, read: Callable[[Records], Any]) -> Tuple[Any, List[str]]:
        try:
            with Records(self.db) as stored:
                return read(stored), stored.notes
        except NotRecorded as exc:   # said without the file's path: the page is for anyone on the LAN
            raise HttpError(404, "not_found", exc.shown) from None
        except RecordsError as exc:
            log.warning(_("the games database cannot be read: {error}").format(error=exc))
            raise HttpError(500, "records", _("the games database cannot be read (the game's log says why)")) from None

    def history(self, request: Request) -> Response:
        """``GET /api/history?limit=N``: the last N matches (20; at most 200), as ``history --json``."""
        limit = _limit(request)
        matches, notes = self._read(lambda stored: stored.matches(limit))
        return Response.json({"matches": [_worded(match, entry) for match, entry in zip(matches, history_json(matches))],
                              "skipped": [*notes]})

    def _round(self, request: Request) -> Tuple[MatchRecord, RoundRecord, List[str]]:
        ident = _ident(request)
        (match, rnd), notes = self._read(lambda stored: stored.round(ident))
        return match, rnd, notes

    def round(self, request: Request) -> Response:
        """``GET /api/round/ID``: the round and its match, as ``history --json`` has them."""
        match, rnd, _notes = self._round(request)
        entry = _worded(replace(match, rounds=(rnd,)), history_json([replace(match, rounds=(rnd,))])[0])
        found = entry.pop("rounds")[0]
        for partial in ("score", "result_text"):   # of this round alone: not the match's
            del entry[partial]
        return Response.json({"match": entry, "round": found})

    def review(self, request: Request) -> Response:
        """``GET /api/review/ID``: 200 and the review (as ``review --json``), or 202 and how far it is."""
        ident = _ident(request)
        known = self.reviews.known(int(ident)) if ident != "last" else None   # polls read no database
        if known is None:
            match, rnd, _notes = self._round(request)
            known = self.reviews.ask(match, rnd)
        status, body = known
        return Response.json(body, status)


def _worded(match: MatchRecord, entry: Dict[str, Any]) -> Dict[str, Any]:
    """``history --json``'s ``entry`` for ``match`` with the words ``history`` prints: each player's
    ``label`` (``Ann``, ``computer hard (1 s)``), the match's ``result_text`` and each round's."""
    entry["labels"] = {str(seat): match.label(seat) for seat in (1, 2)}
    entry["result_text"] = match_result(match)
    for rnd, shown in zip(match.rounds, entry["rounds"]):
        shown["result_text"] = round_result(match, rnd)
        shown["helps_text"] = helps_text(rnd)
    return entry


def pages(db: Optional[Path] = None) -> Pages:
    """Connect 4's pages over the games database at ``db`` (``None``: the default file)."""
    return RecordsPages(db).pages()
