"""The one loop of the screens and their key tables (``gamelib/keys.py``), on the mock's fake clock."""
from __future__ import annotations

from typing import List, Optional, Tuple

import pytest

from gamelib.animation import Animation
from gamelib.backends.base import STICK, Action, Direction, StickEvent
from gamelib.backends.mock import MockBackend
from gamelib.errors import MockExhausted
from gamelib.keys import Animated, Key, Screen, bind, run

WHITE, RED = (255, 255, 255), (255, 0, 0)


class Counter(Screen):
    """Left/right count (pressed or held), middle ends; a deadline every second ticks."""

    def __init__(self, backend: MockBackend, *, tick: Optional[float] = None, own_stick_only: bool = False) -> None:
        self.backend = backend
        self.count = 0
        self.log: List[Tuple[float, str]] = []
        self.tick = tick
        self.next = None if tick is None else backend.now() + tick
        self.own = own_stick_only

    def left(self, event: StickEvent) -> None:
        self.count -= 1
        self.log.append((event.timestamp, "left"))

    def right(self, event: StickEvent) -> None:
        self.count += 1
        self.log.append((event.timestamp, "right"))

    def end(self, event: StickEvent) -> None:
        self.done = True

    KEYS = {**bind(left, (Direction.LEFT, Action.PRESSED), (Direction.LEFT, Action.HELD), help="less"),
            **bind(right, (Direction.RIGHT, Action.PRESSED), help="more"),
            (Direction.MIDDLE, Action.PRESSED): Key(end)}

    def deadline(self) -> Optional[float]:
        return self.next

    def due(self) -> None:
        now = self.backend.now()
        self.log.append((now, "tick"))
        assert self.tick is not None
        self.next = now + self.tick

    def heeds(self, event: StickEvent) -> bool:
        return not self.own or event.source == STICK


def test_a_key_calls_its_method_and_middle_ends():
    mock = MockBackend()
    mock.tap("right", "right", "left")
    mock.tap("middle")
    screen = Counter(mock)
    run(mock, screen)
    assert screen.count == 1 and screen.done
    assert screen.log == [(0.2, "right"), (0.4, "right"), (pytest.approx(0.6), "left")]
    assert mock.pending == 1                      # middle's release stays unread: it ended at the press


def test_an_unbound_press_or_action_does_nothing():
    mock = MockBackend()
    mock.tap("up", "down")                        # no key at all
    mock.hold("right", 1.0)                       # right held: only its press is bound
    mock.tap("middle")
    screen = Counter(mock)
    run(mock, screen)
    assert screen.count == 1 and [what for _, what in screen.log] == ["right"]


def test_a_held_key_bound_to_held_repeats():
    mock = MockBackend()
    mock.hold("left", 0.4)                        # pressed, then held at 0.25 and 0.30, 0.35
    mock.tap("middle")
    screen = Counter(mock)
    run(mock, screen)
    assert screen.count == -(1 + sum(1 for k in range(10) if 0.25 + 0.05 * k < 0.4))


def test_the_deadline_calls_due_between_events_and_it_ends_when_done():
    mock = MockBackend()
    mock.event("right", at=1.5)
    mock.event("middle", at=2.5)
    mock.event("right", at=3.0)                   # after the end: never read
    screen = Counter(mock, tick=1.0)
    run(mock, screen)
    assert screen.log == [(1.0, "tick"), (1.5, "right"), (2.0, "tick")]
    assert mock.now() == 2.5 and mock.pending == 1


def test_a_screen_done_before_it_runs_waits_for_nothing():
    mock = MockBackend()
    mock.tap("right")
    screen = Counter(mock)
    screen.done = True
    run(mock, screen)
    assert screen.count == 0 and mock.pending == 2 and mock.now() == 0.0


def test_events_not_heeded_are_dropped():
    mock = MockBackend()
    mock.tap("right", source="phone")
    mock.tap("left")
    mock.tap("middle", source="phone")           # not heeded: it does not end the screen
    mock.tap("middle")
    screen = Counter(mock, own_stick_only=True)
    run(mock, screen)
    assert [what for _, what in screen.log] == ["left"]


def test_with_nothing_due_and_no_event_it_would_wait_for_ever():
    mock = MockBackend()
    with pytest.raises(MockExhausted):            # the mock's way of saying: a real backend would block in select()
        run(mock, Counter(mock))


class Blinker(Animated):
    """Blinks white/red three times, then up ends; middle restarts the blink."""

    def __init__(self, backend: MockBackend) -> None:
        self.animation = Animation(backend)
        self.ended_at: Optional[float] = None
        self.backend = backend
        self.blink()

    def blink(self, event: Optional[StickEvent] = None) -> None:
        self.animation.play([([WHITE] * 64, 0.5), ([RED] * 64, 0.5)] * 3, self.over)

    def over(self) -> None:
        self.ended_at = self.backend.now()

    def leave(self, event: StickEvent) -> None:
        self.done = True

    KEYS = {(Direction.UP, Action.PRESSED): Key(leave), (Direction.MIDDLE, Action.PRESSED): Key(blink)}


def test_an_animated_screen_shows_each_frame_at_its_deadline():
    mock = MockBackend()
    mock.event("middle", at=1.2)                   # restarts the blink
    mock.event("up", at=10.0)
    screen = Blinker(mock)
    run(mock, screen)
    times = [t for t, _ in mock.frames]
    assert times == [0.0, 0.5, 1.0, 1.2, 1.7, 2.2, 2.7, 3.2, 3.7]
    assert [f[0] for _, f in mock.frames] == [WHITE, RED, WHITE] + [WHITE, RED] * 3
    assert screen.ended_at == pytest.approx(4.2) and mock.now() == 10.0


class TwoTables(Counter):
    """Middle switches to a second table in which left counts up by ten; up ends."""

    def switch(self, event: StickEvent) -> None:
        self.second = True

    def tens(self, event: StickEvent) -> None:
        self.count += 10

    second = False
    KEYS = {**Counter.KEYS, (Direction.MIDDLE, Action.PRESSED): Key(switch), (Direction.UP, Action.PRESSED): Key(Counter.end)}
    SECOND = {(Direction.LEFT, Action.PRESSED): Key(tens), (Direction.UP, Action.PRESSED): Key(Counter.end)}

    def keys(self):
        return self.SECOND if self.second else self.KEYS


def test_the_table_in_force_is_the_screens_keys():
    mock = MockBackend()
    mock.tap("left", "middle", "left", "right", "up")
    screen = TwoTables(mock)
    run(mock, screen)
    assert screen.count == 9 and screen.done                # -1, then +10; right is not in the second table
