"""Reviewing a stored round: marks from exact scores, accuracy, unsolved positions, the command."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from records_data import record_match, ticking
from sensehat_c4 import review
from sensehat_c4.errors import SearchAborted
from sensehat_c4.records import Recorder, Records

ROOT = Path(__file__).parent.parent


def stored(tmp_path, moves):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), [moves])
    with Records(path) as records:
        return path, records.round("last")


def test_marks_and_accuracy_from_scores(tmp_path):
    _, (match, rnd) = stored(tmp_path, "1212121")
    table = {   # position (moves so far) -> every move's score, made up to exercise each mark
        "": {0: 3, 1: 5, 2: 5},            # 1 scores 3 of a best 5: same sign, an inaccuracy
        "1": {0: -1, 1: -1},               # best
        "12": {0: 2, 3: -4},               # best
        "121": {1: -3, 4: 0},              # 2 scores -3 where 5 draws: a mistake
        "1212": {0: 1, 2: 1},              # best
        "12121": {1: 0},                   # not solved in time
        "121212": {0: 18, 6: 0},           # best
    }

    def scorer(board, seconds):
        assert seconds == 2.5
        scores = table[board.notation()]
        if board.notation() == "12121":
            raise SearchAborted("no exact answer within 2.5 s")
        return scores

    seen = []
    result = review.review_round(match, rnd, seconds=2.5, scorer=scorer, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 7) for i in range(8)]
    assert [m.mark for m in result.moves] == ["inaccuracy", "best", "best", "mistake", "best", "unsolved", "best"]
    assert [m.seat for m in result.moves] == [1, 2, 1, 2, 1, 2, 1]
    assert result.summary(1) == review.Summary(4, 3, 1, 0, 0) and result.summary(1).accuracy == 75.0
    assert result.summary(2) == review.Summary(3, 1, 0, 1, 1) and result.summary(2).accuracy == 50.0
    assert review.text(result).splitlines() == [
        "round 1 (match 1, round 1): Ann v Bob, 7x6, Ann started, moves 1212121",
        "move  player  col  score  best        mark",
        "   1  Ann       1     +3  2,3 (+5)    inaccuracy",
        "   2  Bob       2     -1  1,2 (-1)    best",
        "   3  Ann       1     +2  1 (+2)      best",
        "   4  Bob       2     -3  5 (0)       mistake",
        "   5  Ann       1     +1  1,3 (+1)    best",
        "   6  Bob       2      ?              not solved in time",
        "   7  Ann       1    +18  1 (+18)     best",
        "Ann: 4 moves, 3 best, 1 inaccuracy, 0 mistakes; accuracy 75% (best in 3 of 4 solved moves)",
        "Bob: 3 moves, 1 best, 0 inaccuracies, 1 mistake, 1 not solved; accuracy 50% (best in 1 of 2 solved moves)",
    ]
    data = review.as_json(result)
    assert data["review"][5] == {"ply": 6, "player": 2, "column": 2, "score": None, "best_score": None,
                                 "best": [], "mark": "unsolved", "scores": None}
    assert data["review"][0]["scores"] == {"1": 3, "2": 5, "3": 5}
    assert data["summary"]["2"] == {"moves": 3, "best": 1, "inaccuracies": 0, "mistakes": 1, "unsolved": 1,
                                    "solved": 2, "accuracy": 50.0}


def test_one_move_and_no_move_solved_read_right(tmp_path):
    _, (match, rnd) = stored(tmp_path, "44")   # an abandoned round: one move each

    def scorer(board, seconds):
        if board.ply:
            raise SearchAborted("no exact answer")
        return {c: 0 for c in range(7)}

    lines = review.text(review.review_round(match, rnd, seconds=1.0, scorer=scorer)).splitlines()
    assert lines[-2:] == [
        "Ann: 1 move, 1 best, 0 inaccuracies, 0 mistakes; accuracy 100% (best in 1 of 1 solved move)",
        "Bob: 1 move, 0 best, 0 inaccuracies, 0 mistakes, 1 not solved; no move solved, no accuracy",
    ]


def test_review_json_describes_players_as_history_json_does(tmp_path):
    from test_history import HARD
    from records_data import ANN

    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"], sides=(ANN, HARD))
    history = json.loads(run("history", "--json", "--db", str(path)).stdout)
    data = json.loads(run("review", "last", "--json", "--time-limit", "0.01", "--db", str(path)).stdout)
    assert data["players"] == history[0]["players"] == {
        "1": {"name": "Ann", "level": None, "seconds": None, "colour": "#ff0000", "remote": False},
        "2": {"name": None, "level": "hard", "seconds": 1.0, "colour": "#ffff00", "remote": False}}


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, **kwargs)


def test_the_review_command_with_the_real_solver(tmp_path):
    path, _ = stored(tmp_path, "1122334")
    done = run("review", "last", "--db", str(path))
    assert (done.returncode, done.stderr) == (0, "")   # not a terminal: no progress line
    assert done.stdout.splitlines() == [
        "round 1 (match 1, round 1): Ann v Bob, 7x6, Ann started, moves 1122334",
        "move  player  col  score  best        mark",
        "   1  Ann       1     -2  4 (+1)      mistake",
        "   2  Bob       1     -1  2,4 (+2)    mistake",
        "   3  Ann       2      0  4,6 (+1)    mistake",
        "   4  Bob       2      0  2,3,4 (0)   best",
        "   5  Ann       3     -2  2,4,6 (0)   mistake",
        "   6  Bob       3    -18  4 (+2)      mistake",
        "   7  Ann       4    +18  4 (+18)     best",
        "Ann: 4 moves, 1 best, 0 inaccuracies, 3 mistakes; accuracy 25% (best in 1 of 4 solved moves)",
        "Bob: 3 moves, 1 best, 0 inaccuracies, 2 mistakes; accuracy 33% (best in 1 of 3 solved moves)",
    ]
    data = json.loads(run("review", "1", "--json", "--db", str(path)).stdout)
    assert data["review"][0]["scores"] == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    assert [m["mark"] for m in data["review"]] == ["mistake"] * 3 + ["best"] + ["mistake"] * 2 + ["best"]


def test_a_position_not_solved_in_time_is_reported_not_guessed(tmp_path):
    # the 13-stone position after 2147756677465 takes the solver seconds (see README, analyse)
    path, _ = stored(tmp_path, "21477566774651233")
    done = run("review", "last", "--json", "--time-limit", "0.01", "--db", str(path))
    assert done.returncode == 0, done.stderr
    moves = json.loads(done.stdout)["review"]
    assert moves[13]["mark"] == "unsolved" and moves[13]["score"] is None and moves[13]["scores"] is None
    assert all(m["mark"] != "unsolved" for m in moves[:8])   # book positions answer at once
    assert all((m["score"] is None) == (m["mark"] == "unsolved") for m in moves)


def test_review_errors_are_one_line_and_exit_2(tmp_path):
    path, _ = stored(tmp_path, "1122334")
    assert (run("review", "12", "--db", str(path)).returncode, run("review", "12", "--db", str(path)).stderr) == (
        2, f"sensehat-c4 review: no round 12 in {path}\n")
    done = run("review", "first", "--db", str(path))
    assert (done.returncode, done.stderr) == (
        2, "sensehat-c4 review: not a round ID: 'first' (use a number from 'history', or last)\n")
    done = run("review", "last", "--time-limit", "0", "--db", str(path))
    assert (done.returncode, done.stderr) == (
        2, "sensehat-c4 review: error: argument --time-limit: must be more than 0 and at most 3600: '0' "
        "(see --help)\n")


def test_progress_is_one_line_rewritten_on_a_terminal_and_nothing_elsewhere():
    import io

    from sensehat_c4.commands.review import progress as review_progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    plain = io.StringIO()
    with review_progress(plain) as line:
        line(0, 2, 0)
    assert plain.getvalue() == ""
    term = Terminal()
    with review_progress(term) as line:
        line(0, 2, 0)
        line(1, 2, 0)
    assert term.getvalue() == ("\r\x1b[Kreviewing: move 1 of 2" "\r\x1b[Kreviewing: move 2 of 2" "\r\x1b[K")
