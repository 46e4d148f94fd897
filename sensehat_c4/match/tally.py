"""A match's score and its round in play: the round's number, the seat that started it, its board,
and which seat is which of the board's players (the board's player 1 is the round's starter)."""
from __future__ import annotations

from typing import List, Optional

from ..rules import Board, Size


class Tally:
    """The score of a match of ``size`` boards that ``wins`` round wins take, and its round in play."""

    def __init__(self, size: Size, *, wins: int) -> None:
        self._size = size
        self.wins = wins
        self.score: List[int] = [0, 0]
        """Seat 1's and seat 2's round wins."""
        self.rounds = 0
        """The number of the round in play (from 1; 0 before the first)."""
        self.starter = 1
        """The seat that started the round in play."""
        self.board = size.board()

    def seat(self, board_player: int) -> int:
        """The seat (1 or 2) that is the board's player ``board_player`` this round."""
        return self.starter if board_player == 1 else 3 - self.starter

    def to_move(self) -> int:
        """The seat to move."""
        return self.seat(self.board.to_move)

    def start(self, number: int, starter: int, moves: str = "") -> None:
        """Round ``number``, started by seat ``starter``, from ``moves`` (solver notation; empty: its start)."""
        self.rounds, self.starter = number, starter
        self.board = self._size.board() if not moves else Board.from_moves(moves, self._size.columns, self._size.rows)

    def won(self) -> Optional[int]:
        """The board's winner's seat, its round win counted (``None``: no winner)."""
        outcome = self.board.outcome
        if outcome is None or outcome.winner is None:
            return None
        seat = self.seat(outcome.winner)
        self.score[seat - 1] += 1
        return seat
