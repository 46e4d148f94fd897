"""Domain values compared with their words as strings: the project's mypy settings refuse each marked line
(test_contracts runs mypy on this file with pyproject.toml's settings alone)."""
from __future__ import annotations

from gamelib.backends.terminal_screen import ColourMode, colour_mode
from gamelib.lan import guest as g
from sensehat_c4.match.computer import ComputerSeat
from sensehat_c4.records import MatchRecord, RoundRecord
from sensehat_c4.rules import Starts


def finished(match: MatchRecord) -> bool:
    return match.status == "finished"   # refused


def won(rnd: RoundRecord) -> bool:
    return rnd.result in ("win", "draw")   # refused


def alternate(first: Starts, plays: ComputerSeat) -> bool:
    return first == "alternate" or plays != "alternate"   # refused


def plain() -> bool:
    return colour_mode({}) == "plain"   # refused


def frame(event: g.Shown) -> bool:
    return event.kind == "frame"   # refused


def typed(match: MatchRecord, first: Starts, mode: ColourMode, event: g.Shown) -> bool:
    return match.status.value == "finished" or first is Starts.P1 or mode.coloured or event.kind is g.Kind.FRAME
