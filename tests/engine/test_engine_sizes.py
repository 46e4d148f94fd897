"""The engine on every board size: exact scores against a plain minimax and against published
results, the levels playing whole games, and perfect offered only where it is exact in time.

Published results: the outcome and the move on which the game ends with perfect play, for
the empty board of each width x height, from the "Outcome" and "Last Move" tables of
Christophe Steininger's solver (https://github.com/ChristopheSteininger/c4, readme.md,
"Results"); for width + height <= 15 they were first published by John Tromp
(https://tromp.github.io/c4/c4.html, "John's Connect Four Playground").  A win on move
``m`` is the winner's stone ``k = (m + 1) // 2``, so the score for the first player is
``(cells + 3) // 2 - k`` if it wins, minus that if the second player does, 0 for a draw.
"""
import random
from typing import Dict

import pytest
from engine_data import CORES, scored, solver, published_score, minimax, child_scores, make_book

from sensehat_c4.match.computer import Computer, Thinker
from sensehat_c4.engine import LEVELS, Limit, Oracle, choose_move, move_scores
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position, shape_of
from sensehat_c4.rules import SIZES, Board, Size



def test_the_published_scores_read_right_on_seven_by_six():
    # the classic board: the first player wins with its 21st stone, score 22 - 21 = 1
    assert published_score(Size(7, 6)) == 1
    assert published_score(Size(6, 4)) == -1 and published_score(Size(8, 5)) == 1


# -- a plain minimax: every move, every reply, no pruning, no parity rules --------------



def positions(board: Board, plies: int):
    """Every position reachable in up to ``plies`` more moves (copies), the game not over."""
    yield board.copy()
    if plies and not board.is_over:
        for column in board.legal_moves():
            board.push(column)
            if not board.is_over:
                yield from positions(board, plies - 1)
            board.pop()


def test_four_by_four_whole_board_against_plain_minimax():
    memo: Dict = {}
    board = Board(4, 4)
    assert minimax(board, memo) == 0 == published_score(Size(4, 4))
    oracle = Oracle.installed(board.layout)
    checked = 0
    for position in positions(board, 5):
        assert move_scores(position, oracle=oracle) == child_scores(position, memo), position.notation()
        checked += 1
    assert checked == 1 + 4 + 16 + 64 + 256 + (1024 - 4)   # 4 of the five-move lists play a full column


@pytest.mark.parametrize("columns, rows, plies", [(5, 4, 8), (4, 5, 8), (6, 4, 12), (5, 5, 14)])
def test_random_positions_of_small_boards_against_plain_minimax(columns, rows, plies):
    rng = random.Random(columns * 10 + rows)
    oracle = Oracle.installed(Board(columns, rows).layout)
    done = 0
    while done < 12:
        board = Board(columns, rows)
        while board.ply < plies and not board.is_over:
            board.push(rng.choice(board.legal_moves()))
        if board.is_over:
            continue
        memo: Dict = {}
        expected = child_scores(board, memo)
        assert move_scores(board, oracle=oracle) == expected, board.notation()
        chosen = choose_move(board, "perfect", seed=done, oracle=oracle)
        assert chosen.optimal and expected[chosen.column] == max(expected.values())
        assert chosen.score in (None, expected[chosen.column])     # a forced move's score may be unknown
        done += 1


@pytest.mark.parametrize("size", [Size(4, 4), Size(5, 4), Size(4, 5), Size(4, 6), Size(6, 4), Size(5, 5)])
def test_empty_boards_against_published_results(size):
    board = size.board()
    scores = move_scores(board, oracle=Oracle.installed(board.layout))
    assert max(scores.values()) == published_score(size)


# -- the largest boards against an independent solver ---------------------------------------

@pytest.mark.parametrize("core, most", [("native", 1_000_000), pytest.param("python", 5_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("size", ["8x6", pytest.param("8x5", marks=pytest.mark.slow)])   # 8 x 5: 5 s of CPU
def test_the_largest_boards_against_an_independent_solver(size, core, most):
    """Positions of 8 x 6 (56 bits: the layout's largest) and 8 x 5 scored by another solver
    (tests/data/sizes_*.scores says which and how); each core takes those that other solver
    needed at most ``most`` positions for (the Python core: the late ones; slow, some 10 s of CPU a
    size: the fast tier has the Python core on these sizes in the plain-minimax tests)."""
    board = Size.parse(size)
    search = solver(core, 18, shape_of(board))
    rows = [(moves, score) for moves, score, work in scored(size) if work <= most]
    assert len(rows) >= (350 if core == "native" else 250)
    got = [(moves, search.score(Position.of(board.from_moves(moves)), Budget())) for moves, _ in rows]
    assert got == rows


def test_analyse_solves_an_eight_by_six_position_as_the_independent_solver_scores_it():
    moves, score, _ = next(row for row in scored("8x6") if len(row[0]) == 30)
    board = Size(8, 6).from_moves(moves[:-1])
    scores = move_scores(board, limit=Limit(seconds=120), oracle=Oracle.installed(board.layout))
    assert scores[int(moves[-1]) - 1] == -score
    assert max(scores.values()) >= -score


# -- the ladder on every size ---------------------------------------------------------------

@pytest.mark.parametrize("size", [pytest.param(s, marks=pytest.mark.slow) if s in (Size(8, 5), Size(7, 5)) else s  # 3 s each
                                  for s in SIZES], ids=str)
def test_the_levels_offered_on_a_size_play_whole_games_there(size):
    """(8 x 5 slow: its levels' searches are some 10 s of CPU, the other sizes' at most 2 s.)"""
    offered = [name for name in LEVELS if size in LEVELS[name].offered_sizes() and name != "perfect"]
    assert offered[:3] == ["easy", "casual", "steady"]      # the lower levels play every size
    for game, pair in enumerate(zip(offered, offered[::-1])):
        board = size.board()
        while not board.is_over:
            level = pair[board.ply % 2]
            result = choose_move(board, level, seed=game * 100 + board.ply)
            assert result.column in board.legal_moves() and result.level == level
            assert result.source != "budget"
            board.play(result.column)
        assert board.ply <= size.columns * size.rows


@pytest.mark.parametrize("size, moves, columns", [
    (Size(6, 5), "343434", {2}),           # player 1 completes column 3 (0-based 2)
    (Size(8, 6), "556677", {3, 7}),        # the bottom row 5-6-7: column 4 or 8 wins
    (Size(4, 4), "12121", {0}),            # player 2 must block column 1
])
def test_every_level_but_the_first_takes_a_win_and_blocks_on_other_sizes(size, moves, columns):
    board = size.from_moves(moves)
    for level in LEVELS:
        if level != "easy" and size in LEVELS[level].offered_sizes():
            for seed in range(3):
                assert choose_move(board, level, seed=seed).column in columns, level


@pytest.mark.parametrize("size, level, moves, columns", [
    (Size(6, 5), "steady", "343434", {2}),    # the thread answers with the win on 6x5
    (Size(8, 6), "medium", "556677", {3, 7}),
    (Size(5, 4), "perfect", "33", None),      # a move of the best score, by the plain minimax
])
def test_the_computer_player_thinks_on_other_sizes(size, level, moves, columns):
    from scripted import answer

    board = size.from_moves(moves)
    if columns is None:
        scores = child_scores(board, {})
        columns = {c for c, s in scores.items() if s == max(scores.values())}
        assert len(columns) < len(scores)
    thinker = Thinker(Computer(level, seconds=30), seed=1)
    thinker.start(board)
    assert answer(thinker, within=60) in columns


# -- memory: a table for each board, two oracles at most ------------------------------

@pytest.mark.parametrize("core", CORES)
def test_each_board_has_a_table_of_its_own_size(core):
    from engine_data import native_or_skip

    if core == "native":
        native_or_skip()
    sizes = {}
    for size in (Size(4, 4), Size(6, 4), Size(6, 5), Size(7, 6), Size(8, 6)):
        search = Oracle(shape_of(size), core=core).solver
        sizes[str(size)] = search.table_bytes if core == "native" else len(search.table) * search.table.itemsize
    kib = {size: round(n / 1024) for size, n in sizes.items()}
    assert kib == {"4x4": 32, "6x4": 512, "6x5": 4096, "7x6": 8192, "8x6": 8192}


def test_the_default_oracles_are_the_seven_by_six_one_and_the_last_other_size():
    from sensehat_c4.engine import oracle as oracle_module

    standard = oracle_module.default_oracle(Size(7, 6))
    small = oracle_module.default_oracle(Size(4, 4))
    assert oracle_module.default_oracle(Size(4, 4)) is small          # kept while it is the last
    other = oracle_module.default_oracle(Size(6, 5))
    assert {(k.columns, k.rows) for k in oracle_module._default} == {(7, 6), (6, 5)}     # 4x4's was let go
    assert oracle_module.default_oracle(Size(7, 6)) is standard and oracle_module.default_oracle(Size(6, 5)) is other


# -- the books of other sizes ----------------------------------------------------------



def test_a_book_of_another_size_holds_the_plain_minimax_scores_and_resumes(tmp_path):
    from sensehat_c4.engine.sizebooks import SizeBook, book_key

    out = tmp_path / "book-4x4.bin"
    log = make_book("--board", "4x4", "--plies", "5", "--out", str(out))
    assert "4x4: 1, 2, 8, 26, 82, 218 positions of 0 to 5 stones (up to mirror)" in log
    assert "4x4: the empty board scores +0" in log and not (tmp_path / "book-4x4.bin.partial").exists()
    book = SizeBook(out)
    assert (book.layout.columns, book.layout.rows, book.max_ply) == (4, 4, 5)
    memo: Dict = {}
    checked = 0
    for board in positions(Board(4, 4), 5):
        position = Position.of(board)
        scores = child_scores(board, memo)
        assert book.score(position.current, position.mask, position.moves) == max(scores.values()), board.notation()
        checked += 1
    assert checked == 1 + 4 + 16 + 64 + 256 + 1020
    # stopped and started again: the positions solved before are not solved again
    first = out.read_bytes()
    out.unlink()
    shape = shape_of(Size(4, 4))
    kept = Position.of(Size(4, 4).from_moves("12341"))
    (tmp_path / "book-4x4.bin.partial").write_text(f"{book_key(shape, kept.current, kept.mask)} 0\n")
    log = make_book("--board", "4x4", "--plies", "5", "--out", str(out))
    assert "resuming: 1 positions of 5 stones solved before" in log
    assert "solved 217/217 of 5 stones" in log and out.read_bytes() == first


def test_perfect_plays_from_a_size_s_book_where_one_is_shipped():
    from sensehat_c4.engine.sizebooks import book_path

    for size in (Size(8, 4), Size(7, 5), Size(6, 6), Size(8, 5)):
        assert book_path(size).is_file(), size
        oracle = Oracle.installed(size.board().layout)
        assert oracle.openings is not None and oracle.openings.max_ply >= 2
        result = choose_move(size.board(), "perfect", seed=1, oracle=oracle)
        assert (result.source, result.score, result.nodes) == ("book", published_score(size), 0)


def test_the_8x5_book_scores_as_an_independent_solver_does():
    """36 positions of four to six stones that Steininger's solver scored (tests/data/book_8x5.scores):
    the shipped book holds each, with the same score."""
    from engine_data import DATA
    from sensehat_c4.engine.sizebooks import SizeBook, book_path

    book = SizeBook(book_path(Size(8, 5)))
    assert (book.max_ply, book.layout.columns, book.layout.rows) == (6, 8, 5)
    rows = [line.split() for line in (DATA / "book_8x5.scores").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) == 36
    got = []
    for moves, _ in rows:
        position = Position.of(Size(8, 5).from_moves(moves))
        got.append([moves, str(book.score(position.current, position.mask, position.moves))])
    assert got == rows
