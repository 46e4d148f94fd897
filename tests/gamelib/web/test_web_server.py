"""``gamelib/web/``'s server alone (``http.py``, ``feed.py``, ``api.py``, ``server.py``), with real sockets on
loopback: the files, the API's answers, the event stream, the limits and hostile requests.  The game's side
is a stand-in that records what the server asks of it; the server on a real game is in test_web_game.py."""
import json
import select
import socket
import threading
import time

import pytest
from web_client import Client, Events, call, connect, post, raw, read_until_closed, status_of, Console, served, wait_for, frame, shown_pin, MALFORMED, said

from gamelib.errors import ServerError
from gamelib.web.address import Address
from gamelib.web.api import palette_files
from gamelib.web.http import CSP, lan_host
from gamelib.web.limits import Limits
from gamelib.web.seating import Seating
from gamelib.web.server import WebServer
from gamelib.palette import palette as default_palette


def seat(server, number=1, **options):
    """A seat for a phone at 127.0.0.1 (or ``source``): it asks for a PIN, reads it, sits."""
    pin = shown_pin(server, server.console, **options)
    reply = post(server.port, "/api/seat", {"pin": pin, "seat": number}, **options)
    assert reply.status == 200, reply.body
    assert reply.json()["seat"] == number and reply.json()["version"] == server.seating.state()["version"]
    return reply.json()["token"]


# -- the page and its files ------------------------------------------------------------------------

def test_the_page_and_its_files_are_served_with_strict_security_headers():
    with served() as (server, console):
        page = call(server.port, "GET", "/")
        assert page.status == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
        assert b'<script src="/page.js"' in page.body and b"<style" not in page.body and b"http" not in page.body
        for name, value in (("content-security-policy", CSP), ("x-content-type-options", "nosniff"),
                            ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY")):
            assert page.headers[name] == value
        assert "default-src 'none'" in CSP and "script-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
        for path, kind in (("/page.js", "text/javascript"), ("/page.css", "text/css"), ("/palette.css", "text/css"),
                           ("/icon.svg", "image/svg+xml")):
            reply = call(server.port, "GET", path)
            assert reply.status == 200 and reply.headers["content-type"].startswith(kind) and reply.body
            assert reply.headers["content-security-policy"] == CSP
            assert path not in palette_files(default_palette()) or reply.body == palette_files(default_palette())[path].body   # made from the palette
        again = call(server.port, "GET", "/icon.svg", headers=[("If-None-Match", reply.headers["etag"])])
        assert again.status == 304 and again.body == b""
        head = call(server.port, "HEAD", "/")
        assert head.status == 200 and head.body == b"" and head.headers["content-length"] == str(len(page.body))
        assert console.notes == [f"web: http://127.0.0.1:{server.port}/"]          # no PIN until one is asked for


def test_the_page_takes_a_pairing_pin_and_names_the_gesture_s_seconds():
    from gamelib.backends.base import PAIR_HOLD

    with served() as (server, _):
        page = call(server.port, "GET", "/").body.decode()
        script = call(server.port, "GET", "/page.js").body.decode()
    assert 'pattern="\\s*[0-9]{4}(\\s*[0-9]{4})?\\s*" maxlength="12"' in page   # this phone's PIN or the pairing PIN
    assert '{ pin: $("pin").value.replace(/\\s+/g, ""), seat: asking }' in script   # 1234 5678 typed: 12345678 sent
    assert f"const HOLD_SECONDS = {PAIR_HOLD:g};" in script                # the one fact, said on the page


def test_the_pairing_pin_takes_eight_digits_shown_in_two_groups_and_six_are_a_bad_request():
    def seating(*args, **kwargs):
        return Seating(*args, pairing_pins=lambda: "13579024", **kwargs)

    console = Console()
    with WebServer(console, Address("127.0.0.1", 0), seating=seating) as server:
        server.pair()                                                    # the stick's middle held at the Pi
        assert console.pairings == ["13579024"]                          # the console groups it on the LEDs
        wait_for(lambda: console.notes[-1:] == [f"web: http://127.0.0.1:{server.port}/  PIN 1357 9024"])
        for pin in ("135790", "579024", "1357 9024", "135790245", "１３５７９０２４"):   # six digits: the old length
            reply = post(server.port, "/api/seat", {"pin": pin, "seat": 2}, source="127.0.0.5")
            assert (reply.status, reply.json()["error"]) == (400, "bad_request"), pin
        assert server.seating.wrong_total == 0                           # no try spent: not a guess
        reply = post(server.port, "/api/seat", {"pin": "13579024", "seat": 2}, source="127.0.0.5")
        assert reply.status == 200 and reply.json()["seat"] == 2
        wait_for(lambda: console.notes[-1:] == [f"web: http://127.0.0.1:{server.port}/"])   # spent: gone


@pytest.mark.parametrize("path", ["/index.html", "/static/page.js", "/../setup.cfg", "/%2e%2e/setup.cfg",
                                  "//etc/passwd", "/page.js/..", "/page.js%00", "/api", "/api/state/x",
                                  "/..%2f..%2fetc%2fpasswd", "/gamelib/web/static/page.js", "/page.JS"])
def test_only_the_shipped_files_are_served(path):
    with served() as (server, _):
        answer = raw(server.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        assert status_of(answer) in (400, 404), answer[:80]
        assert b"[metadata]" not in answer and b"root:" not in answer


def test_a_method_a_route_does_not_take_is_405_with_allow():
    with served() as (server, _):
        reply = call(server.port, "DELETE", "/api/state")
        assert reply.status == 405 and reply.headers["allow"] == "GET, HEAD"
        reply = call(server.port, "GET", "/api/press")
        assert reply.status == 405 and reply.headers["allow"] == "POST" and reply.json()["error"] == "method"


# -- the state and the stream ------------------------------------------------------------------------

def test_the_state_gives_the_frame_row_by_row_from_the_top_left_and_the_words():
    with served() as (server, _):
        state = call(server.port, "GET", "/api/state").json()
        assert state == {"seq": 0, "pixels": [[0, 0, 0]] * 64, "status": None,
                         "seating": {"seats": [{"seat": 1, "taken": False, "kind": None},
                                               {"seat": 2, "taken": False, "kind": None}],
                                     "version": 0}, "palette": "default"}
        server.feed.shown(frame(7))
        server.feed.said(said(turn=2, board="7x6"))
        wait_for(lambda: server.feed.seq == 1 and server.feed.status is not None)
        reply = call(server.port, "GET", "/api/state")
        assert reply.headers["cache-control"] == "no-store"
        state = reply.json()
        assert state["seq"] == 1 and state["pixels"] == [[7, i, 255 - i] for i in range(64)]
        assert state["status"] == {"phase": "playing", "text": "a test", "caption": None, "turn": 2, "board": "7x6"}


def test_the_stream_starts_with_the_state_and_frame_then_brings_every_frame_in_order():
    with served() as (server, _):
        server.feed.shown(frame(1))
        with Events(server.port) as events:
            assert events.status == 200 and events.headers["content-type"] == "text/event-stream"
            assert events.headers["content-security-policy"] == CSP
            assert events.next() == ("state", {"status": None, "seating": server.seating.state(), "palette": "default"})
            kind, data = events.next()
            assert events.retry == 1000 and kind == "frame" and data["pixels"] == [[1, i, 255 - i] for i in range(64)]
            server.feed.said(said(turn=1))
            for n in range(2, 202):
                server.feed.shown(frame(n))
                if n % 50 == 0:                     # bursts of 50 frames (the game shows one every 30 ms at most)
                    wait_for(lambda: server.feed.seq == n)
            seen = events.until(lambda kind, data: kind == "frame" and data["seq"] == 201)
            frames = [data for kind, data in seen if kind == "frame"]
            assert [f["seq"] for f in frames] == list(range(2, 202))
            assert all(f["pixels"][0] == [f["seq"] % 256, 0, 255] for f in frames)
            assert [data["status"]["turn"] for kind, data in seen if kind == "state"] == [1]


def test_an_http_1_0_client_gets_the_stream_unchunked_until_the_server_closes():
    with served() as (server, _):
        sock = connect(server.port)
        sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        server.feed.shown(frame(1))
        wait_for(lambda: server.feed.seq == 1)
        server.close()
        got = read_until_closed(sock, 5)
        sock.close()
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 OK") and b"connection: close" in head.lower()
        assert body.startswith(b"retry: 1000\n\nevent: state\ndata: {") and b'event: frame\ndata: {"seq":1,' in body


def test_a_seat_taken_or_emptied_goes_out_on_the_stream_at_once():
    with served() as (server, console):
        with Events(server.port) as events:
            events.until(lambda kind, data: kind == "frame")
            seat(server, 2)
            _, data = events.until(lambda kind, data: kind == "state")[-1]
            assert data["seating"]["seats"][1] == {"seat": 2, "taken": True, "kind": "phone"}
            console.seats.clear()        # the game's thread, at the end of a match
            events.until(lambda kind, data: kind == "state" and data["seating"]["seats"][1]["taken"] is False)


def test_a_client_that_stops_reading_gets_only_the_newest_when_it_reads_again_and_costs_the_others_nothing():
    with served(stream_buffer=16 * 1024) as (server, _):
        slow = connect(server.port, receive_buffer=4096)
        slow.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        with Events(server.port) as quick:
            quick.until(lambda kind, data: kind == "frame")
            seen = []

            def read():
                while not seen or seen[-1][1].get("seq") != 2000:
                    seen.append(quick.next())
            reader = threading.Thread(target=read)
            reader.start()
            for n in range(1, 2001):                    # ~1.6 MB of frames: far more than the slow one reads
                server.feed.shown(frame(n))
                if n % 10 == 0:                         # as fast as the quick one reads them
                    wait_for(lambda: seen and seen[-1][1].get("seq") == n)
            reader.join()
            assert [d["seq"] for k, d in seen if k == "frame"] == list(range(1, 2001))   # the quick one: every frame
            waiting = [c for c in server.http.connections if c.stream is not None and c.paused]
            assert len(waiting) == 1                      # the slow one is behind ...
            buffered = waiting[0].transport.get_write_buffer_size()
            assert buffered < 16 * 1024 + 2000            # ... and holds at most its buffer (plus one frame)
        got = read_until_closed_or(slow, b'"seq":2000', 10)
        slow.close()
        frames = got.count(b"event: frame")
        assert b'"seq":2000' in got and frames < 200     # it skipped to the newest: latest wins


def read_until_closed_or(sock, marker, wait):
    got = bytearray()
    deadline = time.monotonic() + wait
    sock.settimeout(0.5)
    while marker not in got and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        got += chunk
    return bytes(got)


def test_a_stream_whose_client_reads_nothing_is_dropped_after_stalled_seconds():
    with served(stream_buffer=4096, stalled_seconds=0.5) as (server, _):
        slow = connect(server.port, receive_buffer=2048)
        slow.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        wait_for(lambda: server.http.counts.streams == 1)
        for n in range(3000):
            server.feed.shown(frame(n))
        wait_for(lambda: server.http.counts.streams == 0 and server.http.counts.total == 0, timeout=5)
        assert not server.feed.watchers
        slow.close()


def test_quiet_streams_get_a_heartbeat():
    with served(heartbeat_seconds=0.2) as (server, _):
        with Events(server.port) as events:
            events.until(lambda kind, data: kind == "frame")
            assert events.next(0.7) is None and events.comments >= 2


# -- seats and presses over the API ---------------------------------------------------------------

def test_asking_for_a_pin_scrolls_it_then_the_others_asking_wait_their_turn():
    with served(pin_show_seconds=1.0) as (server, console):
        pin = shown_pin(server, console)
        assert console.notes[-1] == f"web: http://127.0.0.1:{server.port}/  PIN {pin}"   # the terminal shows it too
        other = post(server.port, "/api/pin", {}, source="127.0.0.2")
        assert other.status == 202 and other.json() == {"shown": False, "seconds": 1}
        assert post(server.port, "/api/pin", {}, source="127.0.0.2").json()["seconds"] == 1   # asking again: the same
        mine = post(server.port, "/api/pin", {})                 # asked again: after 127.0.0.2
        assert mine.json() == {"shown": False, "seconds": 2} and console.pins == [pin]
        started = time.monotonic()
        wait_for(lambda: len(console.pins) == 3, timeout=5)       # one scroll a second, in the order asked
        assert time.monotonic() - started >= 1.5
        assert server.seating.pin_for("127.0.0.2") == console.pins[1]
        assert server.seating.pin_for("127.0.0.1") == console.pins[2]


def test_a_seat_then_presses_reach_the_game_with_the_seats_source():
    with served() as (server, console):
        token = seat(server, 2)
        assert console.seated == [2] and console.seats[2].kind == "phone"
        for direction in ("left", "right", "up", "down", "middle"):
            reply = post(server.port, "/api/press", {"token": token, "direction": direction})
            assert reply.status == 202 and reply.json() == {"seat": 2, "direction": direction}
        source = console.seats[2].source
        assert console.presses == [(d, source) for d in ("left", "right", "up", "down", "middle")]
        assert console.notes[-1] == f"web: http://127.0.0.1:{server.port}/"   # the PIN is spent: the terminal says so


def test_a_press_for_the_seat_not_to_move_changes_nothing():
    with served() as (server, console):
        token = seat(server, 2)
        server.feed.said(said(turn=1))
        wait_for(lambda: server.feed.status is not None)
        reply = post(server.port, "/api/press", {"token": token, "direction": "middle"})
        assert reply.status == 409 and reply.json()["error"] == "not_your_turn" and console.presses == []


def test_leaving_gives_the_seat_back():
    with served() as (server, console):
        token = seat(server, 1)
        reply = post(server.port, "/api/leave", {"token": token})
        assert reply.status == 200 and reply.json() == {"seat": 1, "left": True} and console.seats[1] is None
        assert post(server.port, "/api/press", {"token": token, "direction": "left"}).status == 403


HOSTILE_BODIES = [
    (b"{", 400, "bad_json"), (b"\xff\xfe", 400, "bad_json"), (b"[1, 2]", 400, "bad_request"),
    (b'"token"', 400, "bad_request"), (b"null", 400, "bad_request"), (b"[" * 500 + b"]" * 500, 400, "bad_request"),
    (b'{"token": "x", "direction": "left", "pad": "' + b" " * 1000 + b'"}', 413, "too_large"),
    (b'{"token": 5, "direction": "left"}', 403, "bad_token"),
    (b'{"token": ["x"], "direction": "left"}', 403, "bad_token"),
    (b'{"direction": "left"}', 403, "bad_token"),
    (b'{"token": "forged-token-forged-token", "direction": "left"}', 403, "bad_token"),
]


@pytest.mark.parametrize("body, status, code", HOSTILE_BODIES)
def test_bad_press_bodies_are_refused_and_press_nothing(body, status, code):
    with served() as (server, console):
        seat(server, 1)
        with Client(server.port) as client:
            reply = client.request("POST", "/api/press", raw_body=body, headers=[("Content-Type", "application/json")])
        assert (reply.status, reply.json()["error"]) == (status, code)
        assert console.presses == []


@pytest.mark.parametrize("direction", ["LEFT", "", "sideways", 1, None, ["left"], {"d": "left"}])
def test_a_direction_must_be_one_of_the_five(direction):
    with served() as (server, console):
        token = seat(server, 1)
        reply = post(server.port, "/api/press", {"token": token, "direction": direction})
        assert reply.status == 400 and console.presses == []


def test_a_replayed_token_after_the_match_ended_presses_nothing():
    with served() as (server, console):
        token = seat(server, 1)
        assert post(server.port, "/api/press", {"token": token, "direction": "left"}).status == 202
        console.seats.clear()
        for _ in range(3):
            reply = post(server.port, "/api/press", {"token": token, "direction": "left"})
            assert reply.status == 403 and reply.json()["error"] == "bad_token"
        assert len(console.presses) == 1


def test_presses_beyond_the_rate_are_429():
    with served(presses_per_second=5, press_burst=5) as (server, console):
        token = seat(server, 1)
        with Client(server.port) as client:
            codes = [client.request("POST", "/api/press", {"token": token, "direction": "left"}).status
                     for _ in range(8)]
        assert codes[:5] == [202] * 5 and set(codes[5:]) == {429} and len(console.presses) == 5


def test_a_flood_the_game_cannot_take_is_503():
    with served() as (server, console):
        token = seat(server, 1)
        console.accept = False
        reply = post(server.port, "/api/press", {"token": token, "direction": "left"})
        assert reply.status == 503 and reply.json()["error"] == "busy"


def test_thousands_of_pin_guesses_never_seat_anyone_and_check_three():
    with served(requests_per_second=100_000, request_burst=100_000) as (server, console):
        pin = shown_pin(server, console)
        guesses = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" != pin][:3000]
        codes = {}
        with Client(server.port) as client:
            for guess in guesses:
                reply = client.request("POST", "/api/seat", {"pin": guess, "seat": 1})
                codes[(reply.status, reply.json()["error"])] = codes.get((reply.status, reply.json()["error"]), 0) + 1
            assert client.request("POST", "/api/seat", {"pin": pin, "seat": 1}).json()["error"] == "no_pin"   # void
        assert codes == {(403, "bad_pin"): 3, (403, "no_pin"): 2997}
        assert console.seats.sitters() == (None, None) and server.seating.wrong_total == 3


# -- origin, host and content type ----------------------------------------------------------------

@pytest.mark.parametrize("headers, status", [
    ([("Origin", "http://evil.example")], 403),
    ([("Origin", "http://127.0.0.1:1")], 403),
    ([("Origin", "null")], 403),
    ([("Sec-Fetch-Site", "cross-site")], 403),
    ([("Sec-Fetch-Site", "same-site")], 403),
    ([], 200),                                          # no Origin: a program, not a browser
    ([("Sec-Fetch-Site", "same-origin")], 200),
])
def test_a_state_change_from_another_origin_is_refused(headers, status):
    with served() as (server, console):
        if status == 200:
            headers = headers + [("Origin", f"http://127.0.0.1:{server.port}")] * bool(headers)
        reply = post(server.port, "/api/seat", {"pin": shown_pin(server, console), "seat": 1}, headers=headers)
        assert reply.status == status
        assert (console.seats[1] is None) == (status == 403)
        if status == 403:
            assert reply.json()["error"] == "origin"


def test_a_state_change_must_be_json_so_a_form_on_another_site_cannot_send_it():
    with served() as (server, console):
        pin = shown_pin(server, console)
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            reply = post(server.port, "/api/seat", {"pin": pin, "seat": 1}, headers=[("Content-Type", kind)])
            assert reply.status == 415
        assert console.seats[1] is None


@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1:8080", True), ("192.168.1.20", True), ("[::1]:8080", True), ("[fe80::1]", True),
    ("raspberrypi:8080", True), ("raspberrypi.local", True), ("pi.home.arpa:80", True), ("localhost", True),
    ("evil.example", False), ("evil.example:8080", False), ("127.0.0.1.nip.io", False), ("", False),
    ("a b", False), ("[::1", False), ("host:99999", False), ("x" * 300, False), ("rasp_berry", False),
])
def test_only_lan_host_names_are_served(host, ok):
    assert lan_host(host) is ok


def test_a_request_for_a_public_host_name_is_refused():
    with served() as (server, _):
        reply = call(server.port, "GET", "/api/state", host="evil.example")
        assert reply.status == 403 and reply.json()["error"] == "host"


# -- limits and hostile requests --------------------------------------------------------------------

def test_a_body_over_the_limit_is_413_and_never_read():
    with served(body_bytes=1024) as (server, console):
        head = ("POST /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Content-Length: 100000000\r\n\r\n").encode()
        assert status_of(raw(server.port, head + b"{" * 1000)) == 413
        chunked = (b"POST /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n" + b"400\r\n" + b" " * 1024 + b"\r\n" + b"400\r\n" + b" " * 1024 + b"\r\n")
        assert status_of(raw(server.port, chunked)) == 413
        assert console.seats[1] is None


def test_headers_over_the_limit_are_431():
    with served(header_bytes=8192) as (server, _):
        answer = raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 10_000 + b"\r\n\r\n")
        assert status_of(answer) == 431
        many = b"".join(b"X-%d: y\r\n" % n for n in range(2000))
        assert status_of(raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + many + b"\r\n")) == 431


@pytest.mark.parametrize("data", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_http_is_answered_400_and_closed_and_the_server_goes_on(data):
    with served() as (server, console):
        answer = raw(server.port, data)
        assert status_of(answer) in (400, 505, 0) and b"Traceback" not in answer
        assert call(server.port, "GET", "/api/state").status == 200
        assert console.seats.sitters() == (None, None)


@pytest.mark.parametrize("digits", [21, 4301, 7000])
def test_a_content_length_of_thousands_of_digits_is_400(digits):
    """h11 0.16 refuses more than 20 digits; older h11 (Debian 12's 0.14) turned the number into an int and, past
    Python's 4300 digits, raised ValueError out of the parser: either way one 400, and the server goes on."""
    with served() as (server, _):
        answer = raw(server.port, b"POST /api/seat HTTP/1.1\r\nHost: x\r\nContent-Length: " + b"9" * digits +
                     b"\r\n\r\n")
        assert status_of(answer) == 400 and b"Traceback" not in answer
        assert call(server.port, "GET", "/api/state").status == 200


def test_a_slowloris_client_is_cut_off_and_blocks_no_one():
    with served(request_seconds=1.0) as (server, _):
        drips = []
        for _ in range(10):
            sock = connect(server.port)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            drips.append(sock)
        started = time.monotonic()
        for _ in range(6):                          # dripping a header every 0.2 s: still cut at 1 s
            for sock in drips:
                try:
                    sock.sendall(b"X-A: b\r\n")
                except OSError:
                    pass
            assert call(server.port, "GET", "/api/state").status == 200     # others are served meanwhile
            time.sleep(0.2)
        answers = [read_until_closed(sock, 3) for sock in drips]
        assert all(status_of(a) == 408 for a in answers), answers[0][:60]
        assert time.monotonic() - started < 4
        wait_for(lambda: server.http.counts.total == 0)


def test_half_open_and_idle_connections_are_closed_after_the_request_time():
    with served(request_seconds=0.5) as (server, _):
        silent = [connect(server.port) for _ in range(20)]
        with Client(server.port) as client:
            assert client.request("GET", "/api/state").status == 200
            assert server.http.counts.total == 21
            wait_for(lambda: server.http.counts.total == 0, timeout=3)
        assert all(read_until_closed(sock, 1) == b"" for sock in silent)   # never a byte: closed without a word
        for sock in silent:
            sock.close()


def closed_by_server(sock, wait=2.0):
    """What the server sent ``sock`` before it closed it (an end of file or a reset) within ``wait`` seconds;
    ``None`` if it did not close it."""
    got, deadline = b"", time.monotonic() + wait
    while True:
        ready, _, _ = select.select([sock], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return None
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk


def test_too_many_connections_from_one_address_are_503_and_streams_are_never_crowded_out_by_strangers():
    with served(per_address=4, connections=6) as (server, _):
        held = [connect(server.port) for _ in range(4)]
        wait_for(lambda: server.http.counts.total == 4)
        assert status_of(raw(server.port, b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n")) == 503
        for sock in held:
            sock.close()
        wait_for(lambda: server.http.counts.total == 0)
        streams = [Events(server.port, source=f"127.0.0.{n}") for n in range(2, 8)]   # every slot: spectators
        assert [s.status for s in streams] == [200] * 6
        assert status_of(raw(server.port, b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n", source="127.0.0.9")) == 503
        assert server.http.counts.streams == 6 and server.http.evicted == 0
        for s in streams:
            s.close()
        wait_for(lambda: server.http.counts.total == 0)
        assert call(server.port, "GET", "/api/state").status == 200


def test_when_every_slot_is_taken_the_connection_waiting_longest_for_a_request_gives_way():
    with served(per_address=4, connections=6) as (server, _):
        idle = []
        for n in range(6):                                    # 3 from 127.0.0.2, 3 from .3, oldest first
            idle.append(connect(server.port, source=f"127.0.0.{2 + n // 3}"))
            wait_for(lambda: server.http.counts.total == n + 1)
        clients = [Client(server.port, source="127.0.0.9") for _ in range(4)]
        for client in clients:
            assert client.request("GET", "/api/state").status == 200
        gone = [closed_by_server(sock, 1.0 if n < 4 else 0.3) for n, sock in enumerate(idle)]
        assert [answer is not None for answer in gone] == [True] * 4 + [False] * 2
        for answer in gone[:4]:                               # each told so: a request on its way is answered
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: 2\r\n" in head
            assert head.endswith(b"\r\nConnection: close") and json.loads(body)["error"] == "busy"
        assert server.http.evicted == 4 and server.http.counts.total == 6
        for sock in idle:
            sock.close()
        for client in clients:
            client.close()


def test_a_connection_refused_for_want_of_room_reads_its_503_even_with_its_request_already_sent():
    """Refused at once, a connection whose request has already arrived must still read its answer: closing a
    socket with unread data resets it, and a client may never see the 503 (a reset throws away what it has
    not read on some systems; Linux keeps it, so the reset itself is what is looked for here).  The server
    sends the 503, closes its end and reads on until the client closes."""
    with served(per_address=2, connections=4) as (server, _):
        held = [connect(server.port) for _ in range(2)]
        wait_for(lambda: server.http.counts.total == 2)
        body = b'{"pin": "1234", "seat": 1}'
        request = (b"POST /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        answers, resets = [], 0
        for _ in range(30):                                   # its request sent before the server even looks
            sock = connect(server.port)
            sock.sendall(request * 20)
            answers.append(read_until_closed(sock, 3))
            try:                                              # what it sends after: read and thrown away, ...
                sock.sendall(request)
                time.sleep(0.02)
                sock.recv(100)
                sock.sendall(request)
                time.sleep(0.02)
                sock.recv(100)
            except (ConnectionResetError, BrokenPipeError):   # ... never reset (a reset may lose the answer)
                resets += 1
            sock.close()
        for sock in held:
            sock.close()
        for answer in answers:
            head, _, rest = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: 10\r\n" in head, answer[:80]
            assert json.loads(rest) == {"error": "busy", "message": "too many connections from this device at once: "
                                                                       "close some"}
        assert server.http.refused == 30 and resets == 0
        wait_for(lambda: not server.http.refusing, timeout=3)                 # each gone once its client closed


def test_a_seated_phone_s_address_is_held_to_its_own_slots_and_makes_room_among_them():
    """A seated phone's address is not refused at ``per_address``: its newest connection takes the place of its
    own oldest waiting for a request; it never takes a stranger's at that limit."""
    with served(per_address=3, connections=20) as (server, _):
        seat(server, 1, source="127.0.0.20")
        time.sleep(0.05)
        mine = [connect(server.port, source="127.0.0.20") for _ in range(3)]
        wait_for(lambda: server.http.counts.by_address.get("127.0.0.20") == 3)
        with Client(server.port, source="127.0.0.20") as client:      # a fourth: the oldest gives way
            assert client.request("GET", "/api/state").status == 200
            assert server.http.counts.by_address["127.0.0.20"] == 3
            assert closed_by_server(mine[0], 1.0) is not None and closed_by_server(mine[2], 0.2) is None
        strangers = [connect(server.port, source="127.0.0.21") for _ in range(3)]
        wait_for(lambda: server.http.counts.by_address.get("127.0.0.21") == 3)
        assert status_of(raw(server.port, b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n", source="127.0.0.21")) == 503
        for sock in mine + strangers:
            sock.close()


class Held:
    """A connection as ``HttpServer.admit`` sees it: its address, when it began to wait, how readily it gives way
    (``None``: never: its request is being answered), whether bytes of a request wait in the kernel."""

    def __init__(self, peer, since, rank=None, arrived=False):
        self.peer, self.since, self.rank, self._arrived = peer, since, rank, arrived
        self.stream = self.link = None
        self.trusted_stream = False
        self.gave_way = False

    def giving_way(self, now):
        return self.rank

    def arrived(self):
        return self._arrived

    def give_way(self):
        self.gave_way = True


def test_a_seated_phone_comes_in_over_the_limit_when_no_stranger_s_connection_can_give_way():
    """Every slot held by strangers' requests being answered (or arriving): a stranger is refused, a seated
    phone's connection comes in all the same (bounded by its address's limit), and none is cut for it."""
    from gamelib.web.http import FRESH, IDLE, HttpServer

    server = HttpServer([], Limits(connections=3, per_address=2), trusted=lambda address: address == "127.0.0.20")
    held = [Held("127.0.0.2", 0.0), Held("127.0.0.3", 0.1, FRESH, arrived=True), Held("127.0.0.4", 0.2)]
    for connection in held:
        assert server.admit(connection)
    assert not server.admit(Held("127.0.0.5", 5.0))                     # a stranger: refused (503)
    phone = [Held("127.0.0.20", 5.0), Held("127.0.0.20", 5.1)]
    assert all(server.admit(connection) for connection in phone)        # the phone: in, over the limit
    assert server.counts.total == 5 and not any(c.gave_way for c in held)
    third = Held("127.0.0.20", 5.2)
    assert not server.admit(third)                                      # its own limit: nothing of its own to cut
    phone[0].rank = IDLE
    assert server.admit(third) and phone[0].gave_way                     # its own oldest idle gives way
    assert server.counts.by_address["127.0.0.20"] == 2 and server.evicted == 1


def test_a_seated_phone_s_streams_are_not_counted_against_the_strangers_limit():
    with served(streams=2) as (server, _):
        token = seat(server, 1, source="127.0.0.20")
        strangers = [Events(server.port, source=f"127.0.0.{n}") for n in (2, 3)]
        refused = Events(server.port, source="127.0.0.4")
        phone = Events(server.port, source="127.0.0.20", path=f"/api/events?token={token}")
        again = Events(server.port, source="127.0.0.20")                  # a second tab: the address is trusted
        assert [s.status for s in strangers] == [200, 200] and refused.status == 503
        assert (phone.status, again.status) == (200, 200)
        assert (server.http.counts.streams, server.http.counts.trusted_streams) == (4, 2)
        for s in strangers + [refused, phone, again]:
            s.close()
        wait_for(lambda: server.http.counts.streams == 0 and server.http.counts.trusted_streams == 0)


def test_requests_beyond_the_rate_of_one_address_are_429_and_its_connection_waits_out_the_retry():
    with served(requests_per_second=10, request_burst=10) as (server, _):
        with Client(server.port) as client:
            codes = [client.request("GET", "/api/state").status for _ in range(10)]
            refused = client.request("GET", "/api/state")
            started = time.monotonic()
            after = client.request("GET", "/api/state")      # not read until the Retry-After has passed
            waited = time.monotonic() - started
        assert codes == [200] * 10 and refused.status == 429 and refused.headers["retry-after"] == "1"
        assert refused.json() == {"error": "rate", "message": "too many requests: slow down"}
        assert after.status == 200 and 0.9 <= waited < 3
        assert call(server.port, "GET", "/api/state", source="127.0.0.9").status == 200   # another address


def test_a_client_pipelining_beyond_its_rate_gets_one_429_a_second_not_thousands():
    with served(requests_per_second=10, request_burst=10) as (server, _):
        sock = connect(server.port)
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 500)
        got = read_until_closed(sock, 0.8)
        sock.close()
        assert got.count(b"HTTP/1.1 200 ") == 10 and got.count(b"HTTP/1.1 429 ") == 1


def test_pipelined_requests_are_answered_in_order():
    with served() as (server, _):
        one = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        answer = raw(server.port, one * 3 + b"GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert answer.count(b"HTTP/1.1 200 ") == 3 and answer.count(b"HTTP/1.1 404 ") == 1
        assert answer.rindex(b"HTTP/1.1 404") > answer.rindex(b"HTTP/1.1 200")


def test_too_many_streams_are_503():
    with served(streams=3) as (server, _):
        streams = [Events(server.port) for _ in range(3)]
        extra = Events(server.port)
        assert [s.status for s in streams] == [200] * 3 and extra.status == 503
        for s in streams + [extra]:
            s.close()


def test_the_server_stops_cleanly_and_its_thread_ends():
    console = Console()
    server = WebServer(console, Address("127.0.0.1", 0)).start()
    events = Events(server.port)
    thread = server._thread
    server.close()
    assert not thread.is_alive()
    while events.next(2) is not None:
        pass
    assert events.ended
    events.close()
    with pytest.raises(OSError):
        call(server.port, "GET", "/")
    server.close()                                   # twice: nothing


def test_a_port_in_use_is_one_clear_error():
    with served() as (server, _):
        with pytest.raises(ServerError, match=r"--web 127.0.0.1:\d+: the port is in use by another program"):
            WebServer(Console(), Address("127.0.0.1", server.port)).start()
        assert [t.name for t in threading.enumerate()].count("gamelib-web") == 1   # the refused one's thread ended


def test_a_handler_that_fails_is_a_500_and_the_server_goes_on(monkeypatch):
    with served() as (server, console):
        def broken(direction, source):
            raise RuntimeError("boom")
        token = seat(server, 1)
        monkeypatch.setattr(console, "press", broken)
        reply = post(server.port, "/api/press", {"token": token, "direction": "left"})
        assert reply.status == 500 and reply.json() == {"error": "internal", "message": "something went wrong on the game's side"}
        assert call(server.port, "GET", "/api/state").status == 200


def test_json_bodies_are_compact_and_errors_say_what_is_wrong():
    with served() as (server, _):
        reply = post(server.port, "/api/seat", {"pin": "12", "seat": 1})
        assert reply.status == 400 and json.loads(reply.body) == {
            "error": "bad_request", "message": "pin must be a string of 4 digits (this device's PIN) or 8 (the pairing PIN)"}
