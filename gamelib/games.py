"""What a game is to the launcher, and finding the installed games.

A game is any object (a module, an instance of :class:`Game`...) with

- ``name``: a short name (for the log and ``gamelib list``),
- ``icon``: 64 ``(r, g, b)`` pixels shown in the menu, or a function drawing them in a
  :class:`~gamelib.palette.Palette` (an :class:`~gamelib.icons.Icon`): the menu draws it in the palette
  shown (:attr:`~gamelib.backends.base.Backend.palette`), checked at load in every palette,
- ``play(backend)``: plays on the backend it is given and returns when done
  (finished or abandoned).  It must not close the backend.
- ``remembers`` (optional, default false): if true, the launcher calls
  ``play(backend, choices)`` with the game's :class:`Choices`, which it keeps in its
  settings file between runs (e.g. the board size a family last chose), and which
  carry the players' names the launcher keeps (``gamelib names``).
- ``web`` (optional): ``web()`` returns the game's own pages for the web view
  (:class:`gamelib.web.pages.Pages`: Connect 4's history and reviews), asked for only
  when the launcher serves one (``gamelib --web``).

Packages register games under the entry-point group :data:`GROUP`, e.g. in
``setup.cfg``::

    [options.entry_points]
    gamelib.games =
        connect4 = sensehat_c4.game:GAME

A game that fails to load is still listed (:attr:`Entry.error` says why) so the
menu can show the error icon; it never stops the launcher.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union, cast

from .backends.base import Backend
from .i18n import _
from .icons import Picture, check_picture
from .palette import PALETTES, Palette

if TYPE_CHECKING:
    from .web.pages import Pages

GROUP = "gamelib.games"

log = logging.getLogger("gamelib")

PlayFunction = Callable[[Backend], object]
"""``play(backend)``: a game that keeps nothing between runs."""
RememberingPlay = Callable[[Backend, "Choices"], object]
"""``play(backend, choices)``: a game with ``remembers`` set."""
IconSource = Union[Picture, Callable[[Palette], Picture]]
"""A game's icon: its pixels, or a function drawing them in a palette."""


class Choices:
    """What a game asks the launcher to remember between runs: short strings by name."""

    def __init__(self, values: Optional[Mapping[str, str]] = None, *, names: Tuple[str, ...] = ()) -> None:
        self._values: Dict[str, str] = dict(values or {})
        self.names = names
        """The players' names the launcher keeps (player 1's first; none, one or two), for the game
        to use as a game run by hand uses ``--names``."""

    def get(self, name: str) -> Optional[str]:
        """The remembered value of ``name``, or ``None``."""
        return self._values.get(name)

    def set(self, name: str, value: str) -> None:
        """Remember ``value`` (a short string) for ``name``."""
        self._values[name] = value

    @property
    def values(self) -> Dict[str, str]:
        """Everything remembered (a copy)."""
        return dict(self._values)


@dataclass(frozen=True)
class Game:
    """A game as the launcher sees it (games may export one of these, or a module)."""

    name: str
    icon: IconSource
    play: Union[PlayFunction, RememberingPlay]
    remembers: bool = False
    """True if ``play`` takes the game's :class:`Choices` after the backend."""
    web: Optional[Callable[[], Pages]] = None
    """``web()``: the game's pages for the web view (a :class:`gamelib.web.pages.Pages`), or ``None``."""
    words: Optional[Callable[[str], str]] = None
    """The game's own catalogue (its ``_``): ``name`` is English, marked ``N_()`` where the game defines it,
    and shown as ``words(name)`` (:attr:`title`); ``None``: shown as it is."""

    @property
    def title(self) -> str:
        """The name as a player reads it, in the words of the moment."""
        return self.words(self.name) if self.words is not None else self.name

    def drawn(self, palette: Palette) -> Picture:
        """The icon in ``palette`` (the backend's, when the menu shows it)."""
        return self.icon(palette) if callable(self.icon) else self.icon

    def run(self, backend: Backend, choices: Choices) -> None:
        """Play once on ``backend``: with ``choices`` if the game remembers, else without."""
        if self.remembers:
            cast(RememberingPlay, self.play)(backend, choices)
        else:
            cast(PlayFunction, self.play)(backend)


@dataclass(frozen=True)
class Entry:
    """One line of the menu: a game that loaded, or the reason it did not (``error``)."""

    key: str
    """The entry-point name (``connect4``)."""
    game: Optional[Game] = None
    error: Optional[str] = None

    @property
    def name(self) -> str:
        """What the menu shows: the game's :attr:`Game.title`, or the entry point's name."""
        return self.game.title if self.game is not None else self.key


def as_game(obj: Any) -> Game:
    """Check that ``obj`` has a name, a 64-pixel icon and a ``play`` function; ``TypeError`` if not."""
    name, icon, play = (getattr(obj, attr, None) for attr in ("name", "icon", "play"))
    if not isinstance(name, str) or not name:
        raise TypeError(_("a game needs a name (a non-empty string)"))
    if not callable(play):
        raise TypeError(_("game {name} needs a play(backend) function").format(name=repr(name)))
    try:
        if callable(icon):
            for palette in PALETTES.values():   # as each palette draws it (any may be chosen)
                check_picture(icon(palette))
            picture: IconSource = icon
        else:
            picture = check_picture(icon)
    except ValueError as exc:
        raise TypeError(_("game {name}: bad icon: {error}").format(name=repr(name), error=exc)) from None
    web = getattr(obj, "web", None)
    if web is not None and not callable(web):
        raise TypeError(_("game {name}: web must be a function giving its pages").format(name=repr(name)))
    words = getattr(obj, "words", None)
    if words is not None and not callable(words):
        raise TypeError(_("game {name}: words must be a function giving a word's translation").format(name=repr(name)))
    return Game(name, picture, play, bool(getattr(obj, "remembers", False)), web, words)


def load(key: str, loader: Callable[[], Any]) -> Entry:
    """Load one game; any exception while importing or checking it becomes :attr:`Entry.error`."""
    try:
        return Entry(key, game=as_game(loader()))
    except Exception as exc:  # a broken game must not stop the launcher
        log.error(_("game {name} cannot be loaded: {error}").format(name=repr(key), error=f"{type(exc).__name__}: {exc}"),
                  exc_info=True)
        return Entry(key, error=f"{type(exc).__name__}: {exc}")


def entry_points(group: str = GROUP) -> List[Any]:
    """The installed entry points of ``group`` (Python 3.9's dict API and 3.10+'s ``select``)."""
    found = metadata.entry_points()
    if hasattr(found, "select"):
        return list(found.select(group=group))
    return list(found.get(group, ()))  # Python 3.9


def discover(points: Optional[Iterable[Any]] = None) -> List[Entry]:
    """Every registered game, sorted by entry-point name; each name once (the first found)."""
    seen: Dict[str, Any] = {}
    for point in entry_points() if points is None else points:
        seen.setdefault(point.name, point)
    return [load(name, seen[name].load) for name in sorted(seen)]
