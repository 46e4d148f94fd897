"""The command line: analyse, option errors, exit codes, and leaving cleanly."""
import json
import os
import signal
import subprocess
import sys

import pytest

from frames import grid

from gamelib.colours import BLACK, NAMES
from gamelib import backends
from sensehat_c4 import cli
from sensehat_c4.commands import play as play_command
from sensehat_c4.match.chooser import RULES_INDEX, choice_frame, size_frame
from sensehat_c4.rules import Board, Size
from sensehat_c4.match import render
from gamelib.palette import PALETTES, PURPLE_YELLOW, for_round
from sensehat_c4.match.computer import ComputerSeat, computer_for
from sensehat_c4.match.opponents import Opponent
from gamelib.backends.mock import MockBackend
from gamelib.palette import palette as default_palette
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.controller import MatchOptions, MatchResult, seat_names
from scripted import MATCH_SETTLE, ROUND_SETTLE, moves, run


def test_analyse_text(capsys):
    code, out, err = run(capsys, "analyse", "4453")
    assert code == 0 and err == ""
    assert out == "\n".join([
        ".......", ".......", ".......", ".......", "...O...", "..OXX..", "1234567",
        "moves: 4453", "to move: player 1 (X)", "outcome: ongoing", "legal: 1 2 3 4 5 6 7", ""])


def test_analyse_text_win_and_draw(capsys):
    code, out, _ = run(capsys, "analyse", "4455667")
    assert out.splitlines()[-2:] == ["outcome: player 1 (X) wins",
                                     "winning cells (column,row): 4,1 5,1 6,1 7,1"]
    code, out, _ = run(capsys, "analyse", "455714637617614767242476316455122212535333")
    assert out.splitlines()[-1] == "outcome: draw (the board is full)"


@pytest.mark.parametrize("moves, expected", [
    ("", {"moves": "", "board": "7x6", "to_move": 1, "outcome": "ongoing", "winner": None, "winning_cells": [],
          "legal": [1, 2, 3, 4, 5, 6, 7]}),
    ("444444", {"moves": "444444", "board": "7x6", "to_move": 1, "outcome": "ongoing", "winner": None, "winning_cells": [],
                "legal": [1, 2, 3, 5, 6, 7]}),
    ("12121232", {"moves": "12121232", "board": "7x6", "to_move": None, "outcome": "win", "winner": 2,
                  "winning_cells": [[2, 1], [2, 2], [2, 3], [2, 4]], "legal": []}),
    ("3133322443664325445", {"moves": "3133322443664325445", "board": "7x6", "to_move": None, "outcome": "win", "winner": 1,
                             "winning_cells": [[2, 2], [3, 2], [3, 4], [4, 2], [4, 3], [5, 2], [6, 1]],
                             "legal": []}),
    ("455714637617614767242476316455122212535333", {
        "moves": "455714637617614767242476316455122212535333", "board": "7x6", "to_move": None, "outcome": "draw",
        "winner": None, "winning_cells": [], "legal": []}),
])
def test_analyse_json(capsys, moves, expected):
    code, out, err = run(capsys, "analyse", moves, "--json")
    assert code == 0 and json.loads(out) == expected


@pytest.mark.parametrize("moves, message", [
    ("4458", "move 4 ('8'): not a column: use digits 1-7"),
    ("4444444", "move 7 ('4'): column 4 is full"),
    ("445566712", "move 8 ('1'): the game is already over"),
])
def test_analyse_bad_move_list_is_one_line_exit_2(capsys, moves, message):
    code, out, err = run(capsys, "analyse", moves)
    assert (code, out, err) == (2, "", f"sensehat-c4 analyse: {message}\n")


@pytest.mark.parametrize("argv, err", [
    (["analyse", "-x\n4453"], "sensehat-c4 analyse: error: unrecognized arguments: '-x\\n4453' (see --help)\n"),
    (["analyse", "44\x1b[2J5"], "sensehat-c4 analyse: move 3 ('\\x1b'): not a column: use digits 1-7\n"),
    (["--matches", "\r\u2028"], "sensehat-c4: error: argument --matches: not a whole number: "
                                 "'\\r\\u2028' (see --help)\n"),
])
def test_errors_stay_on_one_line_whatever_the_input_holds(capsys, argv, err):
    try:
        code = cli.main(argv)
    except SystemExit as exit:
        code = exit.code
    assert (code, capsys.readouterr().err) == (2, err)


def test_a_backend_error_with_a_newline_is_printed_on_one_line(capsys, monkeypatch):
    def refuse(*args, **kwargs):
        raise backends.BackendError("no\nway\x1b[0m")

    monkeypatch.setattr(backends, "open_backend", refuse)
    assert run(capsys, "--opponent", "human") == (1, "", "sensehat-c4: no\\nway\\x1b[0m\n")


@pytest.mark.parametrize("argv, message", [
    (["--rotation", "45"], "argument --rotation: invalid choice: 45 (choose from 0, 90, 180, 270)"),
    (["--colors", "red,red"], "--colors: the two players need different colours"),
    (["--colors", "blue,red"], "--colors: player 1's colour is the field's blue; pick another"),
    (["--colors", "red,#000"], "--colors: player 2's colour is black, which is an empty LED; pick another"),
    (["--colors", "#0000fc,red"], "--colors: player 1's colour is the field's blue; pick another"),
    (["--palette", "purple-yellow", "--colors", "#008000,red"],
     "--colors: player 1's colour is the field's colour; pick another"),
    (["--colors", "red,#030303"], "--colors: player 2's colour is black, which is an empty LED; pick another"),
    (["--colors", "red,#fc0303"], "--colors: the two players need different colours"),
    (["--colors", "red"], "--colors takes two colours separated by a comma (not 'red')"),
    (["--colors", "red,blu"], "--colors: unknown colour 'blu': use a name (white, red, green, yellow, "
                              "orange, cyan, magenta, purple, pink) or a hex code like #ff8800"),
    (["--colors", "black,red"], "--colors: player 1's colour is black, which is an empty LED; pick another"),
    (["--backend", "mock"], "argument --backend: invalid choice: 'mock'"),   # choices' quoting varies
    (["--matches", "x"], "argument --matches: not a whole number: 'x'"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--opponent", "god"], "argument --opponent: invalid choice: 'god'"),
    (["--think", "0"], "argument --think: must be more than 0 and at most 3600: '0'"),
    (["--think", "soon"], "argument --think: not a number of seconds: 'soon'"),
    (["--think", "-1"], "argument --think: must be more than 0 and at most 3600: '-1'"),
    (["--think", "nan"], "argument --think: must be more than 0 and at most 3600: 'nan'"),
    (["--think", "1e400"], "argument --think: must be more than 0 and at most 3600: '1e400'"),
    (["--fall-ms", "1e9"], "argument --fall-ms: not a whole number: '1e9'"),
    (["--fall-ms", "1001"], "argument --fall-ms: must be from 0 to 1000: '1001'"),
    (["--fall-ms", "99999999999999999999999"],            # was a traceback at the first drop (select's time_t)
     "argument --fall-ms: must be from 0 to 1000: '99999999999999999999999'"),
    (["--matches", "-1"], "argument --matches: must be 0 or more: '-1'"),
    (["--rotation", "45"], "argument --rotation: invalid choice: 45 (choose from 0, 90, 180, 270)"),
    (["--colors", ""], "--colors takes two colours separated by a comma (not '')"),
    (["--colors", "red\x1b[31m,yellow"], "--colors: unknown colour 'red\\x1b[31m'"),
    (["--board", "9x9"], "argument --board: board 9x9 is not offered"),
    ([""], "unrecognized arguments: ''"),                   # an empty argument is seen, not a blank
    (["--bogus", "two words"], "unrecognized arguments: --bogus 'two words'"),
])
def test_bad_flags_are_one_line_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == 2
    assert err.startswith(f"sensehat-c4: error: {message}") and err.endswith(" (see --help)\n")
    assert err.count("\n") == 1


def test_every_name_the_colour_error_offers_is_accepted():
    assert play_command.player_colour_names(default_palette()) == ["white", "red", "green", "yellow", "orange", "cyan", "magenta",
                                       "purple", "pink"]
    for name in play_command.player_colour_names(default_palette()):
        assert play_command.parse_colours(f"{name},#123456", default_palette())[0] == NAMES[name]


def test_colours_accept_names_and_hex():
    assert play_command.parse_colours("green,#ff8800", default_palette()) == ((0, 255, 0), (255, 136, 0))
    assert play_command.parse_colours(" Orange , f0f", default_palette()) == ((255, 128, 0), (255, 0, 255))


def test_unknown_backend_in_environment(capsys, monkeypatch):
    monkeypatch.setenv("SENSEHAT_C4_BACKEND", "xyz")
    code, out, err = run(capsys)
    assert code == 78                        # a setup error: the units do not restart on it
    assert err == "sensehat-c4: SENSEHAT_C4_BACKEND='xyz' is not a backend: use one of auto, hat, emu, terminal\n"


def test_play_matches_then_exit_0(capsys, mock):
    mock.tap("up", "up")
    mock.tap("up", "up", at=10)
    code, out, err = run(capsys, "--matches", "2", "--opponent", "human")
    assert code == 0
    assert out == "match not recorded: abandoned at 0-0\n" * 2      # left before a move: not kept, no number
    assert mock.closed and mock.leds == (BLACK,) * 64


def test_the_winners_score_comes_first(capsys, mock):
    moves(mock, "4545454")                    # round 1: player 1 starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                    # round 2: player 2 starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14241464")                   # round 3: player 1 starts, player 2 wins in column 4
    mock.wait_until(mock._cursor + MATCH_SETTLE)
    mock.tap("up", "up")                      # match 2: abandoned at once
    code, out, err = run(capsys, "--matches", "2", "--opponent", "human")
    assert (code, out, err) == (0, "match 1: player 2 wins 2-1\nmatch not recorded: abandoned at 0-0\n", "")


def test_palette_draws_the_board_in_its_colours_and_seat_2_s_winning_line_blinks_twice_as_often(capsys, mock):
    chosen = PALETTES[PURPLE_YELLOW]
    moves(mock, "4545454")                    # round 1: seat 1 starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                    # round 2: seat 2 starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    mock.tap("up", "up")
    code, out, err = run(capsys, "--palette", "purple-yellow", "--opponent", "human", "--matches", "1")
    assert (code, out, err) == (0, "match 1: abandoned at 1-1\n", "")
    frames = list(mock.frames)
    assert frames[0][1] == tuple(render.board_frame(Board(), for_round(chosen.players, 1, chosen), cursor=3))
    final = Board.from_moves("4545454")
    cells = final.outcome.cells
    blinks = []
    for starter in (1, 2):                    # the first mover wins: seat 1, then seat 2
        colours = for_round(chosen.players, starter, chosen)
        hidden = tuple(render.board_frame(final, colours, hide=cells))
        times = [t for t, f in frames if f == hidden]
        blinks.append([round(b - a, 6) for a, b in zip(times, times[1:])])
    assert blinks == [[0.5, 0.5], [0.25] * 5]  # seat 1 blinks 3 times in 1.5 s, seat 2 six times
    assert {pixel for _, f in frames for pixel in f} <= {chosen.first, chosen.second, chosen.field,
                                                         chosen.background}       # no default colour


def test_the_field_s_blue_is_a_player_s_colour_on_another_palette_s_field():
    assert play_command.parse_colours("blue,red", PALETTES[PURPLE_YELLOW]) == (NAMES["blue"], NAMES["red"])


def test_colours_given_override_the_palette_s_players_even_the_default_s_words(capsys, mock):
    chosen = PALETTES[PURPLE_YELLOW]
    mock.tap("up", "up")
    assert run(capsys, "--palette", "purple-yellow", "--colors", "red,yellow", "--opponent", "human",
               "--matches", "1")[0] == 0
    red_yellow = tuple(NAMES[name] for name in ("red", "yellow"))
    assert mock.frames[0][1] == tuple(render.board_frame(Board(), for_round(red_yellow, 1, chosen), cursor=3))
    assert mock.frames[0][1][3] == NAMES["red"] and mock.frames[0][1][-2] == chosen.field


@pytest.mark.parametrize("result, line", [
    (MatchResult(1, (2, 0), False, 2), "player 1 wins 2-0"),
    (MatchResult(2, (1, 2), False, 3), "player 2 wins 2-1"),
    (MatchResult(None, (0, 1), True, 2), "abandoned at 1-0, player 2 ahead"),
    (MatchResult(None, (1, 0), True, 2), "abandoned at 1-0, player 1 ahead"),
    (MatchResult(None, (1, 1), True, 3), "abandoned at 1-1"),
])
def test_match_summary_names_whose_score_is_first(result, line):
    assert result.summary() == line


def test_the_computers_seat_keeps_no_name_in_the_match_line():
    computer = Computer("hard", player=2, seconds=1.0)
    assert seat_names(("Ann", "Bob"), computer) == ("Ann", None)
    assert MatchOptions(computer=computer, names=("Ann", "Bob")).player_names == ("Ann", None)
    assert MatchResult(2, (0, 2), False, 2).summary(seat_names(("Ann", "Bob"), computer)) == "player 2 wins 2-0"
    assert MatchResult(1, (2, 1), False, 3).summary(seat_names(("Ann", "Bob"), None)) == "Ann wins 2-1"


def test_without_opponent_the_players_choose_with_the_stick(capsys, mock):
    mock.tap("left", "right", "up", "middle")      # browse 2P -> ? -> 2P, up is ignored here, choose 2P
    mock.tap("middle")                             # the size chooser: 7x6
    mock.tap("up", "up", at=5)
    code, out, err = run(capsys, "--matches", "1")
    assert (code, out) == (0, "match not recorded: abandoned at 0-0\n")
    shown = [f for _, f in mock.frames]
    chooser = [tuple(choice_frame(i, default_palette())) for i in (0, RULES_INDEX, 0)]
    black = (BLACK,) * 64
    assert shown[:9] == chooser + [black] + chooser[:1] + [black, tuple(size_frame(Size(), default_palette())), black,
                                                           shown[8]]   # up: back, shown again
    assert grid(shown[0]).splitlines()[:3] == ["W.......", "........", ".WW..WW."]   # "2P" (its place: the first)
    assert grid(shown[8]).splitlines()[0] == "...R...."                          # then the game


@pytest.mark.parametrize("opponent, plays, number, expected", [
    ("human", "2", 1, None),
    ("easy", "2", 1, (2, "easy")),
    ("perfect", "1", 2, (1, "perfect")),
    ("hard", "alternate", 1, (2, "hard")),
    ("hard", "alternate", 2, (1, "hard")),
])
def test_computer_for(opponent, plays, number, expected):
    computer = computer_for(Opponent.parse(opponent), ComputerSeat(plays), number, 0.5)
    assert (computer if computer is None else (computer.player, computer.level)) == expected


class Interrupting(MockBackend):
    def __init__(self, how):
        super().__init__()
        self.how = how
        read = self.stick._read           # the stick's one wait

        def interrupting(timeout):
            if self.frames:
                self.how()
            return read(timeout)

        self.stick._read = interrupting


def _raise_keyboard_interrupt():
    raise KeyboardInterrupt


def _raise_error():
    raise RuntimeError("boom")


@pytest.mark.parametrize("how, expected", [
    (_raise_keyboard_interrupt, 130),
    (lambda: os.kill(os.getpid(), signal.SIGTERM), SystemExit(143)),
    (lambda: os.kill(os.getpid(), signal.SIGHUP), SystemExit(129)),
    (_raise_error, RuntimeError("boom")),
])
def test_leaving_any_way_clears_the_leds(monkeypatch, capsys, how, expected):
    backend = Interrupting(how)
    monkeypatch.setattr(backends, "open_backend", lambda *a, **k: backend)
    if isinstance(expected, int):
        assert cli.main(["--opponent", "human"]) == expected
    else:
        with pytest.raises(type(expected)) as info:
            cli.main(["--opponent", "human"])
        assert info.value.args == expected.args
    assert backend.closed and backend.closed_hardware
    assert backend.leds == (BLACK,) * 64 and len(backend.frames) == 2   # the board, then black
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL             # handlers put back


def test_python_dash_m(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sensehat_c4", "analyse", "44", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["to_move"] == 1
    proc = subprocess.run([sys.executable, "-m", "sensehat_c4", "analyse", "9"],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (2, "sensehat-c4 analyse: move 1 ('9'): not a column: use digits 1-7\n")


@pytest.mark.parametrize("argv, err", [
    (["--names", "Ann,Bob", "--opponent", "easy"],
     "sensehat-c4: --names: the computer plays player 2, so Bob is not used\n"),
    (["--names", "Ann,Bob", "--opponent", "hard", "--computer-plays", "1"],
     "sensehat-c4: --names: the computer plays player 1, so Ann is not used\n"),
    (["--names", "Ann", "--opponent", "easy"], ""),                                 # no name for its seat
    (["--names", "Ann,Bob", "--opponent", "human"], ""),
    (["--names", "Ann,Bob", "--opponent", "easy", "--computer-plays", "alternate"], ""),  # each used in turn
    (["--names", "Ann,Bob"], ""),                                                   # chosen on the LEDs: maybe 2P
])
def test_a_name_for_the_computers_seat_is_said_to_be_unused(capsys, mock, argv, err):
    if "--opponent" not in argv:
        mock.tap("middle", "middle")              # 2P, 7x6
    mock.tap("up", "up", at=mock._cursor + 2)     # then abandon the match
    code, out, got = run(capsys, *argv, "--matches", "1")
    assert (code, got) == (0, err)
    assert out.startswith("match not recorded") and "abandoned at 0-0" in out


def test_ctrl_c_while_the_commands_load_is_exit_130_without_a_traceback():
    """The console script imports the commands inside main(), where Ctrl+C is caught (on a Pi the
    imports take about a second: a quick Ctrl+C after starting lands there)."""
    script = ("import sys\n"
              "class Interrupt:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'sensehat_c4.commands':\n"
              "            raise KeyboardInterrupt\n"
              "sys.meta_path.insert(0, Interrupt())\n"
              "from sensehat_c4.cli import main\n"
              "sys.exit(main(['history']))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "")


@pytest.mark.parametrize("program, argv, err", [
    ("sensehat-c4", ["--think=--"], "sensehat-c4: error: argument --think: expected one argument (see --help)\n"),
    ("sensehat-c4", ["stats", "--db=--"],
     "sensehat-c4 stats: error: argument --db: expected one argument (see --help)\n"),
    ("sensehat-c4", ["review", "last", "--db=--"],
     "sensehat-c4 review: error: argument --db: expected one argument (see --help)\n"),
    ("sensehat-c4", ["history", "--limit=--"],
     "sensehat-c4 history: error: argument --limit: expected one argument (see --help)\n"),
    ("gamelib", ["--dim-after=--"], "gamelib: error: argument --dim-after: expected one argument (see --help)\n"),
])
def test_an_option_given_as_option_equals_dash_dash_is_refused(capsys, program, argv, err):
    """Python 3.11's argparse drops the "--" of ``--db=--`` and stores [], calling no ``type`` (found by the
    hostile command lines: a TypeError from ``Path([])``)."""
    from gamelib.launcher import cli as launcher

    with pytest.raises(SystemExit) as info:
        (cli.main if program == "sensehat-c4" else launcher.main)(argv)
    assert (info.value.code, capsys.readouterr().err) == (2, err)
