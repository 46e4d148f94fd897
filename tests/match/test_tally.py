"""A match's score and its round in play on their own (sensehat_c4/match/tally.py)."""
from sensehat_c4.match.tally import Tally
from sensehat_c4.rules import Size


def test_the_round_s_starter_is_the_board_s_first_player_and_a_win_counts_for_its_seat():
    tally = Tally(Size(), wins=2)
    assert (tally.rounds, tally.starter, tally.score, tally.board.ply) == (0, 1, [0, 0], 0)
    tally.start(1, 2)
    assert (tally.seat(1), tally.seat(2), tally.to_move()) == (2, 1, 2)
    tally.board.play(3)
    assert tally.to_move() == 1
    assert tally.won() is None and tally.score == [0, 0]
    tally.start(2, 2, "4545454")              # the board's player 1 (seat 2, the starter) has won
    assert (tally.rounds, tally.board.ply) == (2, 7)
    assert tally.won() == 2 and tally.score == [0, 1]
    tally.start(3, 1, "4545454")
    assert tally.won() == 1 and tally.score == [1, 1]


def test_a_round_started_from_moves_keeps_the_board_s_size():
    tally = Tally(Size(columns=6, rows=5), wins=1)
    tally.start(4, 1, "11")
    assert (tally.board.columns, tally.board.rows, tally.board.ply, tally.to_move()) == (6, 5, 2, 1)
    tally.start(5, 2)
    assert (tally.board.columns, tally.board.ply, tally.wins) == (6, 0, 1)
