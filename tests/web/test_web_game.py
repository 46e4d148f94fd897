"""The web view on the game: the interludes (``gamelib/backends/interlude.py`` and ``base.py``: the PIN and
a seat taken, exact frames on the mock's fake clock), notes, the seat table followed by Connect 4
(``players.follow``, ``game.play_matches``), ``gamelib/web/console.py``, a whole match played from two
phones through the API over real sockets, and a phone that closes its page on its turn
(``gamelib/web/presence.py``: on a fake clock, and on the real ``sense_emu`` over real sockets)."""
import logging
import threading
import time

import pytest
from emu_sandbox import FakeEmulator, lit
from web_client import Events, post

from gamelib import web
from gamelib.backends.base import Observer
from gamelib.backends.interlude import IDLE, MOST_DEFERRED, Interlude
from gamelib.backends.mock import MockBackend
from gamelib.backends.senselib import EmuBackend
from gamelib.colours import BLACK, BLUE, GREEN, RED, WHITE, YELLOW
from gamelib.scroll import SPEED, scroll_frames
from gamelib.seats import SeatTable
from gamelib.web.address import Address
from gamelib.web.console import PIN_TEXT, SEATED_TEXT, BackendConsole, phone_frames
from gamelib.web.limits import Limits
from gamelib.palette import palette as default_palette
from sensehat_c4.match import render
from sensehat_c4.match.controller import MatchOptions, MatchResult, Timing, play
from sensehat_c4.match.game import play_matches
from sensehat_c4.match.opponents import HUMAN
from sensehat_c4.match.players import Person, Player, Seats, follow
from sensehat_c4.rules import Board

T = Timing()
P = render.Palette()
PHONE = "phone:1"
BLACK_FRAME = (BLACK,) * 64
PIN = [tuple(f) for f, _ in scroll_frames(PIN_TEXT.format(pin="1234"), WHITE, (0, 0, 0))]


class Watch(Observer):
    """An observer recording what it is told (the web view's feed is one)."""

    def __init__(self, then=None, then_said=None) -> None:
        self.frames = []
        self.statuses = []
        self.then = then
        self.then_said = then_said

    def shown(self, frame):
        self.frames.append(frame)
        if self.then is not None:
            self.then(frame)

    def said(self, status):
        self.statuses.append(status)
        if self.then_said is not None:
            self.then_said(status)


def frames(mock):
    return [f for _, f in mock.frames]


def board(moves, cursor=None, palette=P):
    return tuple(render.board_frame(Board.from_moves(moves), palette, cursor=cursor))


def fall(moves):
    return [tuple(f) for f, _ in render.falling(Board.from_moves(moves), int(moves[-1]) - 1, P, T.fall_row)]


def confirm(moves, lit):
    return tuple(render.confirm_frame(Board.from_moves(moves), P, lit))


# -- the PIN on the LEDs ---------------------------------------------------------------------------

def test_the_pin_scrolls_at_the_first_wait_for_a_move_on_the_leds_only_then_the_board_comes_back():
    mock = MockBackend()
    watch = Watch()
    mock.screen.observe(watch)
    BackendConsole(mock).show_pin("1234")       # asked before the match: it plays at the first wait for a move
    mock.tap("right", at=10.0)
    mock.tap("up", "up", at=11.0)
    assert play(mock, MatchOptions()) == MatchResult(None, (0, 0), True, 1)
    assert frames(mock) == [board("", 3)] + PIN + [board("", 3), board("", 4), confirm("", True), BLACK_FRAME]
    times = [t for t, _ in mock.frames]
    assert times[1:len(PIN) + 2] == pytest.approx([k * SPEED for k in range(len(PIN) + 1)])   # 0.08 s a column
    assert watch.frames == [board("", 3), board("", 4), confirm("", True), BLACK_FRAME]     # never the PIN


def test_a_press_at_the_stick_ends_the_pin_and_is_not_lost():
    """No press at the Pi is spent ending a scroll someone on the network asked for: it ends the scroll
    and does what it does (here: the cursor moves at once)."""
    mock = MockBackend()
    console = BackendConsole(mock)
    console.show_pin("1234")
    mock.tap("right", at=1.0)                    # mid-scroll: ends it, and the cursor moves
    mock.tap("right", at=2.0)                    # and again
    mock.tap("up", "up", at=3.0)
    play(mock, MatchOptions())
    shown = int(1.0 / SPEED) + 1                 # frames at 0, 0.08 ... 0.96
    assert frames(mock) == [board("", 3)] + PIN[:shown] + [board("", 3), board("", 4), board("", 5),
                                                           confirm("", True), BLACK_FRAME]


def test_a_phone_pressing_during_the_pin_plays_on_underneath():
    mock = MockBackend()
    watch = Watch()
    mock.screen.observe(watch)
    BackendConsole(mock).show_pin("1234")
    mock.tap("right", at=1.0, source=PHONE)      # the phone's page shows the board, not the PIN: it plays on
    mock.tap("up", "up", at=10.0)
    play(mock, MatchOptions(), seats=Seats(Person(PHONE, kind="phone")))
    assert frames(mock) == [board("", 3)] + PIN + [board("", 4), confirm("", True), BLACK_FRAME]
    assert watch.frames == [board("", 3), board("", 4), confirm("", True), BLACK_FRAME]


def test_the_pin_waits_for_the_end_of_a_falling_token():
    mock = MockBackend()
    console = BackendConsole(mock)
    asked = []

    def ask(frame):                              # in the game's thread, as the token leaves the cursor row
        if not asked and frame == fall("4")[1]:
            asked.append(frame)
            console.show_pin("1234")
    mock.screen.observe(Watch(ask))
    mock.tap("down")
    mock.tap("up", "up", at=10.0)
    play(mock, MatchOptions())
    assert frames(mock) == ([board("", 3)] + fall("4") + [board("4", 3)] + PIN
                            + [board("4", 3), confirm("4", True), BLACK_FRAME])


class Silent(Player):
    """A player that never finds its move (the computer thinking for ever)."""

    kind = "computer"


def test_the_pin_waits_at_most_five_seconds_for_a_quiet_moment():
    mock = MockBackend()
    BackendConsole(mock).show_pin("1234")
    mock.tap("up", "up", at=20.0)
    play(mock, MatchOptions(), seats=Seats(Silent()))
    shown = frames(mock)
    first = shown.index(PIN[0])
    assert all(f == tuple(render.thinking_frame(Board(), P, k)) for k, f in enumerate(shown[:first]))
    assert mock.frames[first][0] == pytest.approx(MOST_DEFERRED, abs=T.think_tick + 1e-9)
    assert shown[first:first + len(PIN)] == PIN
    assert shown[-2:] == [confirm("", True), BLACK_FRAME]


def test_when_an_interlude_may_start():
    interlude = Interlude([(BLACK_FRAME, 0.1)])
    assert not interlude.ready(100.0, IDLE - 0.01)       # an animation's step: not yet
    assert interlude.ready(100.0, IDLE) and interlude.ready(100.0, None)
    assert not interlude.ready(104.9, 0.1) and interlude.ready(100.0 + MOST_DEFERRED, 0.1)


def test_a_first_interlude_cuts_short_the_one_playing_and_goes_ahead_of_those_waiting():
    mock = MockBackend()
    watch = Watch()
    mock.screen.observe(watch)
    game, a, b, c = ([(tuple([colour] * 64), 1.0)] * n for colour, n in ((RED, 1), (GREEN, 3), (BLUE, 1), (WHITE, 2)))
    mock.screen.show(game[0][0])
    mock.interludes.interlude(a, mirrored=True)              # a public one plays ...
    mock.interludes.interlude(b)                            # ... and a private one waits
    assert mock.stick.wait_event(0.6) is None and mock.interludes.interluding
    mock.interludes.interlude(c, first=True)                # the pairing PIN
    assert mock.stick.wait_event(0.1) is None          # a short wait (an animation's): it begins all the same
    while mock.interludes.interluding or mock.now() < 5.0:
        mock.stick.wait_event(1.0)
    assert [(t, f[0]) for t, f in mock.frames] == [(0.0, RED), (0.0, GREEN), (0.6, WHITE), (1.6, WHITE), (2.6, RED),
                                                   (2.6, BLUE), (3.6, RED)]
    assert [f[0] for f in watch.frames] == [RED, GREEN, RED]   # the page: the game again once the public one is cut


def test_the_pairing_pin_scrolls_in_two_groups_of_four_three_times_well_within_its_60_s():
    mock = MockBackend()
    watch = Watch()
    mock.screen.observe(watch)
    game = (RED,) * 64
    mock.screen.show(game)
    BackendConsole(mock).show_pairing("12345678")
    while mock.interludes.interluding or mock.now() < 20.0:
        mock.stick.wait_event(1.0)
    text = [tuple(f) for f, _ in scroll_frames("PIN 1234 5678  PIN 1234 5678  PIN 1234 5678", WHITE, (0, 0, 0))]
    assert [f for _, f in mock.frames] == [game] + text + [game]
    assert [t for t, _ in mock.frames] == pytest.approx([0.0] + [k * SPEED for k in range(len(text) + 1)])
    assert len(text) == 182 and len(text) * SPEED == pytest.approx(14.56)    # 14.6 s: well within the PIN's 60 s
    assert Limits().pair_seconds == 60
    assert watch.frames == [game]                 # on the LEDs only: never on the page


def test_the_pairing_gesture_shows_its_pin_at_once_cutting_short_a_pin_scrolling_on_the_leds_only():
    """The stick's middle held for 3 s (scripted held events on the fake clock): its first press drops a token
    (seat 1, the stick's turn), a device's PIN begins to scroll (asked as the token lands), and at 3 s the
    pairing PIN replaces it on the LEDs, three times over; the page never shows either.  The owner's phone
    (127.0.0.5) is seated with it at the first try; it is then spent."""
    mock = MockBackend()
    console, asked = BackendConsole(mock), []

    def landed(frame):                           # in the game's thread, as the token lands
        if frame == board("4", 3) and not asked:
            asked.append(mock.now())
            console.show_pin("1234")
    watch = Watch(landed)
    mock.screen.observe(watch)
    pressed = mock.hold("middle", 3.5, at=1.0) - 3.5
    mock.tap("up", "up", at=30.0)
    with web.serving(mock, Address("127.0.0.1", 0)) as server:
        play(mock, MatchOptions())
        pin = server.seating.pairing
        assert pin is not None and len(pin) == 8 and pin.isdigit() and server.seating.pin == pin
        pair = [tuple(f) for f, _ in scroll_frames(f"PIN {pin[:4]} {pin[4:]}  " * 2 + f"PIN {pin[:4]} {pin[4:]}", WHITE, (0, 0, 0))]
        shown = frames(mock)
        start = [board("", 3)] + fall("4") + [board("4", 3)]
        cut = next(k for k, (t, _) in enumerate(mock.frames) if t >= pressed + 3.0 - 1e-9)
        assert shown[:len(start)] == start and 0 < cut - len(start) < len(PIN)
        assert shown[len(start):cut] == PIN[:cut - len(start)]       # the device's PIN, cut short ...
        assert mock.frames[cut][0] == pytest.approx(pressed + 3.0)   # ... at the held event 3 s after the press
        assert shown[cut:] == pair + [board("4", 3), confirm("4", True), BLACK_FRAME]
        assert [t for t, _ in list(mock.frames)[cut:cut + len(pair)]] == pytest.approx(
            [pressed + 3.0 + k * SPEED for k in range(len(pair))])
        assert watch.frames == [board("", 3)] + fall("4") + [board("4", 3), confirm("4", True), BLACK_FRAME]
        reply = post(server.port, "/api/seat", {"pin": pin, "seat": 2}, source="127.0.0.5")
        assert reply.status == 200 and reply.json()["seat"] == 2                 # the first try
        assert server.seating.pairing is None and server.seating.pin is None     # spent
        again = post(server.port, "/api/seat", {"pin": pin, "seat": 1}, source="127.0.0.6")
        assert (again.status, again.json()["error"]) == (403, "no_pin")


# -- a seat taken -----------------------------------------------------------------------------------

def test_a_seat_taken_scrolls_in_its_colour_on_the_leds_and_the_page():
    mock = MockBackend()
    console = BackendConsole(mock)
    watch = Watch(then_said=lambda status: console.show_seated(2) if len(watch.statuses) == 1 else None)
    mock.screen.observe(watch)
    mock.tap("up", "up", at=10.0)
    play(mock, MatchOptions())
    seated = [tuple(f) for f, _ in scroll_frames(SEATED_TEXT.format(seat=2), YELLOW, (0, 0, 0))]   # seat 2's colour
    assert frames(mock) == [board("", 3)] + seated + [board("", 3), confirm("", True), BLACK_FRAME]
    assert watch.frames == frames(mock)          # a public interlude: the page shows it too


def test_a_seat_taken_before_the_game_says_its_colours_scrolls_in_white():
    mock = MockBackend()
    assert BackendConsole(mock).colour(1) == WHITE


# -- notes --------------------------------------------------------------------------------------------

def test_a_note_from_another_thread_is_shown_in_the_games_next_wait():
    mock = MockBackend()
    told = threading.Thread(target=lambda: mock.interludes.note("web: http://192.168.1.20:8080/  PIN 1234"))
    told.start()
    told.join()
    assert mock.interludes.noted == ""
    assert mock.stick.wait_event(0.5) is None          # the game's next wait carries it out
    assert mock.interludes.noted == "web: http://192.168.1.20:8080/  PIN 1234"


# -- seats ----------------------------------------------------------------------------------------------

def test_the_seat_table_is_followed_into_the_matchs_seats():
    table, seats = SeatTable(), Seats()
    table.take(1, "phone:3")
    stop = follow(table, seats)
    assert (seats[1].source, seats[1].kind, seats[2]) == ("phone:3", "phone", None)
    table.take(2, "phone:4")
    assert seats[2].source == "phone:4"
    table.clear()
    assert (seats[1], seats[2]) == (None, None)
    stop()
    table.take(1, "phone:5")
    assert seats[1] is None


def test_a_phone_seated_through_the_backend_plays_its_seat_and_the_seat_ends_with_the_match():
    mock = MockBackend()
    sitter = mock.seats.take(2, "phone:9")
    mock.tap("down")                                            # seat 1, the stick
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("down")                                            # the stick on the phone's turn: nothing
    mock.tap("left", "down", source="phone:9")                  # the phone: column 3
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up", "up")
    assert play_matches(mock, MatchOptions(), opponent=HUMAN, matches=1) == 1
    assert frames(mock)[:len(fall("4")) + 3] == [board("", 3)] + fall("4") + [board("4", 3), board("4", 2)]
    kinds = [s["kind"] for s in mock.statuses[0][1].as_json()["seats"]]
    assert kinds == ["stick", "phone"]
    assert mock.seats.sitters() == (None, None) and sitter is not None   # emptied: the seat was for that match


# -- the whole thing over real sockets --------------------------------------------------------------------

def wait_turn(events, seat, seen):
    """Read the stream until the words say it is ``seat``'s turn (keeping every frame in ``seen``)."""
    def test(kind, data):
        if kind == "frame":
            seen.append(data)
        return kind == "state" and data["status"] is not None and data["status"].get("turn") == seat \
            and data["status"]["phase"] == "playing"
    events.until(test, timeout=20)


def play_column(port, token, column, start=3):
    steps = column - start
    for direction in ["right"] * steps + ["left"] * -steps + ["down"]:
        reply = post(port, "/api/press", {"token": token, "direction": direction})
        assert reply.status == 202, reply.body


def changes(shown):
    """``shown`` without a frame that repeats the one before it (nothing changes on the LEDs)."""
    return [frame for i, frame in enumerate(shown) if i == 0 or frame != shown[i - 1]]


@pytest.mark.slow
def test_a_whole_match_from_two_phones_through_the_api_on_real_sockets():
    mock = MockBackend(real_wait=20.0)
    quick = Limits(presses_per_second=1000, press_burst=1000,   # a test presses faster than a thumb
                   pin_show_seconds=0.1,                         # and reads a PIN at once;
                   phone_gone_seconds=3600)   # its phones keep no page open (the API alone), and its turns on a
    # loaded machine may take seconds: a closed page is not what is tested here (see below)
    with web.serving(mock, Address("127.0.0.1", 0), limits=quick) as server:
        tokens, pins = {}, {}
        for seat in (1, 2):                      # two phones (127.0.0.2, .3): each asks, reads its PIN, sits
            phone = f"127.0.0.{1 + seat}"
            assert post(server.port, "/api/pin", {}, source=phone).status == 202
            deadline = time.monotonic() + 5
            while server.seating.pin_for(phone) is None:   # its turn: at once for the first, 0.1 s later the second
                assert time.monotonic() < deadline
                time.sleep(0.01)
            pins[seat] = server.seating.pin_for(phone)
            reply = post(server.port, "/api/seat", {"pin": pins[seat], "seat": seat}, source=phone)
            tokens[seat] = reply.json()["token"]
        result = []
        game = threading.Thread(target=lambda: result.append(
            play_matches(mock, MatchOptions(), opponent=HUMAN, matches=1, report=lambda *a: result.append(a))))
        seen = []
        seated = [[tuple(f) for f, _ in scroll_frames(SEATED_TEXT.format(seat=n), WHITE, (0, 0, 0))] for n in (1, 2)]
        with Events(server.port) as events:
            game.start()
            # the seats' scrolls first: a press during one would be another test (a push ends a scroll early)
            scrolling = []
            second = {frame for frame in seated[1] if frame != BLACK_FRAME}

            turn = []                          # a turn said meanwhile (wait_turn would wait for it again)

            def scrolls_over(kind, data):
                if kind == "state" and data["status"] is not None and data["status"]["phase"] == "playing":
                    turn.append(data["status"].get("turn"))
                if kind != "frame":
                    return False
                seen.append(data)
                pixels = tuple(tuple(p) for p in data["pixels"])
                scrolling.append(scrolling[-1] if scrolling else False)
                scrolling[-1] = scrolling[-1] or pixels in second
                return scrolling[-1] and pixels == tuple(tuple(p) for p in board("", 3))
            events.until(scrolls_over, timeout=30)
            # round 1: seat 1 starts and wins across the bottom; round 2: seat 2 starts and wins;
            # round 3: seat 1 starts and wins
            for starter in (1, 2, 1):
                for ply, column in enumerate((3, 3, 4, 4, 5, 5, 6)):
                    seat = starter if ply % 2 == 0 else 3 - starter
                    if turn and turn.pop() == seat:         # the first turn, said during the scrolls
                        turn.clear()
                    else:
                        turn.clear()
                        wait_turn(events, seat, seen)
                    if ply == 1 and starter == 1:   # the seat not to move presses: refused, nothing happens
                        wrong = post(server.port, "/api/press", {"token": tokens[1], "direction": "down"})
                        assert wrong.status == 409
                    play_column(server.port, tokens[seat], column)
            game.join(20)
            events.until(lambda kind, data: kind == "state" and data["status"]["result"] == "match", timeout=10)
        assert result[0][2] == MatchResult(1, (2, 1), False, 3)
        for token in tokens.values():                            # the match ended: so did the seats
            reply = post(server.port, "/api/press", {"token": token, "direction": "left"})
            assert reply.status == 403 and reply.json()["error"] == "bad_token"
        mirrored = [tuple(tuple(p) for p in data["pixels"]) for data in seen]
        assert [d["seq"] for d in seen] == list(range(seen[0]["seq"], seen[0]["seq"] + len(seen)))   # no gap
        shown = [[tuple(f) for f, _ in scroll_frames(PIN_TEXT.format(pin=pins[n]), WHITE, (0, 0, 0))] for n in (1, 2)]
        # what the LEDs and the page showed, each change once (the board drawn again unchanged before an
        # interlude begins, as the game's thread and the web's may order it, shows nothing new)
        start = changes([board("", 3)] + shown[0] + [board("", 3)] + seated[0] + [board("", 3)]
                        + shown[1] + [board("", 3)] + seated[1] + [board("", 3)])
        leds = changes(frames(mock))
        assert leds[:len(start)] == start                              # on the LEDs: each PIN, then its seat
        seen_on_page = changes(mirrored)
        assert seen_on_page[0] == BLACK_FRAME                          # the LEDs before the game began, then
        page = changes([board("", 3)] + seated[0] + [board("", 3)] + seated[1] + [board("", 3)])   # never a PIN
        assert seen_on_page[1:] == page + leds[len(start):len(start) + len(seen_on_page) - 1 - len(page)]
        assert len(seen_on_page) > 200


# -- the command lines ---------------------------------------------------------------------------------

def test_web_on_both_command_lines(capsys, monkeypatch, tmp_path):
    import re
    import socket

    from gamelib import backends
    from gamelib.launcher import cli as launcher_cli
    from sensehat_c4 import cli

    def headless(*, rotation, low_light):
        mock = MockBackend(rotation=rotation, low_light=low_light)
        mock.tap("up", "up")                                        # the game: abandon at once
        return mock

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with backends.registered("headless", headless):
        assert cli.main(["--backend", "headless", "--opponent", "human", "--matches", "1",
                         "--web", "127.0.0.1:0"]) == 0
        out, err = capsys.readouterr()
        assert out == "match not recorded: abandoned at 0-0\n"
        assert re.fullmatch(r"sensehat-c4: web view on http://127\.0\.0\.1:\d+/ \(a phone takes a seat with the "
                            r"PIN the LEDs show\)\n", err)
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            assert cli.main(["--backend", "headless", "--opponent", "human", "--web", f"127.0.0.1:{port}"]) == 1
            assert capsys.readouterr().err == (f"sensehat-c4: --web 127.0.0.1:{port}: the port is in use by another "
                                               "program (try another port)\n")
            assert launcher_cli.main(["--backend", "headless", "--web", f"127.0.0.1:{port}"]) == 1
            assert capsys.readouterr().err.endswith(f"gamelib: --web 127.0.0.1:{port}: the port is in use by another "
                                                    "program (try another port)\n")
        for value, message in (("http", "the port is a number from 0 to 65535 (not 'http')"),
                               ("::1:80", "write an IPv6 address in brackets, e.g. [::1]:80 (not '::1:80')"),
                               ("a b:80", "'a b' is not an address or a host name")):
            with pytest.raises(SystemExit) as info:
                cli.main(["--backend", "headless", "--web", value])
            assert info.value.code == 2
            assert capsys.readouterr().err == f"sensehat-c4: error: argument --web: {message} (see --help)\n"


# -- a phone that closes its page on its turn (presence.py) --------------------------------------------

class Told:
    """A console that records what the presence asks of it."""

    def __init__(self) -> None:
        self.asked = []
        self.take_back = None

    def away(self, seat, seconds, take_back):
        self.asked.append(("away", seat, seconds))
        self.take_back = take_back

    def here(self):
        self.asked.append(("here",))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.due = []

    def later(self, delay, call):
        timer = type("Timer", (), {"cancel": lambda timer: entry in self.due and self.due.remove(entry)})()
        entry = (self.now + delay, call)
        self.due.append(entry)
        return timer

    def run_until(self, when):
        while self.due and min(self.due)[0] <= when:
            entry = min(self.due, key=lambda e: e[0])
            self.due.remove(entry)
            self.now = entry[0]
            entry[1]()
        self.now = when


def presence_on(turn):
    """A presence over a feed whose words say seat ``turn`` is to move, seat 2 held by a phone."""
    from gamelib.status import Status
    from gamelib.web.feed import Feed
    from gamelib.web.presence import Presence
    from gamelib.web.seating import Seating

    table, clock, console = SeatTable(), Clock(), Told()
    feed = Feed(frame=(BLACK,) * 64)
    feed.status = Status("playing", "", None, turn=turn)
    seating = Seating(table)
    sitter = table.take(2, "phone:1", "phone")
    presence = Presence(console, feed, seating, clock=lambda: clock.now, later=clock.later)
    return presence, feed, table, clock, console, sitter


def test_a_phone_without_its_page_on_its_turn_is_waited_for_then_its_seat_goes_back(caplog):
    caplog.set_level(logging.INFO, logger="gamelib.web")
    presence, feed, table, clock, console, sitter = presence_on(2)
    presence.update()
    clock.run_until(2.99)
    assert console.asked == []                                   # a reload is back sooner than 3 s
    clock.run_until(3.02)
    assert console.asked == [("away", 2, 30.0)]                  # the game waits for it
    clock.run_until(32.99)
    assert table[2] is sitter
    clock.run_until(33.05)
    assert console.asked == [("away", 2, 30.0), ("here",)] and table[2] is None   # the stick's seat again
    assert [r.getMessage() for r in caplog.records] == [
        "the phone in seat 2 closed its page on its turn 33 s ago: the seat is back with the stick"]


def test_a_phone_whose_page_comes_back_plays_on_and_the_stick_may_take_the_seat_back():
    presence, feed, table, clock, console, sitter = presence_on(2)
    presence.update()
    clock.run_until(10.0)
    watcher = type("W", (), {"sitter": sitter})()
    feed.watchers.add(watcher)                                   # its page is open again
    presence.update()
    assert console.asked == [("away", 2, 30.0), ("here",)] and clock.due == []
    clock.run_until(100.0)
    assert table[2] is sitter
    feed.watchers.discard(watcher)                               # closed again: waited for afresh
    presence.update()
    clock.run_until(104.0)
    assert console.asked[-1] == ("away", 2, 30.0)
    console.take_back()                                          # middle at the HAT: the seat is the stick's
    assert table[2] is None


def test_a_phone_without_its_page_is_not_waited_for_on_the_other_seats_turn():
    presence, feed, table, clock, console, sitter = presence_on(1)
    presence.update()
    clock.run_until(100.0)
    assert console.asked == [] and table[2] is sitter and clock.due == []


@pytest.mark.slow
def test_a_phone_that_closes_its_page_on_its_turn_on_the_emulator_over_real_sockets(emu_dir):
    """The LEDs show the phone blinking in its seat's colour and the words (the terminal's line) say the game
    waits for it; its page back, it plays on; closed again, after the time the seat is the stick's."""
    limits = Limits(phone_gone_seconds=0.3, phone_away_seconds=1.5)
    with FakeEmulator(emu_dir) as emulator, EmuBackend() as backend, \
            web.serving(backend, Address("127.0.0.1", 0), limits=limits) as server:
        emulator.wait_client()
        phone_address = "127.0.0.3"
        assert post(server.port, "/api/pin", {}, source=phone_address).status == 202
        pin = server.seating.pin_for(phone_address)          # the first to ask: its PIN at once
        token = post(server.port, "/api/seat", {"pin": pin, "seat": 2}, source=phone_address).json()["token"]
        phone = Events(server.port, path=f"/api/events?token={token}")
        game = threading.Thread(target=play_matches, args=(backend, MatchOptions()),
                                kwargs={"opponent": HUMAN, "matches": 1})
        said = lambda caption: lambda kind, data: kind == "state" and (data["status"] or {}).get(  # noqa: E731
            "caption") == caption
        with Events(server.port) as watching:
            game.start()
            try:
                emulator.wait_screen(lambda px: px == lit(board("", 3)), timeout=20)
                for _ in range(5):   # seat 1 at the HAT drops; a press while the PIN or "P2 PHONE" scrolls ends it
                    emulator.tap("down")
                    try:
                        watching.until(said("waiting for player 2's phone (yellow)"), timeout=3)
                        break
                    except AssertionError:
                        continue
                else:
                    raise AssertionError("seat 1's drop never came")
                phone.close()                                                         # the page is closed
                watching.until(said("waiting for player 2's phone (page closed): Enter plays it here, or in 1.5 s"))
                emulator.wait_screen(lambda px: px == lit(phone_frames(YELLOW, default_palette())[0][0]))
                phone = Events(server.port, path=f"/api/events?token={token}")       # back: it plays on
                watching.until(said("waiting for player 2's phone (yellow)"))
                emulator.wait_screen(lambda px: px == lit(board("4", 3)))
                phone.close()
                watching.until(said("player 2 (yellow) to move: ←/→ choose, Enter drops, ↑ abandons"), timeout=10)
                assert server.seating.table[2] is None
                assert post(server.port, "/api/press", {"token": token, "direction": "down"}).status == 403
                emulator.tap("left", "down")                                          # seat 2 at the HAT now
                emulator.wait_screen(lambda px: px == lit(board("43", 3)))
            finally:
                emulator.tap("up", "up")
                game.join(20)
        assert not game.is_alive()
