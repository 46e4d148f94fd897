"""The interludes part (``gamelib/backends/interlude.py``) on its own: what other threads ask of the LEDs,
carried out around each wait of the game's thread, over a screen that records, on a clock the test moves."""
from gamelib.backends.events import STICK, Action, Direction, Observer, StickEvent
from gamelib.backends.interlude import IDLE, Interludes
from gamelib.backends.screen import Screen
from gamelib.colours import BLACK, BLUE, GREEN, RED
from gamelib.status import Status


class Leds:
    def __init__(self):
        self.written, self.notes = [], []

    def write(self, pixels):
        self.written.append(pixels[0])

    def noted(self, text):
        self.notes.append(text)

    def notice(self, text):
        pass


class Ticking:
    """A clock the test moves."""

    def __init__(self):
        self.time = 0.0

    def now(self):
        return self.time


class Watching(Observer):
    def __init__(self):
        self.seen = []

    def shown(self, frame):
        self.seen.append(frame[0])

    def said(self, status):
        self.seen.append(status.text)


def filled(colour):
    return [colour] * 64


def setup():
    leds, clock, woken, watching = Leds(), Ticking(), [], Watching()
    screen = Screen(leds)
    screen.observe(watching)
    interludes = Interludes(leds, screen, clock, lambda: woken.append(True))
    return leds, clock, woken, watching, screen, interludes


def test_a_private_interlude_plays_at_a_wait_for_a_person_then_gives_the_game_back():
    leds, clock, woken, watching, screen, interludes = setup()
    screen.show(filled(RED))
    interludes.interlude([(filled(GREEN), 1.0), (filled(BLUE), 1.0)])
    assert woken == [True] and not interludes.interluding
    assert interludes.before_wait(0.1) == 0.1                  # a falling token: not a moment for it
    assert interludes.before_wait(IDLE) == IDLE and interludes.interluding   # the wait ends at its own limit
    screen.show(filled(BLACK))                                  # the game goes on underneath
    clock.time = 1.0
    interludes.after_wait(None)
    clock.time = 2.0
    interludes.after_wait(None)
    assert not interludes.interluding
    assert leds.written == [RED, GREEN, BLUE, BLACK]
    assert watching.seen == [RED, BLACK]                        # the observers never saw the PIN


def test_a_press_at_the_stick_ends_an_interlude_and_is_the_game_s():
    leds, clock, woken, watching, screen, interludes = setup()
    interludes.interlude([(filled(GREEN), 5.0)], mirrored=True)
    interludes.before_wait(None)
    press = StickEvent(0.5, Direction.MIDDLE, Action.PRESSED, STICK)
    interludes.after_wait(press)
    assert not interludes.interluding and not interludes.holds(press)
    assert watching.seen == [GREEN, BLACK]                      # a public one: seen, then the game again


def test_a_pause_holds_the_events_and_the_words_until_unpaused_and_notes_still_pass():
    leds, clock, woken, watching, screen, interludes = setup()
    screen.say(Status("play", "red to play"))
    pressed = []
    held = interludes.pause([(filled(BLUE), 1.0)], pressed=pressed.append, status=Status("wait", "waiting"))
    interludes.note("web: http://pi:8080/")
    assert interludes.before_wait(None) == 1.0 and interludes.paused
    screen.say(Status("play", "yellow to play"))
    press = StickEvent(0.2, Direction.LEFT, Action.PRESSED, STICK)
    assert interludes.holds(press) and pressed == [press]
    assert interludes.holds(StickEvent(0.3, Direction.LEFT, Action.PRESSED, "phone")) and len(pressed) == 1
    interludes.unpause(held)
    interludes.before_wait(None)
    assert not interludes.paused and leds.notes == ["web: http://pi:8080/"] and interludes.noted == leds.notes[0]
    assert watching.seen == ["red to play", "waiting", BLUE, BLACK, "yellow to play"]
    assert interludes.shows_notes
