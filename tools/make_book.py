#!/usr/bin/env python3
"""Build an opening book: ``book8.bin`` for 7 x 6, or ``book-WxH.bin`` for another board size.

    python tools/make_book.py                          # 7 x 6: book8.bin from the 12-ply book
    python tools/make_book.py --board 7x5 --plies 4    # another size: its solver's own book
    python tools/make_book.py --board 8x6 --strategy 9 --jobs 2 --table-bits 26   # a strategy book

Another size (``--board``): every position with up to ``--plies`` stones is enumerated (up to
mirror symmetry); those with exactly that many are solved by the exact solver (the native core
if it is built), the others scored by minimax from them.  Resumable: each solved position is
appended to ``OUT.partial`` at once, and a new run skips those (so stop it any time).  Progress
and an estimate of the time left go to stdout; the note at the end gives the run time, the CPU
time and the book's size (see ``sensehat_c4/engine/sizebooks.py`` for the format).  Long runs:
``nice -n 10 python tools/make_book.py --board 8x5 --plies 6 > book.log``.

A strategy book (``--strategy STONES``, see ``sensehat_c4/engine/strategy.py``): perfect's
move in every position it reaches itself up to STONES stones, as either player, with its exact
score.  From the empty board and each first move, each position is decided (its exact score,
then a move that keeps it, as the oracle finds one) once the position before it is, then every
reply to that move is a new position; ``--jobs`` worker processes decide them, the fewest
stones first.  Resumable: each decision is appended to ``OUT.decisions`` at once and a new run
skips those (kept, so that a deeper book goes on from them).  Long runs: ``nice -n 19 python
tools/make_book.py --board 8x6 --strategy 9 --jobs 2 --table-bits 26 --out DIR/strategy-8x6.bin``.

7 x 6 (no ``--board``): ``sensehat_c4/engine/data/book8.bin``, exact scores of every position
with up to 8 stones.

Derived from the 12-ply distance book of ``bitbully-databases`` (MIT, Markus Thill):
every position with 0 to 11 stones is enumerated (up to mirror symmetry), and its
exact score computed by minimax from the 12-stone scores of the book, layer by layer
from 11 stones back to the empty board.  Only positions with at most 8 stones are
written.  Deterministic: the same input gives the same bytes.

Needs ``pip install bitbully-databases`` (or ``--book12 PATH``), about 1.2 GB of memory
and some minutes (most of it decoding the 4.2 million book entries).

Output records, sorted by key, 4 bytes each: a 3-byte big-endian key (the book's
Huffman code of the position, left-aligned in 24 bits; the smaller of the position's
and its mirror's), then the score as a signed byte (test-set convention, side to
move).  Positions where the side to move wins at once are left out (computed at
run time).  The whole file is zlib-compressed.
"""
from __future__ import annotations

import argparse
import ctypes
import multiprocessing as mp
import os
import queue
import signal
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.engine.book12 import SHAPE, default_path, distance_to_score
from sensehat_c4.engine.cores import new_solver
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.openings import MAX_PLY, OUTPUT, key24
from sensehat_c4.engine.position import Position, Shape, shape_of
from sensehat_c4.engine.oracle import Oracle
from sensehat_c4.engine.sizebooks import book_key, book_path, encode, mirror_key
from sensehat_c4.engine.strategy import encode as strategy_encode
from sensehat_c4.engine.strategy import strategy_path
from sensehat_c4.errors import BoardSizeError
from sensehat_c4.rules import STANDARD, Size

Pos = Tuple[int, int]  # player 1's stones, player 2's stones
BOARD, BOTTOM, COLUMN_MASKS, H1, WIDTH = SHAPE.full, SHAPE.bottom, SHAPE.column_masks, SHAPE.stride, SHAPE.width
can_win_now, win_score, winning_cells = SHAPE.can_win_now, SHAPE.win_score, SHAPE.winning_cells


def mirror(x: int) -> int:
    out = 0
    for c in range(WIDTH):
        out |= ((x >> (c * H1)) & 127) << ((WIDTH - 1 - c) * H1)
    return out


def canon(p1: int, p2: int) -> int:
    return min((p1 << 49) | p2, (mirror(p1) << 49) | mirror(p2))


def decode(code: int) -> Pos:
    """Inverse of the 12-ply book's Huffman code (unsigned 32-bit here)."""
    p1 = p2 = 0
    bit = 31
    for c in range(WIDTH):
        r = 0
        while True:
            if not (code >> bit) & 1:
                bit -= 1
                break
            stone = 1 << (c * H1 + r)
            if (code >> (bit - 1)) & 1:
                p2 |= stone
            else:
                p1 |= stone
            bit -= 2
            r += 1
    return p1, p2


def load_book12(path: Path) -> Dict[int, int]:
    data = path.read_bytes()
    book = {}
    for code, value in struct.iter_unpack(">ib", data):
        p1, p2 = decode(code & 0xFFFFFFFF)
        book[canon(p1, p2)] = distance_to_score(value, 12)
    return book


def expand(layer: Dict[int, Pos], ply: int) -> Dict[int, Pos]:
    """Every live position one stone further (nobody has four yet)."""
    nxt: Dict[int, Pos] = {}
    for p1, p2 in layer.values():
        mask = p1 | p2
        cur = p1 if ply % 2 == 0 else p2
        wins = winning_cells(cur, mask)
        possible = (mask + BOTTOM) & BOARD
        for column in COLUMN_MASKS:
            move = possible & column
            if not move or move & wins:
                continue
            child = (p1 | move, p2) if ply % 2 == 0 else (p1, p2 | move)
            key = canon(*child)
            if key not in nxt:
                nxt[key] = child
    return nxt


def score_layer(layer: Dict[int, Pos], ply: int, below: Dict[int, int]) -> Dict[int, int]:
    """Exact scores of ``layer`` (``ply`` stones) from the scores one stone further."""
    scores = {}
    for key, (p1, p2) in layer.items():
        mask = p1 | p2
        cur = p1 if ply % 2 == 0 else p2
        wins = winning_cells(cur, mask)
        possible = (mask + BOTTOM) & BOARD
        if wins & possible:
            scores[key] = win_score(ply)
            continue
        best = -99
        for column in COLUMN_MASKS:
            move = possible & column
            if not move:
                continue
            child = (p1 | move, p2) if ply % 2 == 0 else (p1, p2 | move)
            ckey = canon(*child)
            if ckey in below:
                value = -below[ckey]
            else:  # only 12-stone positions that the mover (player 1) wins at once are not in the book
                assert ply + 1 == 12, (ply, child)
                ccur = child[0]
                cmask = mask | move
                assert winning_cells(ccur, cmask) & ((cmask + BOTTOM) & BOARD), child
                value = -win_score(12)
            best = max(best, value)
        scores[key] = best
    return scores


# -- another board size: the solver's own book ------------------------------------------

Layer = Dict[int, Tuple[int, int]]
"""Positions with the same number of stones: book key -> (current, mask)."""


def size_layers(shape: Shape, plies: int) -> List[Layer]:
    """Every position with 0 to ``plies`` stones up to mirror symmetry; positions whose side to
    move wins at once are kept but not played on."""
    layers: List[Layer] = [{book_key(shape, 0, 0): (0, 0)}]
    for _ in range(plies):
        layer: Layer = {}
        for current, mask in layers[-1].values():
            if shape.can_win_now(current, mask):
                continue
            possible = shape.possible(mask)
            for column in shape.column_masks:
                move = possible & column
                if move:
                    child = (current ^ mask, mask | move)
                    layer.setdefault(book_key(shape, *child), child)
        layers.append(layer)
    return layers


def build_size_book(size: Size, plies: int, out: Path, table_bits: Optional[int],
                    log: Callable[[str], None]) -> int:
    shape = shape_of(size)
    layers = size_layers(shape, plies)
    log(f"{size}: {', '.join(str(len(layer)) for layer in layers)} positions of 0 to {plies} stones (up to mirror)")
    partial = out.with_name(out.name + ".partial")
    solved: Dict[int, int] = {}
    if partial.is_file():
        for line in partial.read_text().splitlines():
            fields = line.split()
            if len(fields) == 2:
                solved[int(fields[0])] = int(fields[1])
        log(f"resuming: {len(solved)} positions of {plies} stones solved before")
    solver = new_solver(shape, table_bits=table_bits)
    log(f"solver core: {solver.name}, table of 2**{table_bits} entries" if table_bits else
        f"solver core: {solver.name}, the board's table")
    todo = [(key, pos) for key, pos in sorted(layers[plies].items())
            if key not in solved and not shape.can_win_now(*pos)]
    started, cpu, nodes = time.monotonic(), time.process_time(), 0
    last = started
    with open(partial, "a") as f:
        for done, (key, (current, mask)) in enumerate(todo, 1):
            budget = Budget()
            score = solver.score(Position(current, mask, plies, shape), budget)
            nodes += budget.nodes
            solved[key] = score
            f.write(f"{key} {score}\n")
            f.flush()
            now = time.monotonic()
            if now - last >= 30 or done == len(todo):
                last = now
                left = (now - started) / done * (len(todo) - done)
                log(f"solved {done}/{len(todo)} of {plies} stones ({nodes} positions searched, "
                    f"CPU {time.process_time() - cpu:.0f} s); about {left / 60:.0f} min left")
    scores = {plies: solved}
    for ply in range(plies - 1, -1, -1):  # minimax from the layer below
        below, here = scores[ply + 1], {}
        for key, (current, mask) in layers[ply].items():
            if shape.can_win_now(current, mask):
                continue
            best = None
            possible = shape.possible(mask)
            for column in shape.column_masks:
                move = possible & column
                if move:
                    child = (current ^ mask, mask | move)
                    value = shape.win_score(ply + 1) if shape.can_win_now(*child) else below[book_key(shape, *child)]
                    best = -value if best is None else max(best, -value)
            assert best is not None
            here[key] = best
        scores[ply] = here
    log(f"{size}: the empty board scores {scores[0][book_key(shape, 0, 0)]:+d}")
    records = [(key, score) for layer in scores.values() for key, score in layer.items()]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(encode(size, plies, records))
    log(f"wrote {out}: {len(records)} positions, {out.stat().st_size} bytes; "
        f"this run: {time.monotonic() - started:.0f} s, CPU {time.process_time() - cpu:.0f} s")
    partial.unlink()
    return 0


# -- a strategy book: perfect's own moves, every reply of the opponent --------------------

Task = Tuple[int, int, int, Optional[int]]
"""A position to decide: current, mask, stones, and a lower bound on its score (``None``: none known)."""


def canonical(shape: Shape, current: int, mask: int) -> Tuple[int, int]:
    """The position or its mirror image, whichever has the book key (the smaller ``current + mask``)."""
    if mirror_key(shape, current + mask) < current + mask:
        return mirror_key(shape, current), mirror_key(shape, mask)
    return current, mask


def replies(shape: Shape, current: int, mask: int, column: int) -> List[Tuple[int, int]]:
    """The positions (canonical) after our move in ``column`` and each reply of the opponent that does
    not end the game; none where our move wins or fills the board."""
    move = shape.possible(mask) & shape.column_masks[column]
    mine, mask = current | move, mask | move
    if shape.has_four(mine) or mask == shape.full:
        return []
    found = []
    for reply in shape.column_masks:
        stone = shape.possible(mask) & reply
        if stone and not shape.has_four((mine ^ mask) | stone) and mask | stone != shape.full:
            found.append(canonical(shape, mine, mask | stone))
    return found


_worker_oracle: Optional[Oracle] = None


def _decide(task: Task, size: Size, table_bits: Optional[int], threads: int) -> Tuple[int, int, float, float, int]:
    """In a worker process: the exact score of a position and the column of a move that keeps it;
    the CPU seconds (all the process's threads), wall seconds and positions searched."""
    global _worker_oracle
    shape = shape_of(size)
    if _worker_oracle is None:
        _worker_oracle = Oracle(shape, table_bits=table_bits, threads=threads)  # no books
    oracle = _worker_oracle
    current, mask, moves, floor = task
    position = Position(current, mask, moves, shape)
    cpu, wall, budget = time.process_time(), time.monotonic(), Budget()
    if floor is not None and oracle.solver.at_most(position, floor, budget):
        score = floor  # the opponent's last move kept the score
    else:
        window = (floor + 1, shape.win_score(moves)) if floor is not None else None
        score = oracle.solver.score(position, budget, window=window)
    column = oracle.move_of_score(position, score, budget)
    return score, column, time.process_time() - cpu, time.monotonic() - wall, budget.nodes


def _worker(size: Size, table_bits: Optional[int], threads: int, tasks: "mp.Queue[Optional[Tuple[int, Task]]]",
            results: "mp.Queue[Tuple[int, int, Tuple[int, int, float, float, int]]]", index: int,
            parent: int) -> None:
    """Decides the tasks ``parent`` (the builder's pid, given by the builder: read here, it would already be
    init's if the builder died while this process was starting) hands it, until told to stop or orphaned."""
    if sys.platform.startswith("linux"):  # the builder killed (even by SIGKILL): this worker gets SIGTERM
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the builder died before the line above: no signal will come
        return
    while True:
        try:
            item = tasks.get(timeout=5)
        except queue.Empty:
            if os.getppid() != parent:  # the builder was killed: stop
                return
            continue
        if item is None:
            return
        key, task = item
        results.put((index, key, _decide(task, size, table_bits, threads)))


def read_decisions(path: Path) -> Dict[int, Tuple[int, int]]:
    """``{key: (score, column)}`` of a decisions file (``key score column`` lines; a cut last line is skipped)."""
    decided: Dict[int, Tuple[int, int]] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) == 3:
                decided[int(fields[0])] = (int(fields[1]), int(fields[2]))
    return decided


class Strategy:
    """The tree of a strategy book being built: which positions need a decision, given those made."""

    def __init__(self, shape: Shape, stones: int, decided: Dict[int, Tuple[int, int]]) -> None:
        self.shape, self.stones, self.decided = shape, stones, decided
        self.floor: Dict[int, Optional[int]] = {}  # key -> lower bound on the score
        self.position: Dict[int, Tuple[int, int, int]] = {}  # key -> current, mask, stones
        self.ready: Dict[int, int] = {}  # key -> stones: positions known to need a decision, not decided
        self.seen: Dict[int, List[int]] = {}  # stones -> keys of the tree's decision positions
        self.add(0, 0, 0, None)  # the first player's tree
        empty = Position(0, 0, 0, shape)
        for column in range(shape.width):  # the second player's: every first move
            after = empty.play(column)
            self.add(*canonical(shape, after.current, after.mask), 1, None)

    def add(self, current: int, mask: int, moves: int, floor: Optional[int]) -> None:
        """A position of the tree: decided already (its subtree is added) or ready to decide."""
        if moves > self.stones or self.shape.can_win_now(current, mask):
            return
        key = current + mask
        if key in self.position:  # a transposition: the larger bound holds
            old = self.floor[key]
            if floor is not None and (old is None or floor > old):
                self.floor[key] = floor
            return
        self.position[key] = (current, mask, moves)
        self.floor[key] = floor
        self.seen.setdefault(moves, []).append(key)
        if key in self.decided:
            self.grow(key)
        else:
            self.ready[key] = moves

    def grow(self, key: int) -> None:
        """Adds the positions after the decided move of ``key`` and every reply."""
        current, mask, moves = self.position[key]
        score, column = self.decided[key]
        for child in replies(self.shape, current, mask, column):
            self.add(*child, moves + 2, score)

    def decide(self, key: int, score: int, column: int) -> None:
        self.decided[key] = (score, column)
        self.ready.pop(key, None)
        self.grow(key)

    def task(self, key: int) -> Task:
        current, mask, moves = self.position[key]
        return current, mask, moves, self.floor[key]

    def records(self) -> List[Tuple[int, int, int]]:
        return [(key, *self.decided[key]) for keys in self.seen.values() for key in keys]


def build_strategy_book(size: Size, stones: int, out: Path, table_bits: Optional[int], jobs: int, threads: int,
                        log: Callable[[str], None]) -> int:
    """Decides every position of the strategy tree up to ``stones`` stones with ``jobs`` worker processes;
    resumable (``OUT.decisions``, kept after the book is written so that a deeper book goes on from it)."""
    shape = shape_of(size)
    journal = out.with_name(out.name + ".decisions")
    decided = read_decisions(journal)
    tree = Strategy(shape, stones, decided)
    log(f"{size}: strategy book to {stones} stones; {len(decided)} decisions made before, "
        f"{len(tree.ready)} positions ready to decide")
    context = mp.get_context("spawn")
    tasks = [context.Queue() for _ in range(jobs)]
    results = context.Queue()
    workers = [context.Process(target=_worker, args=(size, table_bits, threads, tasks[i], results, i, os.getpid()),
                               daemon=True)
               for i in range(jobs)]
    for worker in workers:
        worker.start()
    busy: Dict[int, int] = {}  # worker -> key
    affinity: Dict[int, int] = {}  # key -> the worker that decided its parent
    stats: Dict[int, List[float]] = {}  # stones -> CPU seconds of each decision
    started, last = time.monotonic(), 0.0

    def hand_out(index: int) -> None:
        free = {k: m for k, m in tree.ready.items() if k not in busy.values()}
        if not free:
            return
        lowest = min(free.values())
        layer = [k for k, m in free.items() if m == lowest]
        mine = [k for k in layer if affinity.get(k) == index]
        key = min(mine or layer)
        busy[index] = key
        tasks[index].put((key, tree.task(key)))

    def progress() -> None:
        layers = sorted(tree.seen)
        parts = []
        for moves in layers:
            keys = tree.seen[moves]
            done = sum(k in decided for k in keys)
            cpu = stats.get(moves, [])
            parts.append(f"{moves}: {done}/{len(keys)}" + (f" (CPU mean {sum(cpu) / len(cpu):.1f} s, "
                                                             f"max {max(cpu):.1f} s)" if cpu else ""))
        log("decided " + "; ".join(parts))

    with open(journal, "a") as f:
        for index in range(jobs):
            hand_out(index)
        while busy:
            try:
                index, key, (score, column, cpu, wall, nodes) = results.get(timeout=60)
            except queue.Empty:
                if not all(worker.is_alive() for worker in workers):
                    log("a worker died: stopping (run again to resume)")
                    return 1
                continue
            del busy[index]
            f.write(f"{key} {score} {column}\n")
            f.flush()
            moves = tree.position[key][2]
            stats.setdefault(moves, []).append(cpu)
            before = set(tree.ready)
            tree.decide(key, score, column)
            for child in set(tree.ready) - before:
                affinity[child] = index
            hand_out(index)
            for other in range(jobs):
                if other not in busy:
                    hand_out(other)
            now = time.monotonic()
            if now - last >= 60 or not busy:
                last = now
                progress()
    for queue_ in tasks:
        queue_.put(None)
    for worker in workers:
        worker.join(timeout=30)
    records = tree.records()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(strategy_encode(size, stones, records))
    cpu_all = sum(sum(v) for v in stats.values())
    log(f"wrote {out}: {len(records)} positions, {out.stat().st_size} bytes; this run: "
        f"{time.monotonic() - started:.0f} s, CPU {cpu_all:.0f} s in {sum(len(v) for v in stats.values())} decisions "
        f"(the decisions stay in {journal})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book12", type=Path, default=None, help="book_12ply_distances.dat")
    parser.add_argument("--board", default=None, metavar="COLSxROWS", help="another board size's book")
    parser.add_argument("--plies", type=int, default=4, help="with --board: stones of the deepest positions")
    parser.add_argument("--table-bits", type=int, default=None, help="with --board: the solver's table, 2**N entries")
    parser.add_argument("--out", type=Path, default=None, help="the book file (default: in the package's data)")
    parser.add_argument("--strategy", type=int, default=None, metavar="STONES",
                        help="with --board: a strategy book, perfect's moves up to STONES stones")
    parser.add_argument("--jobs", type=int, default=1, help="with --strategy: worker processes (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="with --strategy: each worker's solver threads")
    args = parser.parse_args()
    started = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - started:7.1f}s] {text}", flush=True)

    if args.board is not None:
        try:
            size = Size.parse(args.board)
        except BoardSizeError as exc:
            parser.error(str(exc))
        if (size.columns, size.rows) == (STANDARD.columns, STANDARD.rows):
            parser.error("7x6's book comes from the 12-ply book: leave out --board")
        if args.strategy is not None:
            if not 1 <= args.strategy <= 16 or not 1 <= args.jobs <= 64 or not 1 <= args.threads <= 64:
                parser.error("--strategy is 1 to 16 stones, --jobs and --threads 1 to 64")
            return build_strategy_book(size, args.strategy, args.out or strategy_path(size), args.table_bits,
                                       args.jobs, args.threads, log)
        if not 1 <= args.plies <= 12:
            parser.error("--plies is 1 to 12")
        return build_size_book(size, args.plies, args.out or book_path(size), args.table_bits, log)
    args.out = args.out or Path(__file__).resolve().parent.parent / OUTPUT
    path = args.book12 or default_path()
    if path is None or not path.is_file():
        print("make_book: the 12-ply book was not found: pip install bitbully-databases, or --book12 PATH",
              file=sys.stderr)
        return 1
    layers = [{canon(0, 0): (0, 0)}]
    for ply in range(11):
        layers.append(expand(layers[-1], ply))
        log(f"{ply + 1} stones: {len(layers[-1])} positions (up to mirror)")
    below = load_book12(path)
    log(f"12-ply book: {len(below)} positions")
    kept: Dict[int, Dict[int, int]] = {}
    for ply in range(11, -1, -1):
        below = score_layer(layers[ply], ply, below)
        layers.pop()
        if ply <= MAX_PLY:
            kept[ply] = below
        log(f"scored {ply} stones")
    log(f"empty board: {kept[0][canon(0, 0)]}")
    records = []
    for ply, scores in kept.items():
        for key, score in scores.items():
            p1, p2 = key >> 49, key & ((1 << 49) - 1)
            cur = p1 if ply % 2 == 0 else p2
            mask = p1 | p2
            if can_win_now(cur, mask):
                continue
            records.append((key24(p1, p2), score))
    records.sort()
    raw = b"".join(struct.pack(">I", k)[1:] + struct.pack(">b", s) for k, s in records)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(zlib.compress(raw, 9))
    log(f"wrote {args.out}: {len(records)} positions, {len(raw)} bytes, {args.out.stat().st_size} compressed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
