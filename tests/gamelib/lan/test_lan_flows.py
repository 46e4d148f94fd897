"""The LED flows around a game over the LAN as exact frames and words on the mock's fake clock
(``gamelib/lan/flows.py``, ``screens.py``), and the backend's pause (``Interludes.pause``, ``base.py``): the
host's lobby (the waves; a request's name scrolling; middle accepts, up refuses or leaves) with a real
:class:`~gamelib.lan.host.LanHost` and a real guest's socket; the guest's list, its visit (the hourglass,
the host's frames and words, the dropped link, the red cross, who left) with a scripted link."""
import time

import pytest
from frames import frame as drawn
from lan_client import LanClient, LIMITS

from gamelib import web
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, ORANGE
from gamelib.lan import flows, offering, screens
from gamelib.lan import guest as g
from gamelib.lan.discovery import Found
from gamelib.scroll import SPEED, scroll_frames
from gamelib.status import Status
from gamelib.web.address import Address
from gamelib.palette import palette as default_palette

BLACK_FRAME = (BLACK,) * 64


def shown(mock):
    return [frame for _, frame in mock.frames]


def timed(mock):
    return [(round(when, 3), frame) for when, frame in mock.frames]


def captions(mock):
    return [status.caption for _, status in mock.statuses]


# -- the host's lobby ----------------------------------------------------------------------------------

@pytest.fixture
def lobby():
    mock = MockBackend()
    with web.serving(mock, Address("127.0.0.1", 0), limits=LIMITS) as server, \
            offering(mock, "Bob", "connect4", advertise=False) as lan:
        yield mock, server.port, lan


def ask(port, lan, name="Ann"):
    client = LanClient(port, ping=True)
    client.hello(name)
    assert client.recv()["type"] == "asking"
    deadline = time.monotonic() + 5
    while lan.pending() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return client


def test_the_lobby_shows_the_waves_and_up_leaves(lobby):
    mock, port, lan = lobby
    mock.tap("up", at=1.0)
    assert flows.wait_for_guest(mock, lan, "Connect 4") is None
    waves = screens.frames(screens.offering(default_palette()))
    assert timed(mock) == [(0.0, waves[0]), (0.4, waves[1]), (0.8, waves[2]), (1.0, BLACK_FRAME)]
    assert mock.statuses[0][1] == screens.offering_words("Bob", "Connect 4") == Status(
        "lan", "Bob offers Connect 4 on the LAN: waiting for a guest (up: leave)", "waiting for a guest (↑ leaves)",
        {"screen": "offering", "name": "Bob", "game": "Connect 4"})
    assert not lan.offered


def test_a_request_scrolls_its_name_and_middle_accepts(lobby):
    mock, port, lan = lobby
    lan.offer(True)
    client = ask(port, lan)
    steps = screens.request("Ann", "127.0.0.1", default_palette())
    mock.tap("middle", at=len(steps) * SPEED + 0.5 * SPEED)         # during its second pass
    session = flows.wait_for_guest(mock, lan, "Connect 4")
    assert session.name == "Ann" and session.seat == 2 and session.source == "lan:1"
    frames = [frame for frame, _ in steps]
    waves = screens.frames(screens.offering(default_palette()))
    assert shown(mock) == waves[:1] + frames + frames[:1]             # ANN 127.0.0.1? scrolls over and over
    assert [t for t, _ in timed(mock)][:4] == [0.0, 0.0, SPEED, round(2 * SPEED, 3)]
    assert mock.screen.status == screens.request_words("Ann", "127.0.0.1")
    assert mock.screen.status.caption == "Ann at 127.0.0.1 asks (Enter: yes, ↑: no)"
    assert client.until("welcome")["token"] == session.token


def test_up_refuses_a_request_and_the_waves_come_back(lobby):
    mock, port, lan = lobby
    lan.offer(True)
    client = ask(port, lan)
    mock.tap("up", at=0.5)                                            # no
    mock.tap("up", at=50.0)                                           # then leave
    assert flows.wait_for_guest(mock, lan, "Connect 4") is None
    assert client.closed()[-1] == {"type": "refused", "reason": "refused", "message": "Bob said no"}
    frames = shown(mock)
    waves = screens.frames(screens.offering(default_palette()))
    assert frames[:8] == waves[:1] + screens.frames(screens.request("Ann", "127.0.0.1", default_palette()))[:7]   # 0 ... 0.48 s
    assert waves[0] in frames[8:] and frames[-1] == BLACK_FRAME
    assert captions(mock)[:3] == ["waiting for a guest (↑ leaves)", "Ann at 127.0.0.1 asks (Enter: yes, ↑: no)",
                                  "waiting for a guest (↑ leaves)"]


def test_only_the_stick_at_the_host_answers(lobby):
    mock, port, lan = lobby
    lan.offer(True)
    ask(port, lan)
    mock.tap("middle", at=0.2, source="lan:1")                       # not the host's stick: nothing
    mock.tap("middle", at=0.2, source="phone:1")
    mock.tap("middle", at=1.0)
    session = flows.wait_for_guest(mock, lan, "Connect 4")
    assert mock.now() == pytest.approx(1.0) and session.name == "Ann"


# -- the guest's list ------------------------------------------------------------------------------------

class Games:
    """The browser's side as the list reads it (the real one is tested in network namespaces)."""

    def __init__(self, *found):
        self.list = list(found)

    def found(self):
        return list(self.list)


BOB = Found("Bob", "10.0.0.2", 8080, "Bob on pi")
CY = Found("Cy", "10.0.0.3", 8080, "Cy on pi2")


def test_the_list_scrolls_each_game_left_right_browse_and_middle_asks():
    mock = MockBackend()
    mock.tap("right", at=0.3)
    mock.tap("middle", at=0.5)
    assert flows.choose_game(mock, Games(BOB, CY)) == CY
    bob, cy = screens.frames(screens.found("Bob", 0, 2, default_palette())), screens.frames(screens.found("Cy", 1, 2, default_palette()))
    assert shown(mock) == bob[:4] + cy[:3] + [BLACK_FRAME]            # 0 ... 0.24, then Cy from 0.3
    assert bob[0][0] == (255, 255, 255) and cy[0][1] == (255, 255, 255)   # the place dots
    assert captions(mock) == ["Bob (Enter asks, ←/→ browse)", "Cy (Enter asks, ←/→ browse)"]
    assert mock.statuses[1][1].details == {"screen": "found", "name": "Cy", "choice": "Cy", "choices": ["Bob", "Cy"],
                                           "number": 2, "count": 2}


def test_nothing_found_shows_the_green_waves_and_up_leaves():
    mock = MockBackend()
    mock.tap("middle", at=0.5)                                        # nothing to ask: nothing happens
    mock.tap("up", at=1.0)
    assert flows.choose_game(mock, Games()) is None
    waves = screens.frames(screens.searching(default_palette()))
    assert shown(mock) == [waves[0], waves[1], waves[2], BLACK_FRAME]
    assert captions(mock) == ["looking for games (↑ leaves)"]


# -- the guest's visit -------------------------------------------------------------------------------------

class Link:
    """A scripted link: events handed out at set times of the mock's clock; presses and byes recorded."""

    limits = LIMITS

    def __init__(self, mock, script, host_name="Bob"):
        self.mock, self.script, self.host_name = mock, sorted(script, key=lambda item: item[0]), host_name
        self.presses, self.left = [], False
        self.seat = 2

    def take(self):
        now = self.mock.now()
        due = [event for when, event in self.script if when <= now + 1e-9]
        self.script = [(when, event) for when, event in self.script if when > now + 1e-9]
        if self.script:   # the next one wakes the wait, as the real link's notify does
            self.mock.wait_until(self.script[0][0])
            self.mock.event("middle", "released", at=self.script[0][0], source="wake")
        return due

    def press(self, direction, action="pressed"):
        self.presses.append((direction, action))

    def bye(self):
        self.left = True


FRAME = tuple([(1, 2, 3)] * 64)


def test_a_visit_asks_plays_the_hosts_frames_and_words_sends_presses_and_shows_who_left():
    mock = MockBackend(rotation=90)
    status = {"phase": "playing", "text": "round 1", "caption": None, "turn": 2}
    link = Link(mock, [(0.0, g.Asking()), (1.2, g.Welcome()), (1.3, g.Shown(FRAME)),
                       (1.3, g.Said(status)), (3.0, g.Dropped("gone")),
                       (4.0, g.Welcome(resumed=True)), (4.1, g.Shown(FRAME)),
                       (6.0, g.Ended("quit", "Bob quit"))])
    mock.tap("left", at=2.0)                                          # the guest's stick, turned a quarter
    visit = flows.visit(mock, link, "Bob")
    assert visit == flows.Visit(flows.Outcome.ENDED, "Bob quit", "quit", True)
    assert link.presses == [("down", "pressed"), ("down", "released")]   # physical left on a Pi turned 90: down
    hourglass, away = screens.frames(screens.asking(default_palette())), screens.frames(screens.away(default_palette()))
    pictures = mock_pictures(mock)
    assert pictures[:3] == [hourglass[0], hourglass[1], hourglass[0]]   # 0, 0.5, 1.0
    assert FRAME in pictures and away[0] in pictures and away[1] in pictures
    assert pictures[-1] == BLACK_FRAME
    assert [s.details.get("screen") or s.phase for _, s in mock.statuses] == [
        "asking", "playing", "away", "left"]
    assert mock.statuses[1][1] == Status("playing", "round 1", None, turn=2)


def mock_pictures(mock):
    """The frames as the players see them (the mock records them turned)."""
    from gamelib.backends.screen import pixel_map
    table = pixel_map(mock.screen.rotation)
    return [tuple(frame[table[i]] for i in range(64)) for _, frame in mock.frames]


def test_a_refusal_shows_the_red_cross_for_two_seconds():
    mock = MockBackend()
    link = Link(mock, [(0.2, g.Refused("refused", "Bob said no"))])
    assert flows.visit(mock, link, "Bob") == flows.Visit(flows.Outcome.REFUSED, "Bob said no", "refused", False)
    hourglass = screens.frames(screens.asking(default_palette()))
    assert timed(mock) == [(0.0, hourglass[0]), (0.2, screens.REFUSED(default_palette())), (2.2, BLACK_FRAME)]
    assert captions(mock) == ["asking Bob... (↑ gives up)", "refused: Bob said no"]


def test_a_host_name_the_font_lacks_scrolls_cut_to_12_with_a_box_and_a_press_cuts_it_short():
    mock = MockBackend()
    label = "my_pi" + "x" * 15000                                    # what --join HOST or an advertisement named
    link = Link(mock, [(0.2, g.Ended("quit", "gone"))])
    mock.tap("up", at=1.04)                                           # the stick, during the scroll
    assert flows.visit(mock, link, label) == flows.Visit(flows.Outcome.ENDED, "gone", "quit", False)
    left = screens.left(label, default_palette())
    assert [f for f, _ in left] == [tuple(f) for f, _ in scroll_frames("my_pixxxxxxx left", ORANGE, (0, 0, 0))]
    hourglass = screens.frames(screens.asking(default_palette()))
    assert timed(mock) == [(0.0, hourglass[0])] + [(round(0.2 + i * SPEED, 3), left[i][0]) for i in range(11)] + [
        (1.04, BLACK_FRAME)]
    assert left[14][0] == tuple(drawn("""
        ........
        ........
        .O.....O
        .O.OOO.O
        O..O.O.O
        O..OOO.O
        O......O
        ........"""))                                                 # the end of "y", "_" as a box, "p"
    assert captions(mock) == ["asking my_pixxxxxxx... (↑ gives up)", "my_pixxxxxxx left"]


def test_up_while_asking_gives_up_and_says_bye():
    mock = MockBackend()
    link = Link(mock, [(0.0, g.Asking())])
    mock.tap("up", at=0.7)
    assert flows.visit(mock, link, "Bob").outcome is flows.Outcome.LEFT and link.left


# -- the backend's pause ---------------------------------------------------------------------------------

def test_a_pause_shows_its_frames_over_the_game_which_goes_on_underneath():
    mock = MockBackend()
    watched = []
    mock.screen.observe(type("W", (), {"shown": lambda self, f: watched.append(f), "said": lambda self, s: None})())
    game = tuple([(0, 0, 255)] * 64)
    mock.screen.show(game)
    mock.screen.say(Status("playing", "the game"))
    pressed = []
    steps = screens.away(default_palette())
    pause = mock.interludes.pause(steps, pressed=pressed.append, status=screens.away_words("Ann", 90))
    mock.tap("left", at=0.2)
    mock.tap("up", at=0.7)
    mock.tap("right", at=0.8, source="lan:1")                         # another source's: nothing
    while mock.now() < 1.2:
        assert mock.stick.wait_event(1.2 - mock.now()) is None and mock.interludes.paused
    mock.screen.show(tuple([(9, 9, 9)] * 64))                                 # the game's frame, kept
    mock.screen.say(Status("playing", "the game again"))                     # its words, kept
    assert [e.direction.value for e in pressed] == ["left", "up"]
    mock.interludes.unpause(pause)
    assert mock.stick.wait_event(0) is None and not mock.interludes.paused
    assert shown(mock) == [game, steps[0][0], steps[1][0], steps[0][0], tuple([(9, 9, 9)] * 64)]
    assert watched == shown(mock)                                     # observers see the pause too
    assert [s.text for _, s in mock.statuses] == ["the game", screens.away_words("Ann", 90).text, "the game again"]
