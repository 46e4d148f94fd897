"""The guest's side of the LAN protocol against a hostile host (``gamelib/lan/guest.py``, ``protocol.py``,
``flows.py``, ``sensehat_c4/lan/``): a fake host on loopback (``lan_fakehost.py``) sends what another Pi
could, and the real guest (its :class:`~gamelib.lan.guest.GuestLink`, then the whole ``sensehat-c4 --join``
in a terminal) checks every line as strictly as the host checks the guest's: one line and exit 1 for a
host that breaks the protocol, never a traceback, a hang or the host's escape sequences on the terminal;
the guest's records say only what its own boards do; its result lines and last words are printed where
they stay.  Loopback only."""
import json
import time

import pytest
from emu_sandbox import child_env
from lan_fakehost import TOKEN, FakeHost
from pty_terminal import PtyProgram, game, hex_colours, leds, TRUECOLOR, start

from gamelib.backends.terminal_screen import LEAVE
from gamelib.lan import guest as g
from gamelib.lan import protocol as p
from gamelib.web.limits import Limits
from sensehat_c4.lan.messages import check_game

LIMITS = Limits(ping_seconds=0.2, silent_seconds=3.0, away_seconds=2.0)
SIDES = [{"colour": "#ff0000", "name": "Bob"}, {"colour": "#ffff00", "name": "Ann"}]
GREY = [[9, 9, 9]] * 64


def events(link, kinds, timeout=10.0):
    """The link's events until one of ``kinds`` (all of them, that one last)."""
    got = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got += link.take()
        if got and got[-1].kind in kinds:
            return got
        time.sleep(0.01)
    raise AssertionError(f"no {kinds} event; got {got}")


def welcomed(fake, **link_options):
    """A real guest's link to the fake host, asked and welcomed (as Bob's, seat 2)."""
    link = g.GuestLink("127.0.0.1", fake.port, name="Ann", game="connect4", limits=LIMITS, check_game=check_game,
                       **link_options).start()
    host = fake.link()
    assert host.hello == {"type": "hello", "version": 1, "game": "connect4", "name": "Ann", "token": None}
    host.send({"type": "asking"})
    host.welcome()
    assert [e.kind for e in events(link, (g.WELCOME,))] == [g.ASKING, g.WELCOME]
    return link, host


# -- every line from the host is checked ----------------------------------------------------------------

HOSTILE = [   # (what, the line after welcome, the guest's one line)
    ("Infinity in a game message", b'{"type":"game","data":{"event":"match","match":1,"columns":Infinity}}\n',
     "a line is not UTF-8 JSON"),
    ("NaN", b'{"type":"frame","seq":NaN,"pixels":[]}\n', "a line is not UTF-8 JSON"),
    ("a number that overflows", b'{"type":"frame","seq":1e999,"pixels":[]}\n', "a line is not UTF-8 JSON"),
    ("JSON 10,000 deep", b'{"type":"state","status":' + b"[" * 10000 + b"\n", "a line is not UTF-8 JSON"),
    ("a name the LEDs cannot show", json.dumps({"type": "welcome", "token": TOKEN, "seat": 2, "host": "Bob_<~>",
                                                "resumed": True}).encode() + b"\n",
     "host must be a player's name (letters, digits, 12 at most)"),
    ("a name of 15,000 characters", json.dumps({"type": "welcome", "token": TOKEN, "seat": 2, "host": "B" * 15000,
                                                "resumed": True}).encode() + b"\n",
     "host must be a player's name (letters, digits, 12 at most)"),
    ("an escape in a name", json.dumps({"type": "welcome", "token": TOKEN, "seat": 2, "host": "\x1b[2JBob",
                                        "resumed": True}).encode() + b"\n",
     "host must be a player's name (letters, digits, 12 at most)"),
    ("a seat that is true", json.dumps({"type": "welcome", "token": TOKEN, "seat": True, "host": "Bob",
                                        "resumed": True}).encode() + b"\n", "seat must be one of 1, 2"),
    ("a guest's message", b'{"type":"hello","version":1,"game":"connect4","name":"M","token":null}\n',
     "no message of type 'hello' goes this way"),
    ("a state with 40 fields", json.dumps({"type": "state", "status": {
        "phase": "x", "text": "y", **{f"k{i}": i for i in range(40)}}}).encode() + b"\n",
     "state's status has more than 32 fields"),
    ("an error code that is no word", b'{"type":"error","error":"\\u001b]0;x\\u0007","message":""}\n',
     "error must be an error's code"),
    ("a match of 99 columns", json.dumps({"type": "game", "data": {
        "event": "match", "match": 1, "columns": 99, "rows": 6, "starts": "alternate", "wins": 2, "rounds": [],
        "sides": SIDES}}).encode() + b"\n", "columns must be 4 to 8"),
    ("a side named with an escape", json.dumps({"type": "game", "data": {
        "event": "match", "match": 1, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2, "rounds": [],
        "sides": [{"colour": "#ff0000", "name": "\x1b]52;c;eA==\x07"}, SIDES[1]]}}).encode() + b"\n",
     "name must be a player's name (letters, digits, 12 at most)"),
    ("a side's colour in capitals (the records keep #rrggbb)", json.dumps({"type": "game", "data": {
        "event": "match", "match": 1, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2, "rounds": [],
        "sides": [{"colour": "#FF0000", "name": "Bob"}, SIDES[1]]}}).encode() + b"\n", "a side's colour is #rrggbb"),
    ("moves that are no columns", json.dumps({"type": "game", "data": {
        "event": "played", "match": 1, "number": 1, "starter": 1, "moves": "4-5", "match_winner": None}}).encode()
     + b"\n", "a round's moves are column digits"),
]


@pytest.mark.parametrize("what, line, said", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_host_that_breaks_the_protocol_is_one_line_and_the_link_ends(what, line, said):
    with FakeHost() as fake:
        link, host = welcomed(fake)
        try:
            host.send(line)
            got = events(link, (g.FAILED,))
            assert got[-1].why == f"the host at 127.0.0.1 broke the LAN protocol: {said}"
            assert host.closed() == []                                 # the guest closed the link
            link._thread.join(3)
            assert not link._thread.is_alive()                         # and tries nothing again
        finally:
            link.close()


def test_a_refusal_nested_8000_deep_is_one_line_not_a_dead_thread():
    with FakeHost() as fake:
        link = g.GuestLink("127.0.0.1", fake.port, name="Ann", game="connect4", limits=LIMITS).start()
        with link:
            fake.link(answer=b"HTTP/1.1 403 Forbidden\r\nContent-Length: 8000\r\n\r\n" + b"[" * 8000)
            got = events(link, (g.FAILED,))
            assert [e.kind for e in got] == [g.FAILED]
            assert got[-1].why == f"127.0.0.1:{fake.port} answered 403: no reason given"


def test_a_refusals_message_is_cut_to_200_characters_and_any_json_but_an_object_is_no_message():
    assert p.answer_text(json.dumps({"message": "x" * 5000}).encode()) == "x" * 200
    for body in (b"[" * 8000, b'"text"', b"NaN", b'{"message": 5}', b"\xff", b'{"message": Infinity}'):
        assert p.answer_text(body) == "", body


def test_a_bug_in_the_links_thread_ends_the_visit_in_one_line(monkeypatch):
    def broken(self, line):
        raise ZeroDivisionError("division by zero")

    with FakeHost() as fake:
        link, host = welcomed(fake)
        monkeypatch.setattr(g.GuestLink, "_line", broken)
        try:
            host.frame(GREY)
            got = events(link, (g.FAILED,))
            assert got[-1].why == f"the link to 127.0.0.1:{fake.port} failed: ZeroDivisionError: division by zero"
        finally:
            link.close()


# -- the whole guest, sensehat-c4 --join in a terminal ---------------------------------------------------

def joining(sandbox, fake, *, stderr_on_terminal=False):
    """``sensehat-c4 --backend terminal --join 127.0.0.1:PORT --names Ann`` in a 60x18 terminal."""
    if not stderr_on_terminal:
        return start(sandbox, "--backend", "terminal", "--join", f"127.0.0.1:{fake.port}", "--names", "Ann",
                     columns=60, lines=18)
    env = child_env(sandbox)
    for name in ("TERM", "COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"):
        env.pop(name, None)
    env.update(TRUECOLOR)
    return PtyProgram(game("--backend", "terminal", "--join", f"127.0.0.1:{fake.port}", "--names", "Ann"),
                      columns=60, lines=18, env=env, stderr_on_terminal=True)


def ends(program, timeout=10.0):
    """The program's exit code and standard error, once it has ended (fails if it does not in time)."""
    err = program.finish(timeout)
    assert program.process.poll() is not None, f"still running after {timeout} s; screen:\n{program.text()}"
    return program.process.returncode, err


def welcome_then(*lines):
    return lambda fake: [fake.send({"type": "asking"}), fake.welcome(), *[fake.send(line) for line in lines]]


BREAKING = [   # the probes: each a traceback (exit 1) or a hang before
    ("Infinity in the game message", welcome_then(
        b'{"type":"game","data":{"event":"match","match":1,"columns":Infinity,"rows":6,"sides":[]}}\n'),
     "the host at 127.0.0.1 broke the LAN protocol: a line is not UTF-8 JSON"),
    ("a host name the font lacks, then end", lambda fake: [
        fake.send({"type": "asking"}), fake.welcome("Bob_<~>"), fake.end()],
     "the host at 127.0.0.1 broke the LAN protocol: host must be a player's name (letters, digits, 12 at most)"),
    ("a host name of 15,000 characters, then end", lambda fake: [
        fake.send({"type": "asking"}), fake.welcome("B" * 15000), fake.end()],
     "the host at 127.0.0.1 broke the LAN protocol: host must be a player's name (letters, digits, 12 at most)"),
]


@pytest.mark.parametrize("what, script, said", BREAKING, ids=[b[0] for b in BREAKING])
def test_a_host_that_breaks_the_protocol_ends_the_guest_with_one_line_and_exit_1(sandbox, what, script, said):
    with FakeHost() as fake:
        program = joining(sandbox, fake)
        try:
            script(fake.link())
            code, err = ends(program)
            assert (code, err) == (1, f"sensehat-c4: {said}\n")
        finally:
            program.close()


def test_an_answer_nested_8000_deep_ends_the_guest_with_one_line_not_asking_for_ever(sandbox):
    with FakeHost() as fake:
        program = joining(sandbox, fake)
        try:
            fake.link(answer=b"HTTP/1.1 403 Forbidden\r\nContent-Length: 8000\r\n\r\n" + b"[" * 8000)
            assert ends(program) == (1, f"sensehat-c4: 127.0.0.1:{fake.port} answered 403: no reason given\n")
        finally:
            program.close()


TITLE = "\x1b]0;pwned\x07"
PROMPT = "\x1b[2J\x1b[1;1Htype your password: "
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"


def test_the_hosts_words_reach_the_terminal_without_their_escape_sequences(sandbox):
    with FakeHost() as fake:
        program = joining(sandbox, fake)
        try:
            host = fake.link()
            host.send({"type": "asking"})
            host.welcome()
            host.frame(GREY)
            program.wait_for(lambda p: leds(p.screen) == hex_colours([tuple(pixel) for pixel in GREY]),
                             what="the host's frame")
            clears = program.output.count(b"\x1b[2J")
            host.state(phase="result", caption=f"{TITLE}{PROMPT}{CLIPBOARD}Bob wins", text=f"{TITLE}{PROMPT}")
            program.wait_for(lambda p: any("type your password: Bob wins" in line for line in p.screen.display),
                             what="the caption, on the status line")
            seats = [{"name": f"{TITLE}Bob{CLIPBOARD}", "colour": "red", "level": None, "kind": "stick"},
                     {"name": "Ann", "colour": "yellow", "level": None, "kind": "stick"}]
            host.state(caption="ignored: a turn's caption is the guest's own", turn=1, seats=seats)
            program.wait_for(lambda p: any("waiting for Bob (red) at the other Pi" in line for line in p.screen.display),
                             what="the turn's caption from the guest's side, with the host's name in it")
            assert leds(program.screen) == hex_colours([tuple(pixel) for pixel in GREY])   # the board is still there
            assert program.output.count(b"\x1b[2J") == clears                          # the screen was not cleared
            host.end("quit", f"{TITLE}Bob quit{CLIPBOARD}")
            code, err = ends(program)
            assert (code, err) == (0, "sensehat-c4: \\x1b]0;pwned\\x07Bob quit\\x1b]52;c;cm0gLXJmIH4=\\x07\n")
        finally:
            program.close()
        assert program.screen.title == ""                             # never set
        assert b"\x1b]" not in program.output and b"pwned" not in program.output   # no OSC (title, clipboard)


def test_a_refusal_with_escape_sequences_is_shown_without_them(sandbox):
    with FakeHost() as fake:
        program = joining(sandbox, fake)
        try:
            host = fake.link()
            host.send({"type": "asking"})
            host.refused("refused", f"{TITLE}{PROMPT}{CLIPBOARD}no")
            program.wait_for(lambda p: any("refused: type your password: no" in line for line in p.screen.display),
                             what="the refusal, on the status line")
            code, err = ends(program)
            assert code == 1 and err.startswith("sensehat-c4: \\x1b]0;pwned\\x07") and err.count("\n") == 1
        finally:
            program.close()
        assert program.screen.title == "" and b"\x1b]" not in program.output


def full_match(host, match=1, winner=1):
    """The game messages of a match ``winner`` takes 2-0 with four down column 4 (the host's player is seat 1)."""
    host.game({"event": "match", "match": match, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2,
               "rounds": [], "sides": SIDES})
    for number, starter in ((1, 1), (2, 2)):
        moves = "4545454" if starter == winner else "1454545" + "4"   # the loser's first move elsewhere
        host.game({"event": "round", "match": match})
        for k in range(1, len(moves) + 1):
            done = number == 2 and k == len(moves)
            host.game({"event": "played", "match": match, "number": number, "starter": starter, "moves": moves[:k],
                       "match_winner": winner if done else None})
    host.game({"event": "end_match", "match": match, "winner": winner})


def test_the_guest_prints_each_matchs_line_and_the_hosts_quitting_after_the_board_has_gone(sandbox):
    with FakeHost() as fake:
        program = joining(sandbox, fake, stderr_on_terminal=True)
        try:
            host = fake.link()
            host.send({"type": "asking"})
            host.welcome()
            host.frame(GREY)
            full_match(host)
            host.game({"event": "match", "match": 2, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2,
                       "rounds": [], "sides": SIDES})                  # the next match begins, then Bob quits
            program.wait_for(lambda p: any("match 1: Bob wins 2-0" in line for line in p.screen.display),
                             what="the match's line under the board")
            host.end("quit", "Bob quit")
            assert ends(program)[0] == 0
        finally:
            program.close()
        after = program.output[program.output.rindex(LEAVE.encode()) + len(LEAVE):].decode()
        assert after == "match 1: Bob wins 2-0\r\nsensehat-c4: Bob quit\r\n"      # on the terminal's own screen
