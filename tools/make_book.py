#!/usr/bin/env python3
"""Build ``sensehat_c4/engine/data/book8.bin``: exact scores of every position with up to 8 stones.

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
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Dict, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sensehat_c4.engine.book12 import SHAPE, default_path, distance_to_score  # noqa: E402
from sensehat_c4.engine.openings import MAX_PLY, OUTPUT, key24  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book12", type=Path, default=None, help="book_12ply_distances.dat")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / OUTPUT)
    args = parser.parse_args()
    path = args.book12 or default_path()
    if path is None or not path.is_file():
        print("make_book: the 12-ply book was not found: pip install bitbully-databases, or --book12 PATH",
              file=sys.stderr)
        return 1
    started = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - started:7.1f}s] {text}", flush=True)

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
