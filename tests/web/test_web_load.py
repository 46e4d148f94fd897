"""The web view under load, on the real program (``sensehat-c4 --backend emu --web``, the emulator's files in a
sandbox): 100 spectators at once, each from its own loopback address, all get every frame while the game
plays at the stick, and hostile requests sent meanwhile change nothing: the game plays on and the server
answers.  Loopback only (127.0.0.0/8)."""
import signal
import subprocess
import sys
import threading
import time

from emu_sandbox import child_env, lit
from browser import read_address
from web_client import MALFORMED, Client, Spectators, call, connect, raw, status_of

from sensehat_c4.match import render
from sensehat_c4.rules import Board

P = render.Palette()
SPECTATORS = 100


def board(moves, cursor=3):
    return lit(render.board_frame(Board.from_moves(moves), P, cursor=cursor))


def hostile(port, outcomes, stop):
    """Everything a hostile client on the LAN might send, from addresses 127.0.0.200 and up, until ``stop``."""
    def count(what, status):
        outcomes.setdefault(what, {}).setdefault(status, 0)
        outcomes[what][status] += 1

    idle = [connect(port, source="127.0.0.200") for _ in range(20)]          # half-open: connect, say nothing
    drips = []
    for _ in range(10):                                                      # slowloris
        sock = connect(port, source="127.0.0.201")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        drips.append(sock)
    floods = []
    for _ in range(60):                                                      # more connections than allowed
        try:
            floods.append(connect(port, source="127.0.0.202"))
        except OSError:
            count("connection flood", "refused")
    try:
        rounds = 0
        while rounds < 1 or (not stop.is_set() and rounds < 3):
            rounds += 1
            for data in MALFORMED:
                count("malformed HTTP", status_of(raw(port, data, source="127.0.0.203")))
            head = b"POST /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            count("huge body", status_of(raw(port, head + b"Content-Length: 100000000\r\n\r\n{", source="127.0.0.204")))
            count("huge headers", status_of(raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 20000 + b"\r\n\r\n",
                                                source="127.0.0.204")))
            with Client(port, source="127.0.0.205") as client:
                for body in (b"{", b"[]", b'{"pin": 1234, "seat": 1}', b'{"pin": "1234", "seat": "1"}', b"null"):
                    reply = client.request("POST", "/api/seat", raw_body=body,
                                           headers=[("Content-Type", "application/json")])
                    count("bad JSON and wrong types", reply.status)
                for token in ("forged", "x" * 64, "", "A" * 32):
                    reply = client.request("POST", "/api/press", {"token": token, "direction": "down"})
                    count("forged tokens", reply.status)
                reply = client.request("POST", "/api/seat", {"pin": "1234", "seat": 1},
                                       headers=[("Origin", "http://evil.example")])
                count("another site's page", reply.status)
            for n in range(4):                                               # PIN guesses from four addresses
                with Client(port, source=f"127.0.0.{206 + n}") as client:
                    if n == 0:                                               # one asked for a PIN (the LEDs scroll it)
                        count("asking for a PIN", client.request("POST", "/api/pin", {}).status)
                    for guess in range(250):
                        reply = client.request("POST", "/api/seat", {"pin": f"{(guess * 37 + n) % 10000:04d}", "seat": 2})
                        count("PIN guesses", (reply.status, reply.json()["error"]))
            for sock in drips:
                try:
                    sock.sendall(b"X-A: b\r\n")
                except OSError:
                    count("slowloris", "cut off")
    finally:
        for sock in idle + drips + floods:
            sock.close()


def test_a_hundred_spectators_get_every_frame_and_hostile_clients_change_nothing(emulator, emu_dir):
    game = subprocess.Popen(
        [sys.executable, "-m", "sensehat_c4", "--backend", "emu", "--opponent", "human", "--web", "127.0.0.1:0"],
        env=child_env(emu_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    spectators = None
    try:
        emulator.wait_client()
        port = int(read_address(game).rsplit(":", 1)[1].rstrip("/"))
        emulator.wait_screen(lambda px: px == board(""))
        spectators = Spectators(port, SPECTATORS)
        deadline = time.monotonic() + 30
        while not all(s["frame"] is not None for s in spectators.streams):
            assert time.monotonic() < deadline, "not every spectator got the first frame"
            time.sleep(0.05)
        assert {s["status"] for s in spectators.streams} == {200}
        outcomes, stop = {}, threading.Event()
        attack = threading.Thread(target=hostile, args=(port, outcomes, stop))
        attack.start()
        moves = ""
        for column in (4, 4, 4, 4, 3, 3, 3, 3, 5, 5):                     # the stick plays on meanwhile (no four)
            emulator.wait_screen(lambda px: px == board(moves), timeout=15)
            steps = column - 4
            emulator.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps))
            emulator.wait_screen(lambda px: px == board(moves, column - 1), timeout=15)
            emulator.tap("down")
            moves += str(column)
        emulator.wait_screen(lambda px: px == board(moves), timeout=15)
        stop.set()
        attack.join(120)
        state = call(port, "GET", "/api/state").json()                   # the server answers
        assert state["seating"]["seats"] == [{"seat": 1, "taken": False, "kind": None},
                                             {"seat": 2, "taken": False, "kind": None}]   # no seat was taken
        last = state["seq"]
        deadline = time.monotonic() + 30
        while not all(s["seqs"] and s["seqs"][-1] == last for s in spectators.streams):
            assert time.monotonic() < deadline, "a spectator did not get the last frame"
            time.sleep(0.05)
        for stream in spectators.streams:                                 # every one got every frame, in order
            seqs = stream["seqs"]
            assert seqs == list(range(seqs[0], last + 1))
            assert [tuple(p) for p in stream["frame"]] == [tuple(p) for p in
                                                           render.board_frame(Board.from_moves(moves), P, cursor=3)]
        assert last - spectators.streams[0]["seqs"][0] > 50              # cursors and falls: many frames
        # what the hostile clients got
        assert set(outcomes["malformed HTTP"]) <= {400, 505, 0}
        assert set(outcomes["huge body"]) == {413} and set(outcomes["huge headers"]) == {431}
        assert set(outcomes["bad JSON and wrong types"]) == {400}
        assert set(outcomes["forged tokens"]) == {403} and set(outcomes["another site's page"]) == {403}
        assert set(outcomes["PIN guesses"]) <= {(403, "no_pin"), (403, "bad_pin"), (429, "rate")}
        assert outcomes["PIN guesses"].get((403, "bad_pin"), 0) <= 9     # 3 checked per PIN shown, 3 rounds at most
        assert set(outcomes["asking for a PIN"]) == {202}
        print("\nhostile requests and what they got:", outcomes)
        game.send_signal(signal.SIGTERM)
        out, err = game.communicate(timeout=30)
        assert game.returncode == 143 and "Traceback" not in err
    finally:
        if spectators is not None:
            spectators.close()
        game.kill()
        game.wait()
