"""The host's side of the LAN protocol (``gamelib/lan/host.py``, ``protocol.py``, the upgrade in
``gamelib/web/http.py``) with real sockets on loopback: consent (nothing without the host's press), the
session's token (good once: a replayed one changes nothing), drops (the game paused, the guest back
where it was, or the session ended after ``away_seconds``), and every hostile client in the issue's list
(garbage, huge lines, floods, forged moves, a second guest, replayed tokens, another version) answered and
shut out while the accepted guest plays on; requests in line (asking again as someone else's name from fresh
addresses cannot keep that person out; an unanswered request gives way and its address waits).  The
protocol's checks are pinned on their own at the end."""
import json
import time

import pytest
from lan_client import LanClient, raw_lan, LIMITS
from web_client import status_of

from gamelib import web
from gamelib.backends.mock import MockBackend
from gamelib.lan import offering
from gamelib.lan import protocol as p
from gamelib.lan import screens
from gamelib.web.address import Address
from gamelib.palette import palette as default_palette



class Host:
    def __init__(self, mock, port, lan):
        self.mock, self.port, self.lan = mock, port, lan

    def asking(self, timeout=5.0):
        deadline = time.monotonic() + timeout
        while self.lan.pending() is None:
            assert time.monotonic() < deadline, "no request came"
            time.sleep(0.01)
        return self.lan.pending()

    def seat(self, name="Ann", source=None):
        """A guest that asks and is accepted: its client and session."""
        client = LanClient(self.port, source=source, ping=True)
        assert client.status == 101
        client.hello(name)
        assert client.recv()["type"] == "asking"
        session = self.lan.accept(self.asking())
        welcome = client.until("welcome")
        assert (welcome["seat"], welcome["host"], welcome["resumed"]) == (2, "Bob", False)
        assert welcome["token"] == session.token
        return client, session

    def presses(self):
        """The presses injected into the game since the last call: (direction, action, source)."""
        got = []
        while True:
            event = self.mock.stick.wait_event(0)
            if event is None:
                return got
            got.append((event.direction.value, event.action.value, event.source))


def until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.01)


@pytest.fixture
def host():
    mock = MockBackend()
    with web.serving(mock, Address("127.0.0.1", 0), limits=LIMITS) as server, \
            offering(mock, "Bob", "connect4", advertise=False) as lan:
        lan.offer(True)
        yield Host(mock, server.port, lan)


# -- consent ---------------------------------------------------------------------------------------

def test_a_request_waits_for_a_press_at_the_host_and_is_then_welcomed_with_the_game(host):
    host.mock.screen.show([(9, 9, 9)] * 64)
    client = LanClient(host.port, ping=True)
    assert client.status == 101 and "Upgrade: gamelib-lan/1" in client.head
    client.hello("Ann")
    assert client.recv() == {"type": "asking"}
    asking = host.asking()
    assert (asking.name, asking.address) == ("Ann", "127.0.0.1")
    assert client.recv(1.0) is None and host.lan.session is None      # nothing without the host's answer
    session = host.lan.accept(asking)
    welcome = client.recv()
    assert welcome == {"type": "welcome", "token": session.token, "seat": 2, "host": "Bob", "resumed": False}
    assert client.recv() == {"type": "state", "status": None}
    assert client.recv()["pixels"] == [[9, 9, 9]] * 64                 # what the LEDs show now
    host.mock.screen.show([(1, 2, 3)] * 64)                                   # the host's frames follow as shown
    assert client.until("frame")["pixels"] == [[1, 2, 3]] * 64
    client.send({"type": "press", "direction": "left", "action": "pressed"})
    until(lambda: host.lan.stats["presses"] == 1)
    assert host.presses() == [("left", "pressed", session.source)]


def test_up_at_the_host_refuses_and_the_same_address_waits_before_asking_again(host):
    client = LanClient(host.port)
    client.hello("Ann")
    host.lan.refuse(host.asking())
    assert client.closed() == [{"type": "asking"}, {"type": "refused", "reason": "refused", "message": "Bob said no"}]
    again = LanClient(host.port)
    again.hello("Ann")
    assert again.closed() == [{"type": "refused", "reason": "refused",
                               "message": "Bob was asked from this address a moment ago: wait a little"}]
    assert host.lan.pending() is None


def test_a_request_nobody_answers_is_refused_after_the_consent_time_and_its_address_waits(host):
    client = LanClient(host.port, ping=True)
    client.hello("Ann")
    got = client.closed(timeout=6.0)
    assert got[-1] == {"type": "refused", "reason": "no_answer", "message": "Bob did not answer within 2 s"}
    assert host.lan.pending() is None
    again = LanClient(host.port, ping=True)                              # at once: it would hold the host again
    again.hello("Ann")
    assert again.closed() == [{"type": "refused", "reason": "refused",
                               "message": "Bob was asked from this address a moment ago: wait a little"}]
    assert host.lan.pending() is None


def test_requests_wait_in_line_and_asking_again_from_a_fresh_address_goes_to_the_back(host):
    squatter = LanClient(host.port, source="127.0.0.60", ping=True)   # asks as ANN, before Ann does
    squatter.hello("ANN")
    assert squatter.recv() == {"type": "asking"}
    first = host.asking()
    ann = LanClient(host.port, source="127.0.0.5", ping=True)
    ann.hello("Ann")
    assert ann.recv() == {"type": "asking"}                            # in line, not refused
    twice = LanClient(host.port, source="127.0.0.5")
    twice.hello("Ann")
    assert twice.closed() == [{"type": "refused", "reason": "busy",
                               "message": "Bob has a request from this address already"}]
    assert host.lan.pending() is first and (first.name, first.address) == ("ANN", "127.0.0.60")
    host.lan.refuse(first)                                              # Bob sees 127.0.0.60, not Ann's address
    assert squatter.closed()[-1]["reason"] == "refused"
    again = LanClient(host.port, source="127.0.0.61", ping=True)      # at once, from a fresh address
    again.hello("ANN")
    assert again.recv() == {"type": "asking"}
    until(lambda: host.lan.pending() not in (None, first))
    shown = host.lan.pending()
    assert (shown.name, shown.address) == ("Ann", "127.0.0.5")          # Ann's turn: she asked before
    assert shown.since > first.since                                    # her time to be answered starts now
    session = host.lan.accept(shown)
    assert ann.until("welcome")["token"] == session.token
    assert again.closed() == [{"type": "refused", "reason": "busy", "message": "Bob is playing with Ann"}]
    assert host.lan.pending() is None


@pytest.mark.slow
def test_a_request_nobody_answers_gives_way_to_the_next_in_line(host):
    eve = LanClient(host.port, source="127.0.0.62", ping=True)
    eve.hello("Eve")
    assert eve.recv() == {"type": "asking"}
    first = host.asking()
    ann = LanClient(host.port, source="127.0.0.63", ping=True)
    ann.hello("Ann")
    assert ann.recv() == {"type": "asking"}
    assert eve.closed(timeout=6.0)[-1]["reason"] == "no_answer"        # 2 s: Eve cannot hold the host longer
    until(lambda: host.lan.pending() not in (None, first))
    assert host.lan.pending().name == "Ann"
    assert ann.recv(1.0) is None                                        # still asking: her own 2 s have begun
    assert ann.closed(timeout=6.0)[-1]["reason"] == "no_answer"


def test_when_no_game_is_offered_requests_are_refused_and_without_a_game_the_route_is_404():
    mock = MockBackend()
    with web.serving(mock, Address("127.0.0.1", 0), limits=LIMITS) as server:
        assert LanClient(server.port).status == 404           # nothing offered over the LAN here
        with offering(mock, "Bob", "connect4", advertise=False):
            client = LanClient(server.port)
            client.hello("Ann")
            assert client.closed()[-1]["reason"] == "not_offered"


# -- the session's token, drops -------------------------------------------------------------------

def test_a_guest_that_drops_comes_back_with_its_token_where_it_was_and_the_old_token_is_dead(host):
    client, session = host.seat()
    old = session.token
    client.close()                                                      # Wi-Fi gone
    until(lambda: session.away_since is not None)
    host.mock.stick.wait_event(0)                                             # the game's next wait: the pause
    assert host.mock.interludes.paused and host.mock.screen.status == screens.away_words("Ann", LIMITS.away_seconds)
    assert host.mock.leds == screens.away(default_palette())[0][0]
    back = LanClient(host.port, ping=True)
    back.hello("Ann", token=old)
    welcome = back.until("welcome")
    assert welcome["resumed"] is True and welcome["token"] != old and welcome["token"] == session.token
    host.mock.stick.wait_event(0)
    assert not host.mock.interludes.paused and session.resumed == 1 and not session.gone
    replay = LanClient(host.port)                                       # the token it used: good once
    replay.hello("Mallory", token=old)
    assert replay.closed() == [{"type": "refused", "reason": "bad_token",
                                "message": "no session goes with this token: ask again"}]
    back.send({"type": "press", "direction": "middle"})
    until(lambda: host.lan.stats["presses"] == 1)
    assert host.presses() == [("middle", "pressed", session.source)]


def test_a_guest_away_too_long_ends_the_session_and_is_told_so_when_it_comes_back(host):
    client, session = host.seat()
    client.close()
    until(lambda: session.gone, timeout=8.0)
    assert session.ended == "away"
    late = LanClient(host.port)
    late.hello("Ann", token=session.token)
    assert late.closed() == [{"type": "end", "reason": "away", "message": "the match with Bob ended (away)"}]


def test_a_silent_link_is_a_dropped_one(host):
    client, session = host.seat()
    client._stop.set()                                                  # no more pings: the host hears nothing
    until(lambda: session.away_since is not None, timeout=6.0)
    assert not session.gone and session.link is None
    assert client.closed() == [] or True


def test_up_at_the_host_while_it_waits_abandons(host):
    client, session = host.seat()
    client.close()
    until(lambda: session.away_since is not None)
    host.mock.tap("up", at=host.mock.now() + 0.1)
    host.mock.stick.wait_event(0)
    host.mock.stick.wait_event(1.0)                                           # the press goes to the pause
    until(lambda: session.gone)
    assert session.ended == "abandoned"


def test_bye_ends_the_session(host):
    client, session = host.seat()
    client.send({"type": "bye"})
    until(lambda: session.gone)
    assert session.ended == "quit" and host.lan.session is None


# -- hostile clients ----------------------------------------------------------------------------------

HOSTILE = [
    ("garbage", b"\x00\xff not json\n", "bad_json"),
    ("not an object", b"[1, 2, 3]\n", "bad_message"),
    ("an unknown type", b'{"type": "shutdown"}\n', "bad_message"),
    ("a host's message", b'{"type": "welcome", "token": "x", "seat": 2}\n', "bad_message"),
    ("a press before hello", b'{"type": "press", "direction": "down"}\n', "bad_message"),
    ("another version", b'{"type": "hello", "version": 2, "game": "connect4", "name": "M", "token": null}\n',
     "version"),
    ("a bad name", b'{"type": "hello", "version": 1, "game": "connect4", "name": "\\u001b[2J", "token": null}\n',
     "bad_message"),
    ("a bad token", b'{"type": "hello", "version": 1, "game": "connect4", "name": "M", "token": "../../x"}\n',
     "bad_message"),
    ("deep JSON", b"[" * 10000 + b"\n", "bad_json"),
]


@pytest.mark.slow
def test_hostile_clients_change_nothing_and_the_guest_plays_on(host):
    client, session = host.seat()
    outcomes = {}
    for what, data, code in HOSTILE:                                   # each gets one error line, then closed
        with LanClient(host.port, source="127.0.0.50") as bad:
            bad.send(data)
            got = bad.closed()
            outcomes[what] = got[-1]["error"] if got and got[-1]["type"] == "error" else got
            assert outcomes[what] == code, (what, got)
    with LanClient(host.port, source="127.0.0.51") as huge:            # a line over 16 KiB
        huge.send(b"x" * (LIMITS.line_bytes + 10))
        assert huge.closed()[-1]["error"] == "too_long"
    with LanClient(host.port, source="127.0.0.52") as flood:           # more lines than the rate allows
        flood.hello("Zed")
        flood.send(b'{"type": "ping"}\n' * 500)
        got = flood.closed()
        assert {"type": "refused", "reason": "busy", "message": "Bob is playing with Ann"} in got
    with LanClient(host.port, source="127.0.0.53") as second:         # a second guest
        second.hello("Eve")
        assert second.closed() == [{"type": "refused", "reason": "busy", "message": "Bob is playing with Ann"}]
    with LanClient(host.port, source="127.0.0.54") as forged:         # a forged token, then a forged move
        forged.hello("Ann", token="A" * 32)
        assert forged.closed()[-1]["reason"] == "bad_token"
    with LanClient(host.port, source="127.0.0.55") as silent:         # connects and says nothing
        assert silent.closed(timeout=5.0) == [{"type": "error", "error": "timeout", "message": "say hello within 1 s"}]
    with LanClient(host.port, source="127.0.0.56", upgrade="gamelib-lan/9") as newer:
        assert newer.status == 426 and "Upgrade: gamelib-lan/1" in newer.head
        body = json.loads(newer.buffer.decode())
        assert body == {"error": "version", "message": p.mismatch(1, 9)}
    with LanClient(host.port, source="127.0.0.57", headers="Origin: http://evil.example\r\n") as page:
        assert page.status == 403
    assert status_of(raw_lan(host.port, b"GET /api/lan HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 426
    links = [LanClient(host.port, source="127.0.0.58") for _ in range(LIMITS.links)]   # more links than allowed
    assert sorted({c.status for c in links}) == [101, 503]
    for c in links:
        c.close()
    # nothing changed: the session is Ann's, her presses (and only hers) reach the game
    assert host.lan.session is session and not session.gone and session.link is not None
    assert host.presses() == []
    client.send({"type": "press", "direction": "right", "action": "pressed"})
    until(lambda: host.lan.stats["presses"] == 1)
    assert host.presses() == [("right", "pressed", session.source)]


def test_a_forged_move_from_a_link_still_asking_is_refused_and_the_request_withdrawn(host):
    client = LanClient(host.port)
    client.hello("Mallory")
    host.asking()
    client.send({"type": "press", "direction": "down"})
    assert client.closed()[-1] == {"type": "error", "error": "not_seated", "message": "only the accepted guest presses"}
    until(lambda: host.lan.pending() is None)
    assert host.presses() == []


def test_a_guest_flooding_presses_is_cut_off_and_may_come_back_with_its_token(host):
    client, session = host.seat()
    start = time.monotonic()
    for _ in range(LIMITS.message_burst + 20):
        client.send({"type": "press", "direction": "left"})
    assert client.closed()[-1]["error"] == "rate"
    took = time.monotonic() - start                                     # the bucket refills meanwhile (a loaded machine)
    assert len(host.presses()) <= LIMITS.message_burst + int(took * LIMITS.messages_per_second) + 1
    back = LanClient(host.port, ping=True)
    back.hello("Ann", token=session.token)
    assert back.until("welcome")["resumed"] is True


# -- the protocol's checks -------------------------------------------------------------------------

@pytest.mark.parametrize("line, allowed, code", [
    (b'{"type": "hello", "version": 1, "game": "connect4", "name": "Ann", "token": null}', p.FROM_GUEST, None),
    (b'{"type": "hello", "version": "1", "game": "connect4", "name": "Ann", "token": null}', p.FROM_GUEST,
     "bad_message"),
    (b'{"type": "hello", "version": 1, "game": "Connect 4", "name": "Ann", "token": null}', p.FROM_GUEST,
     "bad_message"),
    (b'{"type": "hello", "version": 1, "game": "connect4", "name": "' + b"A" * 13 + b'", "token": null}',
     p.FROM_GUEST, "bad_message"),
    (b'{"type": "press", "direction": "sideways"}', p.FROM_GUEST, "bad_message"),
    (b'{"type": "press", "direction": "left", "action": "twice"}', p.FROM_GUEST, "bad_message"),
    (b'{"type": "frame", "seq": 1, "pixels": []}', p.FROM_HOST, "bad_message"),
    (b'{"type": "frame", "seq": 1, "pixels": ' + json.dumps([[0, 0, 256]] * 64).encode() + b"}", p.FROM_HOST,
     "bad_message"),
    (b'{"type": "frame", "seq": 1, "pixels": ' + json.dumps([[0, 0, 255]] * 64).encode() + b"}", p.FROM_HOST, None),
    (b'{"type": "end", "reason": "bored", "message": ""}', p.FROM_HOST, "bad_message"),
    (b'{"type": "welcome", "token": "' + b"t" * 32 + b'", "seat": true, "host": "Bob", "resumed": false}',
     p.FROM_HOST, "bad_message"),
    (b'{"type": "state", "status": {"phase": 1, "text": "x"}}', p.FROM_HOST, "bad_message"),
])
def test_each_line_is_checked_against_the_protocol(line, allowed, code):
    if code is None:
        p.decode(line, allowed)
    else:
        with pytest.raises(p.ProtocolError) as info:
            p.decode(line, allowed)
        assert info.value.code == code


def test_the_upgrade_header_names_the_version():
    assert p.upgrade_version("gamelib-lan/1") == 1
    assert p.upgrade_version("websocket, GAMELIB-LAN/12") == 12
    assert p.upgrade_version("websocket") is None and p.upgrade_version(None) is None
    assert p.upgrade_version("gamelib-lan/1" + "0" * 10) is None


def test_a_name_from_outside_is_one_safe_line_of_12_characters_at_most():
    assert p.MAX_NAME == 12
    assert p.outside_name("\x1b]0;title\x07Bob_<~>\u202e") == "Bob_<~>"         # what the font lacks stays: a box
    assert p.outside_name("B" * 15000) == "B" * 12
    assert p.outside_name("  Ann\r\n\tand  Bob ") == "Ann and Bob"
    assert p.outside_name("\x1b[2J\x00", "Bob on pi") == "Bob on pi" and p.outside_name("") == "?"


@pytest.mark.parametrize("line", [
    b'{"type": "frame", "seq": Infinity, "pixels": []}', b'{"type": "ping", "x": NaN}', b'{"type": "ping", "x": -1e400}',
    b'{"type": "hello", "version": 1, "game": "connect4", "name": "Ann", "token": null, "x": -Infinity}'])
def test_json_without_nan_or_infinity_either_way(line):
    for allowed in (p.FROM_GUEST, p.FROM_HOST):
        with pytest.raises(p.ProtocolError) as info:
            p.decode(line, allowed)
        assert info.value.code == "bad_json"
