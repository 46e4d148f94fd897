#!/usr/bin/env python3
"""Builds ``sensehat_c4/engine/data/puzzles.bin``: "find the win" puzzles from the ladder's games.

    python tools/make_puzzles.py [--per-n 1100] [--seed 1] [--output PATH]

Games: two levels of the ladder below perfect, drawn at random (seeded), play a game from
the empty board on 7 x 6.  Every position from the sixth stone on is scored exactly (every
move's score: the books, then the solver).  It is a puzzle of ``n`` when its side to move
wins with its ``n``-th stone (``n`` at most 7) and exactly one move wins that soon.  A game
gives at most one puzzle (of the ``n`` that has fewest so far; the earliest), and a position,
or its mirror image, is taken once.  It stops when every ``n`` has ``--per-n`` puzzles.  Then each puzzle's solution
line (:func:`~sensehat_c4.engine.puzzles.solution_line`) and grade (``tries``: the ladder's
levels 1 to 3, three seeds each, try moves until they find the first one, each try ruling a
column out; the mean of the tries) are worked out.  The same seed gives the same file with
either solver core (the scores are exact, and no level's move depends on the clock).

The shipped file must not be rebuilt in place: a puzzle's id is its place among those of its ``n``,
and the games database names each day's puzzle by its id (a past day must keep its puzzle).  Which
puzzles a day may get is decided when it is chosen, not here: from ``FAIR_FROM`` on, the fair ones
(``sensehat_c4.engine.puzzles.fair``); the last line printed counts them.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Dict, List, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.engine import LEVELS, choose_move, default_oracle
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position
from sensehat_c4.engine.puzzles import MAGIC, MAX_N, PATH, VERSION, fair_puzzles, solution_line
from sensehat_c4.engine.sight import Sight, choose, foresee
from sensehat_c4.engine.sizebooks import mirror_key
from sensehat_c4.rules import STANDARD, Board

FIRST_PLY = 6
PLAYERS = [name for name, level in LEVELS.items() if isinstance(level.play, Sight)]
"""The levels whose games the positions come from (every level below perfect)."""
GRADERS = PLAYERS[:3]
"""The levels whose tries grade a puzzle (levels 1 to 3: they see a few moves ahead at most)."""
GRADE_SEEDS = 3


def puzzle_n(board: Board) -> int:
    """The puzzle's ``n`` of a position (0 if it is none)."""
    scores = default_oracle(STANDARD).move_scores(Position.of(board), Budget())
    best = max(scores.values())
    if best <= 0:
        return 0
    n = (STANDARD.cells + 1 - board.ply) // 2 - best + 1     # wins with its n-th stone from here
    if n > MAX_N or sum(1 for s in scores.values() if s == best) != 1:
        return 0
    return n


def key(board: Board) -> int:
    """The position's key, the same for its mirror image."""
    position = Position.of(board)
    plain = position.current + position.mask
    return min(plain, mirror_key(position.shape, plain))


def tries(moves: str, solution: int) -> float:
    """The mean tries of :data:`GRADERS` to find ``solution`` (0-based) in the position after ``moves``."""
    position = Position.of(Board.from_moves(moves))
    oracle = default_oracle(STANDARD)
    counts = []
    for name in GRADERS:
        sight = LEVELS[name].play
        assert isinstance(sight, Sight)
        for seed in range(GRADE_SEEDS):
            rng = random.Random(f"{moves} {name} {seed}")
            left = set(position.legal_columns())
            count = 0
            while True:
                count += 1
                with oracle.lock:
                    seen = foresee(oracle, position, rng.randint(sight.low, sight.high), Budget()).seen
                column, _, _ = choose(position, {c: k for c, k in seen.items() if c in left}, sight.noise, rng)
                if column == solution:
                    break
                left.discard(column)
            counts.append(count)
    return sum(counts) / len(counts)


def collect(per_n: int, seed: int) -> Dict[int, List[str]]:
    """Positions (as moves) of each ``n`` from the ladder's games, ``per_n`` of each."""
    rng = random.Random(seed)
    found: Dict[int, List[str]] = {n: [] for n in range(1, MAX_N + 1)}
    seen: Set[int] = set()
    games = 0
    started = time.monotonic()
    while any(len(v) < per_n for v in found.values()):
        games += 1
        players = (rng.choice(PLAYERS), rng.choice(PLAYERS))
        board = Board()
        candidates: List[Tuple[int, int, str]] = []      # (puzzles of its n so far, ply, moves)
        while not board.is_over:
            if board.ply >= FIRST_PLY:
                n = puzzle_n(board)
                if n and len(found[n]) < per_n and key(board) not in seen:
                    candidates.append((len(found[n]), board.ply, board.notation()))
            name = players[board.ply % 2]
            board.play(choose_move(board, name, seed=rng.randrange(2 ** 32)).column)
        if candidates:                                    # one a game: of the n that has fewest
            _, _, moves = min(candidates)
            found[puzzle_n(Board.from_moves(moves))].append(moves)
            seen.add(key(Board.from_moves(moves)))
        if games % 200 == 0:
            print(f"{games} games, {time.monotonic() - started:.0f} s: "
                  + " ".join(f"{n}:{len(v)}" for n, v in found.items()), flush=True)
    print(f"{games} games", flush=True)
    return found


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-n", type=int, default=1100, help="puzzles of each n (default: 1100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, default=PATH)
    args = parser.parse_args(argv)
    started, cpu = time.monotonic(), time.process_time()
    found = collect(args.per_n, args.seed)
    lines = [f"{MAGIC} {VERSION} {STANDARD.columns}x{STANDARD.rows}"]
    grades: List[Tuple[int, float]] = []
    for n, positions in found.items():
        for moves in positions:
            line = solution_line(moves)
            assert len(line) == 2 * n - 1, (moves, n, line)
            grade = tries(moves, int(line[0]) - 1)
            grades.append((n, grade))
            lines.append(f"{n} {grade:.2f} {moves} {line[0]} {line}")
        print(f"n = {n}: {len(positions)} puzzles, mean tries "
              f"{sum(g for m, g in grades if m == n) / len(positions):.2f}", flush=True)
    data = zlib.compress(("\n".join(lines) + "\n").encode("utf-8"), 9)
    args.output.write_bytes(data)
    print(f"{args.output}: {len(lines) - 1} puzzles, {len(data)} bytes; {time.monotonic() - started:.0f} s "
          f"({time.process_time() - cpu:.0f} s CPU)", flush=True)
    print("fair: " + " ".join(f"{n}:{len(fair_puzzles(n, path=args.output))}" for n in found), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
