"""*Match me* played: the level steps with each round in the match, the words name it, the records keep
each round's level and the next match starts where the last left off; its entry on the chooser and the
command line.  (Its stepping rule is tested in test_engine_matchme.py.)"""
import sqlite3
import subprocess
import sys

from frames import grid
from records_data import ANN, ticking
from scripted import answering

from gamelib.backends.mock import MockBackend
from gamelib.colours import YELLOW
from gamelib.palette import palette as default_palette
from sensehat_c4.engine.matchme import MatchMe, Round
from sensehat_c4.match.chooser import CHOICES, MATCH_ME_INDEX, choice_frame, choose_helps, choose_opponent
from sensehat_c4.engine.rungs import number
from sensehat_c4.match.computer import LEVELS, Computer, middle
from sensehat_c4.match.controller import MatchOptions, MatchResult, play
from sensehat_c4.game import play_matches
from sensehat_c4.match.game import match_me_start
from sensehat_c4.match.opponents import MATCH_ME, Opponent, OpponentKind, ladder_for, opponents_for
from sensehat_c4.match.resume import interrupted
from sensehat_c4.records import Recorder, Records, RoundFacts, Side
from sensehat_c4.rules import SIZES, Board, Size

LADDER = tuple(LEVELS)
MIDDLE = middle(LADDER)
"""Where a new series starts with nothing in the records."""


def rows(path, sql):
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def three_rounds(mock):
    """Red (the person) wins round 1 on column 4, loses round 2 to yellow's column 1, wins round 3."""
    for k in range(4):
        mock.tap("down", at=0.2 + 2.5 * k)          # round 1: red starts
    for k in range(3):
        mock.tap("down", at=12.0 + 2.5 * k)         # round 2: yellow starts (and wins with its 4th)
    for k in range(4):
        mock.tap("down", at=24.0 + 2.5 * k)         # round 3: red starts


def test_the_level_steps_after_each_round_and_each_round_keeps_its_own(tmp_path):
    mock = MockBackend()
    three_rounds(mock)
    made = []
    factory = answering(mock, [0] * 10)

    def thinker(computer, seed):
        made.append(computer.level)
        return factory(computer, seed)

    path = tmp_path / "games.db"
    ladder = MatchMe.starting(LADDER, "tough", settled=True)    # going on from rounds before: a level a step
    options = MatchOptions(computer=Computer("tough", player=2), match_me=ladder, names=("Ann", None))
    result = play(mock, options, thinker=thinker, recorder=Recorder(path, clock=ticking()))
    assert result == MatchResult(1, (2, 1), False, 3, ("Ann", None))
    assert made == ["tough", "hard", "tough"]       # won: up; lost: down; a thinker for each level
    assert ladder.level == "tough"
    assert rows(path, "SELECT p2_level, p2_seconds FROM matches") == [(MATCH_ME.name, None)]
    assert rows(path, "SELECT number, level, winner FROM rounds") == [(1, "tough", 1), (2, "hard", 2), (3, "tough", 1)]
    thinking = [s for t, s in mock.statuses if s.phase == "thinking"]
    tough, hard = number("tough"), number("hard")              # the levels' numbers: their rows on the ladder
    assert thinking[0].text == f"round 1 (0-0, 7x6): computer (match me: {tough} tough, yellow) is thinking"
    assert [s for s in thinking if s.details["round"] == 2][0].text == \
        f"round 2 (1-0, 7x6): computer (match me: {hard} hard, yellow) is thinking"
    assert thinking[0].seats[1] == {"seat": 2, "colour": "#ffff00", "colour_name": "yellow", "name": None,
                                    "level": "tough", "kind": "computer", "match_me": True, "number": tough}
    with Records(path) as stored:
        match = stored.matches()[0]
    assert [r.level for r in match.rounds] == ["tough", "hard", "tough"]
    assert match.sides[1] == Side(YELLOW, level=MATCH_ME.name)


def test_the_next_match_starts_where_the_persons_last_match_me_left_off(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    assert match_me_start(recorder, "Ann", LADDER).level == MIDDLE              # nothing yet: the middle
    recorder.start_match((ANN, Side(YELLOW, level=MATCH_ME.name)), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4141414"), facts=RoundFacts(level="expert"))          # Ann beat expert
    recorder.start_round()
    recorder.played(2, 2, Board.from_moves("1212121"), facts=RoundFacts(level="master"))          # then lost to master
    recorder.end_match(None)
    assert match_me_start(recorder, "Ann", LADDER).level == LADDER[LADDER.index("master") - 1]   # one down
    assert match_me_start(recorder, "Bob", LADDER).level == MIDDLE              # another person: the middle
    small = ladder_for(Size(4, 4))
    assert small[:3] == ("easy", "casual", "steady") and small[-1] == "perfect" and "expert" not in small
    assert match_me_start(recorder, "Ann", small).level == "perfect"            # the nearest on 4x4
    lost = MatchMe.starting(LADDER, "casual")
    assert match_me_start(None, "Ann", LADDER, lost).level == "casual"          # no records: this process's
    recorder.close()


def test_a_new_series_halves_the_distance_and_one_going_on_from_the_records_steps_a_level(tmp_path):
    recorder = Recorder(tmp_path / "games.db", clock=ticking())
    new = match_me_start(recorder, "Ann", LADDER)
    assert new == MatchMe.starting(LADDER, MIDDLE)                              # nothing yet: a new series
    below = LADDER.index(MIDDLE)
    assert new.after(Round.LOST) == LADDER[below - (below + 1) // 2]            # half the levels below
    recorder.start_match((ANN, Side(YELLOW, level=MATCH_ME.name)), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 2, Board.from_moves("1212121"), facts=RoundFacts(level="expert"))          # Ann lost to expert
    recorder.end_match(None)
    going_on = match_me_start(recorder, "Ann", LADDER)
    expert = LADDER.index("expert")
    assert (going_on.level, going_on.after(Round.LOST)) == (LADDER[expert - 1], LADDER[expert - 2])   # one down, and one
    # again
    recorder.close()


def test_match_me_is_offered_after_the_levels_and_where_two_levels_play():
    assert CHOICES[MATCH_ME_INDEX][:2] == (MATCH_ME, "M")
    assert MATCH_ME_INDEX == len(LEVELS) + 1
    assert MATCH_ME.sizes() == SIZES and MATCH_ME in opponents_for(Size(8, 6))
    assert Opponent.parse("match-me") == MATCH_ME and (MATCH_ME.kind, MATCH_ME.level, MATCH_ME.name) == (
        OpponentKind.MATCH_ME, None, "match-me")
    assert grid(choice_frame(MATCH_ME_INDEX, default_palette())) == "\n".join((       # an M, its place dot 10 of 13 along the top
        "......W.",
        "........",
        "..W...W.",
        "..WW.WW.",
        "..W.W.W.",
        "..W...W.",
        "..W...W.",
        "........"))
    mock = MockBackend()
    mock.tap("left", "left", "left", "middle")      # 2P <- ? <- LAN <- M
    assert choose_opponent(mock) == MATCH_ME
    assert [s.caption for t, s in mock.statuses][-1] == "computer: match me (←/→ browse, Enter chooses)"
    assert mock.statuses[-1][1].details["about"].startswith("steps up the ladder after each round you win")


def test_the_helps_chooser_offers_none_then_hints_and_take_backs():
    mock = MockBackend()
    mock.tap("right", "middle")
    assert choose_helps(mock) is True
    assert [grid(f).splitlines()[0] for t, f in mock.frames][:2] == ["W.......", "....W..."]
    assert [s.text for t, s in mock.statuses] == [
        "choosing helps: helps: none: no hints, no take-backs",
        "choosing helps: helps: hints and take-backs: middle shows a hint, up then down takes a move back"]
    mock = MockBackend()
    mock.tap("up")
    assert choose_helps(mock) is None


def test_chosen_on_the_leds_match_me_with_helps_plays_and_counts(tmp_path):
    mock = MockBackend()
    mock.tap("left", "left", "left", "middle", "middle", "right", "middle")   # M; 7x6; helps on
    mock.tap("up", "up", at=5.0)
    reports = []
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    play_matches(mock, matches=1, recorder=recorder, report=lambda *r: reports.append(r))
    recorder.close()
    assert reports[0][1] == Computer(MIDDLE, player=2)
    said = [s for t, s in mock.statuses if s.phase == "playing"]
    assert said[0].text == "round 1 (0-0, 7x6): player 1 (red) to move (no helps used)"


def test_an_interrupted_match_me_resumes_at_its_last_rounds_level_with_its_counts(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, Side(YELLOW, level=MATCH_ME.name)), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4141414"), facts=RoundFacts(level="tough"))
    recorder.start_round()
    recorder.played(2, 2, Board.from_moves("12"), facts=RoundFacts(level="hard", hints=2, takebacks=1))
    recorder._conn.close()     # the power goes
    with Records(path) as stored:
        record = stored.matches()[0]
    again = interrupted(record)
    assert again.options.computer == Computer("hard", player=2)
    assert again.options.match_me == MatchMe.starting(LADDER, "hard", settled=True)   # on: a level a step
    assert (again.resumed.hints, again.resumed.takebacks) == (2, 1)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *args], capture_output=True, text=True, timeout=60)


def test_the_command_line_takes_match_me_and_helps_and_refuses_bad_ones_in_one_line():
    done = run_cli("--helps", "maybe")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("sensehat-c4: error: argument --helps: invalid choice: 'maybe' (choose from 'on', 'off') "
                           "(see --help)\n")
    done = run_cli("--helps", "on", "--opponent", "human")
    assert (done.returncode, done.stderr) == (2, "sensehat-c4: error: --helps on: hints and take-backs are against the "
                                                 "computer (not with --opponent human) (see --help)\n")
    done = run_cli("--opponent", "match-you")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "'match-me'" in done.stderr
    done = run_cli("--help")
    assert "match-me" in done.stdout and "--helps {on,off}" in done.stdout


def test_an_interrupted_match_me_between_rounds_resumes_a_step_on(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.start_match((ANN, Side(YELLOW, level=MATCH_ME.name)), columns=7, rows=6, backend="mock")
    recorder.start_round()
    recorder.played(1, 1, Board.from_moves("4141414"), facts=RoundFacts(level="tough"))      # Ann won round 1, then the power went
    recorder._conn.close()
    with Records(path) as stored:
        again = interrupted(stored.matches()[0])
    assert again.options.computer == Computer("hard", player=2)             # one up, as it would have gone
    assert (again.resumed.round, again.resumed.moves) == (2, "")
