"""What JSON holds, as types: :data:`JSON` (any value ``json.loads`` gives and ``json.dumps``
takes) and :data:`JSONObject` (an object: what every ``as_json()`` returns and every message is).

Named, so a signature says "JSON" rather than ``Any``: mypy checks what goes in; what comes out
of ``json.loads`` is checked by the code that reads it (``gamelib.lan.protocol``'s checks,
``Status.from_json``), never trusted.
"""
from __future__ import annotations

from typing import Dict, List, Union

__all__ = ["JSON", "JSONObject"]

JSON = Union[None, bool, int, float, str, List["JSON"], Dict[str, "JSON"]]
"""A JSON value."""
JSONObject = Dict[str, JSON]
"""A JSON object."""
