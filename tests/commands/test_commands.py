"""The commands table (``sensehat_c4/commands/``): it drives the dispatch and ``--help``, and the
dispatcher is the one place a command's errors become one line and an exit code."""
import importlib
import os
import signal

import pytest

from gamelib.errors import ConfigError, GamelibError, QuitRequested, SetupError, UsageError
from sensehat_c4 import cli, commands
from sensehat_c4.commands import COMMANDS, Command, find
from sensehat_c4.errors import MoveListError, SearchAborted
from sensehat_c4.records import RecordsError


def test_one_table_one_module_each(monkeypatch):
    names = [c.name for c in COMMANDS]
    assert names[0] == "play" and len(set(names)) == len(names)       # the default first, each name once
    assert {"analyse", "history", "stats", "replay", "review", "doctor", "puzzle"} <= set(names)
    for command in COMMANDS:
        module = importlib.import_module(f"sensehat_c4.commands.{command.name}")
        ran = []
        monkeypatch.setattr(module, "run", lambda argv, name=command.name: ran.append((name, list(argv))) or 4)
        assert command.run(["--x"]) == 4 and ran == [(command.name, ["--x"])]   # the row runs its module's run
    got = []
    monkeypatch.setattr(commands, "main", lambda argv=None: got.append(argv) or 7)
    assert cli.main(["stats"]) == 7 and got == [["stats"]]      # the console script runs the dispatcher


@pytest.mark.parametrize("argv, name, rest", [
    ([], "play", []),
    (["--opponent", "easy"], "play", ["--opponent", "easy"]),
    (["play", "--matches", "1"], "play", ["--matches", "1"]),
    (["analyse", "44"], "analyse", ["44"]),
    (["analyze", "44"], "analyse", ["44"]),
    (["history", "--json"], "history", ["--json"]),
    (["stats"], "stats", []),
    (["replay", "last"], "replay", ["last"]),
    (["review", "3"], "review", ["3"]),
    (["4453"], "play", ["4453"]),                  # not a command: main() says so, naming the commands
])
def test_the_first_argument_picks_the_row(argv, name, rest):
    command, args = find(argv)
    assert (command.name, args) == (name, rest)


@pytest.mark.parametrize("word", ["frobnicate", "histroy", "4453", "\x1b[2J"])
def test_an_unknown_command_is_one_line_naming_the_commands(capsys, word):
    with pytest.raises(SystemExit) as info:
        cli.main([word, "--json"])
    assert info.value.code == 2
    names = ", ".join(command.name for command in COMMANDS)          # play, analyse, history, ...
    assert capsys.readouterr() == ("", f"sensehat-c4: error: unknown command {word!r}: the commands are {names} "
                                       "(see --help)\n")
    assert names.startswith("play, analyse, history, stats, replay, review, doctor, puzzle")


def test_the_help_lists_every_row(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    listed = out[out.index("commands (each takes --help):\n"):].splitlines()[1:]
    assert listed == [f"  sensehat-c4 {c.usage:<16} {c.summary}" for c in COMMANDS]
    for command in COMMANDS[1:]:
        with pytest.raises(SystemExit) as info:
            cli.main([command.name, "--help"])
        assert info.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: {command.prog} ")


def raises(error):
    def run(argv):
        raise error
    return run


@pytest.mark.parametrize("error, code, line", [
    (RecordsError("no games recorded yet (x.db does not exist)"), 2, "no games recorded yet (x.db does not exist)"),
    (MoveListError(2, "9", "not a column: use digits 1-7"), 2, "move 2 ('9'): not a column: use digits 1-7"),
    (SearchAborted("not solved within 1 s"), 3, "not solved within 1 s"),
    (UsageError("--solve: no"), 2, "--solve: no"),
    (SetupError("the sense_hat library is not installed"), 78, "the sense_hat library is not installed"),
    (ConfigError("a bad\nvalue\x1b[31m"), 1, "a bad\\nvalue\\x1b[31m"),          # one line, escaped
    (GamelibError("anything else of ours"), 1, "anything else of ours"),
])
def test_a_new_row_is_dispatched_and_its_errors_become_one_line_and_an_exit_code(capsys, monkeypatch, error,
                                                                                   code, line):
    row = Command("boom", "boom", "fails on purpose", raises(error))
    monkeypatch.setattr(commands, "COMMANDS", COMMANDS + (row,))
    assert cli.main(["boom", "--x"]) == code
    assert capsys.readouterr() == ("", f"sensehat-c4 boom: {line}\n")


@pytest.mark.parametrize("error, code", [(QuitRequested("q"), 0), (KeyboardInterrupt(), 130)])
def test_quitting_and_ctrl_c_are_quiet(capsys, monkeypatch, error, code):
    monkeypatch.setattr(commands, "COMMANDS", COMMANDS + (Command("boom", "boom", "", raises(error)),))
    assert cli.main(["boom"]) == code
    assert capsys.readouterr() == ("", "")


def test_a_row_gets_its_arguments_and_its_exit_code(monkeypatch):
    got = []
    row = Command("echo", "echo ARGS", "says what it got", lambda argv: got.append(list(argv)) or 5)
    monkeypatch.setattr(commands, "COMMANDS", COMMANDS + (row,))
    assert cli.main(["echo", "a", "--b"]) == 5
    assert got == [["a", "--b"]]


def test_sigterm_during_a_command_is_exit_143_and_the_handlers_go_back(monkeypatch):
    row = Command("wait", "wait", "", lambda argv: os.kill(os.getpid(), signal.SIGTERM) or 0)
    monkeypatch.setattr(commands, "COMMANDS", COMMANDS + (row,))
    with pytest.raises(SystemExit) as info:
        cli.main(["wait"])
    assert info.value.code == 143
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
