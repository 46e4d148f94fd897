"""Rows that make no sense: each is skipped with one line naming its table and id, the rest is shown.

A damaged page can leave any value in any column (SQLite lets an INTEGER column hold text,
a blob, a huge number; text may not be UTF-8); these tests put such values in with SQL,
``ignore_check_constraints`` letting past the schema's CHECKs as damage does, and
the column types taken out of the schema so that a value is stored as it is given).
"""
from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from records_data import ANN, record_match, ticking, HARD
from sensehat_c4.records import Recorder, Records, RecordsError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121", "4455667", "1122334"], winner=1)              # rounds 1-3: Ann beats Bob
    record_match(recorder, ["1212121"], sides=(ANN, HARD), winner=None, abandoned_moves="44")   # rounds 4-5
    recorder.close()
    return path


def loosen(path: Path) -> None:
    """Take the columns' types and NOT NULLs out of the schema, so that a value goes in as it is
    (as a damaged page can leave it), not converted by the column's affinity."""
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA writable_schema = ON")
    for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall():
        loose = re.sub(r"\b(?!id\b)(\w+) (?:INTEGER|TEXT|REAL)(?: NOT NULL)?", r"\1", sql)
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (loose, name))
    conn.commit()
    conn.close()


def damage(path: Path, sql: str) -> None:
    loosen(path)
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute(sql)
    conn.commit()
    conn.close()


ROUND_2 = "[[4, 1], [5, 1], [6, 1], [7, 1]]"

BAD_ROUNDS = [
    ("UPDATE rounds SET winning_cells = 'x' WHERE id = 2",
     f"rounds row 2: winning_cells 'x' are not the moves' {ROUND_2}"),
    ("UPDATE rounds SET winning_cells = '[[1, 1]]' WHERE id = 2",
     f"rounds row 2: winning_cells '[[1, 1]]' are not the moves' {ROUND_2}"),
    ("UPDATE rounds SET winning_cells = '" + "[" * 5000 + "' WHERE id = 2",     # deeper than Python's recursion
     "rounds row 2: winning_cells '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[... are not the moves' " + ROUND_2),
    ("UPDATE rounds SET moves = '4455669' WHERE id = 2",
     "rounds row 2: moves '4455669' do not replay on 7x6: move 7 ('9'): not a column: use digits 1-7"),
    ("UPDATE rounds SET moves = '4455662' WHERE id = 2",
     "rounds row 2: result win and winner 2, but the moves end in an unfinished round"),
    ("UPDATE rounds SET moves = '44556677' WHERE id = 2",
     "rounds row 2: moves '44556677' do not replay on 7x6: move 8 ('7'): the game is already over"),
    ("UPDATE rounds SET winner = 1 WHERE id = 2",
     "rounds row 2: result win and winner 1, but the moves end in win for seat 2"),
    ("UPDATE rounds SET starter = 0 WHERE id = 2", "rounds row 2: starter 0 is not one of 1, 2"),
    ("UPDATE rounds SET starter = '2' WHERE id = 2", "rounds row 2: starter '2' is not one of 1, 2"),
    ("UPDATE rounds SET starter = NULL WHERE id = 2", "rounds row 2: starter None is not one of 1, 2"),
    ("UPDATE rounds SET moves = 4455667 WHERE id = 2", "rounds row 2: moves 4455667 is not text"),
    ("UPDATE rounds SET number = 'two' WHERE id = 2", "rounds row 2: number 'two' is not a number"),
    ("UPDATE rounds SET number = -1 WHERE id = 2", "rounds row 2: number -1 is not a round's number"),
    ("UPDATE rounds SET moves = x'34343535363637' WHERE id = 2",
     "rounds row 2: moves b'4455667' is not text"),
    ("UPDATE rounds SET moves = CAST(x'3434ff' AS TEXT) WHERE id = 2",               # not UTF-8
     "rounds row 2: moves '44\\udcff' do not replay on 7x6: move 3 ('\\udcff'): not a column: use digits 1-7"),
    ("UPDATE rounds SET started = 20261123 WHERE id = 2", "rounds row 2: started 20261123 is not a time"),
    ("UPDATE rounds SET ended = NULL WHERE id = 2", "rounds row 2: ended None is not a time"),
    ("UPDATE rounds SET ended = '2026-02-30T14:00:00Z' WHERE id = 2",
     "rounds row 2: ended '2026-02-30T14:00:00Z' is not a time"),
    ("UPDATE rounds SET result = 'won' WHERE id = 2",
     "rounds row 2: result 'won' is not one of playing, win, draw, abandoned"),
    ("UPDATE rounds SET result = 'playing', winner = NULL, moves = '445566' WHERE id = 2",   # a round in play ...
     "rounds row 2: result playing in a match finished"),                                   # ... of a finished match
    ("UPDATE rounds SET result = 'playing', winner = NULL, winning_cells = '[]', moves = '' WHERE id = 2",
     "rounds row 2: result playing without a move"),
    ("UPDATE rounds SET result = 'playing' WHERE id = 2",
     "rounds row 2: result playing and winner 2, but the moves end in win for seat 2"),
    ("UPDATE rounds SET match_id = 9 WHERE id = 2", "rounds row 2: its match 9 is not there"),
    ("UPDATE rounds SET match_id = 1.5 WHERE id = 2", "rounds row 2: match_id 1.5 is not a number"),
]

BAD_MATCHES = [
    ("UPDATE matches SET p1_colour = 5 WHERE id = 1", "matches row 1: p1_colour 5 is not #rrggbb"),
    ("UPDATE matches SET p2_colour = 'yellow' WHERE id = 1", "matches row 1: p2_colour 'yellow' is not #rrggbb"),
    ("UPDATE matches SET columns = 9 WHERE id = 1", "matches row 1: board 9x6 is not offered"),
    ("UPDATE matches SET rows = 9223372036854775807 WHERE id = 1",
     "matches row 1: board 7x9223372036854775807 is not offered"),
    ("UPDATE matches SET columns = '7' WHERE id = 1", "matches row 1: columns '7' is not a number"),
    ("UPDATE matches SET p1_colour = NULL WHERE id = 1", "matches row 1: p1_colour None is not #rrggbb"),
    ("UPDATE matches SET p1_colour = '#FF0000' WHERE id = 1", "matches row 1: p1_colour '#FF0000' is not #rrggbb"),
    ("UPDATE matches SET p1_colour = '#ff0000 ' WHERE id = 1", "matches row 1: p1_colour '#ff0000 ' is not #rrggbb"),
    ("UPDATE matches SET winner = NULL WHERE id = 1", "matches row 1: status finished with winner None"),
    ("UPDATE matches SET winner = 3 WHERE id = 1", "matches row 1: winner 3 is not one of None, 1, 2"),
    ("UPDATE matches SET status = 'done' WHERE id = 1",
     "matches row 1: status 'done' is not one of playing, finished, abandoned"),
    ("UPDATE matches SET ended = NULL WHERE id = 1", "matches row 1: status finished with ended None"),
    ("UPDATE matches SET started = 'yesterday' WHERE id = 1", "matches row 1: started 'yesterday' is not a time"),
    ("UPDATE matches SET p1_name = 'A' || char(10) || 'B' WHERE id = 1",
     "matches row 1: p1_name 'A\\nB' is not a player's name"),
    ("UPDATE matches SET p1_name = CAST(x'41ff' AS TEXT) WHERE id = 1",
     "matches row 1: p1_name 'A\\udcff' is not a player's name"),
    ("UPDATE matches SET p2_seconds = 9e999 WHERE id = 1", "matches row 1: p2_seconds inf is not a thinking time"),
    ("UPDATE matches SET p2_seconds = 1.0 WHERE id = 1", "matches row 1: p2_seconds 1.0 without a level"),
    ("UPDATE matches SET p2_level = 'hard' WHERE id = 1",
     "matches row 1: p2_name 'Bob' and p2_level 'hard': a seat is a person or the computer"),
    ("UPDATE matches SET backend = char(27) || '[2J' WHERE id = 1",
     "matches row 1: backend '\\x1b[2J' is not a backend's name"),
    ("UPDATE matches SET backend = 'Mock' WHERE id = 1", "matches row 1: backend 'Mock' is not a backend's name"),
    ("UPDATE matches SET p2_name = NULL, p2_level = 'x' || printf('%.32c', 'y') WHERE id = 1",
     "matches row 1: p2_level 'x" + "y" * 32 + "' is not a level"),
    ("UPDATE matches SET starts = 'first' WHERE id = 1",
     "matches row 1: starts 'first' is not one of p1, p2, alternate, random"),
    ("UPDATE matches SET starts = NULL WHERE id = 1",
     "matches row 1: starts None is not one of p1, p2, alternate, random"),
    ("UPDATE matches SET wins = 0 WHERE id = 1", "matches row 1: wins 0 is not a number of round wins"),
    ("UPDATE matches SET wins = '2' WHERE id = 1", "matches row 1: wins '2' is not a number"),
    ("UPDATE matches SET wins = 2.0 WHERE id = 1", "matches row 1: wins 2.0 is not a number"),
]


@pytest.mark.parametrize("sql, why", BAD_ROUNDS, ids=[w.split(": ", 1)[1][:40] for _, w in BAD_ROUNDS])
def test_a_round_that_makes_no_sense_is_skipped_and_reported(db, sql, why):
    damage(db, sql)
    with Records(db) as stored:
        matches = stored.matches()
        assert stored.notes == [f"skipped {why}"]
    assert [[r.id for r in m.rounds] for m in matches] == [[4, 5], [1, 3]]   # the rest, as it was
    assert matches[1].score == (2, 0)


@pytest.mark.parametrize("sql, why", BAD_MATCHES, ids=[w.split(": ", 1)[1][:40] for _, w in BAD_MATCHES])
def test_a_match_that_makes_no_sense_is_skipped_with_its_rounds(db, sql, why):
    damage(db, sql)
    with Records(db) as stored:
        matches = stored.matches()
        assert stored.notes == [f"skipped {why} (and its rounds)"]
        assert [(m.id, [r.id for r in m.rounds]) for m in matches] == [(2, [4, 5])]
        with pytest.raises(RecordsError) as err:
            stored.round("1")
        assert str(err.value) == f"round 1 cannot be shown: {why}"
        assert stored.round("last")[1].id == 5


def test_the_last_round_that_can_be_shown_is_last(db):
    damage(db, "UPDATE rounds SET starter = 0 WHERE id = 5")
    with Records(db) as stored:
        assert stored.round("last")[1].id == 4
        assert stored.notes == ["skipped rounds row 5: starter 0 is not one of 1, 2"]
        with pytest.raises(RecordsError, match=r"^round 5 cannot be shown: rounds row 5: starter 0 is not one of 1, 2$"):
            stored.round("5")


def run(*args):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "TZ": "UTC"})


def test_the_issues_examples_are_one_line_and_the_rest_is_shown(db):
    """``winning_cells='x'`` (history: JSONDecodeError), a colour that is a number (stats: AttributeError), a
    starter that is no seat (review last: IndexError): each row is skipped in one line, exit 1."""
    damage(db, "UPDATE rounds SET winning_cells = 'x' WHERE id = 2")
    done = run("history", "--db", str(db))
    assert (done.returncode, done.stderr) == (1, f"sensehat-c4 history: skipped rounds row 2: winning_cells 'x' are "
                                                 f"not the moves' {ROUND_2}\n")
    assert done.stdout.splitlines() == [
        "match 2  2026-11-23 14:08  Ann v computer hard (1 s)  abandoned at 1-0  (7x6, mock)",
        "  round 4     14:09  Ann first, Ann won (7 moves, 1:00)",
        "  round 5     14:11  computer hard (1 s) first, abandoned (2 moves, 1:00)",
        "match 1  2026-11-23 14:00  Ann v Bob  Ann wins 2-0  (7x6, mock)",
        "  round 1     14:01  Ann first, Ann won (7 moves, 1:00)",
        "  round 3     14:05  Ann first, Ann won (7 moves, 1:00)"]
    damage(db, "UPDATE matches SET p1_colour = 5 WHERE id = 2")
    done = run("stats", "--json", "--db", str(db))
    assert (done.returncode, done.stderr) == (1, "sensehat-c4 stats: skipped matches row 2: p1_colour 5 is not "
                                                 "#rrggbb (and its rounds)\nsensehat-c4 stats: skipped rounds row 2: "
                                                 f"winning_cells 'x' are not the moves' {ROUND_2}\n")
    assert json.loads(done.stdout)["players"]["Ann"] == {"matches": {"won": 1, "lost": 0, "abandoned": 0},
                                                          "rounds": {"won": 2, "drawn": 0, "lost": 0}, "helped": 0}
    damage(db, "UPDATE rounds SET starter = 0 WHERE id = 3")
    done = run("review", "last", "--json", "--time-limit", "0.01", "--db", str(db))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "sensehat-c4 review: skipped matches row 2: p1_colour 5 is not #rrggbb (and its rounds)",
        "sensehat-c4 review: skipped rounds row 3: starter 0 is not one of 1, 2",
        f"sensehat-c4 review: skipped rounds row 2: winning_cells 'x' are not the moves' {ROUND_2}"]
    assert json.loads(done.stdout)["round"] == 1
    done = run("replay", "3", "--db", str(db))
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "sensehat-c4 replay: round 3 cannot be shown: rounds row 3: starter 0 is not one of 1, 2\n")


def test_a_colour_is_kept_and_sent_as_lower_case_hex_checked_in_one_place():
    """The records and the LAN's game messages take a colour as ``gamelib.colours.HEX`` says: ``#rrggbb``."""
    from gamelib.colours import from_hex, hex_colour
    from sensehat_c4.lan.messages import check_game

    for rgb in [(0, 0, 0), (255, 255, 255), (18, 171, 0), (255, 0, 128)]:
        assert from_hex(hex_colour(rgb)) == rgb
    assert hex_colour((18, 171, 0)) == "#12ab00"
    for text in ["#FF0000", "#Ff0000", "ff0000", "#f00", "#ff00000", " #ff0000", "red", None, 16711680]:
        assert from_hex(text) is None, text
    event = check_game({"event": "match", "match": 1, "columns": 7, "rows": 6, "starts": "alternate", "wins": 2,
                        "rounds": [], "sides": [{"colour": "#ff0000", "name": "Bob"}, {"colour": "#12ab00",
                                                                                        "name": None}]})
    assert event.sides == (((255, 0, 0), "Bob"), ((18, 171, 0), None))
