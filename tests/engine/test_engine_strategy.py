"""Strategy books (``engine/strategy.py``, ``tools/make_book.py --strategy``): perfect's own move in
every position it reaches itself, checked against a plain minimax on a small board."""
import logging
import random
from typing import Dict, List, Tuple

import pytest
from engine_data import child_scores, make_book, minimax

from sensehat_c4.engine import Oracle, choose_move, strategy
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position, shape_of
from sensehat_c4.engine.sizebooks import mirror_key
from sensehat_c4.engine.strategy import StrategyBook
from sensehat_c4.rules import Board, Size


def tree(size: Size, stones: int, book: StrategyBook) -> List[Tuple[str, int]]:
    """The move lists of the positions perfect reaches playing the book's move at each of its turns
    (as player 1, then as player 2) and the opponent every move, up to ``stones`` stones, where
    perfect is to move and cannot win at once; with the seat perfect plays."""
    found: List[Tuple[str, int]] = []

    def walk(board: Board, seat: int) -> None:
        if board.is_over or board.ply > stones:
            return
        position = Position.of(board)
        if board.to_move == seat:
            if position.shape.can_win_now(position.current, position.mask):
                return
            found.append((board.notation(), seat))
            decision = book.decision(position)
            assert decision is not None, board.notation()
            board.push(decision[0])
            walk(board, seat)
            board.pop()
        else:
            for column in board.legal_moves():
                board.push(column)
                walk(board, seat)
                board.pop()

    walk(size.board(), 1)
    walk(size.board(), 2)
    return found


@pytest.mark.slow   # a build of 5 x 4's book and the whole board's plain minimax: some 25 s of CPU
def test_every_position_perfect_reaches_has_an_optimal_move_and_the_build_resumes(tmp_path):
    size, stones = Size(5, 4), 6
    out = tmp_path / "strategy-5x4.bin"
    log = make_book("--board", "5x4", "--strategy", str(stones), "--jobs", "2", "--out", str(out))
    assert "5x4: strategy book to 6 stones; 0 decisions made before, 4 positions ready to decide" in log
    book = StrategyBook(out)
    assert (book.layout.columns, book.layout.rows, book.max_ply) == (5, 4, stones)
    memo: Dict = {}
    reached = tree(size, stones, book)
    for moves, _ in reached:
        board = size.from_moves(moves)
        column, score = book.decision(Position.of(board))
        scores = child_scores(board, memo)
        assert score == minimax(board, memo) == max(scores.values()) == scores[column], moves
    keys = {min(p.current + p.mask, mirror_key(p.shape, p.current + p.mask))
            for p in (Position.of(size.from_moves(moves)) for moves, _ in reached)}
    assert book.entries == len(keys)      # the positions perfect reaches, and no other
    assert {seat for _, seat in reached} == {1, 2} and max(len(moves) for moves, _ in reached) == stones
    # killed and started again: what was decided is kept (a line cut short by the kill is not)
    first = out.read_bytes()
    decisions = tmp_path / "strategy-5x4.bin.decisions"
    lines = decisions.read_text().splitlines()
    decisions.write_text("\n".join(lines[:10]) + "\n" + lines[10][:3])
    out.unlink()
    log = make_book("--board", "5x4", "--strategy", str(stones), "--jobs", "1", "--out", str(out))
    assert "5x4: strategy book to 6 stones; 10 decisions made before" in log
    assert out.read_bytes() == first


@pytest.fixture(scope="module")
def small_book(tmp_path_factory) -> StrategyBook:
    out = tmp_path_factory.mktemp("strategy") / "strategy-6x4.bin"
    make_book("--board", "6x4", "--strategy", "5", "--jobs", "2", "--out", str(out))
    return StrategyBook(out)


def test_a_position_and_its_mirror_image_find_the_same_move_mirrored(small_book):
    size = Size(6, 4)
    first = small_book.decision(Position.of(size.board()))[0] + 1     # perfect's first move as player 1
    for moves in ("2", f"{first}1", f"{first}6", "5"):
        mirrored = "".join(str(size.columns + 1 - int(c)) for c in moves)
        here, there = (small_book.decision(Position.of(size.from_moves(m))) for m in (moves, mirrored))
        assert here is not None and there is not None
        assert (here[0], here[1]) == (size.columns - 1 - there[0], there[1]), moves
    assert first not in (1, 6)
    assert small_book.decision(Position.of(size.from_moves("12"))) is None   # perfect's first move is not 1
    assert small_book.decision(Position.of(Board(7, 6))) is None                  # another size


def test_perfect_plays_the_book_and_knows_the_score_after_its_move(small_book):
    size = Size(6, 4)
    oracle = Oracle(shape_of(size.board().layout), strategy=small_book)
    board = size.from_moves("34")
    result = choose_move(board, "perfect", seed=1, oracle=oracle)
    expected = small_book.decision(Position.of(board))
    assert (result.source, result.column, result.score, result.nodes) == ("book", *expected, 0)
    board.play(result.column)
    after = Position.of(board)
    assert oracle.known(after) == -expected[1]                       # remembered
    fresh = Oracle(shape_of(size.board().layout), strategy=small_book)
    assert fresh.known(after) == -expected[1]                        # from the book: its move led there
    assert fresh.score(after, Budget()) == -expected[1]


@pytest.mark.parametrize("games", [pytest.param(range(2), marks=pytest.mark.slow),   # 7 s of the fast tier's CPU
                                   pytest.param(range(2, 4), marks=pytest.mark.slow)], ids=["0-1", "2-3"])
def test_perfect_with_the_book_plays_optimal_moves_against_random_players(small_book, games):
    """Four seeded games, perfect in either seat, each move checked by the Python core with no book (two
    in the fast tier: each is some 10 s of CPU here)."""
    size = Size(6, 4)
    reference = Oracle(shape_of(size.board().layout), core="python")
    oracle = Oracle(shape_of(size.board().layout), strategy=small_book)
    booked = 0
    for game in games:
        rng = random.Random(5 * 1000 + game)
        seat = 1 + game % 2
        board = size.board()
        while not board.is_over:
            if board.to_move != seat:
                board.play(rng.choice(board.legal_moves()))
                continue
            result = choose_move(board, "perfect", seed=game, oracle=oracle)
            scores = reference.move_scores(Position.of(board), Budget())
            assert result.optimal and scores[result.column] == max(scores.values()), board.notation()
            booked += result.source == "book"
            board.play(result.column)
    assert booked >= len(games)      # every game's first move at least


@pytest.mark.parametrize("damage", [b"", b"not zlib", b"x\x9c\x03\x00\x00\x00\x00\x01"])
def test_a_damaged_strategy_book_is_one_log_line_and_no_book(damage, tmp_path, monkeypatch, caplog):
    path = tmp_path / "strategy-6x4.bin"
    path.write_bytes(damage)
    monkeypatch.setattr(strategy, "strategy_path", lambda layout: path)
    with caplog.at_level(logging.WARNING, logger="sensehat_c4.engine.strategy"):
        assert strategy.installed(Size(6, 4)) is None
    assert [r.getMessage() for r in caplog.records] == [f"strategy book not used ({path}: not a strategy book)"]


def test_the_builder_killed_leaves_no_worker_searching(tmp_path):
    """Killed (SIGKILL: no clean-up of its own) while its workers decide 8x6's first positions
    (minutes each), the builder's workers end too: they went on searching for many minutes."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    tool = Path(__file__).resolve().parents[2] / "tools" / "make_book.py"
    proc = subprocess.Popen([sys.executable, str(tool), "--board", "8x6", "--strategy", "2", "--jobs", "2",
                             "--table-bits", "16", "--out", str(tmp_path / "strategy-8x6.bin")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert "8x6: strategy book to 2 stones; 0 decisions made before, 5 positions ready to decide" \
        in proc.stdout.readline()
    deadline = time.monotonic() + 60
    workers: list = []
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
                   and stat_of(p)[1] == proc.pid and "spawn_main" in read(p / "cmdline")]
    assert len(workers) == 2
    time.sleep(1)       # each is deciding a position of no or one stone
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(stat_of(Path("/proc") / str(w))[0] in "RSD" for w in workers):
        time.sleep(0.1)
    assert [w for w in workers if stat_of(Path("/proc") / str(w))[0] in "RSD"] == []
    assert (tmp_path / "strategy-8x6.bin.decisions").read_text() == ""


def test_a_worker_whose_builder_died_while_it_started_decides_nothing():
    """A worker started just before its builder was killed sets its death signal too late to get it: it compares
    its parent with the builder's pid the builder gave it, and stops before taking a task (under load it would
    otherwise search 8x6's first positions for many minutes, orphaned)."""
    import ctypes
    import queue

    tasks: "queue.Queue" = queue.Queue()
    tasks.put((1, "a task it must not take"))
    results: "queue.Queue" = queue.Queue()
    not_its_parent = 0          # init's children are reparented to 1; no process is pid 0
    try:
        make_book_module()._worker(Size(8, 6), 16, 1, tasks, results, 0, not_its_parent)
    finally:
        ctypes.CDLL(None).prctl(1, 0)     # the death signal it set (on this test's process): none again
    assert (tasks.qsize(), results.qsize()) == (1, 0)


def make_book_module():
    """tools/make_book.py as a module (it is a script, not in a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "make_book.py"
    spec = importlib.util.spec_from_file_location("make_book_tool", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def stat_of(process):
    """(state, parent pid) of a /proc/PID directory; ("X", 0) once it is gone."""
    try:
        stat = (process / "stat").read_text()
    except OSError:
        return "X", 0
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0], int(fields[1])
