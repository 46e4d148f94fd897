"""A power cut loses nothing: real games in a pty (``sensehat-c4 --backend terminal``, and Connect 4
from ``gamelib``'s menu) killed with SIGKILL at random moments, again and again, each time restarted.

The invariant, checked at every restart: every move the killed program *showed* is on the board the
resume question shows (and in the file), and at most one more: the move it had committed while its
token was still in the cursor row (the fall's first frame, the same picture as the cursor's; the
commit happens while it is up, so every frame that shows a token below the cursor row comes after
its commit).  A move is counted shown once a frame the program wrote before it died shows its token
below the cursor row (falling or landed), read off everything it wrote to the terminal, also after
the kill.  When the killed program had just committed a match's last move, nothing is interrupted:
the next start begins a new match.  At the end, the last match is played to its end without a kill
and must finish with the score its rounds give.

The moments: right after a drop (0-0.35 s: before the key is read, during the commit, during the
fall, after the landing), during a round's or the match's end animations, on the resume question,
and while the program starts.  Each restart is the command or, now and then, the launcher.
``C4_KILL_SEED`` picks another plan of games and moments; ``C4_KILL_REPORT`` names a JSON file for
the tally of outcomes.
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import pytest

from gamelib.colours import RED, YELLOW
from gamelib.palette import palette as default_palette
from pty_terminal import PtyProgram, game, hex_colours, history, leds
from records_data import rows
from sensehat_c4.match import render
from sensehat_c4.match.chooser import choice_frame
from sensehat_c4.match.game import ICON
from sensehat_c4.records import MatchStatus, Records
from sensehat_c4.rules import Board

COLUMNS, LINES = 40, 16
SEAT_COLOURS = (RED, YELLOW)
TOKENS = set(hex_colours(SEAT_COLOURS))
FIELD = hex_colours([render.Palette().field])[0]


# -- the plan: the games the players play, move by move --------------------------------------------


@dataclass(frozen=True)
class Round:
    starter: int
    moves: str
    winner: int


def random_round(rng: random.Random, starter: int) -> Round:
    """Random legal moves until someone has four (a full board, a draw, is played again)."""
    while True:
        board = Board()
        while board.outcome is None:
            board.play(rng.choice(board.legal_moves()))
        if board.outcome.winner is not None:
            return Round(starter, board.notation(), starter if board.outcome.winner == 1 else 3 - starter)


def plan_matches(rng: random.Random, count: int) -> List[List[Round]]:
    """Best of three, seat 1 starting the odd rounds."""
    matches = []
    for _ in range(count):
        rounds: List[Round] = []
        while max([r.winner for r in rounds].count(s) for s in (1, 2)) < 2:
            rounds.append(random_round(rng, 1 if len(rounds) % 2 == 0 else 2))
        matches.append(rounds)
    return matches


@dataclass(frozen=True)
class Place:
    """Where a game stands: match ``m``, round ``r``, ``p`` moves into it."""

    m: int
    r: int
    p: int


class Plan:
    """Every position of the planned matches, by the number of moves made since the first."""

    def __init__(self, matches: List[List[Round]]) -> None:
        self.matches = matches
        self.places: List[Place] = []
        self.match_starts: List[int] = []
        self.round_starts: Dict[Tuple[int, int], int] = {}
        for m, rounds in enumerate(matches):
            self.match_starts.append(len(self.places))
            for r, rnd in enumerate(rounds):
                self.round_starts[m, r] = len(self.places)
                self.places += [Place(m, r, p) for p in range(len(rnd.moves))]
        self.end = len(self.places)
        self.places.append(Place(len(matches), 0, 0))

    def round(self, place: Place) -> Round:
        return self.matches[place.m][place.r]

    def score(self, place: Place) -> Tuple[int, int]:
        won = [r.winner for r in self.matches[place.m][:place.r]]
        return won.count(1), won.count(2)

    def board(self, place: Place) -> List[str]:
        """The resume question's board (and a turn's first frame) at ``place``."""
        rnd = self.round(place)
        board = Board.from_moves(rnd.moves[:place.p])
        palette = render.Palette(SEAT_COLOURS[rnd.starter - 1], SEAT_COLOURS[2 - rnd.starter])
        return hex_colours(render.board_frame(board, palette, cursor=3))

    def match_end(self, m: int) -> int:
        return self.match_starts[m + 1] if m + 1 < len(self.match_starts) else self.end


NOT_PLAY = {tuple(hex_colours(ICON(default_palette())))}
"""The launcher's picture of Connect 4 (a board with tokens: not one of the game's)."""
WHITE = hex_colours([render.Palette().flash])[0]


def tokens(frame: List[str]) -> Optional[int]:
    """How many tokens a board frame shows below the cursor row (one falling counts); ``None`` for a
    frame that is no board of the game (a score, a colour filling the screen, the menu, a chooser)."""
    if FIELD not in frame or WHITE in frame or tuple(frame) in NOT_PLAY:
        return None
    return sum(1 for colour in frame[8:] if colour in TOKENS)


def shown_after(plan: Plan, start: int, frames: List[List[str]]) -> int:
    """The furthest position the frames of a program that began at ``start`` showed."""
    shown = start
    base = plan.round_starts.get((plan.places[start].m, plan.places[start].r), start)
    for frame in frames:
        count = tokens(frame)
        if count is None or base >= plan.end:
            continue
        length = len(plan.round(plan.places[base]).moves)
        if count == 0 and shown == base + length:
            base += length   # the round was over: this is the next one's empty board
            continue
        shown = max(shown, base + count)
    return shown


# -- driving the game ----------------------------------------------------------------------------------


def environment(tmp_path, db) -> Dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8", SENSEHAT_C4_DB=str(db),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("NO_COLOR", None)
    return env


def start(env, launcher: bool) -> PtyProgram:
    if launcher:
        return PtyProgram([sys.executable, "-m", "gamelib", "--backend", "terminal", "--log-level", "error"],
                          columns=COLUMNS, lines=LINES, env=env)
    return PtyProgram(game("--backend", "terminal", "--opponent", "human"), columns=COLUMNS, lines=LINES, env=env)


def asking(program: PtyProgram) -> bool:
    return "resume? Enter: yes, ↑: start afresh" in program.text()


def resume(program: PtyProgram, where: str) -> None:
    """Enter on the question; the match's words replace it (keys sent sooner would be dropped with
    what was pressed on the question)."""
    program.press("enter")
    program.wait_for(lambda p: not asking(p), what=f"the match after the question {where}")


def steer(program: PtyProgram, plan: Plan, at: int) -> None:
    """Make the move at position ``at``: the cursor from the middle to its column, then Enter."""
    column = int(plan.round(plan.places[at]).moves[plan.places[at].p]) - 1
    steps = column - 3
    program.press(*(["right"] * steps if steps > 0 else ["left"] * -steps))
    program.press("enter")


def wait_for_turn(program: PtyProgram, plan: Plan, at: int, timeout: float = 15.0) -> None:
    wanted = plan.board(plan.places[at])
    place = plan.places[at]
    program.wait_for(lambda p: leds(p.screen) == wanted, timeout=timeout,
                     what=f"the board of position {at} ({place}: {plan.round(place).moves[:place.p]!r}; "
                          f"the LEDs show {tokens(leds(program.screen) or [])} tokens)")


MOMENTS = ("drop", "animation", "question", "start")
"""When a program is killed: soon after a drop, during a round's end, on the question, while it starts."""


@dataclass
class Tally:
    kills: Counter
    outcomes: Counter

    def as_json(self) -> Dict[str, Dict[str, int]]:
        return {"kills": dict(self.kills), "outcomes": dict(self.outcomes)}


def run_kills(tmp_path, db, *, seed: int, kills: int, launcher_share: float, play_out: bool = True) -> Tally:
    """``kills`` programs killed at random moments, each restarted; then (``play_out``) the last match
    played to its end."""
    rng = random.Random(seed)
    plan = Plan(plan_matches(rng, 12))
    env = environment(tmp_path, db)
    shown = 0                  # the furthest position the programs so far showed
    tally = Tally(Counter(), Counter())
    for kill in range(kills + 1):
        final = kill == kills
        launcher = not final and rng.random() < launcher_share
        moment = "none" if final else rng.choices(MOMENTS, [70, 12, 10, 8])[0]
        where = f"(seed {seed}, kill {kill}, {moment}{', launcher' if launcher else ''}, shown {shown})"
        program = start(env, launcher)
        began = shown
        try:
            if moment == "start":
                time.sleep(rng.uniform(0.0, 0.8))
            else:
                began, asked = begin(program, plan, shown, launcher, where, tally, check_score=kill % 3 == 0)
                if moment == "question" and asked:
                    time.sleep(rng.uniform(0.0, 2.5))
                else:
                    if asked:
                        resume(program, where)
                    if final:
                        if play_out:
                            finish(program, plan, began, where, db)
                        return tally
                    play_until_kill(program, plan, began, moment, rng)
            os.kill(program.process.pid, 9)
            program.process.wait()
            program.pump(0.3)            # what it wrote before it died is still in the terminal: read it all
            shown = max(shown, shown_after(plan, began, history(program.output, COLUMNS, LINES)))
            tally.kills[moment] += 1
            tally.kills["of them, started from the launcher"] += launcher
        finally:
            program.close()
    raise AssertionError("not reached")


def begin(program: PtyProgram, plan: Plan, shown: int, launcher: bool, where: str, tally: Tally,
          check_score: bool) -> Tuple[int, bool]:
    """Start (through the menu, if ``launcher``) and check what the program offers against what the
    last one showed; the position play goes on from, and whether it was asked about."""
    if launcher:
        program.wait_for(lambda p: leds(p.screen) == hex_colours(ICON(default_palette())), what=f"Connect 4's icon {where}")
        program.press("enter")
    fresh = [hex_colours(choice_frame(0, default_palette())), plan.board(Place(0, 0, 0))]   # the chooser; a new match's board
    program.wait_for(lambda p: asking(p) or leds(p.screen) in fresh, timeout=20, what=f"the start {where}")
    program.pump(0.1)
    if asking(program):
        program.wait_for(lambda p: tokens(leds(p.screen) or []) is not None, timeout=5,
                         what=f"the question's board {where}")
        candidates = {at: plan.board(plan.places[at]) for at in (shown, shown + 1) if at < plan.end}
        offered = leds(program.screen)
        found = [a for a, frame in candidates.items() if frame == offered]
        assert found, (f"the question shows {tokens(offered)} tokens, not position {shown} "
                       f"({plan.places[shown]}) nor one more {where}")
        at = found[0]
        assert at not in plan.match_starts, f"a match that had ended was offered {where}"
        assert stored_moves() == expected_moves(plan, at), where
        if check_score and plan.places[at].r > 0:
            one, two = plan.score(plan.places[at])
            wanted = hex_colours(render.score_frame((one, two), SEAT_COLOURS, (0, 0, 0)))
            program.wait_for(lambda p: leds(p.screen) == wanted, timeout=5, what=f"the score {one}-{two} {where}")
        tally.outcomes["resumed: every move shown" if at == shown else
                       "resumed: one move more (committed, not shown)"] += 1
        return at, True
    # nothing to resume: the killed program had committed a match's last move (or none of a new match)
    boundary = [b for b in (shown, shown + 1) if b in plan.match_starts]
    assert boundary, f"nothing was offered, but position {shown} is inside match {plan.places[shown].m} {where}"
    at = boundary[0]
    if launcher:   # the chooser: two players, then the size
        program.wait_for(lambda p: leds(p.screen) == hex_colours(choice_frame(0, default_palette())), what=f"the chooser {where}")
        program.press("enter")
        program.pump(0.3)
        program.press("enter")
    wait_for_turn(program, plan, at)
    tally.outcomes["a new match (the last had ended)" if at == shown else
                   "a new match (the last one's last move committed, not shown)"] += 1
    return at, False


def expected_moves(plan: Plan, at: int) -> List[Tuple[int, str, str]]:
    """The rounds of the match in play at ``at``, as the file must hold them."""
    place = plan.places[at]
    done = [(r + 1, rnd.moves, "win") for r, rnd in enumerate(plan.matches[place.m][:place.r])]
    return done + ([(place.r + 1, plan.round(place).moves[:place.p], "playing")] if place.p else [])


def stored_moves() -> List[Tuple[int, str, str]]:
    with Records() as stored:
        playing = [m for m in stored.matches() if m.status is MatchStatus.PLAYING]
        assert stored.notes == [] and len(playing) == 1
        return [(r.number, r.moves, r.result.value) for r in playing[0].rounds]


def play_until_kill(program: PtyProgram, plan: Plan, at: int, moment: str, rng: random.Random) -> None:
    """A few moves (never past the match's end), then the moment to kill: soon after the last drop,
    or, for ``animation``, while the round's (or match's) end shows."""
    place = plan.places[at]
    round_end = plan.round_starts[place.m, place.r] + len(plan.round(place).moves)
    count = round_end - at if moment == "animation" and round_end - at <= 4 else rng.randint(1, 3)
    count = min(count, plan.match_end(place.m) - at)
    for k in range(count):
        wait_for_turn(program, plan, at + k)
        steer(program, plan, at + k)
    if moment == "animation" and at + count == round_end:
        time.sleep(rng.uniform(0.3, 3.5))
    else:
        time.sleep(rng.uniform(0.0, 0.35))


def finish(program: PtyProgram, plan: Plan, at: int, where: str, db) -> None:
    """Play the match on to its end (no kill): it ends with the score its rounds give."""
    m = plan.places[at].m
    for position in range(at, plan.match_end(m)):
        wait_for_turn(program, plan, position)
        steer(program, plan, position)
    winners = [r.winner for r in plan.matches[m]]
    winner = 1 if winners.count(1) == 2 else 2
    line = re.compile(rf"match (\d+): player {winner} wins 2-{winners.count(3 - winner)}")
    program.wait_for(lambda p: line.search(p.text()), timeout=20, what=f"{line.pattern!r} {where}")
    shown = int(line.search(program.text()).group(1))
    program.press("q")
    program.finish()
    assert program.process.returncode == 0
    match_id = rows(db, "SELECT MAX(id) FROM matches")[0][0]
    assert shown == match_id                                  # the line numbers the match as the records do
    assert rows(db, f"SELECT status, winner FROM matches WHERE id = {match_id}") == [("finished", winner)]
    assert rows(db, f"SELECT moves, result FROM rounds WHERE match_id = {match_id}") == [
        (rnd.moves, "win") for rnd in plan.matches[m]]
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]


def report(tally: Tally) -> None:
    path = os.environ.get("C4_KILL_REPORT")
    print("kill -9 tally:", json.dumps(tally.as_json()))
    if path:
        with open(path, "w") as out:
            json.dump(tally.as_json(), out)


def test_kill_9_a_few_times_and_every_shown_move_is_resumed(tmp_path, games_db):
    """The fast tier's share: three kills (one through the launcher), the fourth start checked."""
    tally = run_kills(tmp_path, games_db, seed=int(os.environ.get("C4_KILL_SEED", "7")), kills=3,
                      launcher_share=0.34, play_out=False)
    report(tally)
    assert sum(tally.kills[m] for m in MOMENTS) == 3 and sum(tally.outcomes.values()) >= 3


@pytest.mark.slow
def test_kill_9_fifty_times_and_every_shown_move_is_resumed_to_the_matchs_end(tmp_path, games_db):
    tally = run_kills(tmp_path, games_db, seed=int(os.environ.get("C4_KILL_SEED", "2026")), kills=50,
                      launcher_share=0.15)
    report(tally)
    assert sum(tally.kills[m] for m in MOMENTS) == 50
    assert tally.kills["drop"] >= 20   # the moments that matter most: around a move's commit
