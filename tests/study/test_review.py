"""Reviewing a stored round: the marks' rules, values and key moments, accuracy, unsolved positions,
the command (table, graph, JSON, errors, progress)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from records_data import record_match, ticking
from sensehat_c4.study import review
from sensehat_c4.errors import SearchAborted
from sensehat_c4.records import Recorder, Records
from sensehat_c4.rules import SIZES, Board
from engine_data import PUBLISHED, minimax, published_score

ROOT = Path(__file__).resolve().parents[2]


def stored(tmp_path, moves, **kwargs):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), [moves], **kwargs)
    with Records(path) as records:
        return path, records.round("last")


# -- the rules of the marks ----------------------------------------------------------------

@pytest.mark.parametrize("scores, column, mark, missed", [
    ({0: 3, 1: 5, 2: 5}, 1, "best", False),            # a best move among two winning ones
    ({0: 3, 1: 5, 2: -1}, 0, "inaccuracy", False),     # still wins, two moves later
    ({0: -4, 1: -2}, 0, "inaccuracy", False),          # still loses, two moves sooner
    ({0: 3, 1: 0, 2: -2}, 0, "only move", False),      # the one winning move; others draw or lose
    ({0: 1, 1: 5, 2: -2}, 0, "inaccuracy", False),     # the only other win is quicker: kept, slower
    ({0: 0, 1: -3}, 0, "only move", False),            # the one drawing move where the other loses
    ({0: 0, 1: 0, 2: -3}, 1, "best", False),           # two moves draw
    ({0: -2, 1: -2}, 1, "best", False),                # lost whatever is played: no only move ...
    ({0: -5, 1: -2}, 1, "best", False),                # ... even when one loss is slower
    ({3: 4}, 3, "best", False),                        # one legal column: nothing to choose
    ({3: 0}, 3, "best", False),
    ({0: 2, 1: 0}, 1, "mistake", True),                # a win into a draw
    ({0: 0, 1: -1}, 1, "mistake", False),              # a draw into a loss
    ({0: 2, 1: -1}, 1, "blunder", True),               # a win into a loss
    ({0: 18, 1: 0, 2: -18}, 2, "blunder", True),
])
def test_the_marks_rules(scores, column, mark, missed):
    move = review.MoveReview(1, 1, column, scores)
    assert (review.mark(scores, column), move.mark, move.missed_win) == (mark, mark, missed)
    assert move.distance == max(scores.values()) - scores[column]


def test_keeping_is_the_columns_of_the_best_outcome():
    assert review.MoveReview(1, 1, 0, {0: 3, 1: 5, 2: 0, 3: 1}).keeping == (0, 1, 3)
    assert review.MoveReview(1, 1, 0, {0: 0, 1: -5, 2: 0}).keeping == (0, 2)
    assert review.MoveReview(1, 1, 0, {0: -1, 1: -5}).keeping == (0, 1)   # lost: every move keeps the loss
    assert review.MoveReview(1, 1, 0, None).keeping == () and review.MoveReview(1, 1, 0, None).mark == "unsolved"


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_ending_gives_the_published_last_move_of_every_empty_board(size):
    winner, last = PUBLISHED[(size.columns, size.rows)]
    if winner is not None:
        assert review.ending(size.cells, 0, published_score(size)) == (last, (last + 1) // 2)
        assert review.value_text(size.cells, 0, published_score(size)) == f"{'win' if winner == 1 else 'loss'} in " \
            f"{(last + 1) // 2}"


def test_ending_is_where_perfect_play_ends_on_4x4_and_5x4():
    # perfect play: the winner takes the quickest win, the loser the longest defence; the plain
    # minimax's scores say where that ends, and ending() must say the same from the score alone
    signs = set()
    for columns, rows, moves in ((4, 4, "313224"), (5, 4, "33252133"), (5, 4, "4453144"), (5, 4, "445314"),
                                 (4, 4, "3")):
        board, memo = Board.from_moves(moves, columns, rows), {}
        score, stones = minimax(board, memo), board.ply
        signs.add(review.outcome(score))
        mover = board.to_move
        while not board.is_over:
            best = max(board.legal_moves(), key=lambda c: _child(board, c, memo))
            board.play(best)
        if score == 0:
            assert board.outcome.winner is None
            continue
        end, moves_left = review.ending(board.columns * board.rows, stones, score)
        assert board.ply == end and board.outcome.winner == (mover if score > 0 else 3 - mover)
        assert moves_left == (end - stones + 1) // 2
    assert signs == {-1, 0, 1}


def _child(board, column, memo):
    board.push(column)
    try:
        if board.outcome is not None:
            return 0 if board.outcome.winner is None else (board.columns * board.rows + 2 - board.ply) // 2
        return -minimax(board, memo)
    finally:
        board.pop()


def test_value_text():
    assert [review.value_text(42, 0, v) for v in (1, -2, 0, None)] == ["win in 21", "loss in 20", "draw", "?"]
    assert review.value_text(42, 6, 18) == "win in 1"            # 4455667: the starter's next stone wins
    assert review.value_text(42, 7, 18) == "won"                 # ... and now it is down
    assert review.value_text(42, 7, -18) == "loss in 1"          # the second player's next stone wins
    assert review.value_text(42, 8, -18) == "lost" and review.value_text(42, 1, 2) == "win in 19"


# -- a round with made-up scores --------------------------------------------------------------

TABLE = {   # position (moves so far) -> every move's score for the side to move, made up to exercise each mark
    "": {0: 3, 1: 5, 2: 5},            # 1 scores 3 of a best 5: same sign, an inaccuracy
    "1": {0: -1, 1: -1},               # best (lost whatever is played)
    "12": {0: 2, 3: -4},               # 1 is the only winning move
    "121": {1: -3, 4: 0},              # 2 scores -3 where 5 draws: a mistake
    "1212": {0: 1, 2: 1},              # best
    "12121": None,                     # not solved in time
    "121212": {0: 18, 6: -1},          # only move (the win)
}


def made_up(board, seconds):
    assert seconds == 2.5
    scores = TABLE[board.notation()]
    if scores is None:
        raise SearchAborted("no exact answer within 2.5 s")
    return scores


def test_marks_values_and_accuracy_from_scores(tmp_path):
    _, (match, rnd) = stored(tmp_path, "1212121")
    seen = []
    result = review.review_round(match, rnd, seconds=2.5, scorer=made_up, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 7) for i in range(8)]
    assert [m.mark for m in result.moves] == ["inaccuracy", "best", "only move", "mistake", "best", "unsolved",
                                              "only move"]
    assert [m.seat for m in result.moves] == [1, 2, 1, 2, 1, 2, 1]
    assert result.summary(1) == review.Summary(4, 3, 1, 0, 0, 0, 2, 0) and result.summary(1).accuracy == 75.0
    assert result.summary(2) == review.Summary(3, 1, 0, 1, 1) and result.summary(2).accuracy == 50.0
    # values for the starter: before move 1 the best (+5); after move k the move's score, negated for
    # the second player's; move 6 was not solved, so after it the next position's best (+18) stands in
    assert result.values() == (5, 3, 1, 2, 3, 1, 18, 18)
    assert result.key_moments() == (4,)
    assert result.value_texts() == ("win in 17", "win in 18", "win in 20", "win in 18", "win in 17",
                                    "win in 18", "win in 1", "won")
    assert review.text(result).splitlines() == [
        "round 1 (match 1, round 1): Ann v Bob, 7x6, Ann started, moves 1212121",
        "move  player  col  score  best        mark",
        "   1  Ann       1     +3  2,3 (+5)    inaccuracy",
        "   2  Bob       2     -1  1,2 (-1)    best",
        "   3  Ann       1     +2  1 (+2)      only move",
        "   4  Bob       2     -3  5 (0)       mistake",
        "   5  Ann       1     +1  1,3 (+1)    best",
        "   6  Bob       2      ?              not solved in time",
        "   7  Ann       1    +18  1 (+18)     only move",
        "Ann: 4 moves, 3 best (2 only moves), 1 inaccuracy, 0 mistakes, 0 blunders; accuracy 75% "
        "(best in 3 of 4 solved moves)",
        "Bob: 3 moves, 1 best, 0 inaccuracies, 1 mistake, 0 blunders, 1 not solved; accuracy 50% "
        "(best in 1 of 2 solved moves)",
    ]
    data = review.as_json(result)
    assert data["review"][5] == {"ply": 6, "player": 2, "column": 2, "score": None, "best_score": None,
                                 "best": [], "keeping": [], "mark": "unsolved", "missed_win": False, "scores": None}
    assert data["review"][3] == {"ply": 4, "player": 2, "column": 2, "score": -3, "best_score": 0, "best": [5],
                                 "keeping": [5], "mark": "mistake", "missed_win": False, "scores": {"2": -3, "5": 0}}
    assert data["review"][0]["scores"] == {"1": 3, "2": 5, "3": 5}
    assert data["values"][:2] == [{"score": 5, "text": "win in 17", "end": 33, "in": 17},
                                  {"score": 3, "text": "win in 18", "end": 37, "in": 18}]
    assert data["values"][-1] == {"score": 18, "text": "won", "end": 7, "in": 0} and data["key_moments"] == [4]
    assert data["summary"]["1"] == {"moves": 4, "best": 3, "only_moves": 2, "inaccuracies": 1, "mistakes": 0,
                                    "blunders": 0, "missed_wins": 0, "unsolved": 0, "solved": 4, "accuracy": 75.0}
    assert data["summary"]["2"] == {"moves": 3, "best": 1, "only_moves": 0, "inaccuracies": 0, "mistakes": 1,
                                    "blunders": 0, "missed_wins": 0, "unsolved": 1, "solved": 2, "accuracy": 50.0}


def test_a_value_is_unknown_only_where_neither_side_of_it_was_solved(tmp_path):
    _, (match, rnd) = stored(tmp_path, "44")

    def scorer(board, seconds):
        raise SearchAborted("no exact answer")

    result = review.review_round(match, rnd, seconds=1.0, scorer=scorer)
    assert result.values() == (None, None, None) and result.value_texts() == ("?", "?", "?")
    assert review.as_json(result)["values"] == [None, None, None]


def test_one_move_and_no_move_solved_read_right(tmp_path):
    _, (match, rnd) = stored(tmp_path, "44")   # an abandoned round: one move each

    def scorer(board, seconds):
        if board.ply:
            raise SearchAborted("no exact answer")
        return {c: 0 for c in range(7)}

    lines = review.text(review.review_round(match, rnd, seconds=1.0, scorer=scorer)).splitlines()
    assert lines[-2:] == [
        "Ann: 1 move, 1 best, 0 inaccuracies, 0 mistakes, 0 blunders; accuracy 100% (best in 1 of 1 solved move)",
        "Bob: 1 move, 0 best, 0 inaccuracies, 0 mistakes, 0 blunders, 1 not solved; no move solved, no accuracy",
    ]


def test_review_json_describes_players_as_history_json_does(tmp_path):
    from records_data import HARD
    from records_data import ANN

    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"], sides=(ANN, HARD))
    history = json.loads(run("history", "--json", "--db", str(path)).stdout)
    data = json.loads(run("review", "last", "--json", "--time-limit", "0.01", "--db", str(path)).stdout)
    assert data["players"] == history[0]["players"] == {
        "1": {"name": "Ann", "level": None, "seconds": None, "colour": "#ff0000", "remote": False},
        "2": {"name": None, "level": "hard", "seconds": 1.0, "colour": "#ffff00", "remote": False}}


# -- the command, with the real solver ---------------------------------------------------------

def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, **kwargs)


def test_the_review_command_with_the_real_solver(tmp_path):
    path, _ = stored(tmp_path, "1122334")
    done = run("review", "last", "--db", str(path), env={**_env(), "PYTHONIOENCODING": "utf-8"})
    assert (done.returncode, done.stderr) == (0, "")   # not a terminal: no progress line, no colour
    assert done.stdout.splitlines() == [
        "round 1 (match 1, round 1): Ann v Bob, 7x6, Ann started, moves 1122334",
        "move  player  col  score  best        mark",
        "   1  Ann       1     -2  4 (+1)      blunder (missed win)",
        "   2  Bob       1     -1  2,4 (+2)    blunder (missed win)",
        "   3  Ann       2      0  4,6 (+1)    mistake (missed win)",
        "   4  Bob       2      0  2,3,4 (0)   best",
        "   5  Ann       3     -2  2,4,6 (0)   mistake",
        "   6  Bob       3    -18  4 (+2)      blunder (missed win)",
        "   7  Ann       4    +18  4 (+18)     only move",
        "outcome with perfect play after each move (a taller bar: a nearer win); !: the move changed it",
        "Ann wins  ▁ ▁   ██",
        "    draw     ──",
        "Bob wins   ▁   ▁",
        "           !!! !!",
        "    move  0    5",
        "Ann: 4 moves, 1 best (1 only move), 0 inaccuracies, 2 mistakes, 1 blunder, 2 missed wins; accuracy 25% "
        "(best in 1 of 4 solved moves)",
        "Bob: 3 moves, 1 best, 0 inaccuracies, 0 mistakes, 2 blunders, 2 missed wins; accuracy 33% "
        "(best in 1 of 3 solved moves)",
    ]
    data = json.loads(run("review", "1", "--json", "--db", str(path)).stdout)
    assert data["review"][0]["scores"] == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    assert [m["mark"] for m in data["review"]] == ["blunder", "blunder", "mistake", "best", "mistake", "blunder",
                                                   "only move"]
    assert [m["missed_win"] for m in data["review"]] == [True, True, True, False, False, True, False]
    assert [v["text"] for v in data["values"]] == ["win in 21", "loss in 20", "win in 20", "draw", "draw",
                                                   "loss in 18", "win in 1", "won"]
    assert [v["in"] for v in data["values"]] == [21, 20, 20, None, None, 18, 1, 0]
    assert data["key_moments"] == [1, 2, 3, 5, 6]


def test_the_graph_outside_utf8_is_ascii(tmp_path):
    path, _ = stored(tmp_path, "1122334")
    done = run("review", "last", "--db", str(path), env={**_env(), "PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[10:13] == ["Ann wins  # #   ##", "    draw     --", "Bob wins   #   #"]


def _env():
    import os

    return {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL")}


def test_a_position_not_solved_in_time_is_reported_not_guessed(tmp_path):
    # the 13-stone position after 2147756677465 takes the solver seconds (see docs/guide/analyse-and-puzzle.md)
    path, _ = stored(tmp_path, "21477566774651233")
    done = run("review", "last", "--json", "--time-limit", "0.01", "--db", str(path))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    moves = data["review"]
    assert moves[13]["mark"] == "unsolved" and moves[13]["score"] is None and moves[13]["scores"] is None
    assert all(m["mark"] != "unsolved" for m in moves[:8])   # book positions answer at once
    assert all((m["score"] is None) == (m["mark"] == "unsolved") for m in moves)
    assert 14 not in data["key_moments"]


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
    done = run("review", "last", "--train", "--json", "--db", str(path))
    assert (done.returncode, done.stderr) == (
        2, "sensehat-c4 review: error: argument --json: not allowed with argument --train (see --help)\n")


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


def test_the_guide_shows_the_marks_and_the_review_as_the_command_prints_them(tmp_path):
    text = (ROOT / "docs" / "guide" / "review.md").read_text()
    table = text[text.index("| mark | the move played |"):]
    table = table[:table.index("\n\n")]
    marks = [m.replace("not solved in time", "unsolved") for m in re.findall(r"^\| `([a-z ]+)` \|", table, re.M)]
    assert marks == ["unsolved", "blunder", "mistake", "inaccuracy", "only move", "best"]   # the order they apply in
    assert sorted(marks) == sorted(review.MARKS)
    example = text[text.index("$ sensehat-c4 review 1\n"):]
    example = example[:example.index("```")].splitlines()[1:]
    path, _ = stored(tmp_path, "1122334")
    done = run("review", "1", "--db", str(path), env={**_env(), "PYTHONIOENCODING": "utf-8"})
    assert done.stdout.splitlines() == example


@pytest.mark.parametrize("language", __import__("gamelib.i18n", fromlist=["languages"]).languages())
def test_the_table_s_columns_line_up_in_every_language(tmp_path, language):
    """Each column is as wide as its heading's words in the language shown (``langkah`` is 7 letters) or its
    widest value: the numbers end under their heading's end, the names and marks start under theirs."""
    from gamelib import i18n

    from records_data import ANN
    from sensehat_c4.records import Side

    _path, (match, rnd) = stored(tmp_path, "4455667", sides=(ANN, Side((255, 255, 0), level="match-me", seconds=1.0)))
    i18n.choose([language])
    try:
        result = review.review_round(match, rnd, seconds=10.0)
        table = review.text_parts(result)[0].splitlines()[1:]
        heads = (review._("move"), review._("player"), review._("col"), review._("score"), review._("best"),
                 review._("mark"))
        rows = [(str(m.ply), match.label(m.seat), str(m.column + 1), review._signed(m.score),
                 f"{','.join(str(c + 1) for c in m.best_columns)} ({review._signed(m.best_score)})",
                 review.mark_text(m)) for m in result.moves]
    finally:
        i18n.choose(None)
    right = (True, False, True, True, False, False)

    def edges(line, cells):
        found, at = [], 0
        for cell, on_right in zip(cells, right):
            start = line.index(cell, at)
            at = start + len(cell)
            found.append(at if on_right else start)
        return found

    assert len(table) == 1 + len(rows) == 8
    assert all(edges(line, cells) == edges(table[0], heads) for line, cells in zip(table[1:], rows)), table


@pytest.mark.parametrize("code, line", [
    ("en", "Ann: 18 moves, 1 best (1 only move), 0 inaccuracies, 0 mistakes, 0 blunders, 2 not solved; "
           "accuracy 6% (best in 1 of 16 solved moves)"),
    ("fr", "Ann : 18 coups, 1 meilleur coup (1 coup unique), 0 imprécision, 0 erreur, 0 gaffe, 2 non résolus ; "
           "précision 6 % (meilleur coup 1 fois sur 16 coups résolus)"),
    ("id", "Ann: 18 langkah, 1 terbaik (1 langkah tunggal), 0 kurang tepat, 0 kesalahan, 0 langkah fatal, 2 tidak "
           "terpecahkan; ketepatan 6% (terbaik di 1 dari 16 langkah terpecahkan)"),
])
def test_the_summary_counts_agree_in_each_language(code, line):
    """Each count of the summary is a plural of its own (French: ``1 meilleur coup``, ``2 non résolus``; no
    ``meilleur(s)``)."""
    from gamelib import i18n

    i18n.choose([code])
    try:
        said = review.summary_text("Ann", review.Summary(18, 1, 0, 0, 2, only_moves=1))
    finally:
        i18n.choose(None)
    assert said == line
