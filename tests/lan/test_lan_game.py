"""Two real game processes on loopback, each on its own emulator's files (``tests/helpers/lan_pis.py``): the guest
joins the host by address, the host's player accepts at its stick, they play a whole match with their own
sticks (exact frames on both Pis' LEDs, the guest's turned and dimmed as its own settings say), the
guest is killed mid-round and restarted and the round goes on where it was; both record the match with
the other side as a remote player; and when the host quits, the guest says so.  Loopback only."""
import signal

import pytest
from lan_pis import Pi, board, play

from gamelib.lan import screens
from gamelib.palette import palette as default_palette

RED, YELLOW = (255, 0, 0), (255, 255, 0)


def accepted(host, guest):
    """Bob offers a game on the host, Ann joins it by address, and Bob takes her with the middle button."""
    host.start("--lan", "127.0.0.1:0", "--names", "Bob")
    guest.start("--join", f"127.0.0.1:{host.port()}", "--names", "Ann")
    host.shows_any(screens.frames(screens.request("Ann", "127.0.0.1", default_palette())))
    host.tap("middle")


@pytest.mark.slow
def test_two_pis_play_a_whole_match_and_a_guest_killed_mid_round_comes_back(tmp_path):
    with Pi(tmp_path / "host") as host, Pi(tmp_path / "guest", rotation=90) as guest:
        host.start("--lan", "127.0.0.1:0", "--names", "Bob", "--matches", "1")
        port = host.port()
        host.shows_any(screens.frames(screens.offering(default_palette())))             # the waves: waiting for a guest
        guest.start("--join", f"127.0.0.1:{port}", "--names", "Ann", "--low-light")
        guest.shows_any(screens.frames(screens.asking(default_palette())))              # the hourglass: asking
        host.shows_any(screens.frames(screens.request("Ann", "127.0.0.1", default_palette())))   # ANN 127.0.0.1? at the host
        host.tap("middle")                                             # yes
        for pi in (host, guest):
            pi.shows(board("", 1))
        assert guest.emulator.gamma() != host.emulator.gamma()         # the guest's own brightness (low light)
        play(host, guest, "4545454", 1)                                 # round 1: Bob, four down column 4
        for pi in (host, guest):
            pi.shows(board("", 2))                                      # round 2: Ann starts
        play(host, guest, "4545454", 2)
        for pi in (host, guest):
            pi.shows(board("", 1))                                      # round 3: Bob starts
        play(host, guest, "454", 1)                                     # Ann to move ...
        guest.kill()                                                   # ... when her Pi dies
        guest.wait()
        host.shows_any(screens.frames(screens.away(default_palette())))                 # the host waits for her
        guest.start("--join", f"127.0.0.1:{port}", "--names", "Ann", "--low-light")
        for pi in (host, guest):                                       # back, without asking again
            pi.shows(board("454", 1))
        play(host, guest, "5454", 1, begun="454")                      # Bob wins 2-1
        assert host.wait() == 0 and guest.wait() == 0
        assert host.out() == guest.out() == "match 1: Bob wins 2-1\n"   # the restarted guest's line too
        assert guest.err.endswith("sensehat-c4: Bob stopped after 1 match\n"), guest.err
        for pi, remote, local in ((host, "2", "1"), (guest, "1", "2")):   # the restarted guest took its record up
            matches = pi.history()
            assert len(matches) == 1 and matches[0]["status"] == "finished" and matches[0]["winner"] == 1
            assert [r["moves"] for r in matches[0]["rounds"]] == ["4545454"] * 3
            players = matches[0]["players"]
            assert players[remote]["remote"] is True and players[local]["remote"] is False
            assert (players["1"]["name"], players["2"]["name"]) == ("Bob", "Ann")


@pytest.mark.slow
def test_when_the_host_quits_the_guest_says_so_at_once(tmp_path):
    with Pi(tmp_path / "host") as host, Pi(tmp_path / "guest") as guest:
        accepted(host, guest)
        guest.shows(board("", 1))
        host.tap("middle")                                             # Bob's first move
        guest.shows(board("4", 1))
        host.kill(signal.SIGTERM)
        assert host.wait() == 143
        assert guest.wait(15) == 0
        assert "sensehat-c4: Bob quit" in guest.err
        assert guest.emulator.pixels() == [(0, 0, 0)] * 64
        for pi in (host, guest):   # both keep the match, abandoned with its unfinished round
            matches = pi.history()
            assert [(m["status"], [r["moves"] for r in m["rounds"]]) for m in matches] == [("abandoned", ["4"])]
        assert guest.history()[0]["players"]["1"]["remote"] is True


@pytest.mark.slow
def test_when_the_guest_quits_the_host_says_so_at_once_and_waits_for_another(tmp_path):
    with Pi(tmp_path / "host") as host, Pi(tmp_path / "guest") as guest:
        accepted(host, guest)
        host.shows(board("", 1))
        guest.kill(signal.SIGTERM)                                     # Ctrl+C, q or systemctl stop at the guest
        assert guest.wait() == 143
        host.shows_any(screens.frames(screens.left("Ann", default_palette())), timeout=5)   # ANN LEFT, not the waiting screen
        host.shows_any(screens.frames(screens.offering(default_palette())), timeout=15)   # then it waits for another guest
        host.kill(signal.SIGTERM)
        assert host.wait() == 143 and host.out() == ""                # she left before a move: no match played
