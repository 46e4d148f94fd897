#!/usr/bin/env python3
"""A strategy book (``engine/strategy.py``) at work: games, the moves just past it, an independent check.

Prints figures; not a test.

    python benchmarks/strategy.py --book PATH --games 20 --think 1.6      # (a) games
    python benchmarks/strategy.py --book PATH --past 40 --think 1.6       # (c) the first moves past the book
    python benchmarks/strategy.py --book PATH --steininger PROGRAM --check 60 \\
        --write tests/data/strategy_8x6.scores                            # (b) an independent solver
    python benchmarks/strategy.py --cost 7 8 9 --sample 12 --table-bits 24   # what a decision costs

``--cost``: before a book is built, what deciding one position costs (as ``tools/make_book.py
--strategy`` decides it: the exact score, then a move that keeps it; here without the bound the
position before gives), on ``--sample`` random positions of each number of stones (random games
of moves that do not lose at once), one solver and table for all, one thread.  With ``--game``,
instead perfect's move as in a game past a book, at ``--think`` seconds: the game's oracle
(table and threads), in a position reached by the opponent's best move from a random one whose
score the oracle knows (as after a book move), a fresh oracle each.

(a) perfect with the book (the game's oracle: the book, then the native core at the game's table size
and threads, ``--think`` seconds a move) as player 2 against a random player (``--games`` games),
against easy, medium and hard (``--series`` games each) and against itself (player 1 also playing the
book): how often it won, its moves, the worst (wall and CPU), how often the budget ran out.  (c) Random
walks through the book (the opponent's moves at random, perfect's from the book) up to perfect's first
turn past the book, its move there timed as in a game (the oracle knows the score its book move left):
the worst and how often the budget ran out.  (b) Random walks stopping at one of perfect's turns in the
book: the position and the one after the book's move, each scored by another solver (``--steininger``:
a program reading ``MOVES`` lines and printing ``MOVES SCORE ...``, as ``benchmarks/solvers.py`` says);
each must equal the book's score (the position) and its negation (after the move: the move keeps the
score).  ``--write`` keeps the positions and their independent scores (data for the tests).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.engine import LEVELS, Limit, Oracle, choose_move
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position, Shape, non_losing, shape_of
from sensehat_c4.engine.strategy import StrategyBook, strategy_path
from sensehat_c4.rules import Board, Size


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Tally:
    """Perfect's moves: how many, the worst (wall, CPU), budget run-outs, past the book."""

    def __init__(self) -> None:
        self.moves = self.outs = self.past = 0
        self.worst = self.worst_cpu = 0.0
        self.worst_at = ""

    def move(self, board: Board, oracle: Oracle, think: float) -> int:
        cpu = time.process_time()
        result = choose_move(board, "perfect", limit=Limit(seconds=think), seed=board.ply, oracle=oracle)
        cpu = time.process_time() - cpu
        self.moves += 1
        self.outs += result.source == "budget"
        self.past += result.source not in ("book", "win", "forced", "lost")
        if result.seconds > self.worst:
            self.worst, self.worst_cpu, self.worst_at = result.seconds, cpu, board.notation()
        return result.column

    def line(self) -> str:
        return (f"{self.moves} moves of perfect ({self.past} searched past the book), worst {self.worst:.2f} s wall "
                f"({self.worst_cpu:.2f} s CPU, all threads; at {self.worst_at or '-'}), budget ran out {self.outs} times")


def games(size: Size, book: StrategyBook, random_games: int, series: int, think: float) -> None:
    tally = Tally()
    results: Dict[str, List[int]] = {}
    opponents = ["random"] * random_games + [level for level in LEVELS if level != "perfect"
                                              for _ in range(series)] + ["perfect"]
    for number, opponent in enumerate(opponents):
        board = size.board()
        mine = Oracle(shape_of(board.layout), strategy=book)
        theirs = Oracle(shape_of(board.layout), strategy=book) if opponent == "perfect" else None
        rng = random.Random(number)
        while not board.is_over:
            if board.to_move == 2:
                board.play(tally.move(board, mine, think))
            elif opponent == "random":
                board.play(rng.choice(board.legal_moves()))
            else:
                board.play(choose_move(board, opponent, seed=number * 100 + board.ply, oracle=theirs,
                                       limit=Limit(seconds=think if opponent == "perfect" else 0.25)).column)
        outcome = board.outcome
        assert outcome is not None
        results.setdefault(opponent, []).append(outcome.winner or 0)
    for opponent, winners in results.items():
        print(f"perfect as player 2 against {opponent}: won {winners.count(2)} of {len(winners)}", flush=True)
    print(f"games at {think:g} s a move: {tally.line()}; load {load()}", flush=True)


def walk(size: Size, book: StrategyBook, rng: random.Random, seat: int, stop: Optional[int]) -> Tuple[Board, Oracle]:
    """A random walk: the opponent at random, perfect (``seat``) from the book, until perfect's turn at
    ``stop`` stones (``None``: its first turn past the book)."""
    board = size.board()
    oracle = Oracle(shape_of(board.layout), strategy=book)
    while not board.is_over:
        if board.to_move == seat:
            position = Position.of(board)
            decision = book.decision(position)
            if board.ply == stop or (stop is None and decision is None
                                     and not position.shape.can_win_now(position.current, position.mask)):
                return board, oracle
            board.play(choose_move(board, "perfect", oracle=oracle).column)   # the book (or an immediate win)
        else:
            board.play(rng.choice(board.legal_moves()))
    return board, oracle


def past(size: Size, book: StrategyBook, count: int, think: float) -> None:
    rng = random.Random(1)
    tally = Tally()
    for number in range(count):
        board, oracle = walk(size, book, rng, 1 + number % 2, None)
        if not board.is_over:
            tally.move(board, oracle, think)
    print(f"first moves past the book (stones {book.max_ply + 1}-{book.max_ply + 2}), {count} random walks, "
          f"{think:g} s a move: {tally.line()}; load {load()}", flush=True)


def check(size: Size, book: StrategyBook, program: str, count: int, write: Optional[Path]) -> None:
    rng = random.Random(2)
    rows: List[Tuple[str, int]] = []
    seen = set()
    while len(rows) < 2 * count:
        seat = rng.choice((1, 2))
        stop = rng.choice([n for n in range(book.max_ply + 1) if n % 2 == seat - 1 and n >= 3])
        board, _ = walk(size, book, rng, seat, stop)
        position = Position.of(board)
        decision = book.decision(position)
        if board.is_over or decision is None or board.notation() in seen:
            continue
        seen.add(board.notation())
        rows.append((board.notation(), decision[1]))
        after = board.copy()
        after.play(decision[0])
        rows.append((after.notation(), -decision[1]))
    lines = "".join(f"{moves}\n" for moves, _ in rows)
    started = time.monotonic()
    proc = subprocess.run([program], input=lines, capture_output=True, text=True, check=True)
    theirs = {fields[0]: int(fields[1]) for fields in (line.split() for line in proc.stdout.splitlines()) if fields}
    wrong = [(moves, score, theirs.get(moves)) for moves, score in rows if theirs.get(moves) != score]
    print(f"{len(rows) // 2} positions of the book and the positions after its moves, scored by {program}: "
          f"{len(rows) - len(wrong)} of {len(rows)} agree ({time.monotonic() - started:.0f} s)"
          + (f"; DIFFERENT: {wrong}" if wrong else ""), flush=True)
    if write is not None and not wrong:
        header = (f"# {size} positions of the strategy book (sensehat_c4/engine/data/strategy-{size}.bin), where\n"
                  "# perfect is to move, each followed by the position after the book's move: lines MOVES SCORE,\n"
                  "# the score for the side to move in the test sets' convention (1-based columns).\n"
                  "# Independent of this project's solver: each score was computed by Christophe Steininger's\n"
                  f"# solver (github.com/ChristopheSteininger/c4, built with BOARD_WIDTH = {size.columns}, "
                  f"BOARD_HEIGHT = {size.rows}, one\n"
                  "# thread, solve_strong of each position). Data only: none of its code is in this project.\n")
        write.write_text(header + "".join(f"{moves} {theirs[moves]}\n" for moves, _ in rows))
        print(f"wrote {write}", flush=True)


def random_position(shape: Shape, count: int, rng: random.Random) -> Optional[Position]:
    """A position after ``count`` random moves that do not lose at once, its side to move not winning at
    once (``None`` if the game went otherwise)."""
    position = Position(0, 0, 0, shape)
    for _ in range(count):
        safe = non_losing(position.possible, shape.winning_cells(position.opponent, position.mask))
        columns = [c for c in position.legal_columns() if safe & shape.column_masks[c]]
        if not columns or shape.can_win_now(position.current, position.mask):
            return None
        position = position.play(rng.choice(columns))
    return None if shape.can_win_now(position.current, position.mask) else position


def cost(size: Size, stones: List[int], sample: int, table_bits: int, game: bool, think: float) -> None:
    shape = shape_of(size.board().layout)
    oracle = Oracle(shape, table_bits=table_bits, threads=1)
    for count in stones:
        rng = random.Random(count)
        cpus: List[float] = []
        walls: List[float] = []
        outs = 0
        while len(cpus) < sample:
            position = random_position(shape, count - 1 if game else count, rng)
            if position is None:
                continue
            if not game:
                cpu, budget = time.process_time(), Budget()
                score = oracle.solver.score(position, budget)
                oracle.move_of_score(position, score, budget)
                cpus.append(time.process_time() - cpu)
                continue
            score = oracle.solver.score(position, Budget())            # the position before: known
            column = oracle.move_of_score(position, score, Budget())   # the opponent's best move
            after = position.play(column)
            if shape.can_win_now(after.current, after.mask) or after.moves >= shape.cells:
                continue
            fresh = Oracle(shape)                                      # the game's table and threads
            fresh.remember(position, score)
            cpu, started = time.process_time(), time.monotonic()
            result = fresh.choose(after, random.Random(0), Limit(seconds=think).start())
            cpus.append(time.process_time() - cpu)
            walls.append(time.monotonic() - started)
            outs += result.source == "budget"
        cpus.sort()
        what = (f"perfect's move as in a game at {think:g} s (wall mean {sum(walls) / sample:.2f} s, max "
                f"{max(walls):.2f} s; budget ran out {outs} times; CPU of all threads)" if game
                else f"positions decided (table 2**{table_bits}, one thread)")
        print(f"{size}, {count} stones: {sample} {what}: CPU mean {sum(cpus) / sample:.2f} s, "
              f"median {cpus[sample // 2]:.2f} s, max {cpus[-1]:.2f} s; load {load()}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="8x6", metavar="COLSxROWS")
    parser.add_argument("--book", type=Path, default=None, help="the strategy book (default: the shipped one)")
    parser.add_argument("--think", type=float, default=1.6, help="perfect's seconds a move (default 1.6: a Pi 4's 8)")
    parser.add_argument("--games", type=int, default=0, help="(a) games against a random player")
    parser.add_argument("--series", type=int, default=1, help="(a) games against each level (with --games)")
    parser.add_argument("--past", type=int, default=0, help="(c) random walks to the first move past the book")
    parser.add_argument("--steininger", default=None, metavar="PROGRAM", help="(b) the independent solver")
    parser.add_argument("--check", type=int, default=60, help="(b) positions to check (default 60)")
    parser.add_argument("--write", type=Path, default=None, help="(b) keep the positions and scores here")
    parser.add_argument("--cost", type=int, nargs="*", default=[], metavar="STONES",
                        help="what a decision costs at these numbers of stones (no book needed)")
    parser.add_argument("--sample", type=int, default=12, help="with --cost: positions of each (default 12)")
    parser.add_argument("--table-bits", type=int, default=24, help="with --cost: the table, 2**N entries")
    parser.add_argument("--game", action="store_true", help="with --cost: perfect's move as in a game (see above)")
    args = parser.parse_args()
    size = Size.parse(args.board)
    if args.cost:
        cost(size, args.cost, args.sample, args.table_bits, args.game, args.think)
        return 0
    path = args.book or strategy_path(size)
    book = StrategyBook(path)
    print(f"{path}: {book.entries} positions up to {book.max_ply} stones; load {load()}", flush=True)
    if args.games:
        games(size, book, args.games, args.series, args.think)
    if args.past:
        past(size, book, args.past, args.think)
    if args.steininger:
        check(size, book, args.steininger, args.check, args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
