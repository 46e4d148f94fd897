"""The exact solver and the books against the test sets' exact scores."""
import random
import threading
import time

import pytest
from engine_data import CORES, at, book12_or_skip, oracle, positions, solver

from sensehat_c4.engine.book12 import distance_to_score, huffman
from sensehat_c4.engine.limit import Budget, Limit
from sensehat_c4.engine.openings import MAX_PLY, OpeningBook
from sensehat_c4.engine.oracle import Oracle
from sensehat_c4.engine.position import Position, shape_of
from sensehat_c4.errors import ConfigError, SearchAborted
from sensehat_c4.rules import Board, Layout


def exact(moves):
    position = at(moves)
    return position.current, position.mask, position.moves


def answers(core, rows, table_bits=18):
    """``(moves, score, nodes)`` of each position, solved in turn by one solver on ``core``."""
    search = solver(core, table_bits)
    got = []
    for moves, _ in rows:
        budget = Budget()
        got.append((moves, search.score(at(moves), budget), budget.nodes))
    return got


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1",
                                  pytest.param("Test_L2_R2", marks=pytest.mark.slow)])   # 10 s of the fast tier's CPU
def test_both_cores_answer_the_late_test_sets_the_native_one_after_fewer_positions(name):
    """The Python core is the reference: the native one gives its answers, after fewer positions (its
    search has more ways to save work: mirror images share entries, a win with the next stone is seen
    without a node, a table that keeps the costly entries...), so their node counts differ."""
    rows = positions(name)
    python = answers("python", rows)
    assert [(m, s, got) for (m, s), (_, got, _) in zip(rows, python) if got != s] == []
    native = answers("native", rows)
    assert [(m, s) for m, s, _ in native] == [(m, s) for m, s, _ in python]
    assert sum(n for _, _, n in native) < sum(n for _, _, n in python)


@pytest.mark.parametrize("columns, rows", [(6, 5), (4, 5), (5, 4), (8, 5), (8, 6)])
def test_both_cores_give_the_same_scores_on_other_sizes(columns, rows):
    rng = random.Random(columns * rows)
    shape = shape_of(Layout(columns, rows))
    boards = []
    while len(boards) < 30:
        board = Board(columns, rows)
        target = columns * rows - rng.randint(10, 16)
        while board.ply < target and not board.is_over:
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            boards.append(board)
    got = {}
    for core in CORES:
        search = solver(core, 18, shape)
        got[core] = [(b.notation(), search.score(Position.of(b), Budget())) for b in boards]
    assert got["native"] == got["python"]


@pytest.mark.parametrize("core", [core if core != "python" else pytest.param(core, marks=pytest.mark.slow)
                                  for core in CORES])   # the Python core: 6 s of the fast tier's CPU
def test_solver_alone_matches_l1_r1_positions_past_the_books(core):
    search = solver(core, 18)
    rows = [(m, s) for m, s in positions("Test_L1_R1") if len(m) >= 13]
    assert len(rows) >= 50
    assert [(m, s) for m, s in rows if search.score(at(m), Budget()) != s] == []


def plain_score(board, memo):
    """The exact score by plain minimax over the rules core (no bounds, no rules): a reference."""
    key = board.bitboards
    if key not in memo:
        best = None
        for column in board.legal_moves():
            board.push(column)
            if board.is_over:  # 22 - k on 7 x 6
                score = (board.columns * board.rows + 2 - board.ply) // 2 if board.outcome.winner is not None else 0
            else:
                score = -plain_score(board, memo)
            board.pop()
            best = score if best is None else max(best, score)
        memo[key] = best
    return memo[key]


@pytest.mark.parametrize("moves, value, answer, score", [
    # the second player to move; the first player's winning cell on row 3 or 5 of a column with an
    # odd number of empty cells, and nothing for the second player in the cells it can get
    ("114211447666274376622565442", -1, True, -2),   # three odd columns
    ("32627665532571521235542767631", -1, True, -2),  # three odd columns
    ("5611447265456335774117556", -1, True, -7),      # one odd column
    # the first player to move, every column even: the second player's answers on top win
    ("7416334537513312747763167624", -1, True, -3),
    # the second player to move, one odd column: playing it, then answering on top, wins
    ("3331762252243412555537536", 0, False, 3),
])
@pytest.mark.parametrize("core", CORES)
def test_the_parity_rules_decide_these_positions_without_a_search(moves, value, answer, score, core):
    search = solver(core, 12)
    assert search.at_most(at(moves), value, Budget()) is answer
    assert search.nodes == 1  # the first node's bounds answered
    assert search.score(at(moves), Budget()) == score
    assert plain_score(Board.from_moves(moves), {}) == score


MINIMAX_MEMOS: dict = {}
"""The plain minimax's memo of each board size, for both cores' tests."""


@pytest.mark.parametrize("core", [core if core != "python" else pytest.param(core, marks=pytest.mark.slow)
                                  for core in CORES])   # the Python core: 12 s of the fast tier's CPU
@pytest.mark.parametrize("columns, rows, moves_left", [
    (7, 6, (6, 13)), (6, 5, (6, 13)), (4, 5, (4, 12)), (5, 4, (4, 12)), (8, 5, (6, 12)), (8, 6, (6, 12))])
def test_solver_matches_plain_minimax_on_random_late_positions(core, columns, rows, moves_left):
    """Both cores against the same positions' plain minimax, worked out once (the second core's test
    reads the first's memo: the minimax was half of this file's CPU)."""
    rng = random.Random(5)
    search = solver(core, 18, shape_of(Layout(columns, rows)))
    memo = MINIMAX_MEMOS.setdefault((columns, rows), {})
    checked = 0
    while checked < 150:
        board = Board(columns, rows)
        target = columns * rows - rng.randint(*moves_left)
        while board.ply < target and not board.is_over:
            board.play(rng.choice(board.legal_moves()))
        if board.is_over:
            continue
        assert (board.notation(), search.score(Position.of(board), Budget())) == (board.notation(),
                                                                                   plain_score(board, memo))
        checked += 1


def test_a_book_is_refused_on_another_size():
    with pytest.raises(ConfigError, match="that opening book is for 7 x 6, not 6 x 5"):
        Oracle(shape_of(Board(6, 5).layout), OpeningBook())
    with pytest.raises(ConfigError, match="the 12-ply book is for the 7 x 6 board only"):
        Oracle(shape_of(Board(6, 5).layout), None, book12_or_skip())
    assert Oracle.installed(Board(6, 5).layout).openings is None     # no book shipped for 6x5


def test_opening_book_matches_every_early_test_position():
    book = OpeningBook()
    rows = [(m, s) for m, s in positions("book_plies") if len(m) <= MAX_PLY]
    assert len(rows) == 1120
    assert [(m, s) for m, s in rows if book.score(*exact(m)) != s] == []
    assert book.score(*exact("")) == 1                 # the first player wins with its last stone
    assert book.score(*exact("444444326")) is None     # 9 stones: beyond the book


def test_opening_book_answers_an_immediate_win_and_mirror_images():
    book = OpeningBook()
    assert book.score(*exact("112233")) == 18          # player 1 wins with its 4th stone
    for moves in ("4453", "4435", "12", "76"):
        mirrored = "".join(str(8 - int(c)) for c in moves)
        assert book.score(*exact(moves)) == book.score(*exact(mirrored))


def test_book12_matches_every_twelve_stone_test_position():
    big = book12_or_skip()
    rows = [(m, s) for m, s in positions("book_plies") if len(m) == 12]
    assert len(rows) == 353
    wrong = []
    for moves, score in rows:
        current, mask, _ = exact(moves)
        if big.score12(current, mask) != score:
            wrong.append(moves)
    assert wrong == []


def test_book12_reads_the_documented_examples():
    big = book12_or_skip()
    # bitbully-databases' docstring: this position (player 1 to move) is worth 71 = a win in 29 plies
    p1 = sum(1 << (c * 7 + r) for c, r in [(1, 1), (1, 3), (3, 0), (3, 2), (3, 4), (5, 1)])
    p2 = sum(1 << (c * 7 + r) for c, r in [(1, 0), (1, 2), (3, 1), (3, 3), (5, 0), (5, 2)])
    assert big.raw(huffman(p1, p2)) == 71 or big.raw(huffman(p1, p2, mirror=True)) == 71
    assert big.score12(p1, p1 | p2) == 1
    assert distance_to_score(71, 12) == 1      # player 1 wins with its 21st stone
    assert distance_to_score(-88, 12) == -10   # player 2 wins with its 12th stone
    assert distance_to_score(0, 12) == 0


def test_book12_leaves_out_immediate_wins_and_finished_games():
    big = book12_or_skip()
    current, mask, _ = exact("112233556677")       # player 1 (to move) wins at once in column 4
    p1, p2 = current, current ^ mask
    assert big.raw(huffman(p1, p2)) is None and big.raw(huffman(p1, p2, mirror=True)) is None
    assert big.score12(current, mask) == 15        # so the reader computes it: its 7th stone


SAMPLE = 48
"""The Python core answers every 48th row of an early test set in the fast tier, the rest in the slow one
(all of Test_L1_R2 is some 20 s of its CPU; a quarter of it was 5 s)."""


@pytest.mark.parametrize("core, sample", [("native", None), ("python", True),
                                          pytest.param("python", False, marks=pytest.mark.slow)],
                         ids=["native", "python-sample", "python-rest"])
@pytest.mark.parametrize("name", ["Test_L1_R1", "Test_L1_R2", "Test_L1_R3"])
def test_oracle_with_both_books_matches_the_early_test_sets(name, core, sample):
    """Every row with the native core; with the Python core every :data:`SAMPLE`-th row in the fast tier, the
    rest slow."""
    solve = oracle(book12=True, core=core)     # the native core asks Python for the 12-stone leaves
    rows = [row for i, row in enumerate(positions(name)) if sample is None or (i % SAMPLE == 0) == sample]
    wrong = [(m, s) for m, s in rows if solve.score(at(m), Budget()) != s]
    assert wrong == []


def test_move_scores_agree_with_the_test_set_score_of_each_child():
    solve = oracle(book12=True)
    for moves, score in positions("Test_L1_R1")[:40]:
        parent = Board.from_moves(moves[:-1])
        assert solve.move_scores(Position.of(parent), Budget())[int(moves[-1]) - 1] == -score, moves


@pytest.mark.parametrize("core", CORES)
def test_a_deadline_in_the_past_aborts_and_leaves_the_solver_usable(core):
    search = solver(core, 16)
    with pytest.raises(SearchAborted):
        search.score(at("2147756677465"), Budget(deadline=time.monotonic() - 1))     # needs millions of nodes
    assert search.score(at("13165377745111143272264765634"), Budget()) == 0   # Test_L3_R1


@pytest.mark.parametrize("core", CORES)
def test_a_node_limit_and_a_stop_event_abort(core):
    search = solver(core, 16)
    budget = Limit(nodes=10_000).start()
    with pytest.raises(SearchAborted):
        search.score(at("2147756677465"), budget)
    assert budget.nodes == 3 * 4096 and search.nodes == budget.nodes   # the first look at the limits past 10,000
    stop = threading.Event()
    search.score(at("13165377745111143272264765634"), Limit(stop=stop).start())  # not set: it finishes
    stop.set()
    with pytest.raises(SearchAborted):
        search.score(at("2147756677465"), Limit(stop=stop).start())


@pytest.mark.parametrize("moves, value, answer, score", [
    # the first player to move, columns 4 and 6 odd: the second player answers a move in an even
    # column on top and one in an odd column in the other, and wins on the cells it gets so
    ("245436534133154164526212", -1, True, -2),
    # the second player to move, five and three odd columns: it plays one of them, then the
    # first player gets no four whatever it plays (and the second player one, in the latter)
    ("56274563661245177154734234673", -1, False, 0),
    ("13572574574336771444755135121", -1, False, 2),
])
def test_the_native_core_s_parity_bounds_also_hold_with_odd_columns(moves, value, answer, score):
    # solver.py applies these rules only when every column is even (or after its one odd column
    # is played); the native core with odd columns too, so its first node decides (the core
    # before took 30 to 52 positions, the Python core 32 to 665); the scores are Pons' sets'
    search = solver("native", 12)
    assert search.at_most(at(moves), value, Budget()) is answer
    assert search.nodes == 1
    assert search.score(at(moves), Budget()) == score
    assert solver("python", 12).score(at(moves), Budget()) == score


@pytest.mark.parametrize("core", CORES)
def test_a_node_limit_counts_every_search_of_one_call(core):
    search = solver(core, 16)
    budget = Budget(max_nodes=9000)
    search.score(at("13165377745111143272264765634"), budget)
    spent = budget.nodes
    # the positions differ, not how they are counted (the native core follows a position's only
    # move without a node of its own, and bounds the score by the parity of every column); both
    # ask who wins first (a draw: two windows, at 0 and -1)
    assert spent == {"python": 246, "native": 93}[core]
    with pytest.raises(SearchAborted):
        search.score(at("2147756677465"), budget)
    assert budget.nodes == 3 * 4096 == search.nodes   # counted on from there: looks at 4096, 8192, 12288


@pytest.mark.parametrize("core", CORES)
def test_reset_empties_the_table(core):
    search = solver(core, 12)
    first = Budget()
    search.score(at("6667744167364217437"), first)
    again = Budget()
    search.score(at("6667744167364217437"), again)
    assert again.nodes < first.nodes                   # the table remembers
    search.reset()
    cold = Budget()
    search.score(at("6667744167364217437"), cold)
    assert cold.nodes == first.nodes                   # a search from an empty table again
    if core == "python":
        search.reset()
        assert not any(search.table) and len(search.table) == (1 << 12) + 9


def test_the_transposition_table_has_a_fixed_size():
    search = solver("python", 12)
    before = len(search.table)
    search.score(at("6667744167364217437"), Budget())
    assert len(search.table) == before == (1 << 12) + 9
    assert search.table.itemsize == 8
    assert solver("native", 12).table_bytes == (1 << 12) * 8   # 2**11 buckets of two entries, allocated once, in C


def test_the_python_3_9_bit_count_agrees():
    from sensehat_c4.engine.position import count_bits, popcount
    for x, bits in ((0, 0), (1, 1), (0b1011, 3), ((1 << 49) - 1, 49), (0x1234_5678_9ABC, 22)):
        assert count_bits(x) == popcount(x) == bits
