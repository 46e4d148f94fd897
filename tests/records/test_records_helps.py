"""Schema 4: each round keeps the computer's level it was played at and the person's hints and take-backs;
a version 3 file is read as it is and migrated; the counts reach history, review, stats and the web's words."""
import inspect
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import get_type_hints

import pytest
from records_data import ANN, ticking

from gamelib.colours import YELLOW
from sensehat_c4 import records
from sensehat_c4.records import Recorder, Records, RoundFacts, Side
from sensehat_c4.records import migrations
from sensehat_c4.records import rows as rows_module
from sensehat_c4.records.recording import MatchRecorder
from sensehat_c4.records.rows import RoundRecord
from sensehat_c4.records.schema import ROUNDS, RoundRow
from sensehat_c4.lan.records import RecordTee
from sensehat_c4.rules import Board
from sensehat_c4.study import history, review

ROOT = Path(__file__).resolve().parents[2]
HARD = Side(YELLOW, level="hard", seconds=8.0)


def rows(path, sql):
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def version_3(path, version=3):
    """A file as version 3 left it: one finished match against hard, two rounds (``version`` 4: with the
    puzzles' table, one day played)."""
    conn = sqlite3.connect(str(path))
    for script in migrations.MIGRATIONS[:version]:
        conn.executescript(script)
    conn.executescript(f"""
        PRAGMA user_version = {version}; PRAGMA application_id = {records.APPLICATION_ID};
        INSERT INTO matches (started, ended, status, winner, columns, rows, backend, p1_name, p1_colour,
                             p2_level, p2_seconds, p2_colour)
            VALUES ('2026-01-01T10:00:00Z', '2026-01-01T10:09:00Z', 'finished', 1, 7, 6, 'hat', 'Ann', '#ff0000',
                    'hard', 8.0, '#ffff00');
        INSERT INTO rounds (match_id, number, starter, moves, result, winner, winning_cells, started, ended)
            VALUES (1, 1, 1, '1212121', 'win', 1, '[[1, 1], [1, 2], [1, 3], [1, 4]]',
                    '2026-01-01T10:01:00Z', '2026-01-01T10:02:00Z'),
                   (1, 2, 2, '2121212', 'win', 2, '[[2, 1], [2, 2], [2, 3], [2, 4]]',
                    '2026-01-01T10:03:00Z', '2026-01-01T10:04:00Z');
    """)
    if version >= 4:
        conn.executescript("""
            INSERT INTO puzzles (day, puzzle, n, tries, solved_on, started, ended)
                VALUES ('2026-01-02', '2-0462', 2, 3, '2026-01-02', '2026-01-02T09:00:00Z', '2026-01-02T09:05:00Z');
        """)
    conn.close()


def test_the_rounds_helps_are_the_fifth_version():
    assert migrations.SCHEMA_VERSION == 5 == len(migrations.MIGRATIONS)
    assert {column: migrations.ADDED[column] for column in ("level", "hints", "takebacks")} == {
        "level": (5, "NULL"), "hints": (5, "0"), "takebacks": (5, "0")}


@pytest.mark.parametrize("version", [3, 4])
def test_an_older_file_reads_as_it_is_then_is_migrated_to_the_latest(tmp_path, version):
    path = tmp_path / "games.db"
    version_3(path, version)
    with Records(path) as stored:                   # read as it is: no level, no helps
        assert [(r.level, r.hints, r.takebacks) for r in stored.matches()[0].rounds] == [(None, 0, 0), (None, 0, 0)]
        assert [p.puzzle for p in stored.puzzles()] == ([] if version == 3 else ["2-0462"])
        assert stored.notes == []
    assert rows(path, "PRAGMA user_version") == [(version,)]
    recorder = Recorder(path, clock=ticking())
    assert recorder.interrupted() is None           # opened for writing: migrated
    recorder.close()
    assert rows(path, "PRAGMA user_version") == [(migrations.SCHEMA_VERSION,)]
    assert rows(path, "SELECT number, level, hints, takebacks FROM rounds") == [(1, None, 0, 0), (2, None, 0, 0)]
    assert rows(path, "SELECT day, puzzle, tries FROM puzzles") == ([] if version == 3 else [("2026-01-02", "2-0462", 3)])
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    with pytest.raises(sqlite3.IntegrityError):     # the counts are never negative
        conn = sqlite3.connect(str(path))
        try:
            conn.execute("UPDATE rounds SET hints = -1")
        finally:
            conn.close()


@pytest.mark.parametrize("column, value, why", [
    ("hints", "'two'", "skipped rounds row 1: hints 'two' is not a number"),
    ("takebacks", "10001", "skipped rounds row 1: takebacks 10001 is not a count"),
    ("level", "'Tough!'", "skipped rounds row 1: level 'Tough!' is not a level"),
])
def test_a_round_with_a_bad_count_or_level_is_skipped_in_one_line(tmp_path, column, value, why):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, HARD), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("1212121"), match_winner=None, facts=RoundFacts(level="hard"))
    recorder.end_match(None)
    recorder.close()
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA ignore_check_constraints = 1")
    conn.execute(f"UPDATE rounds SET {column} = {value}")
    conn.commit()
    conn.close()
    with Records(path) as stored:
        assert stored.matches()[0].rounds == ()
        assert stored.notes == [why]


def test_every_recorder_takes_a_rounds_facts_as_one_value():
    """The match, the writer and the LAN's tee pass a round's facts as one :class:`RoundFacts`: a fact added as a
    parameter of one ``played`` only (the protocol's, the writer's or the tee's) fails here."""
    for recorder in (MatchRecorder, Recorder, RecordTee):
        signature = inspect.signature(recorder.played)
        assert list(signature.parameters) == ["self", "number", "starter", "board", "match_winner", "facts"], recorder
        assert signature.parameters["facts"].annotation == "RoundFacts"
        assert signature.parameters["facts"].default == RoundFacts()


def test_a_rounds_facts_are_the_last_columns_of_its_row_and_of_its_record():
    """One field of :class:`RoundFacts` is one column of ``rounds`` (written and read, each with its check)."""
    names = [f.name for f in fields(RoundFacts)]
    assert issubclass(RoundRow, RoundFacts) and issubclass(RoundRecord, RoundFacts)
    assert list(ROUNDS.columns[-len(names):]) == names == list(ROUNDS.read[-len(names):])
    assert [f.name for f in fields(RoundRecord)][-len(names):] == names
    assert list(rows_module._FACT_CHECKS) == names


def test_a_rounds_facts_go_through_the_lan_tee_and_the_writer_to_the_reader(tmp_path):
    """Each fact (a count or a level, whatever they are) given to the tee is what the records read back."""
    kinds = get_type_hints(RoundFacts)
    facts = RoundFacts(**{name: "tough" if kinds[name] is not int else number
                          for number, name in enumerate(kinds, 1)})
    sent = []
    tee = RecordTee(Recorder(tmp_path / "games.db", clock=ticking()), sent.append)
    tee.start_match((ANN, HARD), columns=7, rows=6, backend="mock")
    tee.start_round()
    tee.played(1, 1, Board.from_moves("4141414"), match_winner=1, facts=facts)
    tee.end_match(1)
    tee.recorder.close()
    with Records(tmp_path / "games.db") as stored:
        [match] = stored.matches()
    [rnd] = match.rounds
    assert RoundFacts(**{f.name: getattr(rnd, f.name) for f in fields(RoundFacts)}) == facts
    assert (rnd.level, rnd.hints, rnd.takebacks) == ("tough", 2, 3)


@pytest.fixture
def helped(tmp_path):
    """Ann against match me: round 1 won at tough with 2 hints and 1 take-back, round 2 lost at hard."""
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, Side(YELLOW, level="match-me")), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4141414"), facts=RoundFacts(level="tough", hints=2, takebacks=1))
    recorder.start_round()
    recorder.played(2, 2, Board.from_moves("1414141"), facts=RoundFacts(level="hard"))
    recorder.end_match(None)
    recorder.close()
    return path


def run(*args):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "TZ": "UTC"})


def test_history_says_each_rounds_level_and_helps(helped):
    done = run("history", "--db", str(helped))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1:] == [
        "  round 1     14:01  Ann first, Ann won (7 moves, 1:00, at tough, 2 hints, 1 take-back)",
        "  round 2     14:03  computer match me first, computer match me won (7 moves, 1:00, at hard)"]
    rounds = json.loads(run("history", "--json", "--db", str(helped)).stdout)[0]["rounds"]
    assert [(r["level"], r["hints"], r["takebacks"]) for r in rounds] == [("tough", 2, 1), ("hard", 0, 0)]


def test_stats_mark_the_rounds_played_with_helps(helped):
    done = run("stats", "--db", str(helped))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-2:] == [
        "v computer  matches: won lost abandoned   rounds: won drawn lost",
        "match me               0    0         1             1     0    1  (1 round with helps)"]
    assert json.loads(run("stats", "--json", "--db", str(helped)).stdout)["computer"] == {
        "match-me": {"matches": {"won": 0, "lost": 0, "abandoned": 1}, "rounds": {"won": 1, "drawn": 0, "lost": 1},
                     "helped": 1}}


def test_the_review_and_the_web_words_say_the_helps(helped):
    with Records(helped) as stored:
        match = stored.matches()[0]
    rnd = match.rounds[0]
    assert history.helps_text(rnd) == "2 hints, 1 take-back"
    assert history.helps_text(match.rounds[1]) == ""
    reviewed = review.Review(match, rnd, ())
    table, _ = review.text_parts(reviewed)
    assert table.splitlines()[0] == ("round 1 (match 1, round 1): Ann v computer match me, 7x6, Ann started, "
                                     "moves 4141414, 2 hints, 1 take-back")
    assert (review.as_json(reviewed)["hints"], review.as_json(reviewed)["takebacks"]) == (2, 1)
