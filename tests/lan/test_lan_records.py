"""Both Pis record a match over the LAN, the other side a named remote player (``sensehat_c4/lan/``:
``RecordTee``, ``GuestRecords``; ``records/`` schema 3, ``records/rows.py``, ``study/history.py``): a whole match on the
mock with the guest's seat a :class:`~sensehat_c4.lan.remote.RemotePlayer`, its record on the host and, through the
``game`` messages, on the guest; the migration; history and stats saying "remote"; a remote match never
offered for resuming; messages that make no sense dropped; the guest's winners from its own boards, not the
host's word; at most 100 matches a session; a match left before a move, none on either side."""
import json
import logging
import sqlite3
import subprocess
import sys

from records_data import ticking

from gamelib.backends.mock import MockBackend
from sensehat_c4 import records
from sensehat_c4.match.controller import MatchOptions, play
from sensehat_c4.lan.records import MAX_MATCHES, GuestRecords, RecordTee
from sensehat_c4.lan.remote import RemotePlayer
from sensehat_c4.match.players import Seats
from sensehat_c4.records import MatchStatus, Recorder, Records, RoundResult
from sensehat_c4.match.resume import NotResumable, interrupted
from sensehat_c4.rules import Board
from sensehat_c4.records.rows import BadRow, Side, match_from_row

import pytest

GUEST = "lan:1"


class Session:
    source, gone = GUEST, False


@pytest.fixture(autouse=True)
def warnings_seen(caplog):
    """The guest's warnings reach caplog whatever level an earlier test (test_resume's launcher path) left
    on the root logger."""
    caplog.set_level(logging.WARNING, logger="sensehat_c4")


def host_and_guest(tmp_path, script):
    """A match on the mock, seat 2 played by presses from the guest's source; the host's and the guest's files."""
    mock = MockBackend()
    script(mock)
    host_db, guest_db = tmp_path / "host.db", tmp_path / "guest.db"
    lines = []
    guest = GuestRecords(Recorder(guest_db, clock=ticking()), "hat", lambda: 2,
                         report=lambda result, names: lines.append(result.summary(names)))
    tee = RecordTee(Recorder(host_db, clock=ticking()), guest.take)
    result = play(mock, MatchOptions(names=("Bob", "Ann")), recorder=tee,  # type: ignore[arg-type]
                  seats=Seats(second=RemotePlayer(Session())))
    tee.recorder.close()
    guest.close()
    guest.recorder.close()
    assert lines == [result.summary(("Bob", "Ann"))]                 # the guest's line is the host's
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
        assert (match.status, match.winner, match.score) == (MatchStatus.FINISHED, 1, (2, 0))
        assert [(r.number, r.starter, r.moves, r.result) for r in match.rounds] == [
            (1, 1, "4545454", RoundResult.WIN), (2, 2, "54545434", RoundResult.WIN)]
    assert theirs.backend == "hat" and mine.backend == "mock"
    history = run("history", "--db", str(guest_db)).stdout
    assert "Bob (remote) v Ann  Bob (remote) wins 2-0" in history
    stats = run("stats", "--db", str(guest_db)).stdout
    assert stats.splitlines()[-2:] == [
        "remote player  matches: won lost abandoned   rounds: won drawn lost",
        "Bob                       1    0         0             2     0    0"]
    assert json.loads(run("stats", "--json", "--db", str(host_db)).stdout)["remote"] == {
        "Ann": {"matches": {"won": 0, "lost": 1, "abandoned": 0}, "rounds": {"won": 0, "drawn": 0, "lost": 2},
                "helped": 0}}
    assert json.loads(run("history", "--json", "--db", str(host_db)).stdout)[0]["players"]["2"] == {
        "name": "Ann", "level": None, "seconds": None, "colour": "#ffff00", "remote": True}


def run(*args):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True, timeout=60)


def test_the_match_so_far_comes_again_after_a_drop_and_each_move_is_kept_once(tmp_path):
    guest = GuestRecords(Recorder(tmp_path / "g.db", clock=ticking()), "hat", lambda: 2)
    sent = []
    tee = RecordTee(None, sent.append)
    from sensehat_c4.rules import Board
    from sensehat_c4.records.rows import Side
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
    assert (match.status, [r.moves for r in match.rounds]) == (MatchStatus.ABANDONED, ["454"])


SIDES = [{"colour": "#ff0000", "name": "Bob"}, {"colour": "#ffff00", "name": "Ann"}]


def match_event(match=1, **more):
    return {"event": "match", "match": match, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2, "rounds": [],
            "sides": SIDES, **more}


def played(moves, number=1, starter=1, match=1, match_winner=None):
    return {"event": "played", "match": match, "number": number, "starter": starter, "moves": moves,
            "match_winner": match_winner}


def test_game_messages_that_make_no_sense_are_dropped(tmp_path, caplog):
    guest = GuestRecords(Recorder(tmp_path / "g.db"), "hat", lambda: 2)
    for data in (played("4"),                                                   # no match yet
                 {"event": "match", "match": "x"},
                 {"event": "match", "match": 1, "columns": 99, "rows": 6, "sides": []},
                 match_event(2, sides=[{"colour": "#ff0000", "name": "\x1b[2J"}, SIDES[1]]),
                 match_event(2, columns=7.0),
                 match_event(2, wins=True),
                 match_event(2, starts=None),
                 {k: v for k, v in match_event(2).items() if k != "rounds"}):
        guest.take(data)
    assert guest.size is None and len(caplog.records) == 8
    guest.take(match_event(3))
    for data in (played("4444444", match=3),                                    # not a game: the column is full
                 played("4", starter=2, match=3),                               # round 1 is player 1's (alternate)
                 played("4", number=2, starter=2, match=3),                     # round 2 before round 1
                 played("45", match=2)):                                        # another match's
        guest.take(data)
    assert guest.recorded == {} and len(caplog.records) == 12
    guest.take(played("45", match=3))
    guest.take(played("5", match=3))                                            # going back on a move
    guest.take(played("4", number=2, starter=2, match=3))                       # round 1 is not over
    guest.take({"event": "round", "match": 3})                                  # nor for a new round
    guest.take(match_event(2))                                                  # an older match
    assert guest.recorded == {1: "45"} and len(caplog.records) == 16
    assert {r.getMessage().split("(")[1].split(")")[0] for r in caplog.records[12:]} == {
        "round 1 went back on its moves", "round 2 before round 1 ended",
        "a round started before the last one ended, or after the match was won", "match 2 after match 3"}


def guest_file(tmp_path, messages, *, seat=2):
    """The guest's records of ``messages`` (as a hostile host might send them), read back; and the lines reported."""
    lines = []
    guest = GuestRecords(Recorder(tmp_path / "g.db", clock=ticking()), "hat", lambda: seat,
                         report=lambda result, names: lines.append(result.summary(names)))
    for data in messages:
        guest.take(json.loads(json.dumps(data)))
    guest.close()
    guest.recorder.close()
    with Records(tmp_path / "g.db") as stored:
        return stored.matches(), lines


def test_the_guest_records_the_winner_its_own_board_gives_not_the_hosts_word(tmp_path, caplog):
    # Bob wins the only round, then the host says the match went to Ann (the "Ann wins 0-1")
    matches, lines = guest_file(tmp_path, [
        match_event(), {"event": "round", "match": 1},
        *[played("4545454"[:k], match_winner=2 if k == 7 else None) for k in range(1, 8)],
        {"event": "end_match", "match": 1, "winner": 2}])
    [match] = matches
    assert (match.status, match.winner, match.score) == (MatchStatus.ABANDONED, None, (1, 0))
    assert [(r.moves, r.result, r.winner) for r in match.rounds] == [("4545454", RoundResult.WIN, 1)]
    assert lines == ["abandoned at 1-0, Bob ahead"]
    assert [r.getMessage() for r in caplog.records] == [
        "the host says round 1's move 7 won the match for player 2; the moves say it won nothing: recorded as the "
        "moves say",
        "the host says the match was won by player 2, its moves say abandoned: recorded as the moves say"]
    stats = json.loads(run("stats", "--json", "--db", str(tmp_path / "g.db")).stdout)
    assert stats["remote"] == {"Bob": {"matches": {"won": 0, "lost": 0, "abandoned": 1},
                                       "rounds": {"won": 1, "drawn": 0, "lost": 0}, "helped": 0}}


def test_a_match_won_on_the_guests_board_is_won_whatever_the_host_says_of_it(tmp_path):
    matches, lines = guest_file(tmp_path, [
        match_event(wins=1), *[played("4545454"[:k]) for k in range(1, 8)],       # no match_winner said
        {"event": "end_match", "match": 1, "winner": None}])
    assert [(m.status, m.winner, m.score) for m in matches] == [(MatchStatus.FINISHED, 1, (1, 0))]
    assert lines == ["Bob wins 1-0"]


def test_one_hosts_session_writes_at_most_100_matches(tmp_path, caplog):
    flood = []
    for number in range(1, 501):                                      # the 500 matches in 0.1 s
        flood += [match_event(number, wins=1), played("4", match=number),
                  {"event": "end_match", "match": number, "winner": None}]
    matches, lines = guest_file(tmp_path, flood)
    assert len(matches) == len(lines) == MAX_MATCHES == 100
    assert sum("more than 100 matches in one session" in r.getMessage() for r in caplog.records) == 400   # 101-500
    assert {m.status for m in matches} == {MatchStatus.ABANDONED}


def test_a_match_left_before_a_move_is_no_match_on_either_side(tmp_path):
    sent = []
    tee = RecordTee(Recorder(tmp_path / "h.db", clock=ticking()), sent.append)
    tee.start_match((Side((255, 0, 0), "Bob"), Side((255, 255, 0), "Ann", remote=True)), columns=7, rows=6,
                    backend="mock")
    tee.start_round()
    tee.end_match(None)
    assert tee.kept is False
    tee.start_match((Side((255, 0, 0), "Bob"), Side((255, 255, 0), "Ann", remote=True)), columns=7, rows=6,
                    backend="mock")
    tee.start_round()
    tee.played(1, 1, Board.from_moves("4"))
    tee.end_match(None)
    assert tee.kept is True
    tee.recorder.close()
    matches, lines = guest_file(tmp_path, sent)                        # the same messages on the guest's side
    assert [(m.id, [r.moves for r in m.rounds]) for m in matches] == [(1, ["4"])]
    assert lines == ["abandoned at 0-0"]                                # the empty one is not reported
    with Records(tmp_path / "h.db") as stored:
        assert [m.id for m in stored.matches()] == [1]


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
    assert conn.execute("PRAGMA user_version").fetchone() == (records.SCHEMA_VERSION,)   # 3, and on to the latest
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
    from sensehat_c4.match import render
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


def test_each_pi_numbers_the_match_as_its_own_records_do_and_the_guest_says_its_own_number(tmp_path):
    """The host's file keeps three matches already, the guest's one: the same match is the host's match 4 and the
    guest's match 2, in each Pi's printed line and words (the host's words reach the guest renumbered)."""
    from records_data import ANN, BOB, record_match
    from sensehat_c4.match import words

    host_db, guest_db = tmp_path / "host.db", tmp_path / "guest.db"
    for path, earlier in ((host_db, 3), (guest_db, 1)):
        recorder = Recorder(path, clock=ticking())
        for _ in range(earlier):
            record_match(recorder, ["4545454", "4545454"], sides=(BOB, ANN))
        recorder.close()
    mock = MockBackend()
    bob_wins_two_rounds(mock)
    reported = []
    guest = GuestRecords(Recorder(guest_db, clock=ticking()), "hat", lambda: 2,
                         report=lambda result, names: reported.append(result))
    said = []

    class Watcher:                                   # what the guest's Pi says: the host's words as it gets them
        def shown(self, frame):
            pass

        def said(self, status):
            said.append(words.as_guest(status, 2, guest.number))

    mock.screen.observe(Watcher())
    tee = RecordTee(Recorder(host_db, clock=ticking()), guest.take)
    result = play(mock, MatchOptions(names=("Bob", "Ann")), recorder=tee,  # type: ignore[arg-type]
                  seats=Seats(second=RemotePlayer(Session())))
    tee.recorder.close()
    guest.close()
    guest.recorder.close()
    assert (result.number, [r.number for r in reported]) == (4, [2])
    assert mock.statuses[-1][1].text == "match 4: Bob wins 2-0" and mock.statuses[-1][1].details["match"] == 4
    assert (said[-1].text, said[-1].caption, said[-1].details["match"]) == ("match 2: Bob wins 2-0",) * 2 + (2,)
    assert {s.details["match"] for s in said[1:]} == {2}              # every word after its first move: its own
    with Records(host_db) as host, Records(guest_db) as guest_file:
        assert (host.matches(1)[0].id, guest_file.matches(1)[0].id) == (4, 2)
