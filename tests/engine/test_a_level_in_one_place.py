"""Adding a computer level is one row of the ladder (``sensehat_c4/engine/rungs.py``'s ``RUNGS``): its name,
what it knows, its budget, its sizes and its words.  This test makes that one edit to the module's source,
as a developer would, and shows the whole game using the new level: the command line offers it, the
chooser counts it, its words describe it, and a match against it is played (its moves from its own
horizon) and recorded under its name.  Run in a child process, so the edited ladder never meets
another test."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import sensehat_c4.engine.rungs as rungs

ROW = '''    sighted("novice", Horizon(1, 1, 1.0), DEFAULT_SECONDS, SIZES, SIZES, word=N_("novice"),
            about=N_("sees wins and losses {low} to {high} stone ahead; plays by feel beyond")),
'''

CHILD = r'''
import contextlib, importlib.util, io, json, sys, types
from pathlib import Path

source = Path(sys.argv[1]).read_text()
head = "RUNGS: Tuple[Rung, ...] = (\n"
assert source.count(head) == 1
source = source.replace(head, head + sys.argv[2])            # the one edit: a row, weakest first

import sensehat_c4.engine                                     # the package (lazy: the ladder not yet loaded)
assert "sensehat_c4.engine.rungs" not in sys.modules
module = types.ModuleType("sensehat_c4.engine.rungs")
module.__file__, module.__package__ = sys.argv[1], "sensehat_c4.engine"
sys.modules[module.__name__] = module
exec(compile(source, sys.argv[1], "exec"), module.__dict__)

from gamelib import backends
from gamelib.backends.mock import MockBackend
from sensehat_c4 import cli
from sensehat_c4.match import chooser, words
from sensehat_c4.match.opponents import Opponent, opponents_for
from sensehat_c4.records import Records
from sensehat_c4.rules import Size

backend = MockBackend()
backends.open_backend = lambda *a, **k: backend
backend.tap("down")                                          # the person (seat 1) drops under the cursor...
backend.tap("up", "up", at=30)                               # ...and abandons
help_text = io.StringIO()
with contextlib.redirect_stdout(help_text), contextlib.suppress(SystemExit):
    cli.main(["--help"])
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = cli.main(["--opponent", "novice", "--first", "p1", "--matches", "1", "--db", sys.argv[3]])
with Records(sys.argv[3]) as stored:
    match = stored.matches()[0]
novice = Opponent.parse("novice")
from sensehat_c4.engine import choose_move
from sensehat_c4.rules import Board
wins = sorted({choose_move(Board.from_moves("445566"), "novice", seed=seed).column for seed in range(12)})
print(json.dumps({
    "code": code, "out": out.getvalue(), "help": " ".join(help_text.getvalue().split()),
    "offered": [o.name for o in opponents_for(Size())],
    "label": words.opponent_label(novice), "about": words.about("novice"),
    "statuses": [s.caption for _, s in backend.statuses],
    "seats": [side.level for side in match.sides], "moves": match.rounds[0].moves, "wins": wins,
    "labels": [label for _, label, _ in chooser.CHOICES],
    "lit": sum(pixel != (0, 0, 0) for pixel in chooser.choice_frame(10, backend.palette)),
}))
'''


def test_a_level_added_as_one_row_of_the_ladder_is_played_chosen_and_recorded(tmp_path):
    child = subprocess.run([sys.executable, "-c", CHILD, rungs.__file__, ROW, str(tmp_path / "records.db")],
                           capture_output=True, text=True, timeout=120, check=False)
    assert child.returncode == 0, child.stderr
    seen = json.loads(child.stdout.splitlines()[-1])
    assert seen["code"] == 0
    assert seen["out"] == "match 1 (computer: novice, player 2): abandoned at 0-0\n", seen
    levels = len(rungs.RUNGS) + 1                                 # the ladder's rows and the new one
    assert "{human,novice,easy,casual," in seen["help"]
    assert f"1-{levels} (the computer's levels, novice to perfect)" in seen["help"]
    assert seen["offered"][:3] == ["human", "novice", "easy"]
    assert seen["labels"] == ["2P"] + [str(n) for n in range(1, levels + 1)] + ["M", "", "?"]   # the LEDs' chooser, match me
    assert seen["lit"] > 10                                       # "10" drawn (two digits fit the matrix)
    assert seen["label"] == "computer: 1 novice"                  # its number on the ladder: first
    assert seen["about"] == "sees wins and losses 1 to 1 stone ahead; plays by feel beyond"
    assert any(caption.startswith("computer (novice, ") for caption in seen["statuses"]), seen["statuses"]
    assert seen["seats"] == [None, "novice"]                     # the computer plays seat 2
    assert seen["moves"] in ("4", *(f"4{c}" for c in range(1, 8)))   # the person's stone (and the reply, if the
    # computer's thread answered before the abandoning presses were read), then abandoned
    assert seen["wins"] == [2, 6]            # its horizon of one stone: it always takes a win in one (columns 3, 7)


def test_the_ladder_s_words_are_its_rows():
    """Every row carries its words (nothing else in the tree lists the levels' words)."""
    for rung in rungs.RUNGS:
        assert rung.word == rung.name and rung.about
    assert list(rungs.NAMES) == [rung.name for rung in rungs.RUNGS]
    assert "_ABOUT" not in Path(rungs.__file__).parent.parent.joinpath("match", "words.py").read_text()
