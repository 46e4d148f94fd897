"""Puzzles (``engine/puzzles.py``, ``data/puzzles.bin``): the shipped set (1,000 of each n, every one a
unique win within n, a sample checked by ``bitbully``), the day's choice, solving a puzzle move by
move, damaged files, and ``sensehat-c4 puzzle``."""
import json
import random
import subprocess
import sys
import zlib
from datetime import date, timedelta
from pathlib import Path
from typing import Dict, List

import pytest

from ci_needs import require_bitbully
from sensehat_c4.commands import main
from sensehat_c4.engine import default_oracle
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.engine.puzzles import (MAX_N, PATH, Puzzle, Verdict, check, daily, defence, n_of, parse,
                                        puzzles, solution_line)
from sensehat_c4.engine.sizebooks import mirror_key
from sensehat_c4.errors import ConfigError, IllegalMoveError
from sensehat_c4.rules import Board

EVERY = puzzles()


def win_score(stones: int) -> int:
    """7x6: the score of winning with the next stone, ``stones`` on the board."""
    return (43 - stones) // 2


def sample(per_n: int, seed: int) -> List[Puzzle]:
    rng = random.Random(seed)
    return [p for n in range(1, MAX_N + 1) for p in rng.sample(puzzles(n), per_n)]


# -- the set ----------------------------------------------------------------------------------

def test_the_set_has_a_thousand_puzzles_of_each_n_numbered_in_order():
    assert {n: len(puzzles(n)) for n in range(1, MAX_N + 1)} == {n: 1100 for n in range(1, MAX_N + 1)}
    assert [p.n for p in EVERY] == sorted(p.n for p in EVERY)
    for n in range(1, MAX_N + 1):
        assert [p.number for p in puzzles(n)] == list(range(1, len(puzzles(n)) + 1))
    assert puzzles(3)[41].ident == "3-0042"


def test_no_position_is_there_twice_not_even_as_its_mirror_image():
    keys = set()
    for puzzle in EVERY:
        position = Position.of(puzzle.board())
        plain = position.current + position.mask
        keys.add(min(plain, mirror_key(position.shape, plain)))
    assert len(keys) == len(EVERY)


def test_every_line_is_legal_and_ends_with_the_solver_s_four_on_its_n_th_stone():
    for puzzle in EVERY:
        board = puzzle.board()
        assert not board.is_over and len(board.moves) >= 6
        for column in (int(c) - 1 for c in puzzle.line):
            assert not board.is_over
            board.play(column)
        assert board.outcome is not None and board.outcome.winner == puzzle.to_move, puzzle.ident
        assert len(puzzle.line) == 2 * puzzle.n - 1 and puzzle.solution == int(puzzle.line[0]) - 1
        assert 1.0 <= puzzle.tries <= 7.0


def exact(puzzle: Puzzle, scores: Dict[int, int]) -> None:
    """``scores`` (every move's exact score) make ``puzzle`` what it says: a win with the n-th stone,
    by one first move only."""
    best = max(scores.values())
    assert best == win_score(len(puzzle.moves)) - (puzzle.n - 1), puzzle.ident
    assert [c for c, s in scores.items() if s == best] == [puzzle.solution], puzzle.ident


def test_a_sample_is_what_it_says_by_our_solver():
    oracle = default_oracle()
    for puzzle in sample(30, seed=1):
        exact(puzzle, oracle.move_scores(Position.of(puzzle.board()), Budget()))


def bitbully_scores(moves: str) -> Dict[int, int]:
    """bitbully's score of every move (its 12-ply book below 11 stones, a plain search from 11 on)."""
    require_bitbully("the independent solver the puzzles are checked against")
    from bitbully import BitBully, Board as BitBoard

    agent = BitBully(None) if len(moves) >= 11 else BitBully()
    return dict(agent.score_all_moves(BitBoard("".join(str(int(c) - 1) for c in moves))))


def test_a_sample_is_what_it_says_by_bitbully():
    for puzzle in sample(4, seed=2):
        exact(puzzle, bitbully_scores(puzzle.moves))


@pytest.mark.slow
def test_every_puzzle_is_what_it_says_by_our_solver():
    oracle = default_oracle()
    for puzzle in EVERY:
        exact(puzzle, oracle.move_scores(Position.of(puzzle.board()), Budget()))


# -- the day's puzzle -----------------------------------------------------------------------

def test_n_follows_the_week_from_monday_s_one_to_sunday_s_seven():
    monday = date(2026, 11, 23)
    assert [n_of(monday + timedelta(days=d)) for d in range(8)] == [1, 2, 3, 4, 5, 6, 7, 1]
    assert [daily(monday + timedelta(days=d)).n for d in range(7)] == [1, 2, 3, 4, 5, 6, 7]


def test_the_day_s_puzzle_is_the_hash_of_its_date_the_same_everywhere():
    import hashlib

    for day in (date(2026, 11, 24), date(2026, 11, 29), date(2000, 2, 29), date(9999, 12, 31)):
        digest = int(hashlib.sha256(day.isoformat().encode()).hexdigest(), 16)
        assert daily(day) == puzzles(n_of(day))[digest % 1100]
    assert daily(date(2026, 11, 24)).ident == PINNED_TUESDAY
    assert daily(date(2026, 11, 29)).ident == PINNED_SUNDAY


PINNED_TUESDAY = "2-0462"
PINNED_SUNDAY = "7-0787"


# -- solving --------------------------------------------------------------------------------

@pytest.mark.parametrize("puzzle", sample(2, seed=3), ids=lambda p: p.ident)
def test_the_line_is_right_move_by_move_and_the_defence_is_the_line_s(puzzle):
    line = [int(c) - 1 for c in puzzle.line]
    played: List[int] = []
    for index, column in enumerate(line):
        if index % 2 == 0:
            verdict = check(puzzle, played, column)
            assert verdict is (Verdict.SOLVED if index == len(line) - 1 else Verdict.RIGHT), (puzzle.ident, index)
        else:
            assert defence(puzzle, played) == column, (puzzle.ident, index)
        played.append(column)


@pytest.mark.parametrize("puzzle", sample(2, seed=4), ids=lambda p: p.ident)
def test_every_other_first_move_is_wrong(puzzle):
    board = puzzle.board()
    for column in board.legal_moves():
        verdict = check(puzzle, [], column)
        if column == puzzle.solution:
            assert verdict is (Verdict.SOLVED if puzzle.n == 1 else Verdict.RIGHT)
        else:
            assert verdict is Verdict.WRONG, (puzzle.ident, column)


def test_a_slower_win_later_is_wrong_too():
    # after the first move, a move that still wins but needs more stones than are left is wrong
    oracle = default_oracle()
    for puzzle in puzzles(4)[:40]:
        played = [puzzle.solution, defence(puzzle, [puzzle.solution])]
        board = puzzle.board()
        for column in played:
            board.play(column)
        scores = oracle.move_scores(Position.of(board), Budget())
        for column, score in scores.items():
            needs = win_score(board.ply) - score + 1 if score > 0 else None
            verdict = check(puzzle, played, column)
            assert verdict is (Verdict.RIGHT if needs is not None and needs <= puzzle.n - 1 else Verdict.WRONG)


def test_solving_refuses_what_cannot_be():
    puzzle = puzzles(3)[0]
    with pytest.raises(IllegalMoveError, match="it is the defence's move"):
        check(puzzle, [puzzle.solution], 0)
    with pytest.raises(IllegalMoveError, match="it is the solver's move"):
        defence(puzzle, [])
    filled = next(p for p in EVERY if any(p.board().height(c) == 6 for c in range(7)))
    full = next(c for c in range(7) if filled.board().height(c) == 6)
    with pytest.raises(IllegalMoveError, match=f"column {full + 1} is full"):
        check(filled, [], full)
    solved = [int(c) - 1 for c in puzzle.line]
    with pytest.raises(IllegalMoveError, match="the game is already over"):
        check(puzzle, solved + [0], 0)
    with pytest.raises(IllegalMoveError, match="the puzzle is over"):
        defence(puzzle, solved)


def test_the_solution_line_of_a_position_that_is_not_won_is_refused():
    with pytest.raises(ConfigError, match="the side to move does not win after 4453"):
        solution_line("4453")


# -- the file ---------------------------------------------------------------------------------

def write(path: Path, text: str) -> Path:
    path.write_bytes(zlib.compress(text.encode()))
    return path


@pytest.mark.parametrize("text, message", [
    ("", "an empty puzzle file"),
    ("C4PZ 2 7x6\n", "not a puzzle file of version 1"),
    ("C4PZ 1 7x6\n1 1.00 4453 3\n", "puzzle file line 2: not N TRIES MOVES SOLUTION LINE"),
    ("C4PZ 1 7x6\n8 1.00 4453 3 3\n", "puzzle file line 2: not N TRIES MOVES SOLUTION LINE"),
    ("C4PZ 1 7x6\n1 x 4453 3 3\n", "puzzle file line 2: not N TRIES MOVES SOLUTION LINE"),
    ("C4PZ 1 7x6\n1 1.00 4453 3 3 \n", "puzzle file line 2: not N TRIES MOVES SOLUTION LINE"),
    ("C4PZ 1 7x6\n1 1.00 4458 3 3\n", "puzzle file line 2: not N TRIES MOVES SOLUTION LINE"),
    ("C4PZ 1 7x6\n2 1.00 4453 3 3\n", "puzzle file line 2: not a puzzle"),
    ("C4PZ 1 7x6\n2 1.00 4453 3 415\n", "puzzle file line 2: not a puzzle"),
])
def test_a_damaged_file_is_one_clear_error(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        parse(text)
    with pytest.raises(ConfigError, match=message):
        puzzles(path=write(tmp_path / "p.bin", text))


@pytest.mark.parametrize("line, message", [
    ("1 1.00 44444444 4 4", "puzzle 1-0001 of .*p.bin cannot be played: move 7 .*column 4 is full"),
    ("1 1.00 121212 3 3", "puzzle 1-0001 of .*p.bin: its line does not win"),
])
def test_a_puzzle_that_cannot_be_played_is_one_clear_error_when_it_is_used(tmp_path, line, message):
    path = write(tmp_path / "p.bin", f"C4PZ 1 7x6\n{line}\n")
    assert len(puzzles(path=path)) == 1                      # read quickly: each line's form only
    with pytest.raises(ConfigError, match=message):
        daily(date(2026, 11, 23), path=path)                 # a Monday: n = 1


def test_a_file_that_cannot_be_read_is_one_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="the puzzles cannot be read from .*missing.bin"):
        puzzles(path=tmp_path / "missing.bin")
    (tmp_path / "junk.bin").write_bytes(b"junk")
    with pytest.raises(ConfigError, match="the puzzles cannot be read from .*junk.bin"):
        puzzles(path=tmp_path / "junk.bin")


# -- the command ------------------------------------------------------------------------------

def test_the_command_prints_the_day_s_puzzle_as_json(capsys):
    assert main(["puzzle", "--date", "2026-11-24", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    puzzle = daily(date(2026, 11, 24))
    assert got == {"date": "2026-11-24", "id": puzzle.ident, "board": "7x6", "moves": puzzle.moves,
                   "to_move": puzzle.to_move, "n": 2, "solution": puzzle.solution + 1, "line": puzzle.line,
                   "tries": puzzle.tries}


def test_the_command_prints_the_puzzle_as_text_without_the_answer(capsys):
    assert main(["puzzle", "--date", "2026-11-29", "--show"]) == 0
    out = capsys.readouterr().out
    puzzle = daily(date(2026, 11, 29))
    board = puzzle.board()
    mark = "X" if puzzle.to_move == 1 else "O"
    assert out == (f"puzzle {puzzle.ident} of Sunday 2026-11-29\n{board}\n1234567\nmoves: {puzzle.moves}\n"
                   f"player {puzzle.to_move} ({mark}) to move: win with your 7th stone from here, whatever the "
                   "defence (one first move does it)\n")
    assert main(["puzzle", "--date", "2026-11-29", "--solution"]) == 0
    assert capsys.readouterr().out == out + f"solution: {puzzle.solution + 1} (a line: {puzzle.line})\n"


def test_today_s_puzzle_by_default(capsys):
    assert main(["puzzle", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["date"] == date.today().isoformat()


@pytest.mark.parametrize("value", ["2026-02-30", "2026-1-1", "20261124", "2026-W48-2", "\uff12\uff10\uff12\uff16-11-24",
                                   "0000-01-01", "2026-11-24\n"])
def test_a_bad_date_is_one_line_and_exit_2(value):
    run = subprocess.run([sys.executable, "-m", "sensehat_c4", "puzzle", "--date", value],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert lines[-1].startswith("sensehat-c4 puzzle: error: argument --date: not a date YYYY-MM-DD")


@pytest.mark.parametrize("value, english, french", [
    ("2026-13-01", "(a month is 01 to 12)", "(un mois va de 01 à 12)"),
    ("2026-00-10", "(a month is 01 to 12)", "(un mois va de 01 à 12)"),
    ("2026-02-29", "(that month has 28 days)", "(ce mois a 28 jours)"),
    ("2024-02-30", "(that month has 29 days)", "(ce mois a 29 jours)"),
    ("2026-04-00", "(that month has 30 days)", "(ce mois a 30 jours)"),
    ("0000-01-01", "(the years start at 0001)", "(les années commencent à 0001)"),
    ("2026-1-1", "", ""),
])
def test_a_bad_date_says_what_is_wrong_once_and_in_the_language_s_words(value, english, french):
    """What is wrong with a date is said once, in our words: never Python's English (``month must be in 1..12``)."""
    import argparse

    from gamelib import i18n
    from sensehat_c4.commands.puzzle import iso_date

    said = {}
    for code in ("en", "fr"):
        i18n.choose([code])
        try:
            with pytest.raises(argparse.ArgumentTypeError) as refused:
                iso_date(value)
        finally:
            i18n.choose(None)
        said[code] = str(refused.value)
    assert said == {"en": f"not a date YYYY-MM-DD: {value!r}" + (f" {english}" if english else ""),
                    "fr": f"pas une date AAAA-MM-JJ : {value!r}" + (f" {french}" if french else "")}


def test_the_shipped_file_is_the_package_s():
    assert PATH.name == "puzzles.bin" and PATH.parent.name == "data" and PATH.is_file()
    assert Board.from_moves(EVERY[0].moves).ply == len(EVERY[0].moves)
