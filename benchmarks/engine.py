#!/usr/bin/env python3
"""Benchmark of the engine: exact scores on the test sets, and the perfect level's move times.

Prints figures; it is not a test (shared machines are noisy).  Examples:

    python benchmarks/engine.py                       # everything (the full sets take long)
    python benchmarks/engine.py --sample 100 --games 4
    python benchmarks/engine.py --sets Test_L2_R2 --time-limit 10
    python benchmarks/engine.py --sets none --games 10 --no-book12
    python benchmarks/engine.py --sets none --games 0 --positions slow
    python benchmarks/engine.py --core python --sets Test_L2_R2 --games 0
    python benchmarks/engine.py --no-books --sets Test_L1_R2 --games 0   # the solver alone

``--core`` picks the solver's core (default: the native one if it is built, as in the
game; ``SENSEHAT_C4_PURE_PYTHON=1`` also forces the Python core).  Each line gives wall
time and, in brackets, the process's CPU time: on a shared machine the CPU time is the
steadier figure.

Test sets: Pascal Pons' six sets ("Solving Connect 4: how to build a perfect AI",
github PascalPons/connect4): lines ``MOVES SCORE``.  ``--testsets DIR`` points at them
(default: ``../shared/c4-testsets`` beside the repository if present, else ``tests/data``,
which holds samples only).
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.match.computer import DEFAULT_SECONDS
from sensehat_c4.engine import LEVELS, Limit, Oracle, choose_move
from sensehat_c4.engine.book12 import SHAPE, default_path
from sensehat_c4.engine.cores import CORES, core_name
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.errors import IllegalMoveError, SearchAborted
from sensehat_c4.rules import Board

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
REPOSITORY = Path(__file__).resolve().parent.parent
SHARED = REPOSITORY.parent / "shared" / "c4-testsets"
SAMPLES = REPOSITORY / "tests" / "data"


CORE: Optional[str] = None
"""``--core``: the solver core of every oracle made here (``None``: as the game chooses)."""
NO_BOOKS = False
"""``--no-books``: the solver alone, as Pons' figures without a book."""


def make_oracle(book12: bool) -> Oracle:
    if NO_BOOKS:
        return Oracle(SHAPE, core=CORE)
    return Oracle.installed(book12=book12, core=CORE)


def read_set(path: Path, sample: Optional[int], seed: int) -> List[Tuple[str, int]]:
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            rows.append((moves, int(score)))
    if sample is not None and sample < len(rows):
        rows = sorted(random.Random(seed).sample(rows, sample))
    return rows


def bench_set(name: str, rows: List[Tuple[str, int]], book12: bool, time_limit: Optional[float]) -> str:
    oracle = make_oracle(book12)  # a fresh table for each set
    times: List[float] = []
    wrong = unsolved = 0
    nodes = 0
    cpu = time.process_time()
    for moves, expected in rows:
        position = Position.of(Board.from_moves(moves))
        budget = Limit(seconds=time_limit).start()
        started = time.perf_counter()
        try:
            got: Optional[int] = oracle.score(position, budget)
        except SearchAborted:
            got = None
        times.append(time.perf_counter() - started)
        nodes += budget.nodes
        if got is None:
            unsolved += 1
        elif got != expected:
            wrong += 1
            print(f"  WRONG {moves}: expected {expected}, got {got}", flush=True)
    cpu = time.process_time() - cpu
    total = sum(times)
    verdict = "all correct" if not wrong and not unsolved else f"{wrong} wrong, {unsolved} unsolved"
    return (f"{name:11} {len(rows) - unsolved:4}/{len(rows):<4} solved  {verdict:11}  "
            f"mean {statistics.mean(times) * 1000:9.2f} ms ({cpu / len(rows) * 1000:.2f})  "
            f"median {statistics.median(times) * 1000:8.2f} ms  max {max(times):7.3f} s  "
            f"{len(rows) / total:9.1f} pos/s ({len(rows) / cpu:.1f})  "
            f"{nodes / total:10.0f} nodes/s ({nodes / cpu:.0f})  {nodes} nodes")


SLOW = 1.0
"""Perfect moves slower than this are listed (``--slow``)."""
SLOW_POSITIONS = ("444445555577", "444442222423", "4444422224233", "444442222752", "444447522226",
                  "4444475222266", "44444752222666", "444446666164", "3624444147555", "4444425662112",
                  "444445232223", "4444215333253")
"""Positions where perfect took over 0.3 s in the games of ``--games 10`` (``--positions slow``)."""


def bench_positions(positions: List[str], book12: bool) -> None:
    """Perfect's move in each position from a fresh oracle (cold table): nodes and seconds."""
    nodes = seconds = worst = 0.0
    for moves in positions:
        oracle = make_oracle(book12)
        budget = Budget()
        started = time.perf_counter()
        choice = oracle.choose(Position.of(Board.from_moves(moves)), random.Random(0), budget)
        spent = time.perf_counter() - started
        nodes += budget.nodes
        seconds += spent
        worst = max(worst, spent)
        print(f"{moves:16} -> {choice.column + 1} ({choice.source}, score {choice.score}) "
              f"{budget.nodes:9} nodes {spent:6.2f} s", flush=True)
    print(f"positions: {len(positions)}, {nodes:.0f} nodes, {seconds:.1f} s, worst {worst:.2f} s", flush=True)


@dataclass
class Tally:
    """Perfect's moves in a series of games: times, and the moves where its budget ran out."""

    times: List[float] = field(default_factory=list)
    cpu: List[float] = field(default_factory=list)
    """The CPU time of each move (the steadier figure on a shared machine)."""
    budget_outs: int = 0
    optimal: int = 0
    """Budget-out moves an unlimited solve shows to be optimal (exact score)."""
    given_away: List[str] = field(default_factory=list)
    """Budget-out moves that turned a won or drawn position into a worse outcome."""

    def add(self, other: "Tally") -> None:
        self.times += other.times
        self.cpu += other.cpu
        self.budget_outs += other.budget_outs
        self.optimal += other.optimal
        self.given_away += other.given_away

    def summary(self) -> str:
        moves = len(self.times)
        exact = moves - self.budget_outs + self.optimal
        return (f"{moves:4} moves, median {statistics.median(self.times) * 1000:7.2f} ms, "
                f"max {max(self.times):6.3f} s (CPU {max(self.cpu):6.3f} s), over 1 s: {sum(t > 1 for t in self.times)} "
                f"(CPU {sum(t > 1 for t in self.cpu)}); budget ran out "
                f"{self.budget_outs} ({100 * self.budget_outs / moves:.1f}%), optimal {exact}/{moves}, "
                f"won/drawn given away: {len(self.given_away)}"
                + (f" ({', '.join(self.given_away)})" if self.given_away else ""))


def outcome(score: int) -> int:
    """1 won, 0 drawn, -1 lost."""
    return (score > 0) - (score < 0)


def check_budget_out(board: Board, column: int, checker: Oracle, tally: Tally) -> None:
    """Score every move of ``board`` without a limit: was the budget-out move optimal, did it give anything away?"""
    tally.budget_outs += 1
    scores = checker.move_scores(Position.of(board), Budget())
    best = max(scores.values())
    tally.optimal += scores[column] == best
    verdict = "optimal" if scores[column] == best else "not optimal"
    if outcome(scores[column]) < outcome(best):
        tally.given_away.append(f"{board.notation()}: {column + 1}")
        verdict += ", gave away a " + ("win" if best > 0 else "draw")
    print(f"  budget ran out: {board.notation()} -> {column + 1} (score {scores[column]}, best {best}: {verdict})",
          flush=True)


def play_game(levels: Tuple[str, str], seed: int, oracle: Oracle, checker: Oracle, limit: Limit,
              other: Limit, tally: Tally) -> Board:
    """One game from the empty board; perfect's moves go into ``tally``."""
    board = Board()
    while not board.is_over:
        level = levels[board.ply % 2]
        cpu = time.thread_time()
        result = choose_move(board, level, limit=limit if level == "perfect" else other, seed=seed * 100 + board.ply,
                             oracle=oracle if level == "perfect" else None)
        if level == "perfect":
            tally.times.append(result.seconds)
            tally.cpu.append(time.thread_time() - cpu)
            if result.seconds > SLOW:
                print(f"  slow: {board.notation() or '(empty)'} -> {result.column + 1} "
                      f"({result.source}, score {result.score}) {result.seconds:.2f} s, {result.nodes} nodes",
                      flush=True)
            if result.source == "budget":
                check_budget_out(board, result.column, checker, tally)
        board.play(result.column)
    return board


def bench_games(games: int, book12: bool, limit: Limit, other: Limit, opponents: List[str]) -> List[str]:
    lines = []
    every = Tally()
    checker = make_oracle(book12)  # the unlimited solves of budget-out moves
    for opponent in opponents:
        for perfect_is in (1, 2):
            oracle = make_oracle(book12)  # one per series, kept between moves and games
            tally = Tally()
            results: Dict[str, int] = {"won": 0, "drawn": 0, "lost": 0}
            for g in range(games):
                levels = ("perfect", opponent) if perfect_is == 1 else (opponent, "perfect")
                board = play_game(levels, g, oracle, checker, limit, other, tally)
                end = board.outcome
                assert end is not None
                if end.winner is None:
                    results["drawn"] += 1
                else:
                    results["won" if end.winner == perfect_is else "lost"] += 1
            every.add(tally)
            lines.append(f"perfect as P{perfect_is} vs {opponent:7} {games:3} games "
                         f"(won {results['won']}, drawn {results['drawn']}, lost {results['lost']}): {tally.summary()}")
            print(lines[-1], flush=True)
    if every.times:
        lines.append(f"all perfect moves: {every.summary()}")
        print(lines[-1], flush=True)
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--testsets", type=Path, default=SHARED if SHARED.is_dir() else SAMPLES,
                        metavar="DIR", help="folder of the test sets (default: %(default)s)")
    parser.add_argument("--sets", default=",".join(SETS),
                        help="comma-separated set names, or 'none' (default: all six)")
    parser.add_argument("--sample", type=int, default=None, metavar="N",
                        help="N random positions per set (default: all)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="give up on a position after this long (counted as unsolved)")
    parser.add_argument("--games", type=int, default=4, metavar="N",
                        help="games per pairing: perfect vs each level, as each player (default: 4; 0 skips)")
    parser.add_argument("--opponents", default=",".join(LEVELS), help="levels perfect plays against")
    parser.add_argument("--think", type=float, default=None, metavar="SECONDS",
                        help="perfect's thinking budget per move in the games (default: none, so every "
                        "perfect move is exact and its full time is measured); each move where it runs "
                        "out is checked by an unlimited solve")
    parser.add_argument("--opponent-think", type=float, default=0.25, metavar="SECONDS",
                        help="the other levels' budget per move (default: %(default)s; the game's default "
                        f"is {DEFAULT_SECONDS})")
    parser.add_argument("--slow", type=float, default=1.0, metavar="SECONDS",
                        help="list perfect moves slower than this (default: 1.0)")
    parser.add_argument("--positions", default=None, metavar="MOVES,...",
                        help="perfect's move in each of these positions from a fresh oracle; "
                        "'slow': a dozen slow ones from games")
    parser.add_argument("--no-book12", action="store_true", help="do not use the 12-ply book")
    parser.add_argument("--no-books", action="store_true",
                        help="no book at all (not the shipped opening book either): the solver alone")
    parser.add_argument("--core", choices=CORES, default=None,
                        help="the solver's core (default: native if it is built, as in the game)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    global SLOW, CORE, NO_BOOKS
    SLOW, CORE, NO_BOOKS = args.slow, args.core, args.no_books

    book12 = not args.no_book12 and not args.no_books and default_path() is not None
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.processor() or '?'}; "
          f"Python {platform.python_version()} ({platform.python_implementation()}); "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    print(f"solver core: {CORE or core_name()}", flush=True)
    if args.no_books:
        print("books: none (the solver alone)")
    else:
        print(f"books: shipped opening book (8 stones); 12-ply book: {default_path() if book12 else 'not used'}")
    sets = [] if args.sets == "none" else args.sets.split(",")
    for name in sets:
        path = args.testsets / name
        if not path.is_file():
            print(f"{name}: not found in {args.testsets}", file=sys.stderr)
            return 2
        print(bench_set(name, read_set(path, args.sample, args.seed), book12, args.time_limit), flush=True)
    if args.positions:
        positions = list(SLOW_POSITIONS) if args.positions == "slow" else args.positions.split(",")
        for moves in positions:
            try:
                over = Board.from_moves(moves).is_over
            except IllegalMoveError as exc:
                parser.error(f"--positions {moves}: {exc}")
            if over:
                parser.error(f"--positions {moves}: the game is over")
        bench_positions(positions, book12)
    if args.games:
        bench_games(args.games, book12, Limit(seconds=args.think), Limit(seconds=args.opponent_think),
                    args.opponents.split(","))
    return 0


if __name__ == "__main__":
    sys.exit(main())
