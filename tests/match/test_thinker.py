"""The real thinker: a search in a thread that stops when cancelled and answers within its budget."""
import sys
import threading
import time

import pytest
from engine_data import CORES, native_or_skip

from gamelib.backends.mock import MockBackend
from sensehat_c4.match.computer import DEFAULT_SECONDS, PERFECT_SECONDS, Computer, Thinker
from sensehat_c4.match.controller import MatchOptions, play
from sensehat_c4.engine import Oracle, oracle as oracle_module
from sensehat_c4.engine.book12 import SHAPE
from sensehat_c4.rules import STANDARD, Board
from scripted import answer

SLOW = "4453"            # without the books: minutes for the perfect level even on the native core


@pytest.fixture(params=CORES)
def bookless(request, monkeypatch):
    """The perfect level without opening books, on each solver core, as the process's oracle."""
    if request.param == "native":
        native_or_skip()
    monkeypatch.setitem(oracle_module._default, STANDARD, Oracle(SHAPE, core=request.param))


def test_cancel_stops_a_long_search_promptly(bookless):
    for level, moves in (("hard", "4453"), ("perfect", SLOW)):
        thinker = Thinker(Computer(level, seconds=120), seed=1)
        thinker.start(Board.from_moves(moves))
        time.sleep(0.1)
        assert thinker.poll() is None                 # still searching
        thinker.cancel()                              # sets the stop event, waits at most 2 s
        assert not thinker._thread.is_alive()         # it checks the stop event every few ms


def test_when_the_budget_runs_out_the_best_move_so_far_is_played(bookless):
    for level in ("perfect", "hard"):
        thinker = Thinker(Computer(level, seconds=0.05), seed=1)
        thinker.start(Board.from_moves(SLOW))
        # which move depends on how far the search got in 0.05 s (test_engine_oracle.py pins the
        # out-of-budget choices with node limits); here: a move comes, and it is legal
        assert Board.from_moves(SLOW).can_play(answer(thinker))


def test_the_same_seed_gives_the_same_move():
    columns = []
    for seed in (11, 11, 12, 13, 14, 15):
        thinker = Thinker(Computer("easy"), seed=seed)
        thinker.start(Board.from_moves("44"))
        columns.append(answer(thinker))
    assert columns[0] == columns[1]
    assert len(set(columns)) > 1


def test_an_engine_that_cannot_be_imported_reaches_the_caller(monkeypatch):
    monkeypatch.setitem(sys.modules, "sensehat_c4.engine", None)
    thinker = Thinker(Computer("hard"), seed=1)
    thinker.start(Board.from_moves("44"))
    thinker._thread.join(5)
    with pytest.raises(ImportError):
        thinker.poll()
    monkeypatch.undo()
    thinker.start(Board.from_moves("44"))              # a new search forgets the old error
    assert Board.from_moves("44").can_play(answer(thinker))


def test_the_levels_table_is_what_every_part_offers():
    from sensehat_c4.match import chooser, opponents
    from sensehat_c4.commands import play as cli
    from sensehat_c4.engine import LEVELS

    from sensehat_c4.engine.rungs import RUNGS

    names = tuple(rung.name for rung in RUNGS)
    assert tuple(LEVELS) == names
    assert opponents.NAMES == tuple(o.name for o in opponents.OPPONENTS) == ("human",) + names + ("match-me",)
    opponent = next(a for a in cli.play_parser()._actions if a.dest == "opponent")
    assert tuple(opponent.choices) == opponents.NAMES
    assert [(entry and entry.name or "rules", label) for entry, label, _ in chooser.CHOICES] == [
        ("human", "2P")] + [(name, str(number)) for number, name in enumerate(names, 1)] + [
        ("match-me", "M"), ("lan", ""), ("rules", "?")]


def test_default_budgets():
    assert (DEFAULT_SECONDS, PERFECT_SECONDS) == (1.0, 8.0)      # as docs/guide/computer.md says
    assert Computer("easy").budget == Computer("casual").budget == 1.0
    assert Computer("steady").budget == Computer("hard").budget == 8.0
    assert Computer("perfect").budget == 8.0
    assert Computer("perfect", seconds=0.5).budget == 0.5


def test_up_abandons_while_a_real_search_runs(bookless):
    mock = MockBackend()
    mock.tap("down")                                  # the human drops in column 4
    pressed = mock._cursor
    mock.tap("up", "up", at=pressed + 1.0)
    made = []

    def thinker(computer, seed):
        made.append(Thinker(computer, seed))
        return made[-1]

    result = play(mock, MatchOptions(computer=Computer("perfect", player=2, seconds=120)), thinker=thinker)
    assert result.abandoned
    assert len(made) == 1 and not made[0]._thread.is_alive()   # cancelled, not left running


def test_the_thinker_wakes_the_match_when_it_has_its_move_and_not_when_cancelled(bookless):
    woken = threading.Event()
    thinker = Thinker(Computer("easy"), seed=3, wake=woken.set)
    thinker.start(Board.from_moves("44"))
    assert woken.wait(10)                               # from the search's thread, as it ends
    assert Board.from_moves("44").can_play(thinker.poll())
    woken.clear()
    thinker = Thinker(Computer("perfect", seconds=120), seed=1, wake=woken.set)
    thinker.start(Board.from_moves(SLOW))
    time.sleep(0.05)
    thinker.cancel()
    assert not thinker._thread.is_alive() and not woken.is_set()   # abandoned: nobody to wake


def test_a_new_search_forgets_the_one_it_replaced(bookless):
    thinker = Thinker(Computer("perfect", seconds=0.5), seed=1)
    thinker.start(Board.from_moves(SLOW))
    first = thinker._thread
    assert first.is_alive()
    thinker.start(Board.from_moves("44"))               # the first is cancelled: its answer can never come back
    assert not first.is_alive() and thinker._thread is not first
    assert Board.from_moves("44").can_play(answer(thinker))
