"""Puzzles (``engine/puzzles.py``, ``data/puzzles.bin``): the shipped set (1,000 of each n, every one a
unique win within n, a sample checked by ``bitbully``), the day's choice, solving a puzzle move by
move, damaged files, and ``sensehat-c4 puzzle``."""
import functools
import hashlib
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
    for day in (date(2026, 11, 24), date(2026, 11, 29), date(2000, 2, 29)):
        digest = int(hashlib.sha256(day.isoformat().encode()).hexdigest(), 16)
        assert daily(day) == puzzles(n_of(day))[digest % 1100]
    assert daily(date(2026, 11, 24)).ident == PINNED_TUESDAY
    assert daily(date(2026, 11, 29)).ident == PINNED_SUNDAY


PINNED_TUESDAY = "2-0462"
PINNED_SUNDAY = "7-0787"
STARTED = date(2026, 11, 26)
"""The day the puzzles began (7596e4f)."""
LAST_SERVED = date(2026, 12, 7)
"""The last day the first rule (every puzzle of the day's n) chose the puzzle of: the day the fair rule came."""
SERVED = {date(2026, 11, 24): "2-0462", date(2026, 11, 26): "4-0227", date(2026, 11, 29): "7-0787",
          date(2026, 12, 6): "7-0308", date(2026, 12, 7): "1-0914"}
"""Days' puzzles as ``sensehat-c4 puzzle --date`` printed them at e8ab726 (main before the fair rule); 2026-12-07's has
one column open."""


@functools.lru_cache(maxsize=None)
def shipped_lines() -> Dict[int, List[str]]:
    """The shipped file's puzzles, read here as text: n -> their lines, in the file's order (ids from 1)."""
    lines = zlib.decompress(PATH.read_bytes()).decode("ascii").splitlines()
    assert lines[0] == "C4PZ 1 7x6"
    found: Dict[int, List[str]] = {}
    for line in lines[1:]:
        found.setdefault(int(line.split()[0]), []).append(line)
    return found


def digest(day: date) -> int:
    return int.from_bytes(hashlib.sha256(day.isoformat().encode("ascii")).digest(), "big")


def first_rule(day: date) -> str:
    """The day's puzzle id by the rule every day up to :data:`LAST_SERVED` had (e8ab726's ``daily``): number
    sha256(ISO date) mod count, from 0, among every puzzle of the weekday's n."""
    n = day.isoweekday()
    return f"{n}-{digest(day) % len(shipped_lines()[n]) + 1:04d}"


def independently_fair(line: str) -> bool:
    """A puzzle's line judged with the rules core alone: at least 3 legal moves, and at least 2 after which the
    defence has no move that makes four (the winning move is one: the game is over)."""
    board = Board.from_moves("" if line.split()[2] == "-" else line.split()[2])
    legal = board.legal_moves()
    safe = 0
    for column in legal:
        after = board.copy()
        after.play(column)
        if after.is_over:
            safe += 1
            continue
        loses = False
        for reply in after.legal_moves():
            answered = after.copy()
            answered.play(reply)
            loses = loses or (answered.outcome is not None and answered.outcome.winner is not None)
        safe += not loses
    return len(legal) >= 3 and safe >= 2


@pytest.fixture(scope="module")
def judged() -> Dict[int, List[bool]]:
    """Every shipped puzzle judged by :func:`independently_fair`, by n, in the file's order."""
    return {n: [independently_fair(line) for line in lines] for n, lines in shipped_lines().items()}


def test_every_day_served_before_the_fair_rule_keeps_its_puzzle():
    """Every day from the puzzles' start to the last one served by the first rule, and a sample of older days, give
    the puzzle they gave then (the records name it by id): the same id, fair or not."""
    rng = random.Random(7)
    days = [STARTED + timedelta(days=k) for k in range((LAST_SERVED - STARTED).days + 1)]
    days += [date(1, 1, 1) + timedelta(days=rng.randrange((STARTED - date(1, 1, 1)).days)) for _ in range(300)]
    for day in days:
        assert daily(day).ident == first_rule(day), day
    for day, ident in SERVED.items():
        assert daily(day).ident == ident == first_rule(day)


def test_from_the_day_after_a_day_s_puzzle_is_chosen_among_the_fair_ones(judged):
    """From the day after :data:`LAST_SERVED`: number sha256(ISO date) mod count among the fair puzzles of the
    day's n, in the file's order; the first rule would have given an unfair one on many of those days."""
    rng = random.Random(8)
    first = LAST_SERVED + timedelta(days=1)
    days = [first + timedelta(days=k) for k in range(366)]
    days += [first + timedelta(days=rng.randrange((date(9999, 12, 31) - first).days)) for _ in range(300)]
    unfair_before = 0
    for day in days:
        n = day.isoweekday()
        fair_ones = [number for number, fair in enumerate(judged[n], start=1) if fair]
        assert daily(day).ident == f"{n}-{fair_ones[digest(day) % len(fair_ones)]:04d}", day
        unfair_before += not judged[n][int(first_rule(day)[2:]) - 1]
    assert unfair_before > 100


def test_the_fair_rule_over_the_whole_set(judged):
    """``fair()`` is the rule (at least 3 legal moves, 2 that do not lose at once) on every shipped puzzle, and
    every n keeps hundreds of fair ones; the puzzle of 2026-12-07 (served before the rule) is not one."""
    from sensehat_c4.engine.puzzles import MIN_MOVES, MIN_SAFE, fair, fair_puzzles

    assert (MIN_MOVES, MIN_SAFE) == (3, 2)
    for n in range(1, MAX_N + 1):
        assert [fair(p) for p in puzzles(n)] == judged[n], n
        assert fair_puzzles(n) == tuple(p for p, ok in zip(puzzles(n), judged[n]) if ok)
        assert len(fair_puzzles(n)) >= 600
    assert not fair(daily(date(2026, 12, 7)))
    one_open = daily(date(2026, 12, 7)).board()
    assert one_open.legal_moves() == [2]


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


# -- a day that has not come yet -----------------------------------------------------------------

TODAY = date(2026, 12, 7)
"""The clock the command is given (a Monday)."""


@pytest.mark.parametrize("mode", [["--show"], ["--json"], ["--solution"], []], ids=["show", "json", "solution", "play"])
@pytest.mark.parametrize("value", ["2026-12-08", "3000-01-01", "9999-12-31"])
def test_a_day_after_today_is_refused_in_one_line_before_anything_opens(capsys, monkeypatch, mode, value):
    """Today is the command's clock (local), not the machine's: the refusal does not depend on the real date."""
    from gamelib import backends
    from sensehat_c4.commands import puzzle

    monkeypatch.setattr(backends, "open_backend", lambda *a, **k: pytest.fail("a backend was opened"))
    with pytest.raises(SystemExit) as leaving:
        puzzle.run(["--date", value, *mode], today=lambda: TODAY)
    assert leaving.value.code == 2
    assert capsys.readouterr() == ("", f"sensehat-c4 puzzle: error: argument --date: {value} is after today "
                                       "(2026-12-07): a day's puzzle comes out on its day (see --help)\n")


def test_today_and_the_days_before_are_given(capsys):
    from sensehat_c4.commands import puzzle

    for day in (TODAY, TODAY - timedelta(days=1), date(1, 1, 1)):
        assert puzzle.run(["--date", day.isoformat(), "--json"], today=lambda: TODAY) == 0
        assert json.loads(capsys.readouterr().out)["id"] == daily(day).ident
    assert puzzle.run(["--json"], today=lambda: TODAY) == 0
    assert json.loads(capsys.readouterr().out)["date"] == "2026-12-07"


def test_a_past_day_s_puzzle_solved_today_counts_solved_and_not_on_the_day(monkeypatch, tmp_path, capsys):
    """On 2026-12-07, 2026-11-30's puzzle (a Monday's: one stone) solved, and today's: ``stats`` reads both rows
    (no row skipped), one of them solved on its day."""
    from gamelib import backends
    from gamelib.backends.mock import MockBackend
    from sensehat_c4.commands import puzzle

    path = tmp_path / "games.db"
    for day in (date(2026, 11, 30), TODAY):
        mock = MockBackend()
        steps = daily(day).solution - 3                             # from the middle column
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "middle")
        monkeypatch.setattr(backends, "open_backend", lambda *a, **k: mock)
        assert puzzle.run(["--date", day.isoformat(), "--db", str(path)], today=lambda: TODAY) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"puzzle {daily(date(2026, 11, 30)).ident} of 2026-11-30: solved at try 1; streak: 0 days",
                   "puzzle 1-0914 of 2026-12-07: solved at try 1; streak: 1 day"]
    assert main(["stats", "--json", "--db", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)["puzzles"]
    assert {k: summary[k] for k in ("played", "solved", "on_the_day", "tries")} == {
        "played": 2, "solved": 2, "on_the_day": 1, "tries": 2}
