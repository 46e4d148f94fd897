"""The stick part (``gamelib/backends/stick.py``) on its own, over a device whose stick is a pipe: turned
as the screen is (one rotation), other threads' events through the inbox, the events thrown away, and
what a device with a key of its own (the terminal's) is told."""
import os

import pytest

from gamelib.backends.device import Clock
from gamelib.backends.events import STICK, Action, Direction
from gamelib.backends.inbox import Inbox
from gamelib.backends.interlude import Interludes
from gamelib.backends.screen import Screen
from gamelib.backends.stick import Stick

KEYS = {b"u": Direction.UP, b"d": Direction.DOWN, b"l": Direction.LEFT, b"r": Direction.RIGHT, b"m": Direction.MIDDLE}


class PipeStick:
    """The least device with a key of its own: its stick a pipe (one byte a press), told what a terminal is."""

    def __init__(self):
        self.stick, self.presses = os.pipe()
        self.told = []

    def write(self, pixels):
        pass

    def waitables(self):
        return [self.stick]

    def read(self, ready, now):
        from gamelib.backends.events import StickEvent
        if self.stick in ready:
            return StickEvent(now, KEYS[os.read(self.stick, 1)], Action.PRESSED)
        return None

    def due(self, now):
        return None

    def pairing_watched(self, watched):
        self.told.append(("pairing watched", watched))

    def settle(self):
        self.told.append(("settled",))

    def close(self):
        os.close(self.stick)
        os.close(self.presses)


@pytest.fixture
def parts():
    device, clock, inbox = PipeStick(), Clock(), Inbox()
    screen = Screen(device)
    stick = Stick(device, screen, Interludes(device, screen, clock, inbox.wake), inbox, clock)
    yield device, screen, stick
    inbox.close()
    device.close()


def test_the_stick_turns_with_the_screen_s_rotation_as_it_changes(parts):
    device, screen, stick = parts
    os.write(device.presses, b"u")
    assert stick.wait_event(1.0).direction is Direction.UP
    screen.rotation = 90                             # one fact: the picture and the stick turn together
    os.write(device.presses, b"u")
    event = stick.wait_event(1.0)
    assert (event.direction, event.action, event.source) == (Direction.LEFT, Action.PRESSED, STICK)


def test_injected_events_come_first_unturned_and_a_wake_up_ends_the_wait_with_none(parts):
    device, screen, stick = parts
    screen.rotation = 180
    os.write(device.presses, b"l")
    assert stick.inject("up", source="phone")
    event = stick.wait_event(1.0)
    assert (event.direction, event.source) == (Direction.UP, "phone")
    assert stick.wait_event(1.0).direction is Direction.RIGHT
    stick.wake()
    assert stick.wait_event() is None                # no timeout: the wake-up ends it


def test_thrown_away_events_are_counted_and_a_device_that_makes_its_own_settles(parts):
    device, screen, stick = parts
    os.write(device.presses, b"lrm")
    stick.inject("down", source="phone")
    assert stick.discard_events() == 4
    assert stick.wait_event(0.01) is None and device.told == [("settled",)]


def test_a_device_with_a_pairing_key_is_told_while_anyone_listens(parts):
    device, screen, stick = parts
    heard = []
    stop = stick.watch_pairing(lambda: heard.append("pair"))
    assert stick.pairing_watched
    stick.pair()
    stop()
    stick.pair()
    assert heard == ["pair"] and not stick.pairing_watched
    assert device.told == [("pairing watched", True), ("pairing watched", False)]
