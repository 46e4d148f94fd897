"""What a game adds to the web view: pages of its own (Connect 4's history and reviews).

A game gives :class:`Pages`: routes (served by the same server, behind the same limits,
checks and security headers as the live view's), links the live page shows in its header
(``GET /api/pages``), and what to do when the server stops.  ``sensehat-c4 --web`` passes
Connect 4's; ``gamelib --web`` asks every game that has a ``web()`` for its own
(:class:`gamelib.games.Game`).  Its files are read once, as the live page's are
(:func:`file_routes`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import gettext
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..i18n import Catalogue
from .http import Request, Response, Route, load_files, serve_file


Said = Union[str, Callable[[Callable[[str], str]], str]]
"""How a value of :attr:`Pages.values` is said: its message, or a function of the catalogue's ``gettext``."""


@dataclass(frozen=True)
class Link:
    """A page the live view links to: its path and a title (``/history``, ``Games played``), the title a
    message of its :class:`Pages`' catalogue (marked with ``N_``, shown in the page's language)."""

    path: str
    title: str


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Pages:
    """A game's routes and links, and ``close()``, called once when the server stops (any thread
    but the server's): stop the work its handlers started; ``catalogue``: the game's words, which the
    links' titles are looked up in (``None``: shown as written)."""

    routes: Sequence[Route] = ()
    links: Sequence[Link] = ()
    close: Callable[[], None] = field(default=_nothing)
    catalogue: Optional[Catalogue] = None
    values: Mapping[str, Said] = field(default_factory=dict)
    """Values of the live state that are this game's words, each with its message in ``catalogue`` (Connect
    4's ``game``, ``"Connect 4"``, and its seats' ``level``, ``"easy"``), or a function making its words from
    the catalogue's ``gettext`` (a message with fields filled in: how a level plays): ``/api/pages`` gives each
    in the page's language (:meth:`said`), and the live page shows that instead of the value (values stay
    English in the API)."""

    def said(self, translations: gettext.NullTranslations) -> Dict[str, str]:
        """Each of :attr:`values` in the words of ``translations`` (the catalogue in the page's language)."""
        return {value: translations.gettext(said) if isinstance(said, str) else said(translations.gettext)
                for value, said in self.values.items()}


def file_routes(directory: Path, table: Mapping[str, Tuple[str, str]]) -> List[Route]:
    """A ``GET`` route for each file of ``table`` (URL path -> (file in ``directory``, type)), read now
    and served from memory with an ETag.  A path ending in ``/*`` serves the file for every path
    under it (a page that reads its subject from its address: ``/review/12``)."""
    files = load_files(directory, table)

    def route(path: str) -> Route:
        def handle(request: Request) -> Response:
            return serve_file(files[path], request)
        return Route("GET", path, handle)

    return [route(path) for path in files]
