"""What a match writes in the records, on its own (sensehat_c4/match/bookkeeping.py): the calls its
recorder gets, the match's winner when a move decides it, the helps' counts kept only for a round with a row."""
from sensehat_c4.match.bookkeeping import Bookkeeper
from sensehat_c4.records import RoundFacts, Side
from sensehat_c4.rules import Board, Starts


class Calls:
    """A recorder that notes each call (its number: 7 once a match started)."""

    def __init__(self):
        self.calls, self.number = [], None

    def start_match(self, sides, **how):
        self.calls.append(("start_match", sides, how))
        self.number = 7

    def start_round(self):
        self.calls.append(("start_round",))

    def played(self, number, starter, board, match_winner=None, facts=None):
        self.calls.append(("played", number, starter, board.notation(), match_winner, facts))

    def end_match(self, winner):
        self.calls.append(("end_match", winner))


FACTS = RoundFacts(level="easy", hints=1, takebacks=0)


def test_a_move_that_wins_the_match_names_its_seat_and_one_that_wins_a_round_none():
    calls, facts = Calls(), [FACTS]
    book = Bookkeeper(calls, wins=2, facts=lambda: facts[0])
    assert book.number is None
    sides = (Side((1, 2, 3), name="Ann"), Side((4, 5, 6), level="easy"))
    book.start(sides, columns=7, rows=6, backend="mock", starts=Starts.P2)
    book.start_round()
    won = Board.from_moves("4545454")          # the board's player 1 wins
    book.moved(3, 2, won, [0, 1])              # started by seat 2: seat 2 wins its second round
    book.moved(3, 1, won, [0, 1])              # started by seat 1: seat 1's first round win
    book.moved(3, 1, Board.from_moves("45"), [1, 1])
    book.end(2)
    assert book.number == 7
    assert calls.calls == [
        ("start_match", sides, dict(columns=7, rows=6, backend="mock", starts=Starts.P2, wins=2)),
        ("start_round",),
        ("played", 3, 2, "4545454", 2, FACTS),
        ("played", 3, 1, "4545454", None, FACTS),
        ("played", 3, 1, "45", None, FACTS),
        ("end_match", 2)]


def test_helps_are_kept_for_a_round_with_a_move_or_a_take_back_only_and_nothing_without_a_recorder():
    calls, facts = Calls(), [FACTS]
    book = Bookkeeper(calls, wins=2, facts=lambda: facts[0])
    book.helped(1, 1, Board())                 # a hint before the first move: no row yet
    facts[0] = RoundFacts(level="easy", hints=1, takebacks=1)
    book.helped(1, 1, Board())                 # a take-back undid every move: its row keeps the count
    book.helped(1, 1, Board.from_moves("4"))
    assert calls.calls == [("played", 1, 1, "", None, facts[0]), ("played", 1, 1, "4", None, facts[0])]
    none = Bookkeeper(None, wins=2, facts=lambda: FACTS)
    none.start((Side((0, 0, 0)), Side((0, 0, 0))), columns=7, rows=6, backend="mock", starts=Starts.P1)
    none.start_round()
    none.moved(1, 1, Board.from_moves("4"), [0, 0])
    none.helped(1, 1, Board.from_moves("4"))
    none.end(None)
    assert none.number is None
