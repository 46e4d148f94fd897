"""``sensehat-c4 analyse MOVES --solve``: exact scores, the best move, and exit 3 when out of time."""
import json
import re

import pytest
from engine_data import book12_or_skip, positions
from pty_terminal import PtyProgram, game

from sensehat_c4 import cli


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["Test_L1_R1", "Test_L2_R1", "Test_L3_R1"])
def test_each_move_scores_as_the_test_sets_say(capsys, name):
    book12_or_skip()
    for moves, score in positions(name)[:12]:
        code, out, err = run(capsys, "analyse", moves[:-1], "--solve", "--json", "--time-limit", "60")
        assert (code, err) == (0, "")
        info = json.loads(out)
        assert info["scores"][moves[-1]] == -score, moves       # the score after that move, negated
        assert sorted(info["scores"]) == [str(c) for c in info["legal"]]
        best = max(info["scores"].values())
        assert info["best"] == min(int(c) for c, s in info["scores"].items() if s == best)


def test_text_form(capsys):
    code, out, err = run(capsys, "analyse", "4453", "--solve")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[-3:] == ["legal: 1 2 3 4 5 6 7", "scores: 1:-5 2:-5 3:-2 4:-3 5:-4 6:-2 7:-2", "best: 3"]


def test_scores_in_json_and_the_first_player_wins_from_the_start(capsys):
    code, out, _ = run(capsys, "analyse", "", "--solve", "--json")
    info = json.loads(out)
    assert info["scores"] == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    assert info["best"] == 4


def test_a_finished_game_has_no_scores(capsys):
    code, out, _ = run(capsys, "analyse", "4455667", "--solve", "--json")
    info = json.loads(out)
    assert (code, info["scores"], info["best"], info["outcome"]) == (0, {}, None, "win")


def test_out_of_time_exits_3_with_one_line(capsys):
    code, out, err = run(capsys, "analyse", "2147756677465", "--solve", "--time-limit", "0.001")
    assert (code, out) == (3, "")
    assert err == "sensehat-c4 analyse: not solved within 0.001 s (try a longer --time-limit)\n"


def test_a_bad_time_limit_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["analyse", "44", "--solve", "--time-limit", "0"])
    _, err = capsys.readouterr()
    assert info.value.code == 2
    assert err == ("sensehat-c4 analyse: error: argument --time-limit: must be more than 0 and at most 3600: "
                   "'0' (see --help)\n")


def test_on_a_terminal_progress_is_one_line_redrawn_in_place_then_erased(capsys):
    moves = "2553635322312"           # 13 stones, past the books: some thousands of positions per column
    code, expected, _ = run(capsys, "analyse", moves, "--solve")
    program = PtyProgram(game("analyse", moves, "--solve"), columns=60, lines=20, stderr_on_terminal=True)
    try:
        assert program.finish(timeout=120) == ""
        output = program.output.decode()
        screen = program.text()
    finally:
        program.close()
    assert program.process.returncode == code == 0
    pieces = output.split("\r\x1b[K")           # each update, and the end, erase the line first
    assert pieces[0] == "" and pieces[-1] == expected.replace("\n", "\r\n")
    shown = [re.fullmatch(r"solving: ([0-7])/7 columns, ([0-9,]+) positions", p) for p in pieces[1:-1]]
    assert all(shown), pieces[1:-1]
    columns = [int(m.group(1)) for m in shown]
    nodes = [int(m.group(2).replace(",", "")) for m in shown]
    assert sorted(set(columns)) == list(range(8)) and columns == sorted(columns)
    # (how many a search counts depends on its helper threads: 8,432 to some 20,000 here)
    assert nodes == sorted(nodes) and nodes[0] == 0 and nodes[-1] > 1_000
    assert screen == expected.rstrip("\n") and "solving" not in screen


def test_not_a_terminal_no_progress(capsys):
    code, out, err = run(capsys, "analyse", "2553635322312", "--solve")
    assert (code, err) == (0, "") and out.splitlines()[-1] == "best: 5"
