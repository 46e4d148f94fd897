"""Which board sizes the perfect level can play exactly within its budget: figures per size.

For each size: the empty board's exact score from a fresh oracle (no books off 7 x 6),
with its positions searched and seconds; then whole games of perfect against easy and
against itself (perfect on both sides, fresh oracles), with perfect's worst move in
positions and seconds.  Every search runs to its end (``--cap`` seconds at most), so
the worst move is what a budget must cover.  The budget of perfect on a Pi 4 is 8 s,
and a Pi 4 runs CPython 4-6x slower than a CI-class PC, so a size is offered where
the worst move here takes at most 1.6 s: with the Python core's 200,000 positions a
second on an idle CI-class PC, about 320,000 positions.  The machine may be loaded:
positions searched are the figure to compare; seconds are this machine's.

    python benchmarks/sizes.py [--sizes 6x5 5x5 ...] [--games N] [--cap SECONDS]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sensehat_c4.engine import Limit, Oracle, choose_move  # noqa: E402
from sensehat_c4.engine.position import Position  # noqa: E402
from sensehat_c4.errors import BoardSizeError, ConfigError, SearchAborted  # noqa: E402
from sensehat_c4.rules import SIZES, Size  # noqa: E402

PI_BUDGET = 8.0
PI_SLOWDOWN = 5.0
PI_POSITIONS = 320_000
"""What the Python core searches in 8 s on a Pi 4 (200,000 positions/s here, idle, / 5)."""


def empty_board(size: Size, cap: float) -> str:
    board = size.board()
    oracle = Oracle.installed(board.layout)
    budget = Limit(seconds=cap).start()
    started = time.monotonic()
    try:
        score = oracle.score(Position.of(board), budget)
    except SearchAborted:
        return f"not solved in {cap:g} s ({budget.nodes} positions)"
    return f"score {score:+d}, {budget.nodes} positions, {time.monotonic() - started:.2f} s"


def game(size: Size, opponent: str, seed: int, cap: float) -> Tuple[int, float, int, str]:
    """One game, perfect first when ``seed`` is even; perfect's worst move (positions, seconds),
    how many of its moves were not proven optimal, and the moves."""
    board = size.board()
    oracles = {1: Oracle.installed(board.layout), 2: Oracle.installed(board.layout)}
    perfect = 1 if seed % 2 == 0 else 2
    worst_nodes, worst_seconds, unproven = 0, 0.0, 0
    while not board.is_over:
        level = "perfect" if board.to_move == perfect else opponent
        result = choose_move(board, level, limit=Limit(seconds=cap), seed=seed * 1000 + board.ply,
                             oracle=oracles[board.to_move] if level == "perfect" else None)
        if board.to_move == perfect:
            worst_nodes = max(worst_nodes, result.nodes)
            worst_seconds = max(worst_seconds, result.seconds)
            unproven += not result.optimal
        board.play(result.column)
    return worst_nodes, worst_seconds, unproven, board.notation()


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", default=None, metavar="COLSxROWS")
    parser.add_argument("--games", type=int, default=4, help="games against each opponent (default: 4)")
    parser.add_argument("--cap", type=float, default=120.0, help="longest search, in seconds (default: 120)")
    args = parser.parse_args(argv)
    try:
        sizes = [Size.parse(text) for text in args.sizes] if args.sizes else list(SIZES)
    except BoardSizeError as exc:
        parser.error(str(exc))
    print(f"perfect is offered where its worst move here takes <= {PI_BUDGET / PI_SLOWDOWN:g} s "
          f"({PI_BUDGET:g} s on a Pi 4, {PI_SLOWDOWN:g}x slower): about {PI_POSITIONS} positions")
    for size in sizes:
        try:
            print(f"{size}: empty board: {empty_board(size, args.cap)}", flush=True)
        except ConfigError as exc:
            print(f"{size}: {exc}", flush=True)
            continue
        for opponent in ("easy", "perfect") if args.games else ():
            worst_nodes, worst_seconds, unproven = 0, 0.0, 0
            for seed in range(args.games):
                nodes, seconds, bad, _ = game(size, opponent, seed, args.cap)
                worst_nodes, worst_seconds = max(worst_nodes, nodes), max(worst_seconds, seconds)
                unproven += bad
            print(f"{size}: {args.games} games against {opponent}: worst move {worst_nodes} positions, "
                  f"{worst_seconds:.2f} s; {unproven} moves not proven optimal", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
