""""Match me" (``engine/matchme.py``): the steps it takes after each round (halving the distance in
a new series, then one level at a time), its bounds, players who win below their level and lose above
it met within a few rounds from either end, and the ladder's own levels as simulated players: from any
start it settles within 10 rounds."""
from typing import List, Tuple

import pytest

from sensehat_c4.engine import LEVELS, choose_move
from sensehat_c4.engine.matchme import MatchMe, Round
from sensehat_c4.errors import ConfigError
from sensehat_c4.rules import Board

NAMES = list(LEVELS)
NINE = ["easy", "casual", "steady", "medium", "tough", "hard", "expert", "master", "perfect"]
"""A ladder of nine, the steps' exact sequences are checked on (the algorithm takes any list of levels; the
game's ladder, :data:`NAMES`, may hold more)."""
SETTLE_WITHIN = 10


W, D, L = Round.WON, Round.DRAWN, Round.LOST


@pytest.mark.parametrize("start, results, seen", [
    # from an end: half the way (4 levels), the same stride on, then halved at each turn
    ("easy", [W, W, W, L, L, L, W, L], ["tough", "perfect", "perfect",     # 4 up, 4 up, nowhere further
                                        "perfect", "master",               # turned: the top holds one loss, then 1
                                        "hard", "expert", "hard"]),        # the stride 2 on, then 1 at each turn
    ("perfect", [L, L, W, W, W, L], ["tough", "easy",                     # 4 down, 4 down
                                     "easy", "casual",                    # turned: easy holds one win, then 1 up
                                     "medium", "steady"]),                # stride 2, then 1
    # from the middle (a new series in the game): half the way to either end, 2 levels
    ("tough", [W, W, L, L], ["expert", "perfect", "perfect", "master"]),
    ("tough", [L, L, W], ["steady", "easy", "easy"]),
    # from an end, a first round toward it, then one away: it has turned, so the end holds one round
    ("perfect", [W, L, L], ["perfect", "perfect", "master"]),
    # a draw moves nothing and turns nothing
    ("easy", [D, W, D, W], ["easy", "tough", "tough", "perfect"]),
])
def test_a_new_series_halves_the_distance_then_halves_its_stride_at_each_turn(start, results, seen):
    opponent = MatchMe.starting(NINE, start)
    assert [opponent.after(result) for result in results] == seen


def scripted(player: str, start: str, rounds: int = 10, ladder: List[str] = NAMES) -> Tuple[List[str], List[float]]:
    """A player who wins every round against the levels below its own, loses every one against those above,
    and wins against its own level the rounds it starts (the even ones): the levels played, its points."""
    opponent = MatchMe.starting(ladder, start)
    place = ladder.index(player)
    levels: List[str] = []
    points: List[float] = []
    for number in range(rounds):
        here = ladder.index(opponent.level)
        won = here < place or (here == place and number % 2 == 0)
        levels.append(opponent.level)
        points.append(float(won))
        opponent.after(Round.WON if won else Round.LOST)
    return levels, points


@pytest.mark.parametrize("player", NAMES)
@pytest.mark.parametrize("start", [NAMES[0], NAMES[-1]])
def test_from_either_end_a_player_is_met_within_five_rounds_and_scores_35_to_65_over_ten(player, start):
    levels, points = scripted(player, start)
    assert 1 <= settled_at(player, levels) <= 5, levels
    assert 0.35 <= sum(points) / len(points) <= 0.65, (levels, points)


def test_the_weakest_player_from_the_top_is_down_at_the_bottom_in_two_rounds():
    levels, points = scripted("easy", "perfect", rounds=4, ladder=NINE)
    assert levels == ["perfect", "tough", "easy", "easy"] and points == [0, 0, 1, 0]
    levels, points = scripted("perfect", "easy", rounds=4, ladder=NINE)
    assert levels == ["easy", "tough", "perfect", "perfect"] and points == [1, 1, 1, 0]


def test_going_on_from_rounds_played_before_it_steps_one_level_and_two_from_the_third_the_same_way():
    opponent = MatchMe.starting(NINE, "medium", settled=True)
    results = [Round.WON, Round.WON, Round.WON, Round.WON, Round.LOST, Round.DRAWN, Round.LOST, Round.LOST,
               Round.WON, Round.LOST, Round.LOST, Round.LOST, Round.LOST]
    seen = [opponent.after(result) for result in results]
    assert seen == ["tough", "hard", "master", "perfect",      # up 1, 1, then 2 at a time, held at the top
                    "perfect", "perfect", "perfect",           # one loss does not leave the top; a draw stays
                    "master",                                  # the second loss in a row does
                    "perfect", "perfect", "master", "hard", "medium"]   # from the top after two; 2 from the third
    assert opponent.level == "medium" and opponent.streak == -4


def test_it_never_leaves_the_levels_it_is_given_and_leaves_an_end_after_two_rounds():
    offered = ("easy", "casual", "steady", "medium", "perfect")     # a size where the middle of the ladder is missing
    opponent = MatchMe.starting(offered, "casual", settled=True)
    assert [opponent.after(Round.LOST) for _ in range(4)] == ["easy"] * 4
    assert [opponent.after(Round.WON) for _ in range(4)] == ["easy", "casual", "medium", "perfect"]
    assert [opponent.after(r) for r in (Round.LOST, Round.DRAWN, Round.LOST, Round.LOST)] == [
        "perfect", "perfect", "perfect", "medium"]


def test_a_start_it_does_not_offer_is_refused():
    with pytest.raises(ConfigError, match="match me starts from one of easy, perfect \\(not 'hard'\\)"):
        MatchMe.starting(["easy", "perfect"], "hard")


def test_a_result_is_a_round_s_result_only():
    opponent = MatchMe.starting(NINE, "medium", settled=True)
    assert opponent.after(1) == "tough" and opponent.after(-1) == "medium"
    with pytest.raises(ValueError):
        opponent.after(2)


def series(player: str, start: str, rounds: int, seed: int,
           until_settled: bool = False) -> Tuple[List[str], List[float]]:
    """``player`` (a level as a simulated person) against "match me" on 7x6, the two starting rounds
    in turn: the opponent's level and the player's points in each round (``until_settled``: up to the
    first round against a level within one of the player's own)."""
    opponent = MatchMe.starting(NAMES, start)
    levels: List[str] = []
    points: List[float] = []
    for number in range(rounds):
        level = opponent.level
        if until_settled and settled_at(player, levels):
            break
        sides = (player, level) if number % 2 == 0 else (level, player)
        board = Board()
        while not board.is_over:
            board.play(choose_move(board, sides[board.ply % 2], seed=seed * 10_000 + number * 100 + board.ply).column)
        outcome = board.outcome
        assert outcome is not None
        seat = 1 if number % 2 == 0 else 2               # the player's (both sides may be one level)
        mine = 0.5 if outcome.winner is None else float(outcome.winner == seat)
        levels.append(level)
        points.append(mine)
        opponent.after(Round.DRAWN if mine == 0.5 else Round.WON if mine else Round.LOST)
    return levels, points


def settled_at(player: str, levels: List[str]) -> int:
    """The first round (from 1) played against a level within one of the player's own (0: none)."""
    place = NAMES.index(player)
    return next((r + 1 for r, level in enumerate(levels) if abs(NAMES.index(level) - place) <= 1), 0)


@pytest.mark.parametrize("player", NAMES)
def test_from_either_end_of_the_ladder_it_settles_within_ten_rounds(player):
    for start in (NAMES[0], NAMES[-1]):
        levels, _ = series(player, start, SETTLE_WITHIN, seed=NAMES.index(player), until_settled=True)
        assert 1 <= settled_at(player, levels) <= SETTLE_WITHIN, (player, start, levels)


@pytest.mark.slow
@pytest.mark.parametrize("player", NAMES)
def test_from_every_start_it_settles_within_ten_rounds_and_the_player_scores_40_to_60(player):
    place = NAMES.index(player)
    after: List[float] = []
    for start in NAMES:
        levels, points = series(player, start, 30, seed=100 + 10 * place + NAMES.index(start))
        at = settled_at(player, levels)
        assert 1 <= at <= SETTLE_WITHIN, (player, start, levels)
        after += points[at - 1:]
    score = sum(after) / len(after)
    assert 0.4 <= score <= 0.6, (player, score)
