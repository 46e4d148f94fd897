"""The review's scores, labels and values on recorded games, against independent solvers:
``bitbully`` (Markus Thill's solver, a test dependency on Python 3.10+) on 7 x 6, a plain
minimax (every move, every reply, no pruning: ``test_engine_sizes.minimax``) on whole 4 x 4
and 5 x 4 games.

The labels are worked out here again from the other solver's scores, by the rules as docs/guide/review.md
states them, written independently of ``review.mark``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Mapping

import pytest

from ci_needs import require_bitbully
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.study import review
from sensehat_c4.records import Recorder, Records
from sensehat_c4.rules import Board
from engine_data import child_scores

ROOT = Path(__file__).resolve().parents[2]

GAMES_7X6 = [   # whole games the levels played on 7 x 6 (seeded), 23 to 42 moves
    "434455674554465566333336767711711721122",       # medium v medium
    "4344744673633212217741661367327622115555",      # medium v medium
    "4432444555676554351212223333217111777766",      # hard v perfect (hard blunders a won position)
    "4344574546435526666556122277177117221133",      # medium v hard
    "444444326555553672333226126673256177717111",    # hard v perfect: a draw, the board full
    "4444326555455674352222217111333377717166",      # hard v perfect
    "34444445732355357713576663517766",              # easy v medium
    "4554435564344757775112113331272",               # hard v medium
]
GAMES_4X4 = ["3242143223344111", "3223432142441311", "313224431", "3443133142222411", "3222234331144411"]
GAMES_5X4 = ["43335322515524121144", "5332441334222411", "33252133224541454", "4453144253233255",
             "33243443224125155511"]


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def expected_label(scores: Mapping[int, int], column: int) -> str:
    """The guide's rules (review.md), from scratch: what dropping from the best outcome to the played one is called."""
    best, played = max(scores.values()), scores[column]
    step = {(1, -1): "blunder", (1, 0): "mistake", (0, -1): "mistake"}.get((sign(best), sign(played)))
    if step:
        return step
    if played < best:
        return "inaccuracy"
    others = [s for c, s in scores.items() if c != column]
    return "only move" if others and all(sign(s) < sign(best) for s in others) else "best"


def recorded(tmp_path: Path, games: List[str], columns: int, rows: int) -> Path:
    """Every game recorded as a round of one match (seats alternate starting, as in play)."""
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), games, sides=(ANN, BOB), winner=None, columns=columns, rows=rows)
    return path


def compare(result: review.Review, other: Dict[str, Dict[int, int]]) -> Dict[str, int]:
    """Check every move of ``result`` against ``other`` (position -> every move's score); the labels seen."""
    seen: Dict[str, int] = {}
    board = Board(result.match.columns, result.match.rows)
    for move in result.moves:
        theirs = other[board.notation()]
        assert move.scores == theirs, (board.notation(), move.scores, theirs)
        label = expected_label(theirs, move.column)
        missed = sign(max(theirs.values())) == 1 and sign(theirs[move.column]) < 1
        assert (move.mark, move.missed_win) == (label, missed), board.notation()
        seen[label] = seen.get(label, 0) + 1
        seen["missed win"] = seen.get("missed win", 0) + missed
        board.play(move.column)
    # the values: each position's best for the player who started, then the last move's score
    board = Board(result.match.columns, result.match.rows)
    values = []
    for move in result.moves:
        best = max(other[board.notation()].values())
        values.append(best if board.ply % 2 == 0 else -best)
        board.play(move.column)
    last = result.moves[-1]
    values.append(last.score if last.ply % 2 == 1 else -last.score)
    assert result.values() == tuple(values)
    return seen


def bitbully_scores(games: List[str]) -> Dict[str, Dict[int, int]]:
    """bitbully's score of every move of every position of ``games`` (7 x 6): a plain search without
    its book from 11 stones on, its 12-ply book before (a search would take seconds there)."""
    require_bitbully("the independent solver the labels are checked against")
    from bitbully import BitBully, Board as BitBoard

    searching, booked = BitBully(None), BitBully()
    found: Dict[str, Dict[int, int]] = {}
    for moves in games:
        for stones in range(len(moves)):
            prefix = moves[:stones]
            position = BitBoard("".join(str(int(c) - 1) for c in prefix))
            agent = searching if stones >= 11 else booked
            found[prefix] = dict(agent.score_all_moves(position))
    return found


def test_labels_of_recorded_7x6_games_against_bitbully(tmp_path):
    other = bitbully_scores(GAMES_7X6)
    seen = reviewed_against(tmp_path, GAMES_7X6, 7, 6, other)
    assert sum(len(g) for g in GAMES_7X6) == 304
    assert seen == {"best": 203, "only move": 63, "inaccuracy": 15, "mistake": 21, "blunder": 2,
                    "missed win": 13}
    # and the command gives the same as JSON (the first round, in a process of its own)
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "review", "1", "--json", "--db",
                           str(tmp_path / "games.db")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    board = Board()
    for move in data["review"]:
        theirs = other[board.notation()]
        assert {int(c) - 1: s for c, s in move["scores"].items()} == theirs
        assert move["mark"] == expected_label(theirs, move["column"] - 1)
        board.play(move["column"] - 1)


def minimax_scores(games: List[str], columns: int, rows: int) -> Dict[str, Dict[int, int]]:
    memo: Dict = {}
    found = {}
    for moves in games:
        for stones in range(len(moves)):
            found[moves[:stones]] = child_scores(Board.from_moves(moves[:stones], columns, rows), memo)
    return found


def reviewed_against(tmp_path: Path, games: List[str], columns: int, rows: int,
                     other: Dict[str, Dict[int, int]]) -> Dict[str, int]:
    """Record ``games``, review each with the real engine and :func:`compare` it; the labels seen."""
    with Records(recorded(tmp_path, games, columns, rows)) as records:
        match = records.matches()[0]
    seen: Dict[str, int] = {}
    for rnd in match.rounds:
        for label, count in compare(review.review_round(match, rnd, seconds=60.0), other).items():
            seen[label] = seen.get(label, 0) + count
    assert sum(seen[k] for k in review.MARKS if k in seen) == sum(len(g) for g in games)
    return seen


def test_labels_of_whole_4x4_games_against_a_plain_minimax(tmp_path):
    seen = reviewed_against(tmp_path, GAMES_4X4, 4, 4, minimax_scores(GAMES_4X4, 4, 4))
    assert sum(len(g) for g in GAMES_4X4) == 73
    assert seen == {"best": 59, "only move": 9, "mistake": 5, "missed win": 1}


@pytest.mark.slow   # the plain minimax of the empty 5 x 4 board: 3.1 million positions, some 20 s and 0.6 GB
def test_labels_of_whole_5x4_games_against_a_plain_minimax(tmp_path):
    seen = reviewed_against(tmp_path, GAMES_5X4, 5, 4, minimax_scores(GAMES_5X4, 5, 4))
    assert sum(len(g) for g in GAMES_5X4) == 89
    assert seen == {"best": 48, "only move": 17, "inaccuracy": 6, "mistake": 15, "blunder": 3, "missed win": 8}
