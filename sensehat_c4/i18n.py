"""Connect 4's words: the ``sensehat_c4`` gettext domain (:mod:`gamelib.i18n` says how words work).

In a module of the game::

    from ..i18n import N_, _, ngettext

Importing this module loads nothing: :data:`CATALOGUE` (a :class:`gamelib.i18n.Catalogue` of the
package's ``locale`` folder) is made at the first word looked up, so the pure modules that say words
(the rules' neighbours, :mod:`.match.words`, :mod:`.records.rows`) still import nothing that does I/O.
Each lookup asks :data:`CATALOGUE` at that moment: a test may replace its ``translations``.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from gamelib.i18n import Catalogue

__all__ = ["N_", "_", "catalogue", "ngettext", "pgettext"]   # and CATALOGUE, made when first asked for

_lock = threading.Lock()
_catalogue: Optional[Catalogue] = None


def N_(message: str) -> str:  # noqa: N802 (gettext's conventional name, which Babel extracts)
    """Marks ``message`` for extraction without translating it (as :func:`gamelib.i18n.N_`)."""
    return message


def catalogue() -> Catalogue:
    """The game's words (made at the first call)."""
    global _catalogue
    if _catalogue is None:
        from pathlib import Path  # noqa: PLC0415 (made when a word is first looked up)

        from gamelib.i18n import Catalogue  # noqa: PLC0415

        with _lock:
            if _catalogue is None:
                _catalogue = Catalogue("sensehat_c4", Path(__file__).resolve().parent / "locale")
    return _catalogue


def __getattr__(name: str) -> Any:
    if name == "CATALOGUE":
        return catalogue()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _(message: str) -> str:
    """``message`` in the process's language."""
    return catalogue().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the process's language."""
    return catalogue().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the process's language where ``context`` tells apart two meanings of one English word."""
    return catalogue().pgettext(context, message)
