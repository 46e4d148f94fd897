"""The screen part (``gamelib/backends/screen.py``) on its own, over a device that records what it is
given: rotation, low light, the cover an interlude puts over the game, the words held by a pause, the
words a device shows, the observers."""
import pytest

from gamelib.backends.events import Observer
from gamelib.backends.screen import Screen
from gamelib.colours import BLACK, BLUE, RED
from gamelib.errors import ConfigError
from gamelib.status import Status


class Leds:
    """A device's LEDs that dim and show words: what it was given, in order."""

    def __init__(self):
        self.written, self.told = [], []

    def write(self, pixels):
        self.written.append(tuple(pixels))

    def set_low_light(self, value):
        self.told.append(("low light", value))

    def said(self, status):
        self.told.append(("said", status.text))

    def noted(self, text):
        self.told.append(("noted", text))

    def notice(self, text):
        self.told.append(("notice", text))


class Watching(Observer):
    def __init__(self):
        self.seen = []

    def shown(self, frame):
        self.seen.append(("shown", frame))

    def said(self, status):
        self.seen.append(("said", status.text))


def corner(colour=RED):
    frame = [BLACK] * 64
    frame[0] = colour                     # the picture's top left
    return frame


@pytest.mark.parametrize("rotation, index", [(0, 0), (90, 7), (180, 63), (270, 56)])
def test_the_picture_is_turned_on_the_leds_and_the_observers_see_it_unturned(rotation, index):
    leds, watching = Leds(), Watching()
    screen = Screen(leds, rotation=rotation)
    screen.observe(watching)
    screen.show(corner())
    assert leds.written[-1][index] == RED and leds.written[-1].count(RED) == 1
    assert watching.seen == [("shown", tuple(corner()))] and screen.frame == tuple(corner())


def test_a_rotation_that_is_not_a_quarter_turn_is_refused_in_one_line():
    with pytest.raises(ConfigError) as info:
        Screen(Leds(), rotation=45)
    assert str(info.value) == "rotation must be one of 0, 90, 180, 270 (not 45)"
    screen = Screen(Leds())
    with pytest.raises(ConfigError):
        screen.rotation = 90.0
    assert screen.rotation == 0


def test_under_a_cover_the_game_s_frames_are_kept_and_only_a_private_one_lets_the_observers_see_them():
    leds, watching = Leds(), Watching()
    screen = Screen(leds)
    screen.observe(watching)
    screen.cover = False                  # a PIN: the LEDs only
    screen.show(corner(RED))
    assert leds.written == [] and watching.seen == [("shown", tuple(corner(RED)))]
    screen.cover = True                   # a pause: the observers see it too
    screen.show(corner(BLUE))
    assert leds.written == [] and len(watching.seen) == 1 and screen.frame == tuple(corner(BLUE))


def test_words_held_by_a_pause_come_back_when_it_ends_and_a_device_that_shows_words_is_told():
    leds, watching = Leds(), Watching()
    screen = Screen(leds)
    screen.observe(watching)
    screen.say(Status("play", "red to play"))
    screen.hold_words(Status("wait", "waiting for the other Pi"))
    screen.say(Status("play", "yellow to play"))          # kept
    screen.say(Status("play", "yellow to play"))
    screen.release_words()
    screen.notice("no Sense HAT found")
    assert watching.seen == [("said", "red to play"), ("said", "waiting for the other Pi"), ("said", "yellow to play")]
    assert leds.told == [("said", "red to play"), ("said", "waiting for the other Pi"), ("said", "yellow to play"),
                         ("notice", "no Sense HAT found")]


def test_low_light_goes_to_a_device_that_dims_and_is_kept_for_one_that_does_not():
    leds = Leds()
    screen = Screen(leds)
    screen.low_light = True
    screen.low_light = False
    assert leds.told == [("low light", True), ("low light", False)]

    class Plain:
        def write(self, pixels):
            pass

    plain = Screen(Plain())
    plain.low_light = True
    plain.notice("nowhere to show it")                     # no words on this device: nothing
    assert plain.low_light is True


def test_an_observer_that_fails_is_dropped_and_the_others_still_see(caplog):
    class Broken(Observer):
        def shown(self, frame):
            raise RuntimeError("mirror broke")

    screen, watching = Screen(Leds()), Watching()
    screen.observe(Broken())
    stop = screen.observe(watching)
    screen.show(corner())
    screen.show(corner(BLUE))
    stop()
    screen.clear()
    assert [frame[0] for _, frame in watching.seen] == [RED, BLUE]
    assert caplog.text.count("an observer of the LEDs failed and was dropped") == 1
