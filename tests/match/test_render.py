"""Exact frames for known states."""
from dataclasses import replace

from frames import g, grid

from gamelib.colours import RED, YELLOW
from gamelib.palette import DEFAULT, GREEN_PINK, PALETTES, PURPLE_YELLOW
from sensehat_c4.match import render
from gamelib.backends.mock import MockBackend
from sensehat_c4.rules import Board

P = render.Palette()

EMPTY_CURSOR_3 = """
...R....
........
BBBBBBB.
BBBBBBB.
BBBBBBB.
BBBBBBB.
BBBBBBB.
BBBBBBB.
"""

POSITION_4453 = """
...R....
........
BBBBBBB.
BBBBBBB.
BBBBBBB.
BBBBBBB.
BBBYBBB.
BBYRRBB.
"""


def test_empty_board_with_cursor():
    assert grid(render.board_frame(Board(), P, cursor=3)) == g(EMPTY_CURSOR_3)


def test_position_and_cursor_colour_follow_the_player_to_move():
    assert grid(render.board_frame(Board.from_moves("4453"), P, cursor=3)) == g(POSITION_4453)
    frame = render.board_frame(Board.from_moves("445"), P, cursor=6)
    assert frame[6] == YELLOW and frame[7] == (0, 0, 0)
    assert grid(render.board_frame(Board.from_moves("4453"), render.Palette(YELLOW, RED))).splitlines()[7] \
        == "BBRYYBB."


def test_no_cursor_and_hidden_cells():
    frame = render.board_frame(Board.from_moves("4455667"), P, hide={(3, 0), (4, 0)})
    assert grid(frame).splitlines()[6:] == ["BBBYYYB.", "BBBBBRR."]


def test_falling_token_passes_the_gap_row_and_lands():
    board = Board.from_moves("44")
    board.play(3)
    steps = list(render.falling(board, 3, P, 0.03))
    assert [s for _, s in steps] == [0.03] * 6       # y = 0..5, landing on the third token
    rows = [grid(f).splitlines() for f, _ in steps]
    assert rows[0][0] == "...R...." and rows[0][1] == "........" and rows[0][5] == "BBBBBBB."
    assert rows[1][0] == "........" and rows[1][1] == "...R...."
    assert rows[2][2] == "BBBRBBB." and rows[2][1] == "........"
    assert rows[5][5] == "BBBRBBB." and rows[5][6] == "BBBYBBB." and rows[5][7] == "BBBRBBB."
    for r in rows[:5]:
        assert r[5] == "BBBBBBB."                     # the landing cell stays empty until it lands


def test_blink_flash_confirm():
    board = Board.from_moves("4455667")
    cells = board.outcome.cells
    steps = list(render.blink_cells(board, cells, P, 3, 0.25))
    assert len(steps) == 6
    assert grid(steps[0][0]).splitlines()[7] == "BBBBBBB." and grid(steps[1][0]).splitlines()[7] == "BBBRRRR."
    flash = list(render.flash_column(Board.from_moves("444444"), 3, P, RED, 2, 0.1))
    assert [grid(f).splitlines()[0] for f, _ in flash] == ["...W....", "...R...."] * 2
    assert all(row[3] == "W" for row in grid(flash[0][0]).splitlines())
    assert grid(render.confirm_frame(Board.from_moves("4"), P, True)).splitlines()[0] == "YYYYYYYY"
    assert grid(render.confirm_frame(Board.from_moves("4"), P, False)).splitlines()[0] == "........"


def test_the_winning_line_s_second_cue_seat_2_blinks_twice_as_often_with_a_colour_blind_palette():
    board = Board.from_moves("4455667")
    cells = board.outcome.cells
    steady = list(render.blink_cells(board, cells, P, 3, 0.25))
    assert list(render.win_blinks(board, cells, P, 1, 3, 0.25)) == steady      # the default palette: no cue,
    assert list(render.win_blinks(board, cells, P, 2, 3, 0.25)) == steady      # either seat
    cued = replace(P, cue=True)
    assert list(render.win_blinks(board, cells, cued, 1, 3, 0.25)) == steady   # seat 1: the steady blink
    fast = list(render.win_blinks(board, cells, cued, 2, 3, 0.25))
    assert [seconds for _, seconds in fast] == [0.125] * 12                  # seat 2: twice as often, as long in all
    assert [grid(f).splitlines()[7] for f, _ in fast] == ["BBBBBBB.", "BBBRRRR."] * 6
    assert fast[0][0] == steady[0][0] and fast[1][0] == steady[1][0]
    assert [PALETTES[name].cue for name in (DEFAULT, PURPLE_YELLOW, GREEN_PINK)] == [False, True, True]   # the
    # colour-blind palettes have it


def test_score_digit_and_fill():
    assert grid(render.digit_frame(1, RED, P)) == g("""
        ........
        ........
        ....R...
        ...RR...
        ....R...
        ....R...
        ...RRR..
        ........""")
    assert grid(render.digit_frame(2, YELLOW, P)) == g("""
        ........
        ........
        ...YY...
        .....Y..
        ....Y...
        ...Y....
        ...YYY..
        ........""")
    assert render.fill_frame(RED) == [RED] * 64


def test_rotation_applies_at_the_backend():
    board = Board.from_moves("4453")
    expected = {
        0: POSITION_4453,
        90: """
            BBBBBB..
            BBBBBB..
            YBBBBB..
            RYBBBB.R
            RBBBBB..
            BBBBBB..
            BBBBBB..
            ........""",
        180: """
            .BBRRYBB
            .BBBYBBB
            .BBBBBBB
            .BBBBBBB
            .BBBBBBB
            .BBBBBBB
            ........
            ....R...""",
        270: """
            ........
            ..BBBBBB
            ..BBBBBB
            ..BBBBBR
            R.BBBBYR
            ..BBBBBY
            ..BBBBBB
            ..BBBBBB""",
    }
    for rotation, text in expected.items():
        backend = MockBackend(rotation=rotation)
        backend.screen.show(render.board_frame(board, P, cursor=3))
        assert grid(backend.leds) == g(text), rotation
