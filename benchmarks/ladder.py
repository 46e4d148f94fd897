#!/usr/bin/env python3
"""The ladder of levels: an Elo per level, its independence from the clock, "match me" settling,
and each level's worst move on every board size.

Prints figures; it is not a test (shared machines are noisy).

    python benchmarks/ladder.py [--board 7x6 6x5] [--games 100] [--slower 1 5] [--jobs 2]
    python benchmarks/ladder.py --match-me [--rounds 30] [--board 7x6] [--starts easy perfect] [--series 20]
    python benchmarks/ladder.py --costs [--board 8x6 ...] [--games 2]

**The round robin** (the default): every neighbouring pair of the ladder as it is offered on
the board (with the solver core that runs), a uniformly random player below the first level,
plays ``--games`` games on each board, each side starting half of them.  Each level thinks within its own budget scaled to this machine (a Pi 4 runs CPython
about 5 times slower: ``--pi 5`` divides every level's budget by 5), and ``--slower F``
divides it again by F (several factors: one round robin each, on the same seeds).  A level
below perfect plays the same move whatever its budget unless the budget runs out, so with the
same seeds the games are the same (with ``--jobs 1``: each pair starts from empty tables, as
perfect's choice among equally good moves depends on what its table holds): the line "games
that differ" says how many were not, and "budget ran out" how many moves hit the limit.  The Elo of each level comes from the chain of
neighbouring scores (the random player at 0; a pair's score is ``(points + 0.5) / (games +
1)``, so a whitewash still gives a finite gap), with a 95% interval from 2,000 bootstrap
resamplings of each pair's games.

**"Match me"** (``--match-me``): each level of the ladder plays ``--series`` series of ``--rounds``
rounds against the "match me" opponent (:mod:`sensehat_c4.engine.matchme`) from each start
(``--starts``, default every level), the two sides starting rounds in turn; it prints the player's
score over the rounds (the mean over the series and their range), by which round the opponent was
first within one level of the player's own, and the player's score over the rounds after that.

**Costs** (``--costs``): each level plays ``--games`` games as each player against each of its
neighbours, each move limited to ``--cap`` seconds only; its worst move in CPU seconds and
positions, and whether that fits its budget on a Pi 4 (a fifth of it here).  Run it again with
``SENSEHAT_C4_PURE_PYTHON=1`` for the Python core.
"""
from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sensehat_c4.engine import LEVELS, Limit, choose_move
from sensehat_c4.engine import oracle as oracle_module
from sensehat_c4.engine.cores import core_name
from sensehat_c4.engine.matchme import MatchMe, Round
from sensehat_c4.errors import BoardSizeError
from sensehat_c4.rules import SIZES, Size

RANDOM = "random"
"""A player that picks uniformly random moves: the round robin's first, at Elo 0."""


@dataclass
class Moves:
    """One side's moves in a game: how many, how many hit the budget, the slowest (wall, CPU)."""

    count: int = 0
    budget_out: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    nodes: int = 0

    def add(self, other: "Moves") -> None:
        self.count += other.count
        self.budget_out += other.budget_out
        self.wall = max(self.wall, other.wall)
        self.cpu = max(self.cpu, other.cpu)
        self.nodes = max(self.nodes, other.nodes)


@dataclass
class Game:
    """One game's result: the first player's points (1, 0.5, 0), its moves, each side's :class:`Moves`."""

    points: float
    moves: str
    sides: Tuple[Moves, Moves] = field(default_factory=lambda: (Moves(), Moves()))


def budget(level: str, pi: float, slower: float) -> Optional[float]:
    """A level's budget here: its own (a Pi's) divided by ``pi`` and ``slower`` (``None``: no limit;
    a negative ``pi``: ``-pi`` seconds for every level)."""
    if pi == 0:
        return None
    if pi < 0:
        return -pi
    return LEVELS[level].seconds / pi / slower


def play(size: Size, first: str, second: str, seed: int, pi: float, slower: float) -> Game:
    """One game between two players (:data:`RANDOM` or levels); ``seed`` fixes every choice."""
    board = size.board()
    rng = random.Random(seed)
    sides = (Moves(), Moves())
    names = (first, second)
    while not board.is_over:
        mover = board.ply % 2
        name = names[mover]
        if name == RANDOM:
            column = rng.choice(board.legal_moves())
        else:
            cpu = time.thread_time()
            result = choose_move(board, name, limit=Limit(seconds=budget(name, pi, slower)),
                                 seed=rng.randrange(2 ** 32))
            cpu = time.thread_time() - cpu
            side = sides[mover]
            side.count += 1
            side.budget_out += result.source == "budget"
            side.wall, side.cpu = max(side.wall, result.seconds), max(side.cpu, cpu)
            side.nodes = max(side.nodes, result.nodes)
            column = result.column
        board.play(column)
    outcome = board.outcome
    assert outcome is not None
    points = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 1 else 0.0
    return Game(points, board.notation(), sides)


def _play(job: Tuple[Size, str, str, int, float, float]) -> Game:
    return play(*job)


def run(jobs: List[Tuple[Size, str, str, int, float, float]], workers: int, fresh_every: int = 0) -> List[Game]:
    """The games of ``jobs`` in order, on ``workers`` processes (one: in this process, whose oracles
    are let go first, and again every ``fresh_every`` games, so that each run, or each pair, starts
    from empty tables as the one before it did)."""
    if workers <= 1:
        games = []
        for number, job in enumerate(jobs):
            if number == 0 or (fresh_every and number % fresh_every == 0):
                oracle_module._default.clear()
            games.append(_play(job))
        return games
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play, jobs, chunksize=4))


# -- the round robin -----------------------------------------------------------------------

@dataclass
class Pair:
    """A neighbouring pair's games: ``lower`` against ``upper``, ``lower``'s points in each."""

    lower: str
    upper: str
    points: List[float] = field(default_factory=list)
    moves: List[str] = field(default_factory=list)
    lower_moves: Moves = field(default_factory=Moves)
    upper_moves: Moves = field(default_factory=Moves)

    @property
    def score(self) -> float:
        return sum(self.points) / len(self.points)


def gap(points: Sequence[float]) -> float:
    """The upper side's Elo over the lower's from the lower's points in each game."""
    share = (sum(points) + 0.5) / (len(points) + 1)
    return 400 * math.log10((1 - share) / share)


def offered(size: Size) -> List[str]:
    """The round robin's players on ``size``: the random player, then the levels offered there."""
    return [RANDOM] + [name for name, level in LEVELS.items() if size in level.offered_sizes()]


def round_robin(size: Size, games: int, pi: float, slower: float, workers: int, seed: int) -> List[Pair]:
    players = offered(size)
    pairs = [Pair(lower, upper) for lower, upper in zip(players, players[1:])]
    jobs = []
    for number, pair in enumerate(pairs):
        for game in range(games):
            first, second = (pair.lower, pair.upper) if game % 2 == 0 else (pair.upper, pair.lower)
            jobs.append((size, first, second, seed * 1_000_000 + number * 10_000 + game, pi, slower))
    results = iter(run(jobs, workers, fresh_every=games))
    for pair in pairs:
        for game in range(games):
            result = next(results)
            lower_first = game % 2 == 0
            pair.points.append(result.points if lower_first else 1 - result.points)
            pair.moves.append(result.moves)
            pair.lower_moves.add(result.sides[0 if lower_first else 1])
            pair.upper_moves.add(result.sides[1 if lower_first else 0])
    return pairs


def elo_table(pairs: List[Pair], rng: random.Random, samples: int = 2000) -> Dict[str, Tuple[float, float, float]]:
    """Each player's Elo (the first at 0) and its 95% interval, by bootstrap over each pair's games."""
    point = [0.0]
    for pair in pairs:
        point.append(point[-1] + gap(pair.points))
    draws: List[List[float]] = [[] for _ in point]
    for _ in range(samples):
        total = 0.0
        draws[0].append(0.0)
        for index, pair in enumerate(pairs, start=1):
            resampled = [rng.choice(pair.points) for _ in pair.points]
            total += gap(resampled)
            draws[index].append(total)
    table = {}
    for index, name in enumerate([pairs[0].lower] + [p.upper for p in pairs]):
        ordered = sorted(draws[index])
        table[name] = (point[index], ordered[int(0.025 * samples)], ordered[int(0.975 * samples) - 1])
    return table


def digest(pairs: Iterable[Pair]) -> str:
    """A short digest of every game's moves (equal digests: the same games)."""
    return hashlib.sha256("\n".join(m for p in pairs for m in p.moves).encode()).hexdigest()[:12]


def report_round_robin(size: Size, games: int, pi: float, slowers: Sequence[float], workers: int, seed: int) -> None:
    runs: Dict[float, List[Pair]] = {}
    for slower in slowers:
        started, cpu = time.monotonic(), time.process_time()
        pairs = round_robin(size, games, pi, slower, workers, seed)
        runs[slower] = pairs
        wall, cpu = time.monotonic() - started, time.process_time() - cpu
        limit = "no time limit" if pi <= 0 else f"budgets / {pi:g} / {slower:g}"
        print(f"\n{size}, {games} games a pair, {limit} ({wall:.0f} s wall, this process {cpu:.0f} s CPU; "
              f"digest {digest(pairs)})", flush=True)
        print(f"{'lower':>8} v {'upper':<8} {'lower scores':>12}  {'W-D-L':>9}  {'Elo gap':>7}  "
              f"{'budget ran out (lower, upper)':>29}  slowest move of the upper: wall, CPU", flush=True)
        for pair in pairs:
            won = sum(1 for p in pair.points if p == 1)
            drawn = sum(1 for p in pair.points if p == 0.5)
            lost = len(pair.points) - won - drawn
            print(f"{pair.lower:>8} v {pair.upper:<8} {100 * pair.score:11.1f}%  {won:>3}-{drawn}-{lost:<3}  "
                  f"{gap(pair.points):+7.0f}  {pair.lower_moves.budget_out:>12} of {pair.lower_moves.count:<5}"
                  f"{pair.upper_moves.budget_out:>4} of {pair.upper_moves.count:<5}  "
                  f"{pair.upper_moves.wall:.3f} s, {pair.upper_moves.cpu:.3f} s", flush=True)
        table = elo_table(pairs, random.Random(seed))
        print("Elo (random player 0), 95% interval:", flush=True)
        for name, (elo, low, high) in table.items():
            print(f"  {name:<8} {elo:6.0f}  [{low:6.0f}, {high:6.0f}]", flush=True)
    base = runs[slowers[0]]
    for slower in slowers[1:]:
        other = runs[slower]
        print(f"\n{size}: budgets / {slower:g} against / {slowers[0]:g}:", flush=True)
        for a, b in zip(base, other):
            differ = sum(x != y for x, y in zip(a.moves, b.moves))
            print(f"  {a.lower:>8} v {a.upper:<8} lower scores {100 * a.score:5.1f}% and {100 * b.score:5.1f}% "
                  f"(moved {100 * (b.score - a.score):+.1f} points in 100); games that differ: {differ} of "
                  f"{len(a.moves)}", flush=True)


# -- "match me" ------------------------------------------------------------------------------

def series(size: Size, player: str, start: str, rounds: int, seed: int) -> Tuple[List[str], List[float]]:
    """``player`` against "match me" from ``start``: the opponent's level and the player's points, per round."""
    opponent = MatchMe.starting(list(LEVELS), start)
    levels, points = [], []
    for number in range(rounds):
        level = opponent.level
        first, second = (player, level) if number % 2 == 0 else (level, player)
        game = play(size, first, second, seed * 1000 + number, 0, 1)
        mine = game.points if number % 2 == 0 else 1 - game.points
        levels.append(level)
        points.append(mine)
        opponent.after(Round.WON if mine == 1 else Round.LOST if mine == 0 else Round.DRAWN)
    return levels, points


def _series(job: Tuple[Size, str, str, int, int]) -> Tuple[List[str], List[float]]:
    return series(*job)


def report_match_me(size: Size, rounds: int, workers: int, seed: int, starts: Sequence[str], count: int) -> None:
    """Each level as a player against "match me" from each of ``starts``, ``count`` series of ``rounds``
    rounds: its score over the rounds (the mean over the series, and their range), the round of settling
    (the first against a level within one of the player's own) and the score after it."""
    names = list(LEVELS)
    jobs = [(size, player, start, rounds, ((seed * 10 + p) * 10 + names.index(start)) * 1000 + k)
            for p, player in enumerate(names) for start in starts for k in range(count)]
    if workers <= 1:
        results = [_series(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_series, jobs))
    print(f"\n{size}: each level against \"match me\" from {', '.join(starts)}: {count} series of {rounds} rounds "
          f"(settled: the opponent within one level of the player's own)", flush=True)
    worst, outside = 0, 0
    done = iter(results)
    for p, player in enumerate(names):
        cells, settled_all, after_all, spans = [], [], [], []
        for start in starts:
            scores, settled = [], []
            for _ in range(count):
                levels, points = next(done)
                scores.append(sum(points) / len(points))
                at = next((r for r in range(len(levels)) if abs(names.index(levels[r]) - p) <= 1), None)
                settled.append(at + 1 if at is not None else None)
                if at is not None:
                    after_all += points[at:]
                    spans += [names.index(level) for level in levels[at:]]
            mean = sum(scores) / len(scores)
            outside += not 0.35 <= mean <= 0.65
            reached = sorted(x for x in settled if x is not None)
            worst = max([worst] + reached) if len(reached) == len(settled) else rounds + 1
            where = (f"settled by round {reached[-1]}" if len(reached) == len(settled)
                     else f"{len(settled) - len(reached)} of {count} never settled")
            cells.append(f"from {start} {100 * mean:.0f}%" + (f" ({100 * min(scores):.0f}-{100 * max(scores):.0f}%)"
                                                                 if count > 1 else "") + f", {where}")
            settled_all += reached
        after = f"{100 * sum(after_all) / len(after_all):.0f}%" if after_all else "-"
        levels_after = f"{min(spans) + 1}-{max(spans) + 1}" if spans else "-"
        print(f"  {player:<8} (level {p + 1}): score over the {rounds} rounds: {'; '.join(cells)}; "
              f"score after settling {after}, opponent's levels after settling {levels_after}", flush=True)
    print(f"  latest settling: round {worst}" if worst <= rounds else "  some series never settled", flush=True)
    print(f"  players whose mean score from a start is outside 35-65%: {outside}", flush=True)


# -- costs -----------------------------------------------------------------------------------

def report_costs(sizes: Sequence[Size], games: int, pi: float, workers: int, cap: float,
                 only: Sequence[str] = ()) -> None:
    names = list(LEVELS)
    print(f"solver core: {core_name()}; each level's worst move (CPU) with a limit of {cap:g} s, {games} games "
          f"as each player against each neighbour; it fits where it is at most its budget / {pi:g} here",
          flush=True)
    for size in sizes:
        jobs = []
        for index, level in enumerate(names[:-1]):
            if only and level not in only:
                continue
            for other in sorted({names[max(0, index - 1)], names[index + 1]}):
                for game in range(games):
                    jobs += [(size, level, other, 7_000 + game, -cap, 1.0), (size, other, level, 8_000 + game, -cap, 1.0)]
        results = run(jobs, workers)
        worst: Dict[str, Moves] = {name: Moves() for name in names[:-1] if not only or name in only}
        for job, result in zip(jobs, results):
            for side, name in enumerate(job[1:3]):
                if name in worst:
                    worst[name].add(result.sides[side])
        cells = []
        for name, moves in worst.items():
            fits = "fits" if moves.cpu <= LEVELS[name].seconds / pi and not moves.budget_out else "TOO SLOW"
            if moves.budget_out:
                fits += f", {moves.budget_out} moves out of time"
            cells.append(f"{name} {moves.cpu:.3f} s ({moves.nodes} pos., {fits})")
        print(f"{size}: " + "; ".join(cells), flush=True)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", nargs="*", default=["7x6", "6x5"], metavar="COLSxROWS",
                        help="board sizes (default: 7x6 6x5; --costs: every size)")
    parser.add_argument("--games", type=int, default=100, help="games per pair (default: 100; --costs: 2)")
    parser.add_argument("--pi", type=float, default=5.0,
                        help="how much slower a Pi 4 is: each budget is divided by it (default: 5; 0: no limit)")
    parser.add_argument("--slower", type=float, nargs="+", default=[1.0],
                        help="divide every budget again by each of these (default: 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match-me", action="store_true", help="\"match me\" settling (see above)")
    parser.add_argument("--rounds", type=int, default=30, help="with --match-me: rounds per series (default: 30)")
    parser.add_argument("--starts", nargs="*", default=list(LEVELS), choices=list(LEVELS), metavar="LEVEL",
                        help="with --match-me: the levels it starts from (default: every level)")
    parser.add_argument("--series", type=int, default=1, help="with --match-me: series per player and start (default: 1)")
    parser.add_argument("--costs", action="store_true", help="each level's worst move per size (see above)")
    parser.add_argument("--cap", type=float, default=30.0, help="with --costs: the longest move (default: 30 s)")
    parser.add_argument("--levels", nargs="*", default=[], help="with --costs: these levels only (default: all)")
    args = parser.parse_args(argv)
    if min(args.games, args.rounds, args.series) < 1:
        parser.error("--games, --rounds and --series must be at least 1")
    try:
        sizes = [Size.parse(text) for text in args.board]
    except BoardSizeError as exc:
        parser.error(str(exc))
    print(f"solver core: {core_name()}; levels: {', '.join(f'{i}. {n}' for i, n in enumerate(LEVELS, 1))}",
          flush=True)
    if args.costs:
        given = "--board" in " ".join(argv)
        report_costs(sizes if given else list(SIZES), args.games if "--games" in argv else 2, args.pi, args.jobs,
                     args.cap, args.levels)
        return 0
    for size in sizes:
        if args.match_me:
            report_match_me(size, args.rounds, args.jobs, args.seed, args.starts, args.series)
        else:
            report_round_robin(size, args.games, args.pi, args.slower, args.jobs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
