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
    python benchmarks/sizes.py --offered --games 0 --think 1.6 0.8 --series 2

With the native core the same rule holds in seconds (about 8 million positions a CPU second
here).  ``--think`` plays whole games of perfect (the game's own oracles and budget, here the
given seconds: 1.6 is a Pi 4's 8 s, 0.8 a Pi Zero 2 W's) against every level, as each
player, ``--series`` games each, on every size perfect is offered on (``--offered``) or those
of ``--sizes``; each move whose budget ran out is scored again without a limit: it must be
optimal and give nothing away.  The last line gives the process's peak resident memory.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sensehat_c4.engine import LEVELS, Limit, Oracle, choose_move, default_oracle
from sensehat_c4.engine import oracle as oracle_module
from sensehat_c4.engine.cores import core_name
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.errors import BoardSizeError, ConfigError, SearchAborted
from sensehat_c4.rules import SIZES, Size

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


def pi_games(size: Size, think: float, series: int) -> str:
    """Perfect (the game's default oracle, ``think`` seconds a move) against every level, as each
    player: its moves, the worst one (wall and CPU), how often the budget ran out, and whether
    each such move was optimal (an unlimited solve) or gave a won or drawn position away.

    The default oracles are let go first, so no table or memory carries over from another run."""
    oracle_module._default.clear()
    checker: Optional[Oracle] = None  # made at the first budget-out only (its table is memory too)
    moves = outs = optimal = 0
    given: List[str] = []
    worst = worst_cpu = 0.0
    results: Dict[str, int] = {"won": 0, "drawn": 0, "lost": 0}
    for opponent in LEVELS:
        for seat in (1, 2):
            for game in range(series):
                board = size.board()
                seed = 1000 * seat + game
                while not board.is_over:
                    mine = board.to_move == seat
                    cpu = time.thread_time()
                    result = choose_move(board, "perfect" if mine else opponent, seed=seed * 100 + board.ply,
                                         limit=Limit(seconds=think if mine else 0.25),
                                         oracle=default_oracle(board.layout) if mine else None)
                    if mine:
                        moves += 1
                        worst, worst_cpu = max(worst, result.seconds), max(worst_cpu, time.thread_time() - cpu)
                        if result.source == "budget":
                            outs += 1
                            checker = checker or Oracle.installed(board.layout)
                            scores = checker.move_scores(Position.of(board), Budget())
                            best = max(scores.values())
                            optimal += scores[result.column] == best
                            if (scores[result.column] > 0) - (scores[result.column] < 0) < (best > 0) - (best < 0):
                                given.append(f"{board.notation()}: {result.column + 1}")
                    board.play(result.column)
                end = board.outcome
                assert end is not None
                results["drawn" if end.winner is None else "won" if end.winner == seat else "lost"] += 1
    return (f"{size}: perfect at {think:g} s a move, {series} games against each level as each player "
            f"(won {results['won']}, drawn {results['drawn']}, lost {results['lost']}): {moves} moves, "
            f"worst {worst:.2f} s (CPU {worst_cpu:.2f} s); budget ran out {outs} times, optimal "
            f"{moves - outs + optimal}/{moves}; won or drawn positions given away: {len(given)}"
            + (f" ({', '.join(given)})" if given else ""))


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", default=None, metavar="COLSxROWS")
    parser.add_argument("--games", type=int, default=4, help="games against each opponent (default: 4)")
    parser.add_argument("--cap", type=float, default=120.0, help="longest search, in seconds (default: 120)")
    parser.add_argument("--offered", action="store_true",
                        help="the sizes perfect is offered on (with the core that runs)")
    parser.add_argument("--think", type=float, nargs="*", default=[], metavar="SECONDS",
                        help="whole games with perfect's budget at each of these (see above)")
    parser.add_argument("--series", type=int, default=1, help="with --think: games per level and seat (default: 1)")
    args = parser.parse_args(argv)
    try:
        sizes = [Size.parse(text) for text in args.sizes] if args.sizes else list(SIZES)
    except BoardSizeError as exc:
        parser.error(str(exc))
    if args.offered:
        sizes = list(LEVELS["perfect"].offered_sizes())
    print(f"solver core: {core_name()}; perfect is offered where its worst move here takes <= "
          f"{PI_BUDGET / PI_SLOWDOWN:g} s ({PI_BUDGET:g} s on a Pi 4, {PI_SLOWDOWN:g}x slower): with the "
          f"Python core about {PI_POSITIONS} positions", flush=True)
    for size in sizes:
        for think in args.think:
            print(pi_games(size, think, args.series), flush=True)
    if args.think:
        print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB", flush=True)
    for size in sizes if args.games or not args.think else ():
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
