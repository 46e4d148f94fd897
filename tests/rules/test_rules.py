"""The rules core, pinned by known positions and by a naive reference over random games."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sensehat_c4.errors import IllegalMoveError, MoveListError
from sensehat_c4.rules import Board, Outcome

DRAW = "455714637617614767242476316455122212535333"


# (moves, winner or None for ongoing/draw, is_over, winning cells as 0-based (col, row))
KNOWN = [
    ("", None, False, set()),
    ("4453", None, False, set()),
    ("4455667", 1, True, {(3, 0), (4, 0), (5, 0), (6, 0)}),              # horizontal
    ("1212121", 1, True, {(0, 0), (0, 1), (0, 2), (0, 3)}),              # vertical
    ("1223343447", None, False, set()),                                   # three on a diagonal
    ("12233434474", 1, True, {(0, 0), (1, 1), (2, 2), (3, 3)}),           # diagonal /
    ("76655454414", 1, True, {(6, 0), (5, 1), (4, 2), (3, 3)}),           # diagonal \
    ("12121232", 2, True, {(1, 0), (1, 1), (1, 2), (1, 3)}),              # player 2 vertical
    ("112233554", 1, True, {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)}),    # a run of five
    (DRAW, None, True, set()),                                            # full board, no four
]


@pytest.mark.parametrize("moves, winner, over, cells", KNOWN)
def test_known_positions(moves, winner, over, cells):
    board = Board.from_moves(moves)
    assert board.is_over is over
    if not over:
        assert board.outcome is None
    elif winner is None:
        assert board.outcome == Outcome(None)
        assert board.outcome.is_draw
    else:
        assert board.outcome == Outcome(winner, frozenset(cells))
    assert board.notation() == moves


def test_two_lines_at_once_are_one_win_with_every_cell():
    # X's last stone, at (4, 1), completes row 1 (columns 1-4) and a \ diagonal from (2, 3).
    board = Board.from_moves("313332244366432544")
    assert board.outcome is None
    board.play(4)
    assert board.outcome.winner == 1
    assert board.outcome.cells == {(1, 1), (2, 1), (3, 1), (4, 1), (2, 3), (3, 2), (5, 0)}


def test_text_and_turn():
    board = Board.from_moves("4453")
    assert str(board) == "\n".join([".......", ".......", ".......", ".......", "...O...", "..OXX.."])
    assert board.to_move == 1
    assert board.legal_moves() == [0, 1, 2, 3, 4, 5, 6]
    assert board.height(3) == 2 and board.cell(3, 1) == 2 and board.cell(2, 0) == 2 and board.cell(0, 0) == 0


@pytest.mark.parametrize("moves, position, char, reason", [
    ("448", 3, "8", "not a column: use digits 1-7"),
    ("0", 1, "0", "not a column: use digits 1-7"),
    ("44 5", 3, " ", "not a column: use digits 1-7"),
    ("4444444", 7, "4", "column 4 is full"),
    ("44556671", 8, "1", "the game is already over"),
])
def test_move_list_errors_name_the_position(moves, position, char, reason):
    with pytest.raises(MoveListError) as info:
        Board.from_moves(moves)
    assert (info.value.position, info.value.move, info.value.reason) == (position, char, reason)
    assert str(info.value) == f"move {position} ({char!r}): {reason}"
    assert isinstance(info.value, ValueError)


def test_play_checks_and_push_pop_undo():
    board = Board.from_moves("444444")
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        board.play(3)
    with pytest.raises(IllegalMoveError, match="not on the board"):
        board.play(7)
    before = board.copy()
    board.push(0)
    assert board != before and board.ply == 7
    assert board.pop() == 0
    assert board == before and board.notation() == "444444"
    won = Board.from_moves("4455667")
    with pytest.raises(IllegalMoveError, match="already over"):
        won.play(0)
    assert won.legal_moves() == []
    assert won.pop() == 6 and won.outcome is None and won.legal_moves() == list(range(7))


def test_copy_is_independent():
    board = Board.from_moves("44")
    other = board.copy()
    other.play(0)
    assert board.notation() == "44" and other.notation() == "441"


def test_other_sizes():
    board = Board(columns=5, rows=4)
    assert board.legal_moves() == [0, 1, 2, 3, 4]
    small = Board.from_moves("1212121", columns=5, rows=4)
    assert small.outcome.winner == 1
    with pytest.raises(MoveListError, match="use digits 1-5"):
        Board.from_moves("6", columns=5, rows=4)
    full = Board.from_moves("1111", columns=5, rows=4)
    assert full.legal_moves() == [1, 2, 3, 4]


# -- a naive reference: a 2D grid and a scan of every line ---------------------------------

class Reference:
    def __init__(self, columns=7, rows=6):
        self.columns, self.rows = columns, rows
        self.grid = [[0] * rows for _ in range(columns)]
        self.ply = 0
        self.winner = None

    def legal(self):
        if self.winner or self.ply == self.columns * self.rows:
            return []
        return [c for c in range(self.columns) if self.grid[c][self.rows - 1] == 0]

    def play(self, column):
        row = self.grid[column].index(0)
        player = 1 + self.ply % 2
        self.grid[column][row] = player
        self.ply += 1
        if self.cells_of(player):
            self.winner = player

    def cells_of(self, player):
        cells = set()
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    line = [(c + k * dc, r + k * dr) for k in range(4)]
                    if all(0 <= x < self.columns and 0 <= y < self.rows and self.grid[x][y] == player
                           for x, y in line):
                        cells.update(line)
        return cells


SIZES = [(c, r) for c in range(4, 9) for r in range(4, 7)]


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(SIZES), st.lists(st.integers(min_value=0, max_value=7), min_size=0, max_size=60))
def test_matches_reference_over_random_games(size, choices):
    """Every size the game offers (4-8 columns by 4-6 rows), against the naive scan."""
    columns, rows = size
    board, ref = Board(columns, rows), Reference(columns, rows)
    for choice in choices:
        legal = ref.legal()
        assert board.legal_moves() == legal
        if not legal:
            break
        column = legal[choice % len(legal)]
        board.play(column)
        ref.play(column)
        assert [[board.cell(c, r) for r in range(rows)] for c in range(columns)] == ref.grid
        outcome = board.outcome
        if ref.winner:
            assert outcome == Outcome(ref.winner, frozenset(ref.cells_of(ref.winner)))
        elif ref.ply == columns * rows:
            assert outcome == Outcome(None)
        else:
            assert outcome is None
    # undo everything: back to the empty board
    while board.ply:
        board.pop()
    assert board == Board(columns, rows) and board.bitboards == (0, 0)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIZES), st.lists(st.integers(min_value=0, max_value=7), min_size=0, max_size=48))
def test_a_board_s_repr_makes_the_same_board_on_every_size(size, choices):
    columns, rows = size
    board = Board(columns, rows)
    for choice in choices:
        legal = board.legal_moves()
        if not legal:
            break
        board.play(legal[choice % len(legal)])
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.size == board.size and again.notation() == board.notation()


def test_a_board_s_repr_names_its_size_only_when_it_is_not_the_classic_one():
    assert repr(Board.from_moves("44")) == "Board.from_moves('44')"
    assert repr(Board.from_moves("8", 8, 6)) == "Board.from_moves('8', 8, 6)"
