"""``sensehat-c4 history`` and ``stats``: the stored matches as tables or JSON.

Times are stored in UTC and shown in local time.  A seat's results count from that
seat's side: a round is won, drawn or lost (abandoned rounds count for nothing), a
match is won, lost or abandoned.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from gamelib.app import one_line
from gamelib.jsonvalue import JSONObject

from ..i18n import N_, _, ngettext, pgettext
from ..match.opponents import MATCH_ME
from ..match.words import helps_counts, level_name
from ..records import MatchRecord, MatchStatus, RoundRecord, RoundResult, timestamp

BACKENDS: Dict[str, str] = {"hat": N_("Sense HAT"), "emu": N_("emulator"), "terminal": N_("terminal")}
"""Each backend's name a match's record keeps (gamelib's, the ``gamelib.backends`` entry points of this
distribution) and its message, translated where ``history`` shows it (:func:`backend_word`)."""


def backend_word(name: str) -> str:
    """The backend a match was played on (a record's value) as people read it; another package's backend by
    its name (a name, as a player's)."""
    return _(BACKENDS[name]) if name in BACKENDS else name


def _local(when: datetime, fmt: str) -> str:
    """``when`` in local time; in UTC (marked ``UTC``) where the platform cannot convert it
    (a year past 2038 with a 32-bit ``time_t``)."""
    try:
        return when.astimezone().strftime(fmt)
    except (OverflowError, OSError, ValueError):
        return _("{time} UTC").format(time=when.strftime(fmt))


def _length(rnd: RoundRecord) -> str:
    seconds = max(0, int((rnd.ended - rnd.started).total_seconds()))  # a clock set back reads 0:00
    return ngettext("{moves} move, {minutes}:{seconds:02d}", "{moves} moves, {minutes}:{seconds:02d}",
                    len(rnd.moves)).format(moves=len(rnd.moves), minutes=seconds // 60, seconds=seconds % 60)


def match_result(match: MatchRecord) -> str:
    """``Ann wins 2-1`` (the winner's score first), ``abandoned at 1-0`` or ``playing, 1-0``."""
    one, two = match.score
    if match.status is MatchStatus.FINISHED and match.winner is not None:
        won, lost = (one, two) if match.winner == 1 else (two, one)
        return _("{who} wins {won}-{lost}").format(who=match.label(match.winner), won=won, lost=lost)
    return (_("abandoned at {one}-{two}") if match.status is MatchStatus.ABANDONED else _("playing, {one}-{two}")).format(
        one=one, two=two)


def round_result(match: MatchRecord, rnd: RoundRecord) -> str:
    if rnd.result is RoundResult.WIN and rnd.winner is not None:
        return _("{who} won").format(who=match.label(rnd.winner))
    return _({RoundResult.DRAW: N_("draw"), RoundResult.PLAYING: N_("in play")}.get(rnd.result, N_("abandoned")))


def helps_text(rnd: RoundRecord) -> str:
    """``2 hints, 1 take-back`` for a round with helps, else empty."""
    return helps_counts(rnd.hints, rnd.takebacks) if rnd.helped else ""


def round_extras(match: MatchRecord, rnd: RoundRecord) -> str:
    """What ``history`` adds to a round's line: the level a *match me* round was played at, the helps."""
    extras = []
    if rnd.level is not None and any(side.level == MATCH_ME.name for side in match.sides):
        extras.append(_("at {level}").format(level=level_name(rnd.level)))
    if rnd.helped:
        extras.append(helps_text(rnd))
    return "".join(f", {extra}" for extra in extras)


def history_text(matches: Sequence[MatchRecord], empty: Optional[str] = None) -> str:
    """Newest match first; under each match its rounds, with the IDs ``replay`` and ``review`` take
    (``empty``: why there is no file to read, said when there is no match)."""
    if not matches:
        if empty:   # a path: one line
            return _("no matches recorded yet ({why})").format(why=one_line(empty))
        return _("no matches recorded yet")
    lines: List[str] = []
    for match in matches:
        lines.append(_("match {id}  {started}  {one} v {two}  {result}  ({columns}x{rows}, {backend})").format(
            id=match.id, started=_local(match.started, "%Y-%m-%d %H:%M"), one=match.label(1), two=match.label(2),
            result=match_result(match), columns=match.columns, rows=match.rows, backend=backend_word(match.backend)))
        for rnd in match.rounds:
            lines.append(_("  round {id:<5} {started}  {starter} first, {result} ({length})").format(
                id=rnd.id, started=_local(rnd.started, "%H:%M"), starter=match.label(rnd.starter),
                result=round_result(match, rnd), length=_length(rnd) + round_extras(match, rnd)))
    return "\n".join(lines)


def players_json(match: MatchRecord) -> JSONObject:
    """The two players as ``history --json`` and ``review --json`` describe them."""
    return {str(seat): dict(match.sides[seat - 1].as_json()) for seat in (1, 2)}


def history_json(matches: Sequence[MatchRecord]) -> List[JSONObject]:
    """Every match as a JSON-ready dict (times in UTC, columns and rows 1-based)."""
    return [{
        "match": m.id, "started": timestamp(m.started), "ended": None if m.ended is None else timestamp(m.ended),
        "status": m.status.value, "winner": m.winner, "score": list(m.score), "board": [m.columns, m.rows],
        "backend": m.backend, "players": players_json(m),
        "rounds": [{"round": r.id, "number": r.number, "started": timestamp(r.started),
                    "ended": timestamp(r.ended), "starter": r.starter, "moves": r.moves, "result": r.result.value,
                    "winner": r.winner, "winning_cells": [[c + 1, row + 1] for c, row in r.cells],
                    "level": r.level, "hints": r.hints, "takebacks": r.takebacks}
                   for r in m.rounds],
    } for m in matches]


# -- stats --------------------------------------------------------------------


@dataclass
class Tally:
    """Results from one side's point of view."""

    matches: Dict[str, int] = field(default_factory=lambda: {"won": 0, "lost": 0, "abandoned": 0})
    rounds: Dict[str, int] = field(default_factory=lambda: {"won": 0, "drawn": 0, "lost": 0})
    helped: int = 0
    """Rounds (won, drawn or lost) played with a hint or a take-back: marked, as they count with help."""

    def add(self, match: MatchRecord, seat: int) -> None:
        if match.status is MatchStatus.ABANDONED:
            self.matches["abandoned"] += 1
        elif match.status is MatchStatus.FINISHED:
            self.matches["won" if match.winner == seat else "lost"] += 1
        for rnd in match.rounds:
            if rnd.helped and rnd.result in (RoundResult.DRAW, RoundResult.WIN):
                self.helped += 1
            if rnd.result is RoundResult.DRAW:
                self.rounds["drawn"] += 1
            elif rnd.result is RoundResult.WIN:
                self.rounds["won" if rnd.winner == seat else "lost"] += 1


@dataclass
class Stats:
    players: Dict[str, Tally]
    """Each named person's results at this Pi, by name."""
    computer: Dict[str, Tally]
    """The people's results against each computer level."""
    remote: Dict[str, Tally] = field(default_factory=dict)
    """Each named person's results from another Pi over the LAN, by name (their side of it)."""


def stats(matches: Sequence[MatchRecord], levels: Sequence[str]) -> Stats:
    """Tally ``matches``; ``levels`` orders the computer's table (easiest first)."""
    players: Dict[str, Tally] = {}
    computer: Dict[str, Tally] = {}
    remote: Dict[str, Tally] = {}
    for match in sorted(matches, key=lambda m: m.id):
        for seat in (1, 2):
            side, other = match.sides[seat - 1], match.sides[2 - seat]
            if side.level is not None:
                continue
            if side.name:
                (remote if side.remote else players).setdefault(side.name, Tally()).add(match, seat)
            if other.level is not None:
                computer.setdefault(other.level, Tally()).add(match, seat)
    order = {level: i for i, level in enumerate(levels)}

    def by_name(group: Dict[str, Tally]) -> Dict[str, Tally]:
        return dict(sorted(group.items(), key=lambda kv: kv[0].lower()))

    return Stats(by_name(players), dict(sorted(computer.items(), key=lambda kv: order.get(kv[0], len(order)))),
                 by_name(remote))


def _groups() -> List[Tuple[str, List[Tuple[str, str]]]]:
    """The tables' two groups of columns, in the words of the moment: each group's heading and its columns
    (a :class:`Tally` count's key and its heading; each word in its group's context, so a language agrees it
    with matches or rounds)."""
    return [(_("matches:"), [("won", pgettext("matches", "won")), ("lost", pgettext("matches", "lost")),
                             ("abandoned", pgettext("matches", "abandoned"))]),
            (_("rounds:"), [("won", pgettext("rounds", "won")), ("drawn", pgettext("rounds", "drawn")),
                            ("lost", pgettext("rounds", "lost"))])]


def _table(title: str, tallies: Dict[str, Tally], empty: str, label: Callable[[str], str] = str) -> List[str]:
    """A table of ``tallies`` under ``title``, each row named by ``label(key)`` (``empty``: said when there is
    none).  Every column is as wide as its heading (a group's first, with the group's): the words' widths, in
    any language, and the counts right-aligned under them."""
    if not tallies:
        return [empty]
    labels = {key: label(key) for key in tallies}
    width = max(len(title), *(len(k) for k in labels.values()))
    groups = _groups()
    heads = ["   ".join(" ".join([group, *(head for _key, head in columns)]) for group, columns in groups)]
    widths = [[len(group) + 1 + len(columns[0][1])] + [len(head) for _key, head in columns[1:]]
              for group, columns in groups]
    lines = [f"{title:<{width}}  {heads[0]}"]
    for key, t in tallies.items():
        counts = (t.matches, t.rounds)
        cells = ["   ".join(" ".join(f"{count[column]:>{wide}}" for (column, _head), wide in zip(columns, sizes))
                           for (_group, columns), sizes, count in zip(groups, widths, counts))]
        helped = "" if not t.helped else "  " + ngettext(
            "({n} round with helps)", "({n} rounds with helps)", t.helped).format(n=t.helped)
        lines.append(f"{labels[key]:<{width}}  {cells[0]}{helped}")
    return lines


def stats_text(result: Stats, empty: Optional[str] = None) -> str:
    """The tables (``empty``: why there is no file to read, said instead when there is nothing)."""
    if empty and not (result.players or result.computer or result.remote):
        return history_text((), empty)
    lines = _table(_("player"), result.players, _("no named players yet (play with --names NAME1,NAME2)"))
    lines.append("")
    lines += _table(_("v computer"), result.computer, _("no games against the computer yet"), level_name)
    if result.remote:
        lines.append("")
        lines += _table(_("remote player"), result.remote, "")
    return "\n".join(lines)


def stats_json(result: Stats) -> JSONObject:
    def tallies(group: Dict[str, Tally]) -> Dict[str, Any]:
        return {k: {"matches": dict(t.matches), "rounds": dict(t.rounds), "helped": t.helped}
                for k, t in group.items()}

    return {"players": tallies(result.players), "computer": tallies(result.computer), "remote": tallies(result.remote)}

