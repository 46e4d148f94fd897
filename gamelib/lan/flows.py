"""The LED flows around a game over the LAN, each a loop over the backend's events (the game's thread).

- :func:`wait_for_guest` (the host): the waves until someone asks, then their name, their
  address and ``?`` scrolling: middle (or down) at the host's stick accepts, up refuses; up
  while nobody asks leaves.  Only the backend's own stick answers: nothing is accepted without a press
  at the host.
- :func:`choose_game` (the guest): the games the browser finds, each name scrolling;
  left/right browse, middle (or down) asks, up leaves.
- :func:`visit` (the guest): the hourglass while the host's player decides, then the host's
  frames and words on this Pi's LEDs (in its own rotation and brightness: frames are
  pictures as the players see them, and the backend turns and dims them), this stick's
  presses to the host; the dropped-link screen while the link is down; the red cross
  when refused; who left, scrolling, at the end.

Animations step on deadlines of the backend's clock (the mock's fake one in tests); waiting
costs no CPU: other threads wake the wait (:meth:`~gamelib.backends.stick.Stick.wake`).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, List, Optional, Sequence

from ..backends.base import STICK, Action, Backend, Direction
from ..i18n import _
from ..status import Status
from ..stepper import Stepper
from . import guest as g
from . import protocol as p
from . import screens
from .discovery import Browser, Found
from .host import Asking, LanHost, Session

log = logging.getLogger("gamelib.lan")

CHOOSE = (Direction.MIDDLE, Direction.DOWN)


class Animator:
    """Shows a list of steps over and over (or once) on a backend, one step per deadline."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.steps: Sequence[screens.Step] = ()
        self.index = 0
        self.due: Optional[float] = None
        self.once = False

    def play(self, steps: Sequence[screens.Step], *, once: bool = False) -> None:
        self.steps, self.index, self.once = steps, 0, once
        self._show()

    def stop(self) -> None:
        self.steps, self.due = (), None

    def _show(self) -> None:
        frame, seconds = self.steps[self.index]
        self.backend.screen.show(frame)
        self.due = self.backend.now() + seconds

    def timeout(self) -> Optional[float]:
        """Until the next step (``None``: nothing to step); steps what is due."""
        while self.due is not None and self.backend.now() >= self.due:
            self.index += 1
            if self.index >= len(self.steps):
                if self.once:
                    self.due = None
                    return None
                self.index = 0
            self._show()
        return None if self.due is None else max(0.0, self.due - self.backend.now())

    @property
    def done(self) -> bool:
        return self.once and self.due is None


def play_once(backend: Backend, steps: Sequence[screens.Step], status: Optional[Status] = None) -> None:
    """Show ``steps`` once (a press at the stick cuts it short; nothing else happens meanwhile)."""
    if status is not None:
        backend.screen.say(status)
    animator = Animator(backend)
    animator.play(steps, once=True)
    while True:
        timeout = animator.timeout()
        if timeout is None:
            return
        event = backend.stick.wait_event(timeout)
        if event is not None and event.source == STICK and event.action is Action.PRESSED:
            return


def wait_for_guest(backend: Backend, host: LanHost, game: str) -> Optional[Session]:
    """The host's lobby (see the module's docstring): the accepted guest's session, or ``None`` (up)."""
    animator = Animator(backend)
    showing: Optional[Asking] = None
    answered: List[Asking] = []
    host.offer(True)

    def show(asking: Optional[Asking]) -> None:
        nonlocal showing
        showing = asking
        if asking is None:
            backend.screen.say(screens.offering_words(host.name, game))
            animator.play(screens.offering(backend.palette))
        else:
            backend.screen.say(screens.request_words(asking.name, asking.address))
            animator.play(screens.request(asking.name, asking.address, backend.palette))

    show(None)
    while True:
        asking = host.pending()
        if asking is not None and (asking in answered or asking.withdrawn):
            asking = None
        if asking is not showing:
            show(asking)
        event = backend.stick.wait_event(animator.timeout())
        if event is None or event.source != STICK or event.action is not Action.PRESSED:
            continue
        if showing is not None:
            if event.direction in CHOOSE:
                return host.accept(showing)
            if event.direction is Direction.UP:
                host.refuse(showing)
                answered.append(showing)
                answered[:] = answered[-8:]
        elif event.direction is Direction.UP:
            host.offer(False)
            backend.screen.clear()
            return None


def choose_game(backend: Backend, browser: Browser) -> Optional[Found]:
    """The guest's list (see the module's docstring): the game chosen, or ``None`` (up)."""
    animator = Animator(backend)
    stepper = Stepper()
    shown: Optional[List[Found]] = None
    index = 0
    while True:
        found = browser.found()
        if found != shown:
            current = shown[index].instance if shown else None
            names = [f.instance for f in found]
            index = names.index(current) if current in names else 0
            shown = found
            _show_found(backend, animator, found, index)
        event = backend.stick.wait_event(animator.timeout())
        if event is None or event.source != STICK:
            continue
        step = stepper.step(event)
        if step and found:
            index = (index + step) % len(found)
            _show_found(backend, animator, found, index)
        elif event.action is Action.PRESSED and event.direction in CHOOSE and found:
            backend.screen.clear()
            return found[index]
        elif event.action is Action.PRESSED and event.direction is Direction.UP:
            backend.screen.clear()
            return None


def _show_found(backend: Backend, animator: Animator, found: Sequence[Found], index: int) -> None:
    if not found:
        backend.screen.say(screens.searching_words())
        animator.play(screens.searching(backend.palette))
    else:
        backend.screen.say(screens.found_words([f.name for f in found], index))
        animator.play(screens.found(found[index].name, index, len(found), backend.palette))


class Visiting(Enum):
    """Where a guest's visit stands (:func:`visit`): the host is asking its player, the game is on, or the link
    dropped and the guest waits for it to come back."""

    ASKING = "asking"
    PLAYING = "playing"
    AWAY = "away"


class Outcome(str, Enum):
    """How a visit ended (a str: its value is its word in logs)."""

    LEFT = "left"
    """Up here: the guest left."""
    REFUSED = "refused"
    """The host refused (``reason``: one of the protocol's :data:`~.protocol.REFUSALS`)."""
    ENDED = "ended"
    """The session is over (``reason``: one of the protocol's :data:`~.protocol.ENDINGS`)."""
    GAVE_UP = "gave_up"
    """The link stayed down."""
    FAILED = "failed"
    """The host could not be reached, speaks another version, or broke the protocol."""


@dataclass(frozen=True)
class Visit:
    """How a visit ended (:class:`Outcome`; ``reason``, the host's word for it) and a line for people."""

    outcome: Outcome
    message: str
    reason: Optional[str] = None
    played: bool = False
    """True if the host took this guest (frames came)."""


def visit(backend: Backend, link: "g.GuestLink", host_label: str,
          on_game: Callable[[Any], None] = lambda data: None,
          words: Callable[[Status], Status] = lambda status: status) -> Visit:
    """The guest at the host (see the module's docstring), until the session is over.  ``words``
    turns the host's words into the guest's (a game's caption says whose turn it is from the host's
    side: the guest's own turn is the other Pi's there)."""
    animator = Animator(backend)
    state = Visiting.ASKING
    played = False
    host = p.outside_name(host_label)
    backend.screen.say(screens.asking_words(host))
    animator.play(screens.asking(backend.palette))
    while True:
        for got in link.take():
            if isinstance(got, g.Asking):
                if state is not Visiting.ASKING:
                    state = Visiting.ASKING
                    backend.screen.say(screens.asking_words(host))
                    animator.play(screens.asking(backend.palette))
            elif isinstance(got, g.Welcome):
                host = link.host_name or host
                state, played = Visiting.PLAYING, True
                animator.stop()
            elif isinstance(got, g.Shown):
                if state is Visiting.PLAYING:
                    backend.screen.show(got.pixels)
            elif isinstance(got, g.Said):
                if state is Visiting.PLAYING and got.status is not None:
                    backend.screen.say(words(Status.from_json(got.status)))
            elif isinstance(got, g.GameMessage):
                on_game(got.data)
            elif isinstance(got, g.Dropped):
                if state is Visiting.PLAYING:
                    state = Visiting.AWAY
                    backend.screen.say(screens.away_words(host, link.limits.away_seconds))
                    animator.play(screens.away(backend.palette))
            elif isinstance(got, g.Refused):
                message = got.message[:200] or _("{name} said no").format(name=host)
                play_once(backend, [(screens.REFUSED(backend.palette), screens.REFUSED_SECONDS)],
                          screens.refused_words(host, message))
                backend.screen.clear()
                return Visit(Outcome.REFUSED, message, got.reason, played)
            elif isinstance(got, g.Ended):
                if got.reason == p.QUIT:
                    play_once(backend, screens.left(host, backend.palette), screens.left_words(host, screens.QUIT))
                backend.screen.clear()
                return Visit(Outcome.ENDED, got.message[:200], got.reason, played)
            elif isinstance(got, g.GaveUp):
                play_once(backend, screens.left(host, backend.palette), screens.left_words(host, screens.GONE))
                backend.screen.clear()
                return Visit(Outcome.GAVE_UP, _("{why}: the match with {name} is abandoned").format(why=got.why, name=host),
                             p.AWAY, played)
            else:
                backend.screen.clear()
                return Visit(Outcome.FAILED, got.why, None, played)
        event = backend.stick.wait_event(animator.timeout())
        if event is None:
            continue
        if state is Visiting.PLAYING:
            if event.source == STICK:
                link.press(event.direction.value, event.action.value)
        elif event.source == STICK and event.action is Action.PRESSED and event.direction is Direction.UP:
            link.bye()
            backend.screen.clear()
            return Visit(Outcome.LEFT, _("left {name}'s game").format(name=host), None, played)

