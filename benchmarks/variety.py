#!/usr/bin/env python3
"""Do the levels vary their games?  Each level against a fixed opponent, and perfect's optimal moves.

Prints figures; it is not a test.

    python benchmarks/variety.py [--board 7x6] [--games 20] [--opponents medium perfect] [--seed 1]

A *fixed* opponent answers a position always the same way: a level whose every move is drawn
from one seed (the same at each move), with its own oracle made anew for each game, so two games
that reach a position by the same moves get the same answer there.  Whatever differs between the
games is then the level's own doing.  Each level plays ``--games`` games as player 1 and as
player 2 against each opponent, its own moves drawn from a seed per game (as a game's computer
player draws them); the table gives, each way, the distinct games and the distinct openings (the
first 8 stones), and in how many of the games the level's first stone went in the middle column.  No time
limits: the levels below perfect do the same work whatever the clock (their horizon bounds it),
perfect's look for its other optimal moves is bounded by positions searched; so the figures do
not depend on the machine's load.

Perfect plays an optimal move drawn among all of them, so it varies only as far as the position
allows: for each opponent and way, the number of distinct openings of 8 stones its optimal moves
allow against that opponent (every optimal move followed at each of its turns, the opponent's
answers fixed), and over its moves in the games, how many had more than one optimal move and
their mean number.  Past the books, perfect looks for its other optimal moves within as many
positions again as its choice took (``Oracle._optimal``, watched here): the positions its choice
and that look took (mean and most), and in how many of those moves it found every optimal move.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from typing import Dict, List, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sensehat_c4.engine import LEVELS, Oracle, choose_move, default_oracle, move_scores
from sensehat_c4.engine import oracle as oracle_module
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.cores import core_name
from sensehat_c4.errors import BoardSizeError
from sensehat_c4.rules import Board, Size

OPENING = 8
"""An opening's stones."""
FIXED_SEED = 0
"""The seed of every move of the fixed opponent."""


class Judge:
    """The oracle that counts perfect's optimal moves: one per size, apart from the players' own."""

    def __init__(self) -> None:
        self._oracles: Dict[Size, Oracle] = {}

    def get(self, size: Size) -> Oracle:
        if size not in self._oracles:
            self._oracles[size] = Oracle.installed(size.board().layout)
        return self._oracles[size]


JUDGE = Judge()


class Watch:
    """Perfect's looks for its other optimal moves (``Oracle._optimal`` wrapped): for each, the positions
    searched before it and by it, and whether it found every optimal move (the judge's scores say)."""

    def __init__(self) -> None:
        self.looks: List[Tuple[int, int, bool]] = []
        self._real = oracle_module.Oracle._optimal

    def __enter__(self) -> "Watch":
        real, looks = self._real, self.looks

        def watched(oracle: Oracle, kids: List[oracle_module.Kid], column: int, score: int,
                    proofs: oracle_module.Proofs, budget: Budget) -> List[int]:
            before = budget.nodes
            found = real(oracle, kids, column, score, proofs, budget)
            size = Size(oracle.shape.width, oracle.shape.height)
            if oracle is not default_oracle(size.board().layout):
                return found  # a fixed opponent's
            judge = JUDGE.get(size)
            every = [c for c, child in kids if -judge.score(child, Budget()) == score]
            looks.append((before, budget.nodes - before, found == sorted(every)))
            return found

        oracle_module.Oracle._optimal = watched  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        oracle_module.Oracle._optimal = self._real  # type: ignore[method-assign]


def game(size: Size, level: str, opponent: str, level_first: bool, seed: int) -> Tuple[str, List[int]]:
    """One game of ``level`` (moves drawn from ``seed``) against the fixed ``opponent``: its moves, and for
    each of the level's moves the number of optimal moves there if ``level`` is perfect."""
    board = size.board()
    rng = random.Random(seed)
    theirs = Oracle.installed(board.layout)
    mine = 1 if level_first else 2
    optimal: List[int] = []
    while not board.is_over:
        if board.to_move == mine:
            if level == "perfect":
                scores = move_scores(board, oracle=JUDGE.get(size))
                optimal.append(sum(score == max(scores.values()) for score in scores.values()))
            column = choose_move(board, level, seed=rng.randrange(2 ** 32)).column
        else:
            column = choose_move(board, opponent, seed=FIXED_SEED, oracle=theirs).column
        board.play(column)
    return board.notation(), optimal


def openings_allowed(size: Size, opponent: str, perfect_first: bool) -> int:
    """How many openings of :data:`OPENING` stones perfect's optimal moves allow against the fixed
    ``opponent``.  (Up to 8 stones every answer comes from the books or from exact outcomes, so the
    opponent's answer does not depend on what its table holds: one oracle serves every line.)"""
    mine = 1 if perfect_first else 2
    theirs = Oracle.installed(size.board().layout)

    def count(moves: str) -> int:
        board = Board.from_moves(moves, size.columns, size.rows)
        if board.ply >= OPENING or board.is_over:
            return 1
        if board.to_move != mine:
            return count(moves + str(choose_move(board, opponent, seed=FIXED_SEED, oracle=theirs).column + 1))
        scores = move_scores(board, oracle=JUDGE.get(size))
        best = max(scores.values())
        return sum(count(moves + str(column + 1)) for column, score in sorted(scores.items()) if score == best)

    return count("")


def report(size: Size, games: int, opponents: Sequence[str], seed: int) -> None:
    started, cpu = time.monotonic(), time.process_time()
    print(f"\n{size}: each level against a fixed opponent, {games} games each way: distinct games / distinct "
          f"openings of {OPENING} stones (games where the level's first stone went in the middle column)", flush=True)
    below = [name for name in LEVELS if name != "perfect"]
    watch = Watch()
    short = []
    optimal: List[int] = []
    for opponent in opponents:
        for level in LEVELS:
            cells = []
            for level_first in (True, False):
                with watch if level == "perfect" else contextlib.nullcontext():
                    played = [game(size, level, opponent, level_first,
                                   seed * 1_000_000 + (0 if level_first else 1000) + g) for g in range(games)]
                moves = [m for m, _ in played]
                if level == "perfect":
                    optimal += [n for _, counts in played for n in counts]
                middle = str(size.columns // 2 + 1)
                distinct, opened = len(set(moves)), len({m[:OPENING] for m in moves})
                own = 0 if level_first else 1   # the level's first stone
                cells.append(f"{'first' if level_first else 'second'} {distinct:>2}/{opened:<2} "
                             f"({sum(m[own] == middle for m in moves)})")
                if level in below and (distinct < 14 * games / 20 or opened < 8 * games / 20):
                    short.append(f"{level} {'first' if level_first else 'second'} v {opponent}")
            print(f"  {level:<8} v fixed {opponent:<8} {'   '.join(cells)}", flush=True)
        allowed = [openings_allowed(size, opponent, first) for first in (True, False)]
        print(f"  perfect's optimal moves allow {allowed[0]} openings as player 1 and {allowed[1]} as player 2 "
              f"against the fixed {opponent}", flush=True)
    several = sum(n > 1 for n in optimal)
    print(f"  perfect's moves in these games: {len(optimal)}, of which {several} had more than one optimal move "
          f"(mean {sum(optimal) / max(1, len(optimal)):.2f} optimal moves a move)", flush=True)
    looks = watch.looks
    if looks:
        print(f"  perfect past the books: {len(looks)} moves; positions for its choice mean "
              f"{sum(b for b, _, _ in looks) / len(looks):.0f}, most {max(b for b, _, _ in looks)}; for the look for "
              f"its other optimal moves mean {sum(e for _, e, _ in looks) / len(looks):.0f}, most "
              f"{max(e for _, e, _ in looks)}; every optimal move found in {sum(a for _, _, a in looks)} of "
              f"{len(looks)}", flush=True)
    print(f"  below perfect, short of {14 * games // 20} games or {8 * games // 20} openings: "
          f"{', '.join(short) if short else 'none'}", flush=True)
    print(f"  ({time.monotonic() - started:.0f} s wall, this process {time.process_time() - cpu:.0f} s CPU)",
          flush=True)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", nargs="*", default=["7x6"], metavar="COLSxROWS", help="board sizes (default: 7x6)")
    parser.add_argument("--games", type=int, default=20, help="games each way (default: 20)")
    parser.add_argument("--opponents", nargs="*", default=["medium", "perfect"], choices=list(LEVELS),
                        metavar="LEVEL", help="the fixed opponents (default: medium perfect)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        sizes = [Size.parse(text) for text in args.board]
    except BoardSizeError as exc:
        parser.error(str(exc))
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(f"solver core: {core_name()}", flush=True)
    for size in sizes:
        report(size, args.games, args.opponents, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
