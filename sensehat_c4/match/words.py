"""What Connect 4's LEDs show, in words: the :class:`gamelib.status.Status` values the game says.

The choosers and the match say one at every change of what the LEDs mean
(:meth:`gamelib.backends.screen.Screen.say`); a mirror (a web page) shows the text and
reads the details, the terminal prints the caption under the board: while choosing, and during the
match whose turn it is, in which colour, with the keys (or what the game waits for: the computer, a
phone, the other Pi).
Pure functions, no I/O.

The details (``Status.as_json()`` adds ``phase``, ``text`` and ``caption``):

- every status: ``game`` (``"Connect 4"``);
- choosing: ``choice`` (what the LEDs show: ``"2 players"``, ``"computer: 1 easy"``,
  ``"rules"``, or a size ``"6x5"``) and ``choices`` (every label offered, in order); for a
  level, ``about`` (how it plays, in words);
- the resume question (phase ``resume``): the match's ``board``, ``round``, ``score``, ``turn``
  and ``seats`` as below, and ``choices`` (``["resume", "start afresh"]``);
- the match: ``board`` (``"7x6"``), ``match`` (its number in the records, as ``history`` calls it,
  or ``null``: not written yet, or not recorded), ``round`` (from 1), ``score`` (``[seat 1's, seat
  2's]``), ``turn`` (the seat to move, or ``null``), ``seats`` (two objects: ``seat``,
  ``colour`` as ``#rrggbb``, ``name`` or ``null``, ``level`` (the computer's) or ``null``,
  ``kind``: ``stick``, ``computer``, ``phone``...), ``winner`` (the seat, or ``null``) and
  ``result`` (``round``, ``draw``, ``match``, ``abandoned`` or ``null``); at the match's end
  ``summary`` (its one line without its number: the text is :func:`match_line`'s);
- the warning before play when the games cannot be recorded (phase ``unrecorded``): ``why`` (the reason in
  the Pi's words), ``reason`` (its code, a key of :data:`~sensehat_c4.records.access.REASONS`: ``directory``,
  ``EACCES``..., or ``null`` when only the words say it) and that code's fields (``name``, ``place``, ``folder``);
- the replay (``replay ID``; phase ``replay``): ``round`` (the round's ID), ``move`` (the moves shown)
  and ``moves`` (the round's), ``paused`` and ``ended`` (true or false);
- training (``review --train``, the launcher's Connect 4 training): ``round`` (the round's
  ID), ``position`` (from 1) and ``positions``, ``turn`` (the seat to find a move, as in
  ``seats``), ``goal`` (``win`` or ``draw``: what a right move keeps), ``keeping`` (the right
  columns, 1-based), and after a try ``tried`` (the column, 1-based) and ``right`` (true or
  false); at the end ``right`` (how many) and ``tried``.

The texts and captions are words, looked up in the game's catalogue (:mod:`..i18n`) when they are made,
in the language of that moment; the phases and the details are values of the API and stay as written
(``choice``, ``choices`` and ``about`` name the chooser's items in English, whatever the language).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Dict, Optional, Sequence, Tuple

from gamelib.colours import NAMES, RGB, ColourError, colour_name, hex_colour, parse_colour
from gamelib.i18n import _ as gamelib_word
from gamelib.jsonvalue import JSONObject
from gamelib.seats import Kind
from gamelib.status import DOWN, ENTER, LEFT_RIGHT, UP, Status

from ..engine import rungs
from ..i18n import N_, _, ngettext
from ..rules import Size
from . import opponents
from .opponents import Opponent, OpponentKind

if TYPE_CHECKING:   # the records' package opens files: the words only read its values
    from ..records.access import Reason

GAME = N_("Connect 4")
"""The game's name: the details' ``game`` (a value) and the name a lobby shows (a name, not translated);
the launcher's menu shows it through the catalogue (:attr:`gamelib.games.Game.title`)."""
LAN_GAME = N_("Connect 4 over the LAN")
PUZZLE_GAME = N_("puzzle of the day")
TRAINING_GAME = N_("Connect 4 training")
"""The names of the package's other games (the launcher's entries: ``connect4-lan``, ``connect4-puzzle``,
``connect4-training``), here beside :data:`GAME` so a web page can say them without loading those games."""
BROWSE = N_("{browse} browse, {choose} chooses")
"""Said beside the choosers' labels (``browse`` and ``choose`` are the keys)."""

CHOOSING_OPPONENT = "choosing opponent"
CHOOSING_SIZE = "choosing size"
RULES = "rules"
PLAYING = "playing"
THINKING = "thinking"
CONFIRMING = "confirming"
RESULT = "result"
RESUME = "resume"
TRAINING = "training"
REPLAY = "replay"
UNRECORDED = "unrecorded"

def _about(level: str, word: Callable[[str], str]) -> str:
    rung = rungs.BY_NAME[level]
    return word(rung.about).format(**(rung.horizon._asdict() if rung.horizon else {}))


def level_name(level: str) -> str:
    """A level's name (``easy``, or *match me*'s ``match-me``) as a player reads it, in the words of the moment
    (:data:`.opponents.WORDS`); a name not there (another version's, from the records) as it is."""
    return opponents.word(level)


def level_words(level: str, word: Callable[[str], str]) -> str:
    """How ``level`` plays in the words ``word`` gives (a page's catalogue, :attr:`gamelib.web.pages.Pages.values`)."""
    return _about(level, word)


def about(level: str) -> Optional[str]:
    """How ``level`` plays, in the words of the moment (:data:`LEVEL_WORDS` in English); ``None`` for no level."""
    return _about(level, _) if level in rungs.BY_NAME else None


def colour_word(colour: RGB) -> str:
    """A colour's name as a player reads it (the colours' names are gamelib's words, in its catalogue)."""
    return gamelib_word(colour_name(colour))


LEVEL_WORDS: Dict[str, str] = {rung.name: _about(rung.name, str) for rung in rungs.RUNGS}
"""How each level plays and how strong it is, in words for people (the chooser's and docs/guide/computer.md's),
weakest first; a horizon's plies are the ladder's own (:data:`~..engine.rungs.RUNGS`).  Elo on 7x6 with a
uniformly random player at 0 (docs/BENCHMARKS.md, *The ladder*); a stone ahead is one ply, either player's."""


MATCH_ME_WORDS = N_("steps up the ladder after each round you win and down after each you lose, "
                    "so it meets your strength")
"""How *match me* plays (the chooser's text, and in English its detail ``about``)."""
CHOOSING_HELPS = "choosing helps"
HELPS_OFF, HELPS_ON = N_("helps: none"), N_("helps: hints and take-backs")
"""The helps chooser's two labels (in English, its details' ``choice`` and ``choices``)."""

_OPPONENTS = {OpponentKind.HUMAN: N_("2 players"), OpponentKind.LAN: N_("over the LAN"),
              OpponentKind.MATCH_ME: N_("computer: match me")}
RULES_LABEL = N_("rules")
COMPUTER_LABEL = N_("computer: {number} {level}")


def opponent_label(opponent: Optional[Opponent], *, value: bool = False) -> str:
    """``2 players`` for two people, ``computer: 3 steady`` for a level (its number on the ladder, as
    the LEDs show it, and its name), ``computer: match me`` for *match me*, ``over the LAN`` for another
    Pi, ``rules`` for ``None`` (the rules): in the words of the moment, or as written with ``value`` (the
    details' values)."""
    word: Callable[[str], str] = str if value else _
    if opponent is None:
        return word(RULES_LABEL)
    if opponent.kind in _OPPONENTS:
        return word(_OPPONENTS[opponent.kind])
    return word(COMPUTER_LABEL).format(number=rungs.number(opponent.name),
                                       level=opponent.name if value else level_name(opponent.name))


def opponent_json(opponent: Optional[Opponent]) -> Optional[JSONObject]:
    """The chooser's opponent as a value (the details' ``opponent``): ``kind`` (``human``, ``computer``,
    ``match-me``, ``lan``), a level's ``level`` and ``number`` (on the ladder), or ``None`` for the rules."""
    if opponent is None:
        return None
    level = opponent.level
    return {"kind": opponent.kind.value, "level": level, "number": None if level is None else rungs.number(level)}


def _browse() -> str:
    return _(BROWSE).format(browse=LEFT_RIGHT, choose=ENTER)


def choosing_opponent(choice: Optional[Opponent], offered: Sequence[Optional[Opponent]]) -> Status:
    """The opponent chooser showing ``choice`` (an opponent, or ``None``: the rules) among ``offered``;
    for a level the text says how it plays (:func:`about`), and so does the detail ``about``
    (:data:`LEVEL_WORDS`, in English: a value)."""
    label = opponent_label(choice)
    match_me = choice is not None and choice.kind is OpponentKind.MATCH_ME
    level = None if choice is None else choice.level
    details = {"game": GAME, "choice": opponent_label(choice, value=True),
               "choices": [opponent_label(o, value=True) for o in offered], "opponent": opponent_json(choice)}
    if match_me:
        details["about"] = MATCH_ME_WORDS
    elif level is not None:
        details["about"] = LEVEL_WORDS[level]
    words = _(MATCH_ME_WORDS) if match_me else None if level is None else about(level)
    text = (_("choosing the opponent: {label}: {about}").format(label=label, about=words) if words is not None
            else _("choosing the opponent: {label}").format(label=label))
    return Status(CHOOSING_OPPONENT, text, _("{label} ({browse})").format(label=label, browse=_browse()), details)


def rules(text: str, message: Optional[str] = None) -> Status:
    """The rules scrolling across the LEDs (``text``, in words already; ``message``: its message in the catalogue,
    the details' ``rules``, which a page says in its own language)."""
    return Status(RULES, text, _("the rules are scrolling: any key stops them"), {"game": GAME, "rules": message})


def unrecorded(why: str, reason: Optional[Reason] = None) -> Status:
    """The warning scrolling before play: the games are not being recorded, because ``why`` (in words already),
    ``reason`` as values (``None``: only the words say it)."""
    details = {"game": GAME, "why": why, "reason": None, **(reason.as_json() if reason is not None else {})}
    return Status(UNRECORDED, _("games are not being recorded: {why}").format(why=why),
                  _("games are not being recorded: {why}; any key goes on").format(why=why), details)


def choosing_size(size: Size, offered: Sequence[Size]) -> Status:
    """The size chooser showing ``size`` among ``offered``."""
    return Status(CHOOSING_SIZE, _("choosing the board size: {size}").format(size=size),
                  _("board size: {size} ({browse}, {back} back)").format(size=size, browse=_browse(), back=UP),
                  {"game": GAME, "choice": str(size), "choices": [str(s) for s in offered]})


def choosing_helps(on: bool) -> Status:
    """The helps chooser showing hints and take-backs ``on`` or off."""
    label = _(HELPS_ON) if on else _(HELPS_OFF)
    about = _("middle shows a hint, up then down takes a move back") if on else _("no hints, no take-backs")
    return Status(CHOOSING_HELPS, _("choosing helps: {label}: {about}").format(label=label, about=about),
                  _("{label} ({browse}, {up} back)").format(label=label, browse=_browse(), up=UP),
                  {"game": GAME, "choice": HELPS_ON if on else HELPS_OFF, "helps": on, "choices": [HELPS_OFF, HELPS_ON]})


def helps_counts(hints: int, takebacks: int) -> str:
    """``2 hints, 1 take-back`` (``no helps used`` for none)."""
    if not hints and not takebacks:
        return _("no helps used")
    return _("{hints}, {takebacks}").format(
        hints=ngettext("{n} hint", "{n} hints", hints).format(n=hints),
        takebacks=ngettext("{n} take-back", "{n} take-backs", takebacks).format(n=takebacks))


@dataclass(frozen=True)
class Seat:
    """Who plays a seat, as the words name them."""

    seat: int
    colour: RGB
    name: Optional[str] = None
    level: Optional[str] = None
    """The computer's level when the computer plays the seat."""
    kind: Kind = Kind.STICK
    match_me: bool = False
    """The computer is *match me*: :attr:`level` is the level it plays this round."""
    helps: bool = False
    """The person at this seat has hints and take-backs."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))

    @property
    def label(self) -> str:
        """``Ann (red)``, ``computer (easy, yellow)`` or ``player 1 (red)``."""
        colour = colour_word(self.colour)
        if self.level is not None and self.match_me:
            return _("computer (match me: {number} {level}, {colour})").format(
                number=rungs.number(self.level) if self.level in rungs.BY_NAME else "?",
                level=level_name(self.level), colour=colour)
        if self.level is not None:
            return _("computer ({level}, {colour})").format(level=level_name(self.level), colour=colour)
        return _("{owner} ({colour})").format(owner=self.owner, colour=colour)

    @property
    def owner(self) -> str:
        """``Ann``, or ``player 1`` for a seat without a name."""
        return self.name or _("player {seat}").format(seat=self.seat)

    def turn(self) -> str:
        """The terminal's line while this seat is to move: who, in which colour, and how (the keys, or
        what the game waits for)."""
        colour = colour_word(self.colour)
        if self.kind is Kind.PHONE:
            return _("waiting for {owner}'s phone ({colour})").format(owner=self.owner, colour=colour)
        if self.kind is Kind.REMOTE:
            return _("waiting for {owner} ({colour}) at the other Pi").format(owner=self.owner, colour=colour)
        if self.level is not None or self.kind is Kind.COMPUTER:
            return _("{label} thinking").format(label=self.label)
        if self.helps:
            return _("{label} to move: {choose} choose, {drop} drops, {hint} or h: a hint, {up} then {down} "
                     "or u: take back, {leave} abandons").format(label=self.label, choose=LEFT_RIGHT, drop=DOWN,
                                                                 hint=ENTER, up=UP, down=DOWN, leave=UP)
        return _("{label} to move: {choose} choose, {drop} drops, {leave} abandons").format(
            label=self.label, choose=LEFT_RIGHT, drop=ENTER, leave=UP)

    def as_json(self) -> JSONObject:
        found: JSONObject = {"seat": self.seat, "colour": hex_colour(self.colour), "colour_name": named(self.colour),
                             "name": self.name, "level": self.level, "kind": self.kind}
        if self.match_me:
            found["match_me"] = True
            found["number"] = rungs.number(self.level) if self.level in rungs.BY_NAME else None
        return found


def named(colour: RGB) -> Optional[str]:
    """``colour``'s name in the colours' table (:data:`gamelib.colours.NAMES`: ``red``, a value a page says in its
    language), or ``None`` if it has none (a page then shows its ``#rrggbb``)."""
    name = colour_name(colour)
    return name if name in NAMES else None


ROUND, DRAW, MATCH, ABANDONED = "round", "draw", "match", "abandoned"
"""The details' ``result`` values (never translated)."""


def _where(number: int, score: Tuple[int, int], size: Size) -> str:
    return _("round {number} ({first}-{second}, {size})").format(number=number, first=score[0], second=score[1],
                                                                 size=size)


def match_line(number: Optional[int], summary: str) -> str:
    """A match's one line with its number in the records: ``match 3: Ann wins 2-1``, or ``match not
    recorded: ...`` for a match the records do not keep (``number`` ``None``)."""
    if number is None:
        return _("match not recorded: {summary}").format(summary=summary)
    return _("match {number}: {summary}").format(number=number, summary=summary)


def match(phase: str, seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int],
          turn: Optional[int] = None, winner: Optional[int] = None, result: Optional[str] = None,
          summary: str = "", helps: Optional[Tuple[int, int]] = None, take_back: bool = False,
          match_number: Optional[int] = None) -> Status:
    """The match in ``phase``: ``playing``/``thinking`` (``turn`` to move), ``confirming``, or
    ``result`` (``result``: ``round``, ``draw``, ``match`` or ``abandoned``; ``summary`` is the
    match's one line for the last two, said with ``match_number``, the match's number in the records, or
    ``None``: not recorded, :func:`match_line`).  ``helps``: the round's hints and take-backs so far, when the
    person has helps (said in the text, in a turn's caption after its keys, and in the details ``hints``,
    ``takebacks``); ``take_back``: down takes back while the abandon question is asked."""
    where = _where(number, score, size)
    if phase == PLAYING and turn is not None:
        text = _("{where}: {label} to move").format(where=where, label=seats[turn - 1].label)
        caption = seats[turn - 1].turn()
    elif phase == THINKING and turn is not None:
        text = _("{where}: {label} is thinking").format(where=where, label=seats[turn - 1].label)
        caption = seats[turn - 1].turn()
    elif phase == CONFIRMING and take_back:
        text = _("{where}: abandon the match? up again to confirm, down takes back your last move").format(
            where=where)
        caption = _("abandon the match? {up} again: yes, {down}: take back your last move, another key: "
                    "play on").format(up=UP, down=DOWN)
    elif phase == CONFIRMING:
        text = _("{where}: abandon the match? up again to confirm").format(where=where)
        caption = _("abandon the match? {up} again: yes, another key: play on").format(up=UP)
    elif result == ROUND and winner is not None:
        text = _("{where}: {label} wins the round").format(where=where, label=seats[winner - 1].label)
        caption = _("{label} wins round {number}").format(label=seats[winner - 1].label, number=number)
    elif result == DRAW:
        text = _("{where}: a draw").format(where=where)
        caption = _("round {number}: a draw").format(number=number)
    elif result in (MATCH, ABANDONED):
        text = caption = match_line(match_number, summary)
    else:
        text = caption = summary
    details: JSONObject = {"game": GAME, "board": str(size), "match": match_number, "round": number,
                           "score": list(score), "winner": winner, "result": result,
                           "take_back": phase == CONFIRMING and take_back}
    if result in (MATCH, ABANDONED):
        details["summary"] = summary
    if helps is not None:
        counts = helps_counts(*helps)
        text = _("{text} ({helps})").format(text=text, helps=counts)
        if phase in (PLAYING, THINKING) and caption:   # under the board too, after the turn's keys
            caption = _("{text} ({helps})").format(text=caption, helps=counts)
        details.update(hints=helps[0], takebacks=helps[1])
    return Status(phase, text, caption or None, details, turn=turn, seats=tuple(seat.as_json() for seat in seats))


def as_guest(status: Status, mine: Optional[int], number: Optional[int] = None) -> Status:
    """The host's words as the guest of a game over the LAN says them: the caption of a turn from the
    guest's side (its own seat, ``mine``, at its keys; the host's person at the other Pi), and the match
    numbered as the guest's own records number it (``number``; ``None``: not recorded there), in the
    detail ``match`` and in the match's one line at its end.  Words that are not a turn, or whose seats
    cannot be read, keep their text and lose a turn's caption."""
    status = _numbered(status, number)
    if status.phase not in (PLAYING, THINKING):
        return status
    try:
        turn = status.turn
        if turn is None or status.seats is None:
            raise ValueError(turn)
        seat = status.seats[turn - 1]
        name, level = seat["name"], seat["level"]
        try:
            kind = Kind(seat["kind"])
        except ValueError:
            kind = Kind.PERSON   # a kind this Pi does not know: a person at some keys
        colour = seat["colour"]
        if not isinstance(colour, str):         # another Pi's words: a colour that is no text is no turn to say
            raise TypeError(colour)
        who = Seat(turn, parse_colour(colour), name if isinstance(name, str) else None,
                   level if isinstance(level, str) else None, kind)
    except (KeyError, IndexError, TypeError, ValueError, ColourError):
        return replace(status, caption=None)
    if turn == mine:
        who = replace(who, kind=Kind.STICK)        # this Pi's player: the keys
    elif who.kind is Kind.STICK:
        who = replace(who, kind=Kind.REMOTE)       # the host's player, at the other Pi
    return replace(status, caption=who.turn())


def _numbered(status: Status, number: Optional[int]) -> Status:
    """``status`` (a match's words from another Pi) with the match's number ``number``: the detail ``match``
    and, at the match's end, its one line made again from the detail ``summary`` (a text that is no
    summary: the words as they were, without a number)."""
    if "match" not in status.details:
        return status
    details = {**status.details, "match": number}
    summary = details.get("summary")
    if status.phase != RESULT or details.get("result") not in (MATCH, ABANDONED):
        return replace(status, details=details)
    line = match_line(number, summary) if isinstance(summary, str) else None
    return replace(status, text=line or status.text, caption=line or status.caption, details=details)


def resume(seats: Tuple[Seat, Seat], *, size: Size, number: int, score: Tuple[int, int], turn: int) -> Status:
    """The question before anything else when a match was interrupted: its board and score, in turn."""
    return Status(RESUME, _("resume? an interrupted match, {where}: {label} to move (middle or down: resume, up: "
                            "start afresh)").format(where=_where(number, score, size), label=seats[turn - 1].label),
                  _("resume? {yes}: yes, {up}: start afresh").format(yes=ENTER, up=UP), {
                      "game": GAME, "board": str(size), "round": number, "score": list(score),
                      "choices": ["resume", "start afresh"]}, turn=turn, seats=tuple(seat.as_json() for seat in seats))


def replay(round_id: int, shown: int, total: int, *, paused: bool, ended: bool) -> Status:
    """``replay ID``: round ``round_id`` showing ``shown`` of its ``total`` moves, playing, ``paused``, or
    ``ended`` (the last move shown, its winning line blinked)."""
    where = (_("round {round}: move {shown} of {total} (the end)") if ended else
             _("round {round}: move {shown} of {total} (paused)") if paused else
             _("round {round}: move {shown} of {total}")).format(round=round_id, shown=shown, total=total)
    keys = (_("{where}: {step} step, {middle} plays it again, {up} leaves") if ended else
            _("{where}: {step} step, {middle} plays on, {up} leaves") if paused else
            _("{where}: {step} step, {middle} pauses, {up} leaves"))
    return Status(REPLAY, _("replay of {where}").format(where=where),
                  keys.format(where=where, step=LEFT_RIGHT, middle=ENTER, up=UP),
                  {"game": GAME, "round": round_id, "move": shown, "moves": total, "paused": paused, "ended": ended})


# -- training (``review --train``, the launcher's Connect 4 training) ----------------------

WIN, DRAW_GOAL = "win", "draw"
"""The training's goals (the details' ``goal``: values, never translated)."""
_FIND = {WIN: N_("find a move that keeps the win"), DRAW_GOAL: N_("find a move that keeps the draw")}


def _columns(columns: Sequence[int]) -> str:
    """``3``, ``3 and 4``, ``2, 3 and 4`` (1-based)."""
    names = [str(c + 1) for c in columns]
    return names[0] if len(names) == 1 else _("{some} and {last}").format(
        some=_(", ").join(names[:-1]), last=names[-1])


def _keeps(goal: str, keeping: Sequence[int]) -> str:
    """``3 keeps the win``, ``2 and 3 keep the draw``: each pair of forms written out in its ``ngettext`` call, so
    it is extracted as one message with its plural (two ``N_`` marks made two messages no catalogue could say)."""
    n = len(keeping)
    said = (ngettext("{columns} keeps the win", "{columns} keep the win", n) if goal == WIN else
            ngettext("{columns} keeps the draw", "{columns} keep the draw", n))
    return said.format(columns=_columns(keeping))


REVIEWING, POSITION, TRY, DONE = "review", "position", "try", "done"
"""The training's steps (the details' ``step``: values)."""
WINS, DRAWS, LOSES = "win", "draw", "loss"
"""What a tried move leads to (the details' ``outcome``: values)."""


def training_review(round_id: int) -> Status:
    """The launcher's training reviewing round ``round_id`` to find positions to train on."""
    text = _("reviewing round {round}").format(round=round_id)
    return Status(TRAINING, text, text, {"game": GAME, "step": REVIEWING, "round": round_id})


def training(round_id: int, number: int, total: int, seat: Seat, goal: str, keeping: Sequence[int]) -> Status:
    """Position ``number`` of ``total`` to train on: ``seat`` to find a move that keeps the ``goal``
    (:data:`WIN` or :data:`DRAW_GOAL`)."""
    find = _(_FIND[goal])
    return Status(TRAINING, _("training {number} of {total}: {label} to move; {find}").format(
                      number=number, total=total, label=seat.label, find=find),
                  _("{number}/{total}: {find}").format(number=number, total=total, find=find),
                  {"game": GAME, "step": POSITION, "round": round_id, "position": number, "positions": total,
                   "turn": seat.as_json(), "goal": goal, "keeping": [c + 1 for c in keeping]})


def training_try(round_id: int, number: int, total: int, seat: Seat, goal: str, keeping: Sequence[int],
                 column: int, result: str, outcome: Optional[JSONObject] = None) -> Status:
    """The try of ``column`` at position ``number``: ``result`` is what it leads to in words
    (``wins``, ``draws``, ``loses (Bob wins in 3)``), ``outcome`` the same as values (the details' ``outcome``:
    ``{"outcome": "loss", "winner": {...}, "moves": 3}``, as :func:`try_outcome` makes it)."""
    right = column in keeping
    text = (_("right: {column} {result}").format(column=column + 1, result=result) if right else
            _("wrong: {column} {result}; {keeps}").format(column=column + 1, result=result,
                                                         keeps=_keeps(goal, keeping)))
    return Status(TRAINING, _("training {number} of {total}: {text}").format(number=number, total=total, text=text),
                  text,
                  {"game": GAME, "step": TRY, "round": round_id, "position": number, "positions": total,
                   "turn": seat.as_json(), "goal": goal, "keeping": [c + 1 for c in keeping], "tried": column + 1,
                   "right": right, "outcome": outcome})


def try_outcome(score: int, *, winner: Optional[JSONObject] = None, moves: Optional[int] = None) -> JSONObject:
    """What a tried move leads to as values: ``outcome`` (:data:`WINS`, :data:`DRAWS`, :data:`LOSES`: by the sign of
    ``score``) and, for a loss, the ``winner`` (a side: ``seat``, ``name``, ``level``, ``seconds``, ``remote``) and
    in how many of its ``moves``."""
    if score > 0:
        return {"outcome": WINS}
    if score == 0:
        return {"outcome": DRAWS}
    return {"outcome": LOSES, "winner": winner, "moves": moves}


def training_done(round_id: int, right: int, tried: int, total: int) -> Status:
    """The end of the training: ``right`` of ``tried`` found (``total`` positions)."""
    text = (_("training over: {right} of {tried} right") if tried == total else
            _("training over: {right} of {tried} right ({total} positions)")).format(right=right, tried=tried,
                                                                                      total=total)
    return Status(TRAINING, text, text, {"game": GAME, "step": DONE, "round": round_id, "positions": total,
                                         "right": right, "tried": tried})
