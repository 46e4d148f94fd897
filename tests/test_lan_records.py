"""Both Pis record a match over the LAN, the other side a named remote player (``sensehat_c4/lan.py``:
``RecordTee``, ``GuestRecords``; ``records.py`` schema 3, ``stored.py``, ``history.py``): a whole match on the
mock with the guest's seat a :class:`~sensehat_c4.lan.RemotePlayer`, its record on the host and, through the
``game`` messages, on the guest; the migration; history and stats saying "remote"; a remote match never
offered for resuming; messages that make no sense dropped."""
import json
import sqlite3
import subprocess
import sys

from records_data import ticking

from gamelib.backends.mock import MockBackend
from sensehat_c4 import records
from sensehat_c4.controller import MatchOptions, play
from sensehat_c4.lan import GuestRecords, RecordTee, RemotePlayer
from sensehat_c4.players import Seats
from sensehat_c4.records import Recorder, Records
from sensehat_c4.resume import NotResumable, interrupted
from sensehat_c4.stored import BadRow, match_from_row

import pytest

GUEST = "lan:1"


class Session:
    source, gone = GUEST, False


def host_and_guest(tmp_path, script):
    """A match on the mock, seat 2 played by presses from the guest's source; the host's and the guest's files."""
    mock = MockBackend()
    script(mock)
    host_db, guest_db = tmp_path / "host.db", tmp_path / "guest.db"
    guest = GuestRecords(Recorder(guest_db, clock=ticking()), "hat", lambda: 2)
    tee = RecordTee(Recorder(host_db, clock=ticking()), guest.take)
    result = play(mock, MatchOptions(names=("Bob", "Ann")), recorder=tee,  # type: ignore[arg-type]
                  seats=Seats(second=RemotePlayer(Session())))
    tee.recorder.close()
    guest.close()
    guest.recorder.close()
    return result, host_db, guest_db


def bob_wins_two_rounds(mock):
    """Bob (the stick) four down column 4 in round 1, and again in round 2, which Ann (the guest) starts."""
    for round_moves, first in (("4545454", "stick"), ("54545434", GUEST)):
        mock.wait_until(mock._cursor + 5.0)                            # after the last round's result
        for i, move in enumerate(round_moves):
            source = first if i % 2 == 0 else (GUEST if first == "stick" else "stick")
            taps = {"4": ["middle"], "5": ["right", "middle"], "3": ["left", "middle"]}[move]
            mock.tap(*taps, at=mock._cursor + 1.0, source=source)


def test_both_files_keep_the_match_with_the_other_side_remote(tmp_path):
    result, host_db, guest_db = host_and_guest(tmp_path, bob_wins_two_rounds)
    assert (result.winner, result.score) == (1, (2, 0))
    with Records(host_db) as host, Records(guest_db) as guest:
        [mine], [theirs] = host.matches(), guest.matches()
    assert [(s.name, s.remote) for s in mine.sides] == [("Bob", False), ("Ann", True)]
    assert [(s.name, s.remote) for s in theirs.sides] == [("Bob", True), ("Ann", False)]
    for match in (mine, theirs):
        assert (match.status, match.winner, match.score) == ("finished", 1, (2, 0))
        assert [(r.number, r.starter, r.moves, r.result) for r in match.rounds] == [
            (1, 1, "4545454", "win"), (2, 2, "54545434", "win")]
    assert theirs.backend == "hat" and mine.backend == "mock"
    history = run("history", "--db", str(guest_db)).stdout
    assert "Bob (remote) v Ann  Bob (remote) wins 2-0" in history
    stats = run("stats", "--db", str(guest_db)).stdout
    assert stats.splitlines()[-2:] == [
        "remote player  matches: won lost abandoned   rounds: won drawn lost",
        "Bob                       1    0         0             2     0    0"]
    assert json.loads(run("stats", "--json", "--db", str(host_db)).stdout)["remote"] == {
        "Ann": {"matches": {"won": 0, "lost": 1, "abandoned": 0}, "rounds": {"won": 0, "drawn": 0, "lost": 2}}}
    assert json.loads(run("history", "--json", "--db", str(host_db)).stdout)[0]["players"]["2"] == {
        "name": "Ann", "level": None, "seconds": None, "colour": "#ffff00", "remote": True}


def run(*args):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True, timeout=60)


def test_the_match_so_far_comes_again_after_a_drop_and_each_move_is_kept_once(tmp_path):
    guest = GuestRecords(Recorder(tmp_path / "g.db", clock=ticking()), "hat", lambda: 2)
    sent = []
    tee = RecordTee(None, sent.append)
    from sensehat_c4.rules import Board
    from sensehat_c4.stored import Side
    tee.start_match((Side((255, 0, 0), "Bob"), Side((255, 255, 0), "Ann", remote=True)), columns=7, rows=6,
                    backend="mock")
    tee.start_round()
    for moves in ("4", "45", "454"):
        tee.played(1, 1, Board.from_moves(moves))
    for data in sent + tee.catch_up() + tee.catch_up():              # everything, then the catch-up twice more
        guest.take(json.loads(json.dumps(data)))
    assert tee.catch_up() == [{**sent[0], "rounds": [{"number": 1, "starter": 1, "moves": "454"}]}]
    assert guest.recorded == {1: "454"}
    guest.close()
    guest.recorder.close()
    with Records(tmp_path / "g.db") as stored:
        [match] = stored.matches()
    assert (match.status, [r.moves for r in match.rounds]) == ("abandoned", ["454"])


def test_game_messages_that_make_no_sense_are_dropped(tmp_path, caplog):
    guest = GuestRecords(Recorder(tmp_path / "g.db"), "hat", lambda: 2)
    for data in ({"event": "played", "match": 1, "number": 1, "starter": 1, "moves": "4"},   # no match yet
                 {"event": "match", "match": "x"},
                 {"event": "match", "match": 1, "columns": 99, "rows": 6, "sides": []},
                 {"event": "match", "match": 2, "columns": 7, "rows": 6,
                  "sides": [{"colour": "#ff0000", "name": "\x1b[2J"}, {"colour": "#ffff00", "name": "Ann"}]}):
        guest.take(data)
    assert guest.size is None and len(caplog.records) == 4
    guest.take({"event": "match", "match": 3, "columns": 7, "rows": 6, "rounds": [],
                "sides": [{"colour": "#ff0000", "name": "Bob"}, {"colour": "#ffff00", "name": "Ann"}]})
    guest.take({"event": "played", "match": 3, "number": 1, "starter": 1, "moves": "4444444"})   # not a game
    assert guest.recorded == {} and len(caplog.records) == 5


def test_schema_3_adds_the_remote_sides_and_older_files_read_as_none(tmp_path):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(str(path))
    for script in records.MIGRATIONS[:2]:
        conn.executescript(script)
    conn.execute("PRAGMA user_version = 2")
    conn.execute(f"PRAGMA application_id = {records.APPLICATION_ID}")
    conn.execute("INSERT INTO matches (started, ended, status, winner, columns, rows, backend, p1_name, p1_colour, "
                 "p2_colour) VALUES ('2026-01-01T10:00:00Z', '2026-01-01T10:09:00Z', 'finished', 1, 7, 6, 'hat', "
                 "'Ann', '#ff0000', '#ffff00')")
    conn.execute("INSERT INTO rounds (match_id, number, starter, moves, result, winner, winning_cells, started, ended) "
                 "VALUES (1, 1, 1, '1212121', 'win', 1, '[[1, 1], [1, 2], [1, 3], [1, 4]]', "
                 "'2026-01-01T10:01:00Z', '2026-01-01T10:02:00Z')")
    conn.commit()
    conn.close()
    with Records(path) as stored:                                       # read as it is: nobody remote
        assert [s.remote for s in stored.matches()[0].sides] == [False, False]
    recorder = Recorder(path, clock=ticking())
    assert recorder.interrupted() is None
    recorder.close()
    conn = sqlite3.connect(str(path))
    assert conn.execute("PRAGMA user_version").fetchone() == (3,)
    assert conn.execute("SELECT p1_remote, p2_remote FROM matches").fetchall() == [(0, 0)]
    conn.close()


def test_a_remote_side_is_a_person_and_a_remote_match_is_never_resumed(tmp_path):
    row = {"id": 1, "started": "2026-01-01T10:00:00Z", "ended": None, "status": "playing", "winner": None,
           "columns": 7, "rows": 6, "backend": "hat", "p1_name": "Ann", "p1_level": None, "p1_seconds": None,
           "p1_colour": "#ff0000", "p2_name": None, "p2_level": "hard", "p2_seconds": 1.0, "p2_colour": "#ffff00",
           "starts": "alternate", "wins": 2, "p1_remote": 0, "p2_remote": 1}
    with pytest.raises(BadRow, match="p2_remote with p2_level 'hard': the computer plays at this Pi"):
        match_from_row(row)
    with pytest.raises(BadRow, match="p1_remote 2 is not one of 0, 1"):
        match_from_row({**row, "p1_remote": 2, "p2_remote": 0})
    match = match_from_row({**row, "p2_name": "Bob", "p2_level": None, "p2_seconds": None})
    with pytest.raises(NotResumable, match="it was played with another Pi over the LAN"):
        interrupted(match)


def test_the_host_checks_every_move_the_guests_presses_out_of_turn_or_into_a_full_column_do_nothing(tmp_path):
    from gamelib.colours import RED, YELLOW
    from sensehat_c4 import render
    from sensehat_c4.rules import Board

    mock = MockBackend()
    mock.tap("right", "middle", at=1.0, source=GUEST)                # Bob's turn: the guest's presses do nothing
    mock.tap("left", "left", "left", "middle", at=2.0, gap=0.1)      # Bob: column 1
    for i in range(6):                                                # then column 4 filled up, in turn
        mock.tap("middle", at=3.0 + i, source=GUEST if i % 2 == 0 else "stick")
    mock.tap("middle", at=9.5, source=GUEST)                          # Ann into the full column: it flashes
    mock.tap("up", at=12.0)
    mock.tap("up", at=12.3)
    result = play(mock, MatchOptions(), seats=Seats(second=RemotePlayer(Session())))
    assert result.abandoned
    frames = [f for _, f in mock.frames]
    palette = render.Palette(RED, YELLOW)
    assert frames[0] == tuple(render.board_frame(Board(), palette, cursor=3))
    before_bob = [f for t, f in mock.frames if t < 2.0]
    assert set(before_bob) == {frames[0]}                             # nothing moved before Bob's press
    full = Board.from_moves("1444444")
    flash = [tuple(f) for f, _ in render.flash_column(full, 3, palette, YELLOW, 2, 0.1)]
    assert flash[0] in frames and not full.can_play(3)
    assert tuple(render.board_frame(full, palette, cursor=3)) in [f for t, f in mock.frames if t > 9.6]   # still Ann's
