"""What the LEDs show around a game over the LAN, and the same in words (pure: frames and statuses).

The host waits for a guest (:func:`offering`, the waves of a sender), shows a request
(the guest's name, its address and ``?`` scrolling, :func:`request`: a name alone can be
anyone's, the address is where the request comes from); the guest looks for games
(:func:`searching`, the waves in another colour), browses those it found (each name
scrolling under a dot for its place, :func:`found`), waits for the answer
(:func:`asking`, an hourglass) and may be refused (:data:`REFUSED`, a red cross); both
show :func:`away` (two boxes and the link between them blinking red) while the link is
down, and scroll who left (:func:`left`) when the other side quits.  Each animation is a
sequence of ``(frame, seconds)`` steps, played over and over where it waits for someone; a
scrolling one makes each frame as it is shown (:class:`~gamelib.scroll.Scrolling`), and every
name is cut to :data:`~.protocol.MAX_NAME` characters, its control characters removed
(:func:`~.protocol.outside_name`), whoever sent it.  Each is drawn in the palette it is given (the
backend's, :attr:`~gamelib.backends.base.Backend.palette`).

The words (:class:`~gamelib.status.Status`, phase ``lan``): ``details["screen"]`` says which
of the above (``offering``, ``request``, ``searching``, ``found``, ``asking``, ``refused``,
``away``, ``left``), with ``name`` (who asks, who offers, who left), ``address`` (where a
request comes from) and, while browsing, ``choice``/``choices`` as the choosers give them.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..colours import RGB
from ..i18n import N_, _
from ..icons import Icon, Picture, picture
from ..palette import Palette
from ..scroll import Scrolling
from ..status import ENTER, LEFT_RIGHT, UP, Status
from .protocol import outside_name

Step = Tuple[Picture, float]

PHASE = "lan"
OFFERING, REQUEST, SEARCHING, FOUND, ASKING, REFUSED_SCREEN, AWAY, LEFT = (
    "offering", "request", "searching", "found", "asking", "refused", "away", "left")
QUIT, GONE = "left", "is gone"
"""Why the other side is no longer there (:func:`left_words`' ``why``, a value kept as the ``reason`` detail):
it quit, or its link stayed down."""
_LEFT_WORDS = {QUIT: N_("{name} left"), GONE: N_("{name} is gone")}

WAVE_SECONDS = 0.4
"""One step of the waves (offering, searching)."""
BLINK_SECONDS = 0.5
"""One step of the hourglass and of the dropped link's blink."""
REFUSED_SECONDS = 2.0
"""How long the red cross stays up."""

_WAVES = ("........",
          "..AAAA..",
          ".A....A.",
          "A..BB..A",
          "..B..B..",
          "........",
          "...CC...",
          "...CC...")
"""Row 0 stays dark: a chooser puts its place dot there."""


def _waves(colour: RGB, background: RGB) -> List[Step]:
    """The dot, then the dot and the inner wave, then both waves: a sender's sign."""
    steps = []
    for lit in ("C", "BC", "ABC"):
        colours = {k: (colour if k in lit else background) for k in "ABC"}
        steps.append((picture(_WAVES, colours, background), WAVE_SECONDS))
    return steps


def offering(palette: Palette) -> List[Step]:
    """The host waits for a guest: the waves, cyan (``lan``)."""
    return _waves(palette.lan, palette.background)


def searching(palette: Palette) -> List[Step]:
    """The guest looks for games: the waves, green (``join``)."""
    return _waves(palette.join, palette.background)


def request(name: str, address: str, palette: Palette) -> Sequence[Step]:
    """Someone asks to play: ``NAME ADDRESS?`` scrolling, white (the host's middle accepts, up refuses)."""
    return Scrolling(_("{name} {address}?").format(name=outside_name(name), address=address[:64]), palette.text,
                     palette.background)


def found(name: str, index: int, count: int, palette: Palette) -> Sequence[Step]:
    """The guest browses the games found: ``name`` scrolling, green, under a dot on the top row for
    its place among ``count`` (at most 8 dots)."""
    return Scrolling(outside_name(name), palette.join, palette.background,
                     marks={min(index, 7): palette.text} if count > 1 else {})


_HOURGLASS = (".YYYYYY.",
              ".YTTTTY.",
              "..YTTY..",
              "...YY...",
              "...YY...",
              "..YBBY..",
              ".YBBBBY.",
              ".YYYYYY.")


def asking(palette: Palette) -> List[Step]:
    """The guest waits for the host's answer: an hourglass whose sand falls and falls."""
    glass, sand, dark = palette.warning, palette.sand, palette.background
    full = {"Y": glass, "T": sand, "B": dark}
    empty = {"Y": glass, "T": dark, "B": sand}
    return [(picture(_HOURGLASS, full, dark), BLINK_SECONDS), (picture(_HOURGLASS, empty, dark), BLINK_SECONDS)]


REFUSED = Icon(("R......R",
                ".R....R.",
                "..R..R..",
                "...RR...",
                "...RR...",
                "..R..R..",
                ".R....R.",
                "R......R"), lambda p: {"R": p.error})
"""The host said no (or could not be asked): a red cross."""

_LINK = ("........",
         "........",
         "OOO..OOO",
         "O.OLLO.O",
         "OOO..OOO",
         "........",
         "........",
         "........")


def away(palette: Palette) -> List[Step]:
    """The link to the other Pi dropped: two boxes, the link between them blinking red."""
    return [(picture(_LINK, {"O": palette.warning, "L": palette.error}, palette.background), BLINK_SECONDS),
            (picture(_LINK, {"O": palette.warning, "L": palette.background}, palette.background), BLINK_SECONDS)]


def left(name: str, palette: Palette) -> Sequence[Step]:
    """The other side quit: ``NAME LEFT`` scrolling once, orange."""
    return Scrolling(_(_LEFT_WORDS[QUIT]).format(name=outside_name(name)), palette.warning, palette.background)


def frames(steps: Sequence[Step]) -> List[Picture]:
    return [frame for frame, _ in steps]


# -- words ----------------------------------------------------------------------------------------

def _status(screen: str, text: str, caption: Optional[str] = None, **details: object) -> Status:
    return Status(PHASE, text, caption, {"screen": screen, **details})


def offering_words(name: str, game: str) -> Status:
    return _status(OFFERING, _("{name} offers {game} on the LAN: waiting for a guest (up: leave)").format(name=name, game=game),
                   _("waiting for a guest ({up} leaves)").format(up=UP), name=name, game=game)


def request_words(name: str, address: str) -> Status:
    return _status(REQUEST, _("{name} at {address} asks to play: middle accepts, up refuses").format(name=name, address=address),
                   _("{name} at {address} asks ({enter}: yes, {up}: no)").format(name=name, address=address, enter=ENTER, up=UP),
                   name=name, address=address)


def searching_words() -> Status:
    return _status(SEARCHING, _("looking for games on the LAN (up: leave)"), _("looking for games ({up} leaves)").format(up=UP))


def found_words(names: Sequence[str], index: int) -> Status:
    name = names[index]
    return _status(FOUND, _("a game on the LAN: {name} ({number} of {count}; middle asks to play, "
                             "left/right: browse, up: leave)").format(name=name, number=index + 1, count=len(names)),
                   _("{name} ({enter} asks, {left_right} browse)").format(name=name, enter=ENTER, left_right=LEFT_RIGHT),
                   name=name, choice=name, choices=list(names), number=index + 1, count=len(names))


def asking_words(name: str) -> Status:
    return _status(ASKING, _("asking {name}: waiting for the answer at {name}'s Pi (up: give up)").format(name=name),
                   _("asking {name}... ({up} gives up)").format(name=name, up=UP), name=name)


def refused_words(name: str, why: str) -> Status:
    return _status(REFUSED_SCREEN, _("{name}: {why}").format(name=name, why=why), _("refused: {why}").format(why=why),
                   name=name, reason=why)


def away_words(name: str, seconds: float) -> Status:
    return _status(AWAY, _("the link to {name} dropped: waiting for it to come back "
                           "(the match is abandoned after {seconds} s; up: abandon now)").format(name=name, seconds=f"{seconds:g}"),
                   _("link to {name} dropped: waiting ({up} abandons)").format(name=name, up=UP), name=name, seconds=seconds)


def left_words(name: str, why: str) -> Status:
    """The other side is no longer there: ``why`` is :data:`QUIT` or :data:`GONE` (kept as the ``reason``)."""
    text = _(_LEFT_WORDS[why]).format(name=name) if why in _LEFT_WORDS else f"{name} {why}"
    return _status(LEFT, text, text, name=name, reason=why)
