"""The names programs give things and exchange: a game's, a level's, a backend's, an error's code.

One word (:data:`WORD`): lower-case ASCII letters, digits, ``_`` and ``-``, 1 to 32 of them, as the
registries name them.  The LAN protocol checks a game's name and an error's code with it, the
records a level's and a backend's name; a person's name is :mod:`gamelib.players`'.
"""
from __future__ import annotations

import re

WORD = re.compile(r"[a-z0-9_-]{1,32}")
"""A name a program gives a thing (match it whole: ``WORD.fullmatch(text)``)."""
