"""``history`` and ``stats``: exact tables and JSON from a database of known matches; one-line errors."""
from __future__ import annotations

import json
import re
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamelib.colours import GREEN, YELLOW
from records_data import ANN, foreign, interrupted_match, record_match, ticking, HARD
from sensehat_c4.records import Recorder, RoundResult, Side, load_round

ROOT = Path(__file__).resolve().parents[2]
PERFECT = Side(YELLOW, level="perfect", seconds=8.0)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    record_match(recorder, ["1212121", "4455667", "1122334"], winner=1)              # Ann beats Bob 2-1
    record_match(recorder, ["1212121"], sides=(ANN, HARD), winner=None, abandoned_moves="44")
    record_match(recorder, ["21212131", "1212121"], sides=(Side(GREEN, name="Cy"), PERFECT), winner=2,
                 columns=6, rows=5, backend="hat")
    return path


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "TZ": "UTC", **(env or {})})


def test_history_lists_matches_newest_first_with_their_rounds(db):
    done = run("history", "--db", str(db))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "match 3  2026-11-23 14:14  Cy v computer perfect (8 s)  computer perfect (8 s) wins 2-0  (6x5, Sense HAT)",
        "  round 6     14:15  Cy first, computer perfect (8 s) won (8 moves, 1:00)",
        "  round 7     14:17  computer perfect (8 s) first, computer perfect (8 s) won (7 moves, 1:00)",
        "match 2  2026-11-23 14:08  Ann v computer hard (1 s)  abandoned at 1-0  (7x6, mock)",
        "  round 4     14:09  Ann first, Ann won (7 moves, 1:00)",
        "  round 5     14:11  computer hard (1 s) first, abandoned (2 moves, 1:00)",
        "match 1  2026-11-23 14:00  Ann v Bob  Ann wins 2-1  (7x6, mock)",
        "  round 1     14:01  Ann first, Ann won (7 moves, 1:00)",
        "  round 2     14:03  Bob first, Bob won (7 moves, 1:00)",
        "  round 3     14:05  Ann first, Ann won (7 moves, 1:00)",
    ]
    assert run("history", "--limit", "1", "--db", str(db)).stdout.count("match ") == 1
    # local time: a POSIX zone one hour east of UTC (no tz database needed)
    assert run("history", "--limit", "1", "--db", str(db), env={"TZ": "CET-1"}).stdout.startswith(
        "match 3  2026-11-23 15:14")


def test_history_as_json(db):
    data = json.loads(run("history", "--json", "--limit", "2", "--db", str(db)).stdout)
    assert [m["match"] for m in data] == [3, 2]
    assert data[1] == {
        "match": 2, "started": "2026-11-23T14:08:00Z", "ended": "2026-11-23T14:13:00Z", "status": "abandoned",
        "winner": None, "score": [1, 0], "board": [7, 6], "backend": "mock",
        "players": {"1": {"name": "Ann", "level": None, "seconds": None, "colour": "#ff0000", "remote": False},
                    "2": {"name": None, "level": "hard", "seconds": 1.0, "colour": "#ffff00", "remote": False}},
        "rounds": [
            {"round": 4, "number": 1, "started": "2026-11-23T14:09:00Z", "ended": "2026-11-23T14:10:00Z",
             "starter": 1, "moves": "1212121", "result": "win", "winner": 1,
             "winning_cells": [[1, 1], [1, 2], [1, 3], [1, 4]], "level": None, "hints": 0, "takebacks": 0},
            {"round": 5, "number": 2, "started": "2026-11-23T14:11:00Z", "ended": "2026-11-23T14:12:00Z",
             "starter": 2, "moves": "44", "result": "abandoned", "winner": None, "winning_cells": [], "level": None,
             "hints": 0, "takebacks": 0}]}


def test_stats_per_player_and_against_each_level(db):
    done = run("stats", "--db", str(db))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "player  matches: won lost abandoned   rounds: won drawn lost",
        "Ann                1    0         1             3     0    1",
        "Bob                0    1         0             1     0    2",
        "Cy                 0    1         0             0     0    2",
        "",
        "v computer  matches: won lost abandoned   rounds: won drawn lost",
        "hard                   0    0         1             1     0    0",
        "perfect                0    1         0             0     0    2",
    ]
    assert json.loads(run("stats", "--json", "--db", str(db)).stdout) == {
        "players": {
            "Ann": {"matches": {"won": 1, "lost": 0, "abandoned": 1},
                   "rounds": {"won": 3, "drawn": 0, "lost": 1}, "helped": 0},
            "Bob": {"matches": {"won": 0, "lost": 1, "abandoned": 0},
                   "rounds": {"won": 1, "drawn": 0, "lost": 2}, "helped": 0},
            "Cy": {"matches": {"won": 0, "lost": 1, "abandoned": 0}, "rounds": {"won": 0, "drawn": 0, "lost": 2}, "helped": 0}},
        "computer": {
            "hard": {"matches": {"won": 0, "lost": 0, "abandoned": 1}, "rounds": {"won": 1, "drawn": 0, "lost": 0},
                     "helped": 0},
            "perfect": {"matches": {"won": 0, "lost": 1, "abandoned": 0},
                        "rounds": {"won": 0, "drawn": 0, "lost": 2}, "helped": 0}},
        "remote": {}, "puzzles": {"played": 0, "solved": 0, "on_the_day": 0, "tries": 0, "streak": 0}}


@pytest.mark.parametrize("value, message", [
    ("-1", "must be 0 or more: '-1'"),
    ("x", "not a whole number: 'x'"),
    ("1.5", "not a whole number: '1.5'"),
    ("\u0661", "not a whole number: '\u0661'"),      # a digit, but not an ASCII one
])
def test_a_bad_limit_is_one_line_saying_what_is_wanted(db, value, message):
    done = run("history", "--limit", value, "--db", str(db))
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"sensehat-c4 history: error: argument --limit: {message} (see --help)\n")


def test_the_database_comes_from_the_environment_too(db):
    done = run("history", "--limit", "1", env={"SENSEHAT_C4_DB": str(db)})
    assert done.returncode == 0 and done.stdout.startswith("match 3 ")


@pytest.mark.parametrize("command", ["history", "stats", "replay last", "review last"])
def test_an_unreadable_database_or_another_programs_is_one_line_and_exit_2(tmp_path, command):
    words = command.split()
    junk, folder = tmp_path / "junk.db", tmp_path / "folder.db"
    junk.write_bytes(b"SQLite format 2\0" + b"\x01" * 4000)
    folder.mkdir()
    notes, other = tmp_path / "notes.db", tmp_path / "other.db"
    foreign(notes)
    foreign(other, 0x12345678)
    expected = {
        junk: f"{junk} is not a sensehat-c4 games database: not an SQLite database",
        folder: f"{folder} is a directory, not a games database",
        notes: f"{notes} is not a sensehat-c4 games database: another program's database "
               "(tables: notes; user_version 0)",
        other: f"{other} is not a sensehat-c4 games database: another program's database "
               "(application_id 0x12345678)",
    }
    for path, message in expected.items():
        done = run(*words, "--db", str(path))
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"sensehat-c4 {words[0]}: {message}\n")


def test_a_missing_or_empty_database_holds_no_matches(tmp_path):
    """``stats --json`` (and the rest) answer alike whether the file is missing, empty or holds no match."""
    missing, empty, none = tmp_path / "missing.db", tmp_path / "empty.db", tmp_path / "none.db"
    empty.write_bytes(b"")
    record_match(Recorder(none, clock=ticking()), ["1212121"])
    conn = sqlite3.connect(str(none))
    conn.executescript("DELETE FROM rounds; DELETE FROM matches;")
    conn.close()
    for path, why in ((missing, f" ({missing} does not exist)"), (empty, f" ({empty} is empty)"), (none, "")):
        done = run("stats", "--json", "--db", str(path))
        assert (done.returncode, json.loads(done.stdout), done.stderr) == (0, {
            "players": {}, "computer": {}, "remote": {},
            "puzzles": {"played": 0, "solved": 0, "on_the_day": 0, "tries": 0, "streak": 0}}, "")
        done = run("history", "--json", "--db", str(path))
        assert (done.returncode, json.loads(done.stdout), done.stderr) == (0, [], "")
        done = run("history", "--db", str(path))
        assert (done.returncode, done.stdout, done.stderr) == (0, f"no matches recorded yet{why}\n", "")
        done = run("stats", "--db", str(path))   # as history says it: why there is nothing
        assert (done.returncode, done.stderr) == (0, "") and done.stdout.splitlines() == (
            [f"no matches recorded yet{why}"] if why else
            ["no named players yet (play with --names NAME1,NAME2)", "", "no games against the computer yet"])
        for command in ("replay", "review"):
            done = run(command, "last", "--db", str(path))
            message = f"no games recorded yet{why}" if why else f"no rounds recorded yet in {path}"
            assert (done.returncode, done.stdout, done.stderr) == (2, "", f"sensehat-c4 {command}: {message}\n")


def test_a_match_in_play_or_interrupted_shows_its_round_in_play(tmp_path):
    path = tmp_path / "games.db"
    interrupted_match(path, ["1212121", "4453"])   # each move committed, then the power went
    done = run("history", "--db", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "match 1  2026-11-23 14:00  Ann v Bob  playing, 1-0  (7x6, mock)",
        "  round 1     14:01  Ann first, Ann won (7 moves, 7:00)",
        "  round 2     14:09  Bob first, in play (4 moves, 4:00)"]
    assert json.loads(run("history", "--json", "--db", str(path)).stdout)[0]["rounds"][1]["result"] == "playing"
    assert json.loads(run("stats", "--json", "--db", str(path)).stdout)["players"]["Ann"] == {
        "matches": {"won": 0, "lost": 0, "abandoned": 0}, "rounds": {"won": 1, "drawn": 0, "lost": 0}, "helped": 0}
    _, rnd, notes = load_round(path, "last")   # what replay and review take: the round in play too
    assert (rnd.id, rnd.moves, rnd.result, notes) == (2, "4453", RoundResult.PLAYING, [])


@pytest.mark.parametrize("language", __import__("gamelib.i18n", fromlist=["languages"]).languages())
def test_the_stats_columns_line_up_in_every_language(tmp_path, language):
    """Every count ends under the end of its column's heading, in the heading's words of the language shown (the
    French and Indonesian words are longer than the English)."""
    from gamelib import i18n
    from records_data import every_kind
    from sensehat_c4.match.computer import LEVELS
    from sensehat_c4.records import Records
    from sensehat_c4.study import history

    every_kind(tmp_path / "games.db")
    with Records(tmp_path / "games.db") as stored:
        result = history.stats(stored.matches(), list(LEVELS))
    i18n.choose([language])
    try:
        lines = history.stats_text(result).splitlines()
        heads = [head for _group, columns in history._groups() for _key, head in columns]
    finally:
        i18n.choose(None)
    tables = [table.splitlines() for table in "\n".join(lines).split("\n\n")]
    assert len(tables) == 3 and sum(len(table) - 1 for table in tables) == len(result.players) + len(
        result.computer) + len(result.remote)
    for header, *rows in tables:
        ends, at = [], 0
        for head in heads:
            at = header.index(head, at) + len(head)
            ends.append(at)
        for row in rows:
            counts = [found.end() for found in re.finditer(r"\d+", row[:ends[-1]])][-len(heads):]
            assert counts == ends, (header, row)


def test_every_backend_this_distribution_registers_is_said_in_words():
    """A match's record keeps its backend's name (a value): history says it through ``BACKENDS``, which names
    every backend of the registry (another package's is shown by its name, as a player's)."""
    from gamelib import backends
    from sensehat_c4.study import history

    assert set(history.BACKENDS) == set(backends.names()) - {backends.AUTO}
    assert (history.backend_word("hat"), history.backend_word("emu"), history.backend_word("theirs")) == (
        "Sense HAT", "emulator", "theirs")
