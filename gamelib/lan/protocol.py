"""The LAN protocol between two Pis: its version, its messages and their checks (pure, no I/O).

The guest opens a TCP connection to the host's web server (the port of ``--web`` and
``--lan``) and asks ``GET /api/lan`` with ``Connection: Upgrade`` and ``Upgrade:
gamelib-lan/1`` (:data:`PROTOCOL`); the host answers ``101 Switching Protocols`` and from
then on both sides send lines, each one JSON object (UTF-8, at most
:attr:`~gamelib.web.limits.Limits.line_bytes` bytes with its ``\\n``) whose ``type`` says
what it is.  docs/API.md ("The LAN protocol") is the contract; :func:`decode` checks every
line against it, whichever side receives it, so a hostile peer's garbage is one
:class:`ProtocolError`, never an exception elsewhere: the guest checks the host's lines as
strictly as the host checks the guest's (a name is a player's name, at most
:data:`MAX_NAME` characters; JSON without ``NaN`` or ``Infinity``; every text bounded).  A
game checks its own ``game`` messages with the same helpers (:func:`need`, :func:`whole`,
:func:`player_name`), and anything else from outside that no check vouches for (an mDNS
advertisement's name) is made safe to show by :func:`outside_name`.

A host that speaks another version answers ``426 Upgrade Required`` with the version it
speaks in its ``Upgrade:`` header; both sides then say so in one line (:func:`mismatch`).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..errors import GamelibError
from ..matrix import PIXELS
from ..names import WORD
from ..players import MAX_LENGTH, check_name
from ..status import printable

VERSION = 1
"""The protocol's version: a change that an older peer could misread raises it."""
PROTOCOL = f"gamelib-lan/{VERSION}"
"""What the guest's ``Upgrade:`` header asks for, and the host's ``101`` answers."""
PATH = "/api/lan"
SERVICE_TYPE = "_sensehat-c4._tcp.local."
"""The DNS-SD service type a host advertises (mDNS), with TXT ``v`` (:data:`VERSION`), ``game``,
``name`` (the player's) and ``path`` (:data:`PATH`)."""

DIRECTIONS = ("left", "right", "up", "down", "middle")
ACTIONS = ("pressed", "held", "released")

# what the guest sends
HELLO, PRESS, PING, BYE = "hello", "press", "ping", "bye"
# what the host sends
ASKING, WELCOME, REFUSED, FRAME, STATE, GAME, END, ERROR = (
    "asking", "welcome", "refused", "frame", "state", "game", "end", "error")
FROM_GUEST = (HELLO, PRESS, PING, BYE)
FROM_HOST = (ASKING, WELCOME, REFUSED, FRAME, STATE, GAME, PING, END, ERROR)

BAD_TOKEN = "bad_token"
"""The refusal of a token no session has (the guest asks again, without it)."""
REFUSALS = ("refused", "busy", "no_answer", BAD_TOKEN, "game", "version", "not_offered")
"""Why a host refuses a guest: its player said no (up), another guest plays or is asking, nobody
answered in time, a token no session has, another game, another protocol version, no game offered."""
QUIT, ABANDONED, AWAY, FINISHED = "quit", "abandoned", "away", "finished"
ENDINGS = (QUIT, ABANDONED, AWAY, FINISHED)
"""Why a session ends: the other side's program quit, the match was abandoned (up, up), the link
stayed down too long, or the host stopped offering the game."""

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_TEXT = 200
"""A message's ``message`` text (for people) is cut to this many characters when shown."""
MAX_NAME = MAX_LENGTH
"""A player's name, in a ``hello``, a ``welcome``, a game's message or an mDNS advertisement: at most
this many characters (what the LEDs scroll in a few seconds)."""


class ProtocolError(GamelibError, ValueError):
    """A line that is not a message of this protocol: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def mismatch(ours: int, theirs: object) -> str:
    """The one line both sides show when the versions differ."""
    return (f"the other Pi speaks the LAN protocol {theirs!s:.10}, this one {ours}: "
            "install the same sensehat-c4 on both")


@dataclass(frozen=True)
class Message:
    """One checked line: its ``type`` and its other fields."""

    type: str
    fields: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def encode(kind: str, **fields: Any) -> bytes:
    """One line (without its ``\\n``): ``{"type": kind, ...fields}`` as compact JSON."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"), ensure_ascii=False).encode()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:16]} is out of range")
    return number


def loads(data: bytes) -> Any:
    """Strict JSON: UTF-8, no ``NaN``/``Infinity`` (nor a number that overflows to one), nesting within
    Python's recursion limit; :class:`ProtocolError` (``bad_json``) otherwise."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("bad_json", "a line is not UTF-8 JSON") from None


def decode(line: bytes, allowed: Tuple[str, ...]) -> Message:
    """The message in ``line`` if its ``type`` is one of ``allowed`` and its fields are as documented;
    else :class:`ProtocolError`."""
    value = loads(line)
    if not isinstance(value, dict):
        raise ProtocolError("bad_message", "a line must be a JSON object")
    kind = value.pop("type", None)
    if not isinstance(kind, str) or kind not in allowed:
        raise ProtocolError("bad_message", f"no message of type {str(kind)[:32]!r} goes this way")
    check = _CHECKS.get(kind)
    if check is not None:
        check(value)
    return Message(kind, value)


def need(value: Mapping[str, Any], name: str, kind: type, *, null: bool = False) -> Any:
    """``value[name]`` if it is exactly of ``kind`` (``True`` is no ``int``; ``null``: or ``None``)."""
    item = value.get(name)
    if item is None and null:
        return None
    if type(item) is not kind:
        raise ProtocolError("bad_message", f"{name} must be {'null or ' if null else ''}{kind.__name__}")
    return item


def whole(value: Mapping[str, Any], name: str, low: int, high: int, *, null: bool = False) -> Any:
    """``value[name]`` if it is a whole number from ``low`` to ``high`` (``null``: or ``None``)."""
    item = need(value, name, int, null=null)
    if item is not None and not low <= item <= high:
        raise ProtocolError("bad_message", f"{name} must be {low} to {high}")
    return item


def one_of(value: Mapping[str, Any], name: str, choices: Sequence[Any]) -> Any:
    """``value[name]`` if it is one of ``choices`` (of their own type: ``1`` is no ``True``)."""
    item = value.get(name)
    if not any(type(item) is type(choice) and item == choice for choice in choices):
        raise ProtocolError("bad_message", f"{name} must be one of {', '.join(json.dumps(c) for c in choices)}")
    return item


def _text(value: Mapping[str, Any], name: str) -> str:
    text: str = need(value, name, str)
    if len(text) > 4 * MAX_TEXT:
        raise ProtocolError("bad_message", f"{name} is too long")
    return text


def player_name(value: Mapping[str, Any], name: str, *, null: bool = False) -> Any:
    """``value[name]`` if it is a player's name exactly as :func:`~gamelib.players.check_name` keeps it
    (what the LEDs can scroll, at most :data:`MAX_NAME` characters; ``null``: or ``None``)."""
    text = need(value, name, str, null=null)
    if text is None:
        return None
    try:
        if check_name(text) != text:
            raise ValueError
    except ValueError:
        raise ProtocolError("bad_message", f"{name} must be a player's name (letters, digits, "
                            f"{MAX_NAME} at most)") from None
    return text


def outside_name(text: str, default: str = "?") -> str:
    """A name from outside that no check vouches for (an mDNS advertisement's), made safe to show and
    scroll: without control or format characters, one line, at most :data:`MAX_NAME` characters
    (``default`` if nothing is left).  Characters the LEDs' font lacks stay: they scroll as a box."""
    name = " ".join(printable(text).split())[:MAX_NAME].strip()
    return name or default


def answer_text(body: bytes) -> str:
    """The ``message`` of a refusal's JSON body (an HTTP answer other than ``101``), cut to
    :data:`MAX_TEXT`; ``""`` if the body is not such JSON (however it is broken or nested)."""
    try:
        value = loads(body)
    except ProtocolError:
        return ""
    message = value.get("message") if isinstance(value, dict) else None
    return message[:MAX_TEXT] if isinstance(message, str) else ""


def _hello(value: Dict[str, Any]) -> None:
    version = value.get("version")
    if type(version) is not int:
        raise ProtocolError("bad_message", "hello needs the protocol's version (an integer)")
    if version != VERSION:
        raise ProtocolError("version", mismatch(VERSION, version))
    game = need(value, "game", str)
    if not WORD.fullmatch(game):
        raise ProtocolError("bad_message", "game must be a game's key (connect4)")
    player_name(value, "name")
    token = need(value, "token", str, null=True)
    if token is not None and not _TOKEN.fullmatch(token):
        raise ProtocolError("bad_message", "token must be null or a token a welcome gave")


def _press(value: Dict[str, Any]) -> None:
    if value.get("direction") not in DIRECTIONS:
        raise ProtocolError("bad_message", f"direction must be one of {', '.join(DIRECTIONS)}")
    if value.get("action", "pressed") not in ACTIONS:
        raise ProtocolError("bad_message", f"action must be one of {', '.join(ACTIONS)}")


def _welcome(value: Dict[str, Any]) -> None:
    token = need(value, "token", str)
    if not _TOKEN.fullmatch(token):
        raise ProtocolError("bad_message", "welcome's token is not a token")
    one_of(value, "seat", (1, 2))
    player_name(value, "host")
    need(value, "resumed", bool)


def _reason(allowed: Tuple[str, ...]) -> Any:
    def check(value: Dict[str, Any]) -> None:
        if value.get("reason") not in allowed:
            raise ProtocolError("bad_message", f"reason must be one of {', '.join(allowed)}")
        _text(value, "message")
    return check


def _frame(value: Dict[str, Any]) -> None:
    whole(value, "seq", 0, 2 ** 63)
    value["pixels"] = pixels(value.get("pixels"))


def pixels(data: object) -> Tuple[Tuple[int, int, int], ...]:
    """64 ``[r, g, b]`` (0-255) as a frame; :class:`ProtocolError` if it is not one."""
    if not isinstance(data, list) or len(data) != PIXELS:
        raise ProtocolError("bad_message", f"a frame has {PIXELS} pixels")
    frame: List[Tuple[int, int, int]] = []
    for pixel in data:
        if not isinstance(pixel, list) or len(pixel) != 3 or \
                any(type(v) is not int or not 0 <= v <= 255 for v in pixel):
            raise ProtocolError("bad_message", "a pixel is [r, g, b], each 0-255")
        frame.append((pixel[0], pixel[1], pixel[2]))
    return tuple(frame)


def _state(value: Dict[str, Any]) -> None:
    status = value.get("status")
    if status is None:
        return
    if not isinstance(status, dict):
        raise ProtocolError("bad_message", "state's status must be an object or null")
    for name in ("phase", "text"):
        _text(status, name)
    if status.get("caption") is not None:
        _text(status, "caption")
    if len(status) > MAX_DETAILS:
        raise ProtocolError("bad_message", f"state's status has more than {MAX_DETAILS} fields")


MAX_DETAILS = 32
"""A ``state``'s status holds at most this many fields (its words and their details)."""


def _game(value: Dict[str, Any]) -> None:
    if not isinstance(value.get("data"), dict):
        raise ProtocolError("bad_message", "game's data must be an object")


def _error(value: Dict[str, Any]) -> None:
    if not WORD.fullmatch(need(value, "error", str)):
        raise ProtocolError("bad_message", "error must be an error's code")
    _text(value, "message")


_CHECKS = {HELLO: _hello, PRESS: _press, WELCOME: _welcome, REFUSED: _reason(REFUSALS), FRAME: _frame,
           STATE: _state, GAME: _game, END: _reason(ENDINGS), ERROR: _error}


def upgrade_version(header: Optional[str]) -> Optional[int]:
    """The version a guest's ``Upgrade:`` header asks for (``gamelib-lan/N``), or ``None`` if it asks
    for no version of this protocol."""
    for token in (header or "").split(","):
        name, _, version = token.strip().partition("/")
        if name.lower() == "gamelib-lan" and version.isascii() and version.isdigit() and len(version) <= 6:
            return int(version)
    return None
