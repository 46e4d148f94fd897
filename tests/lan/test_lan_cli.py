"""``--lan`` and ``--join`` on the command line (``sensehat_c4/commands/play.py``): bad values are one line and exit
2; a host that cannot be reached, that speaks another version of the protocol or that is no game's server is
one line and exit 1 at the guest (and the host says the mismatch in one line too); loopback only.  While a game
is offered or joined, no phone seat exists: the pairing gesture is not listened for (nor ``p`` named)."""
import contextlib
import socket
import threading
from types import SimpleNamespace

import pytest
from scripted import run
from web_client import post

from gamelib import web
from gamelib.backends.mock import MockBackend
from gamelib.lan import offering
from gamelib.lan.flows import Outcome
from gamelib.lan import protocol as p
from gamelib.web.address import Address
from sensehat_c4 import cli
from sensehat_c4.lan import play as c4lan
from sensehat_c4.lan.session import SessionFile


@pytest.mark.parametrize("argv, message", [
    (["--lan", "nonsense:port"], "argument --lan: the port is a number from 0 to 65535 (not 'port')"),
    (["--join", "a:b:c:d:e:f:g:h:i"], "--join: 'a:b:c:d:e:f:g:h:i' is not an address or a host name"),
    (["--join", "pi.local:0"], "--join: 'pi.local:0': give the host's address or name, and a port from 1 to 65535"),
    (["--lan", "8080", "--web", "8081"], "--lan 8080 and --web 8081: the game is served on one port (give one)"),
    (["--lan", "--join"], "argument --join: not allowed with argument --lan"),
])
def test_bad_values_are_one_line_and_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert capsys.readouterr().err == f"sensehat-c4: error: {message} (see --help)\n"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_host_nobody_answers_at_is_one_line_and_exit_1(capsys, mock):
    port = free_port()
    code, out, err = run(capsys, "--join", f"127.0.0.1:{port}")
    assert code == 1
    assert err == f"sensehat-c4: cannot reach 127.0.0.1:{port}: nothing listens there (connection refused)\n"


def answering(status_line, headers=b"", body=b""):
    """A server on loopback that answers every request with this, once a connection (another program)."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(status_line + b"\r\n" + headers + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    threading.Thread(target=serve, daemon=True).start()
    return server


def test_another_version_at_the_host_is_one_line_on_both_sides(capsys, mock, caplog):
    newer = answering(b"HTTP/1.1 426 Upgrade Required", b"Upgrade: gamelib-lan/2\r\nConnection: Upgrade\r\n",
                      b'{"error": "version", "message": "..."}')
    with newer:
        code, out, err = run(capsys, "--join", f"127.0.0.1:{newer.getsockname()[1]}")
    assert code == 1
    assert err == ("sensehat-c4: the other Pi speaks the LAN protocol 2, this one 1: install the same sensehat-c4 "
                   "on both\n")
    # and a host of this version, asked for another: one line in its log
    backend = MockBackend()
    with web.serving(backend, Address("127.0.0.1", 0)) as server, offering(backend, "Bob", "connect4", advertise=False):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(b"GET /api/lan HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
                         b"Upgrade: gamelib-lan/2\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 426 ")
    assert [r.getMessage() for r in caplog.records if r.name == "gamelib.lan"] == [
        f"a guest at 127.0.0.1: {p.mismatch(1, 2)}"]


def test_a_server_that_is_no_game_is_one_line(capsys, mock):
    other = answering(b"HTTP/1.1 404 Not Found", body=b'{"error": "not_found", "message": "nothing"}')
    port = other.getsockname()[1]
    with other:
        code, out, err = run(capsys, "--join", f"127.0.0.1:{port}")
    assert (code, err) == (1, f"sensehat-c4: 127.0.0.1:{port} serves no game over the LAN (is it sensehat-c4 --lan?)\n")


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_a_game_offered_on_a_loopback_address_says_that_is_why_it_is_not_advertised(caplog, host):
    backend = MockBackend()
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(web.serving(backend, Address(host, 0)))
        except OSError as exc:   # no IPv6 on this machine
            pytest.skip(f"cannot listen on {host}: {exc}")
        assert server is not None and web.running(backend) is server   # offering() uses it: nothing else is started
        with offering(backend, "Bob", "connect4"):
            port = server.port
    why = (f"it listens on 127.0.0.1 only, which no other machine reaches (--join 127.0.0.1:{port} here; --lan {port} "
           "listens on every address)" if host == "127.0.0.1" else
           f"it listens on ::1 only, and mDNS here advertises IPv4 addresses (the guest can come with --join "
           f"ADDRESS:{port})")
    assert [r.getMessage() for r in caplog.records if r.name == "gamelib.lan"] == [f"not advertised on the LAN: {why}"]


def test_while_a_game_is_offered_over_the_lan_the_pairing_gesture_is_not_listened_for():
    mock = MockBackend()
    with web.serving(mock, Address("127.0.0.1", 0)) as server:
        assert mock.stick.pairing_watched                                    # --web: the stick's middle held pairs a phone
        with offering(mock, "Ann", "connect4", advertise=False):
            assert not mock.stick.pairing_watched                            # the terminal's key help: no p
            with web.lan_game(mock):                                   # counted: the inner end is not the outer's
                pass
            assert not mock.stick.pairing_watched
            server.pair()
            assert server.seating.pairing is None                      # the gesture would do nothing
        assert mock.stick.pairing_watched
        mock.stick.pair()
        assert server.seating.pairing is not None                      # a pairing PIN again once the game is over
    assert not mock.stick.pairing_watched


def test_while_a_guest_joins_a_game_over_the_lan_the_pairing_gesture_is_not_listened_for(monkeypatch, tmp_path):
    mock = MockBackend()
    seen = []

    def visit(backend, where, token, label, **options):                # the visit (gamelib.lan.flows) as it ends
        seen.append((where, backend.stick.pairing_watched))
        backend.stick.pair()
        seen.append(web.running(backend).seating.pairing)
        return SimpleNamespace(outcome=Outcome.ENDED, reason="", message="", played=True), 0

    monkeypatch.setattr(c4lan, "_visit", visit)
    with web.serving(mock, Address("127.0.0.1", 0)):
        c4lan.join(mock, name="Bob", target=("127.0.0.1", 9), state=SessionFile(tmp_path / "guest.json"))
        assert mock.stick.pairing_watched
    assert seen == [(("127.0.0.1", 9), False), None]                   # no phone seat at the guest: no PIN


def test_a_guest_s_web_server_seats_no_phone_while_it_plays_over_the_lan(monkeypatch, tmp_path):
    """``--join --web``: the guest's own page is to watch while the LAN game lasts (403 ``lan``: no PIN, no
    seat, a seated phone given back its seat), and seats phones again once it is over."""
    mock = MockBackend()
    seen = []

    def visit(backend, where, token, label, **options):                # the visit as it is played
        server = web.running(backend)
        seen.append((server.seats_closed, backend.seats.sitters()))
        for path, body in (("/api/pin", {}), ("/api/seat", {"pin": pin, "seat": 2})):
            reply = post(server.port, path, body, source="127.0.0.6")
            seen.append((path, reply.status, reply.json()["error"]))
        server.pair()                                                  # the stick's middle held: nothing
        seen.append((server.seating.pairing, server.note()))
        return SimpleNamespace(outcome=Outcome.ENDED, reason="", message="", played=True), 0

    monkeypatch.setattr(c4lan, "_visit", visit)
    with web.serving(mock, Address("127.0.0.1", 0)) as server:
        server.pair()
        pin = server.seating.pairing
        reply = post(server.port, "/api/seat", {"pin": pin, "seat": 2}, source="127.0.0.5")
        assert reply.status == 200 and mock.seats[2] is not None       # a phone sits before the game
        c4lan.join(mock, name="Bob", target=("127.0.0.1", 9), state=SessionFile(tmp_path / "guest.json"))
        assert seen == [(True, (None, None)),
                        ("/api/pin", 403, "lan"), ("/api/seat", 403, "lan"),
                        (None, f"web: http://127.0.0.1:{server.port}/  (watch only)")]
        assert not server.seats_closed and mock.seats.sitters() == (None, None)
        assert server.note() == f"web: http://127.0.0.1:{server.port}/"
        assert post(server.port, "/api/pin", {}, source="127.0.0.6").status == 202   # seats again after it
