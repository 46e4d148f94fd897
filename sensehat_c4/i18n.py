"""Connect 4's words: the ``sensehat_c4`` gettext domain (:mod:`gamelib.i18n` says how words work).

In a module of the game::

    from ..i18n import N_, _, ngettext
"""
from __future__ import annotations

from gamelib.i18n import N_, Catalogue

__all__ = ["CATALOGUE", "N_", "_", "ngettext", "pgettext"]

CATALOGUE = Catalogue.beside("sensehat_c4", __file__)
"""The game's words."""
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext
pgettext = CATALOGUE.pgettext
