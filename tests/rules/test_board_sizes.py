"""Every board size (4-8 columns by 4-6 rows): the rules, the LEDs and whole rounds on the mock.

Frames are exact.  The field sits on the bottom row and is centred across, rounded
to the left (see render.py), so the cursor always starts at x=3.
"""
import json
import re

import pytest
from frames import frame, g, grid

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, RED
from gamelib.games import Choices, Entry, as_game
from gamelib.launcher.menu import Launcher, LauncherOptions
from gamelib.launcher.settings import Settings, SettingsFile
from gamelib.palette import palette as default_palette
from sensehat_c4 import cli
from sensehat_c4.match import render
from sensehat_c4 import game as c4
from sensehat_c4.match.chooser import LAN_INDEX, MATCH_ME_INDEX, RULES_INDEX, choice_frame, choose_size, size_frame
from sensehat_c4.match.opponents import HUMAN, OPPONENTS, Opponent, opponents_for
from sensehat_c4.engine.levels import PERFECT_SIZES
from sensehat_c4.engine.rungs import number
from sensehat_c4.match.controller import MatchOptions, MatchResult, play, start_column
from sensehat_c4.errors import BoardSizeError, ConfigError, MoveListError
from sensehat_c4.game import play_matches
from sensehat_c4.rules import SIZES, Board, Outcome, Size
from scripted import DRAW_6X5, DRAW_8X6

P = render.Palette()


@pytest.fixture(autouse=True)
def python_core_offer(monkeypatch):
    """The sizes perfect is offered on depend on the solver core that runs; these tests take the
    Python core's (the last one switches to the native core's)."""
    from sensehat_c4.engine import cores
    monkeypatch.setattr(cores, "core_name", lambda: "python")


DRAW_4X4 = "4343242113312142"

# -- sizes and the rules core --------------------------------------------------------


@pytest.mark.parametrize("text, size", [
    ("7x6", Size(7, 6)), ("6x5", Size(6, 5)), ("8X6", Size(8, 6)), (" 4x4 ", Size(4, 4)), ("5x6", Size(5, 6)),
])
def test_sizes_parse(text, size):
    assert Size.parse(text) == size
    assert str(size) == f"{size.columns}x{size.rows}"


@pytest.mark.parametrize("text, message", [
    ("9x6", "board 9x6 is not offered: boards have 4-8 columns and 4-6 rows (e.g. 6x5)"),
    ("7x7", "board 7x7 is not offered: boards have 4-8 columns and 4-6 rows (e.g. 6x5)"),
    ("3x4", "board 3x4 is not offered: boards have 4-8 columns and 4-6 rows (e.g. 6x5)"),
    ("6by5", "board size '6by5' is not COLUMNSxROWS (e.g. 7x6 or 6x5)"),
    ("6x", "board size '6x' is not COLUMNSxROWS (e.g. 7x6 or 6x5)"),
    ("-6x5", "board size '-6x5' is not COLUMNSxROWS (e.g. 7x6 or 6x5)"),
])
def test_bad_sizes_are_refused(text, message):
    with pytest.raises(BoardSizeError) as info:
        Size.parse(text)
    assert str(info.value) == message
    assert isinstance(info.value, ConfigError) and isinstance(info.value, ValueError)


def test_the_default_size_is_seven_by_six():
    assert Size() == Size(7, 6) and Size().board() == Board()


@pytest.mark.parametrize("size, moves, winner, cells", [
    (Size(6, 5), "3434343", 1, {(2, 0), (2, 1), (2, 2), (2, 3)}),                 # vertical
    (Size(8, 6), "5566778", 1, {(4, 0), (5, 0), (6, 0), (7, 0)}),                 # horizontal, last column
    (Size(4, 4), "12233434144", 1, {(0, 0), (1, 1), (2, 2), (3, 3)}),              # diagonal / corner to corner
    (Size(5, 4), "54433232122", 1, {(4, 0), (3, 1), (2, 2), (1, 3)}),              # diagonal \
    (Size(8, 4), "1818181", 1, {(0, 0), (0, 1), (0, 2), (0, 3)}),                 # vertical up to the top row
])
def test_wins_on_other_sizes(size, moves, winner, cells):
    board = size.from_moves(moves)
    assert board.outcome == Outcome(winner, frozenset(cells))


@pytest.mark.parametrize("size, moves", [(Size(6, 5), DRAW_6X5), (Size(8, 6), DRAW_8X6), (Size(4, 4), DRAW_4X4)])
def test_a_full_board_without_four_is_a_draw(size, moves):
    board = size.from_moves(moves)
    assert board.outcome == Outcome(None) and board.legal_moves() == [] and board.ply == size.columns * size.rows


@pytest.mark.parametrize("size, moves, message", [
    (Size(6, 5), "447", "move 3 ('7'): not a column: use digits 1-6"),
    (Size(4, 4), "11111", "move 5 ('1'): column 1 is full"),
    (Size(8, 6), "19", "move 2 ('9'): not a column: use digits 1-8"),
    (Size(6, 5), "34343434", "move 8 ('4'): the game is already over"),
])
def test_move_lists_that_do_not_fit(size, moves, message):
    with pytest.raises(MoveListError) as info:
        size.from_moves(moves)
    assert str(info.value) == message


def test_eight_columns_take_the_digit_eight():
    assert Board.from_moves("8", 8, 6).cell(7, 0) == 1
    assert str(Board.from_moves("18", 8, 4)) == "\n".join(["........"] * 3 + ["X......O"])


# -- the LEDs -------------------------------------------------------------------------

EMPTY = {
    Size(6, 5): """
        ...R....
        ........
        ........
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.""",
    Size(8, 6): """
        ...R....
        ........
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB""",
    Size(4, 4): """
        ...R....
        ........
        ........
        ........
        ..BBBB..
        ..BBBB..
        ..BBBB..
        ..BBBB..""",
    Size(5, 6): """
        ...R....
        ........
        .BBBBB..
        .BBBBB..
        .BBBBB..
        .BBBBB..
        .BBBBB..
        .BBBBB..""",
    Size(7, 4): """
        ...R....
        ........
        ........
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.""",
}


@pytest.mark.parametrize("size", list(EMPTY))
def test_empty_fields_sit_on_the_bottom_row_centred_with_the_cursor_at_x3(size):
    board = size.board()
    assert grid(render.board_frame(board, P, cursor=start_column(board))) == g(EMPTY[size])


def test_a_position_on_six_by_five_and_its_falling_token():
    board = Size(6, 5).from_moves("3434")
    board.play(4)
    assert grid(render.board_frame(board, P, cursor=0)) == g("""
        .Y......
        ........
        ........
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.
        .BBRYBB.
        .BBRYRB.""")
    steps = list(render.falling(board, 4, P, 0.02))
    ys = [next(y for y, row in enumerate(grid(f).splitlines()) if row[5] == "R") for f, _ in steps]
    assert ys == [0, 1, 2, 3, 4, 5, 6, 7] and [s for _, s in steps] == [0.02] * 8


def test_flash_and_thinking_follow_the_columns_on_the_matrix():
    board = Size(4, 4).from_moves("1111")
    flash = [grid(f).splitlines() for f, _ in render.flash_column(board, 0, P, RED, 1, 0.1)]
    assert [row[2] for row in flash[0]] == ["W"] * 8 and flash[1][0] == "..R....."
    sweep = [grid(render.thinking_frame(Size(4, 4).board(), P, tick)).splitlines()[0] for tick in range(7)]
    assert sweep == ["..R.....", "...R....", "....R...", ".....R..", "....R...", "...R....", "..R....."]


# -- whole rounds on the mock --------------------------------------------------------

SETTLE = 0.5           # longer than any fall (8 rows x 30 ms)
ROUND_SETTLE = 4.0     # longer than blink (1.5 s) + score (1.5 s)


def steer(mock: MockBackend, size: Size, text: str, settle: float = SETTLE) -> None:
    """Script moves (1-based columns) as a player steers the cursor from its start."""
    start = (size.columns - 1) // 2
    for char in text:
        steps = int(char) - 1 - start
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
        mock.wait_until(mock._cursor + settle)


def screen_at(mock, when):
    return grid([f for t, f in mock.frames if t <= when][-1])


def cursor_xs(mock):
    rows = [grid(f).splitlines()[0] for _, f in mock.frames]
    return [row.index("R") for row in rows if row.count("R") == 1]


@pytest.mark.parametrize("size, lefts, rights, xs", [
    (Size(6, 5), 4, 2, [3, 2, 1, 6, 5, 6, 1]),          # columns 2, 1, 0, 5, 4, 5, 0
    (Size(8, 6), 4, 2, [3, 2, 1, 0, 7, 0, 1]),          # columns 3, 2, 1, 0, 7, 0, 1
    (Size(4, 4), 3, 2, [3, 2, 5, 4, 5, 2]),             # columns 1, 0, 3, 2, 3, 0
])
def test_the_cursor_starts_centred_and_wraps_over_the_board(size, lefts, rights, xs):
    mock = MockBackend()
    mock.tap(*["left"] * lefts, *["right"] * rights, "up", "up")
    assert play(mock, MatchOptions(size=size)).abandoned
    assert cursor_xs(mock) == xs
    assert grid(mock.frames[0][1]) == g(EMPTY[size])


def test_a_win_on_six_by_five():
    mock = MockBackend()
    steer(mock, Size(6, 5), "3434343")
    won = mock._cursor - SETTLE
    mock.tap("up", "up", at=won + ROUND_SETTLE)
    result = play(mock, MatchOptions(size=Size(6, 5)))
    assert result == MatchResult(None, (1, 0), True, 2)
    full = """
        ........
        ........
        ........
        .BBBBBB.
        .BBRBBB.
        .BBRYBB.
        .BBRYBB.
        .BBRYBB."""
    blinked = full.replace(".BBR", ".BBB")
    shown = [grid(f) for _, f in mock.frames]
    start = shown.index(g(blinked))
    assert shown[start - 1:start + 6] == [g(full)] + [g(blinked), g(full)] * 3
    assert screen_at(mock, won + ROUND_SETTLE - 0.01) == g(EMPTY[Size(6, 5)].replace("R", "Y"))  # p2 starts


def test_a_win_on_eight_by_six_in_the_last_column():
    mock = MockBackend()
    steer(mock, Size(8, 6), "5566778")
    mock.tap("up", "up", at=mock._cursor + ROUND_SETTLE)
    result = play(mock, MatchOptions(size=Size(8, 6)))
    assert result == MatchResult(None, (1, 0), True, 2)
    won = """
        ........
        ........
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBBBBB
        BBBBYYYB
        BBBBRRRR"""
    blinked = won.replace("BBBBRRRR", "BBBBBBBB")
    shown = [grid(f) for _, f in mock.frames]
    start = shown.index(g(blinked))
    assert shown[start - 1:start + 6] == [g(won)] + [g(blinked), g(won)] * 3


@pytest.mark.parametrize("size, moves, picture", [
    (Size(6, 5), DRAW_6X5, """
        ........
        ........
        ........
        .RRRYYY.
        .YYYRYR.
        .RRRYYR.
        .YYRYRY.
        .YRRRYR."""),
    (Size(8, 6), DRAW_8X6, """
        ........
        ........
        RRYRRYYR
        YYRRYRRY
        RRYYRRYR
        YYRRYYYR
        YRYRRRYR
        YYYRYYRY"""),
])
def test_a_draw_on_a_full_board(size, moves, picture):
    mock = MockBackend()
    steer(mock, size, moves, settle=0.35)
    end = mock._cursor
    mock.tap("up", "up", at=end + 2.0)
    result = play(mock, MatchOptions(size=size))
    assert result == MatchResult(None, (0, 0), True, 2)
    assert screen_at(mock, end) == g(picture)
    assert screen_at(mock, end + 1.0) == g(picture)                       # it stays up 1.5 s
    assert screen_at(mock, end + 1.99) == g(EMPTY[size].replace("R", "Y"))   # round 2: p2 starts


# -- the command line ------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyse_on_six_by_five(capsys):
    code, out, err = run(capsys, "analyse", "4453", "--board", "6x5")
    assert (code, err) == (0, "")
    assert out == "\n".join(["......", "......", "......", "...O..", "..OXX.", "123456", "moves: 4453",
                             "to move: player 1 (X)", "outcome: ongoing", "legal: 1 2 3 4 5 6", ""])
    code, out, _ = run(capsys, "analyse", "5566778", "--board", "8x6", "--json")
    assert code == 0 and json.loads(out) == {
        "moves": "5566778", "board": "8x6", "to_move": None, "outcome": "win", "winner": 1,
        "winning_cells": [[5, 1], [6, 1], [7, 1], [8, 1]], "legal": []}
    code, out, _ = run(capsys, "analyse", DRAW_8X6, "--board", "8x6")
    assert out.splitlines()[6:8] == ["12345678", f"moves: {DRAW_8X6}"]
    assert out.splitlines()[-1] == "outcome: draw (the board is full)"


@pytest.mark.parametrize("argv, message", [
    (["analyse", "447", "--board", "6x5"], "sensehat-c4 analyse: move 3 ('7'): not a column: use digits 1-6\n"),
    (["analyse", "11111", "--board", "4x4"], "sensehat-c4 analyse: move 5 ('1'): column 1 is full\n"),
    (["analyse", "--board", "9x6"], "sensehat-c4 analyse: error: argument --board: board 9x6 is not offered: "
                                    "boards have 4-8 columns and 4-6 rows (e.g. 6x5) (see --help)\n"),
    (["--board", "7x7"], "sensehat-c4: error: argument --board: board 7x7 is not offered: "
                         "boards have 4-8 columns and 4-6 rows (e.g. 6x5) (see --help)\n"),
    (["--board", "big"], "sensehat-c4: error: argument --board: board size 'big' is not COLUMNSxROWS "
                         "(e.g. 7x6 or 6x5) (see --help)\n"),
])
def test_bad_sizes_and_move_lists_that_do_not_fit_are_one_line_exit_2(capsys, argv, message):
    try:
        code = cli.main(argv)
    except SystemExit as exc:     # argparse's errors leave through SystemExit
        code = exc.code
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", message)


# -- choosing the size on the LEDs, and the launcher remembering it ---------------------

def test_the_size_chooser_shows_each_field_under_a_white_lid():
    assert grid(size_frame(Size(6, 5), default_palette())) == g("""
        .WWWWWW.
        ........
        ........
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.
        .BBBBBB.""")
    assert grid(size_frame(Size(4, 4), default_palette())).splitlines()[0] == "..WWWW.."
    assert SIZES[0] == Size(4, 4) and SIZES[-1] == Size(8, 6) and len(SIZES) == 15


def test_the_size_is_chosen_after_the_opponent_and_up_goes_back_to_the_opponent():
    mock = MockBackend()
    mock.tap("middle", "right", "up")              # 2P; 7x6 -> 8x6; up: back to the opponent
    mock.tap("middle", "left", "left", "middle")   # 2P again; the chooser starts at 7x6: 6x6, 5x6; chosen
    mock.tap("up", "up", at=10)
    reports = []
    assert play_matches(mock, matches=1, report=lambda *r: reports.append(r)) == 1
    shown = [f for _, f in mock.frames]
    black = (BLACK,) * 64
    assert shown[:12] == [tuple(choice_frame(0, default_palette())), black, tuple(size_frame(Size(7, 6), default_palette())),
                          tuple(size_frame(Size(8, 6), default_palette())), black, tuple(choice_frame(0, default_palette())), black,
                          tuple(size_frame(Size(7, 6), default_palette())), tuple(size_frame(Size(6, 6), default_palette())),
                          tuple(size_frame(Size(5, 6), default_palette())), black, tuple(frame(EMPTY[Size(5, 6)]))]


def test_the_size_chooser_starts_from_the_last_size_and_tells_who_remembers_it():
    mock = MockBackend()
    mock.tap("middle", "right", "right", "middle", "up", "up")     # 2P; 8x6, then 4x4 (wraps); abandon
    mock.tap("middle", "middle", "up", "up", at=10)                # 2P; 4x4 again (where it starts)
    told = []
    assert play_matches(mock, matches=2, default_size=Size(7, 6), chosen_size=told.append) == 2
    assert told == [Size(4, 4), Size(4, 4)]
    assert tuple(frame(EMPTY[Size(4, 4)])) in [f for t, f in mock.frames if t > 10]


def test_perfect_is_offered_only_on_its_sizes():
    assert Opponent.computer("perfect").sizes() == PERFECT_SIZES and Opponent.computer("steady").sizes() == SIZES
    big = next(size for size in SIZES if size not in PERFECT_SIZES)
    offered = tuple(o.name for o in opponents_for(big))
    assert big == Size(7, 4) and offered[0] == "human" and offered[-1] == "match-me" and "perfect" not in offered
    assert {"easy", "casual", "steady", "medium"} <= set(offered) and not {"tough", "expert"} & set(offered)
    assert opponents_for(Size()) == OPPONENTS
    top = offered[-2]                                          # the highest level offered there (medium)
    # a fixed size that perfect (and the levels above medium, with this core) do not play: the chooser skips them
    mock = MockBackend()
    mock.tap("left", "left", "left", "left", "middle", "middle", "up", "up")  # 2P <- ? <- LAN <- M <- top; no helps
    mock.tap("up", "up", at=30)
    reports = []
    play_matches(mock, MatchOptions(size=big), size=big, matches=1, report=lambda *r: reports.append(r))
    assert [f for _, f in mock.frames][:5] == [tuple(choice_frame(0, default_palette())), tuple(choice_frame(RULES_INDEX, default_palette())),
                                               tuple(choice_frame(LAN_INDEX, default_palette())), tuple(choice_frame(MATCH_ME_INDEX, default_palette())),
                                               tuple(choice_frame(number(top), default_palette()))]
    assert reports[0][1].level == top


def test_the_command_refuses_perfect_on_a_size_it_does_not_play(capsys):
    big = next(size for size in SIZES if size not in PERFECT_SIZES)
    offered = " ".join(str(size) for size in PERFECT_SIZES)
    with pytest.raises(SystemExit) as info:
        cli.main(["--opponent", "perfect", "--board", str(big)])
    assert info.value.code == 2
    assert capsys.readouterr().err == (f"sensehat-c4: error: --opponent perfect plays on the boards {offered} "
                                       f"only (not {big}) (see --help)\n")


def test_the_launcher_remembers_the_size_in_its_settings(tmp_path):
    store = SettingsFile(tmp_path / "settings.json")
    entry = Entry("connect4", game=as_game(c4.GAME))
    for script, size in ((("middle", "right", "middle"), Size(8, 6)),   # 2P; 7x6 -> 8x6
                         (("middle", "middle"), Size(8, 6))):           # next time it starts at 8x6
        mock = MockBackend()
        mock.tap("middle", *script)                                     # launch, ...
        mock.tap("up", "up")                                            # abandon
        mock.hold("up", 2.1)                                            # then quit from the system menu
        mock.tap("right", "right", "middle")
        Launcher(mock, [entry], LauncherOptions(dim_after=0, blank_after=0),
                 settings=store.load(), store=store).run()
        assert tuple(frame(EMPTY[size])) in [f for _, f in mock.frames]
        assert json.loads(store.path.read_text())["games"] == {"connect4": {"board": "8x6"}}


@pytest.mark.parametrize("games, message", [
    ([], "games must map game names to objects (not [])"),
    ({"connect4": "6x5"}, "games must map game names to objects (not {'connect4': '6x5'})"),
    ({"connect4": {"board": 65}}, "games: 'connect4' must map names to short strings (not {'board': 65})"),
    ({"connect4": {"board": "x" * 65}}, "games: 'connect4' must map names to short strings"),
])
def test_bad_remembered_choices_make_a_corrupt_settings_file(games, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        Settings.from_json({"games": games})


def test_a_remembered_size_that_is_not_offered_falls_back_to_seven_by_six():
    mock = MockBackend()
    mock.tap("middle", "middle", "up", "up")
    c4.play(mock, Choices({"board": "9x9"}))
    assert tuple(size_frame(Size(7, 6), default_palette())) in [f for _, f in mock.frames]


def test_analyse_solves_other_sizes_and_names_the_one_it_cannot(capsys):
    from engine_data import child_scores

    board = Size(4, 4).from_moves("3434")
    expected = child_scores(board, {})
    code, out, err = run(capsys, "analyse", "3434", "--board", "4x4", "--solve", "--json")
    assert (code, err) == (0, "")
    info = json.loads(out)
    assert info["scores"] == {str(c + 1): s for c, s in expected.items()}
    assert info["best"] == 1 + min(c for c, s in expected.items() if s == max(expected.values()))
    # 8x6, the largest board (56 bits), as an independent solver scores it (tests/data/sizes_8x6.scores)
    from engine_data import scored

    moves, score, _ = next(row for row in scored("8x6") if len(row[0]) == 30)
    code, out, err = run(capsys, "analyse", moves[:-1], "--board", "8x6", "--solve", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"][moves[-1]] == -score


def test_a_size_perfect_does_not_play_starts_its_chooser_at_seven_by_six():
    mock = MockBackend()
    mock.tap("left", "middle")
    assert choose_size(mock, PERFECT_SIZES, Size(6, 5)) == PERFECT_SIZES[-2]
    assert [f for _, f in mock.frames][:2] == [tuple(size_frame(Size(7, 6), default_palette())), tuple(size_frame(PERFECT_SIZES[-2], default_palette()))]


def test_with_the_native_core_perfect_is_offered_on_more_sizes(monkeypatch, capsys):
    from sensehat_c4.engine import cores
    from sensehat_c4.engine.levels import NATIVE_PERFECT_SIZES

    assert Opponent.computer("perfect").sizes() == PERFECT_SIZES                    # the Python core runs here
    monkeypatch.setattr(cores, "core_name", lambda: "native")
    assert Opponent.computer("perfect").sizes() == NATIVE_PERFECT_SIZES
    assert {Size(6, 5), Size(5, 5), Size(7, 5), Size(6, 6)} <= set(NATIVE_PERFECT_SIZES)
    assert Opponent.computer("perfect") in opponents_for(Size(6, 5)) and Opponent.computer("perfect") not in opponents_for(Size(8, 6))
    with pytest.raises(SystemExit) as info:
        cli.main(["--opponent", "perfect", "--board", "8x6"])
    assert info.value.code == 2 and "plays on the boards 4x4 5x4 6x4 7x4 8x4 4x5 5x5 6x5 7x5 8x5 4x6 5x6 6x6 7x6 only" \
        in capsys.readouterr().err


# -- the records carry the size ----------------------------------------------------------

def test_rounds_on_other_sizes_are_recorded_with_their_size_and_reviewed(tmp_path, capsys):
    from sensehat_c4.records import Recorder
    from engine_data import child_scores

    db = tmp_path / "games.db"
    for size, moves in ((Size(4, 4), "12233434144"), (Size(8, 6), "5566778")):
        mock = MockBackend()
        steer(mock, size, moves)
        mock.tap("up", "up", at=mock._cursor + ROUND_SETTLE)
        recorder = Recorder(db)
        try:
            play_matches(mock, MatchOptions(size=size), opponent=HUMAN, matches=1, recorder=recorder)
        finally:
            recorder.close()
    code = cli.main(["history", "--json", "--db", str(db)])
    out = capsys.readouterr().out
    assert code == 0 and sorted(m["board"] for m in json.loads(out)) == [[4, 4], [8, 6]]
    assert cli.main(["review", "1", "--json", "--db", str(db)]) == 0     # round 1: the 4x4 win
    review = json.loads(capsys.readouterr().out)
    assert review["board"] == [4, 4] and review["moves"] == "12233434144"
    board = Size(4, 4).board()
    for move, char in zip(review["review"], review["moves"]):
        expected = child_scores(board, {})               # the plain minimax of test_engine_sizes
        assert move["scores"] == {str(c + 1): s for c, s in sorted(expected.items())}
        board.play(int(char) - 1)
    # the 8x6 round: its first positions are not solved in a tenth of a second, its last ones are
    assert cli.main(["review", "2", "--json", "--db", str(db), "--time-limit", "0.1"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["board"] == [8, 6] and [m["scores"] is None for m in review["review"]] == [True] * 5 + [False] * 2
