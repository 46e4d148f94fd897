"""Words in one place: every word a player reads is looked up in a gettext catalogue.

English is the source language: a message's id is its English text, so with no catalogue
installed (or a language without one) the game speaks English exactly as written.  Each package
has its own domain and its own folder of catalogues: ``gamelib`` (the launcher, the backends,
the web view, the LAN) here, ``sensehat_c4`` (the game) in :mod:`sensehat_c4.i18n`; a game of
another package makes its own :class:`Catalogue` the same way.  Catalogues live in
``<package>/locale/<language>/LC_MESSAGES/<domain>.mo``, compiled from ``.po`` files by Babel.

In a module::

    from gamelib.i18n import N_, NP_, _, ngettext, pgettext

    TITLE = N_("players")          # marked for extraction; translated where it is shown
    print(_("{name} to move").format(name=name))
    print(ngettext("{n} round", "{n} rounds", n).format(n=n))
    print(pgettext("a library", "not installed"))   # one English word, agreed with its noun elsewhere
    MISSING = NP_("a library", "not installed")    # the same, marked at import: said(MISSING) where shown

The language is the process's: gettext's own order from the environment (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``) until :func:`choose` names one (``--language``, the
launcher's setting).  A web page asks for its own language with :meth:`Catalogue.translations`
(``Accept-Language``) without changing the Pi's.  Values of the API (phases, marks, error codes)
are never translated: only what is shown.

Catalogues are made with Babel by ``tools/words`` (``extract``, ``update LANG``, ``compile``) and
compiled by the build.  ``$GAMELIB_LOCALEDIR`` (:data:`LOCALEDIR_ENV`) names a folder looked in before
each package's own, laid out as gettext's (``LANG/LC_MESSAGES/<domain>.mo``): a language tried
without installing it, and the tests' way to compile one of their own.
"""
from __future__ import annotations

import gettext
import os
import threading
from typing import Dict, FrozenSet, NamedTuple, Optional, Sequence, Set, Tuple, Union

LOCALEDIR_ENV = "GAMELIB_LOCALEDIR"
"""A folder of compiled catalogues looked in before each package's own (gettext's layout)."""

_lock = threading.Lock()
_chosen: Optional[Tuple[str, ...]] = None
"""The languages :func:`choose` named, best first; ``None``: gettext's order from the environment."""


def choose(languages: Optional[Sequence[str]]) -> None:
    """Speak ``languages`` (best first, e.g. ``["fr"]``) from now on in this process; ``None`` goes
    back to the environment's.  Every catalogue answers in it from its next lookup."""
    global _chosen
    with _lock:
        _chosen = None if languages is None else tuple(languages)


def chosen() -> Optional[Tuple[str, ...]]:
    """What :func:`choose` named, or ``None`` (the environment decides)."""
    return _chosen


def N_(message: str) -> str:  # noqa: N802 (gettext's conventional name, which Babel extracts)
    """Marks ``message`` for extraction without translating it (a constant made at import, translated
    with ``_()`` where it is shown, in the language of that moment)."""
    return message


class Contexted(NamedTuple):
    """A message and its context (gettext's ``msgctxt``), marked at import with :func:`NP_`: one English text that
    a language says in more than one way (``not installed``: of a library, feminine in French)."""

    context: str
    message: str


Word = Union[str, Contexted]
"""A message marked for later (:func:`N_`), or one with its context (:func:`NP_`): :meth:`Catalogue.said` says either."""


def NP_(context: str, message: str) -> Contexted:  # noqa: N802 (N_'s sibling, extracted as pgettext by tools/words)
    """Marks ``message`` in ``context`` for extraction (as ``pgettext(context, message)``) without translating it; a
    table of words holds it, and :meth:`Catalogue.said` says it where it is shown."""
    return Contexted(context, message)


class Catalogue:
    """One gettext domain and the folder of its compiled catalogues."""

    def __init__(self, domain: str, localedir: str) -> None:
        self.domain = domain
        self.localedir = localedir
        self._cache: Dict[Tuple[Optional[Tuple[str, ...]], str], gettext.NullTranslations] = {}

    def translations(self, languages: Optional[Sequence[str]] = None) -> gettext.NullTranslations:
        """The catalogue for ``languages`` (best first), or for the process's language when ``None``;
        English (the messages as written) when none of them has a catalogue.  A catalogue in
        ``$GAMELIB_LOCALEDIR`` comes first, the package's own answers what it lacks."""

        chosen_languages = tuple(languages) if languages is not None else _chosen
        override = os.environ.get(LOCALEDIR_ENV, "")
        found = self._cache.get((chosen_languages, override))
        if found is None:
            wanted = list(chosen_languages) if chosen_languages is not None else None
            found = gettext.translation(self.domain, self.localedir, languages=wanted, fallback=True)
            if override:
                first = gettext.translation(self.domain, override, languages=wanted, fallback=True)
                if isinstance(first, gettext.GNUTranslations):
                    first.add_fallback(found)
                    found = first
            with _lock:
                self._cache[(chosen_languages, override)] = found
        return found

    def languages(self) -> FrozenSet[str]:
        """The languages this domain has a compiled catalogue for, in its folder or ``$GAMELIB_LOCALEDIR``."""

        found: Set[str] = set()
        for folder in (os.environ.get(LOCALEDIR_ENV, ""), self.localedir):
            try:
                names = os.listdir(folder) if folder else []
            except OSError:
                continue
            found.update(name for name in names
                         if os.path.isfile(os.path.join(folder, name, "LC_MESSAGES", self.domain + ".mo")))
        return frozenset(found)

    def gettext(self, message: str) -> str:
        """``message`` in the process's language."""
        return self.translations().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n`` in the process's language."""
        return self.translations().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in the process's language where ``context`` tells apart two meanings of one English word."""
        return self.translations().pgettext(context, message)

    def said(self, word: Word) -> str:
        """A word marked with :func:`N_` or :func:`NP_` (its context), in the process's language."""
        return self.pgettext(*word) if isinstance(word, Contexted) else self.gettext(word)

    @classmethod
    def beside(cls, domain: str, module: str) -> "Catalogue":
        """The catalogue of ``domain`` in the ``locale`` folder beside ``module`` (a package's ``__file__``)."""
        return cls(domain, module.rpartition("/")[0] + "/locale")

    def forget(self) -> None:
        """Reads the catalogues again at the next lookup (after new ones are compiled)."""
        with _lock:
            self._cache.clear()


CATALOGUE = Catalogue.beside("gamelib", __file__)
"""gamelib's words."""
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext
pgettext = CATALOGUE.pgettext
said = CATALOGUE.said

SOURCE_LANGUAGE = "en"
"""The language the messages are written in: spoken with no catalogue."""
def languages() -> Tuple[str, ...]:
    """The languages the program speaks: English and each with a compiled catalogue of gamelib's words
    (in the package, or in ``$GAMELIB_LOCALEDIR``), sorted; what ``--language``, the launcher's setting
    and the web page's switch offer.  A language is added by its catalogues alone."""
    return tuple(sorted({SOURCE_LANGUAGE} | CATALOGUE.languages()))


def own_name(language: str) -> str:
    """``language``'s name in itself (``Français`` for ``fr``), as its catalogue says."""
    # each catalogue translates this message as its own language's name
    return CATALOGUE.translations([language]).pgettext("the language's own name", "English")


def one_of(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``, in the process's language."""
    if len(words) < 2:
        return "".join(words)
    return _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])
