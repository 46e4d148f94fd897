"""The ladder: its table and words; what a level below perfect knows (exactly the outcomes within
its horizon, against the exact scores and a plain minimax); its moves not memorisable and not
depending on the clock; each level beating the one two below; perfect keeping every value."""
import random
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from engine_data import oracle, positions, child_scores

from sensehat_c4.engine import LEVELS, Limit, SearchResult, choose_move
from sensehat_c4.engine.levels import LADDER, Search, number
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.rungs import RUNGS
from sensehat_c4.engine.oracle import Oracle
from sensehat_c4.engine.position import Position, shape_of
from sensehat_c4.engine.sight import DRAW, LOSS, WIN, Known, Sight, choose, foresee, known_of, vary
from sensehat_c4.errors import ConfigError, IllegalMoveError
from sensehat_c4.match.words import LEVEL_WORDS as WORDS
from sensehat_c4.rules import SIZES, Board, Size

NAMES = [rung.name for rung in RUNGS]
BELOW_PERFECT = [rung.name for rung in RUNGS if rung.horizon is not None]


@pytest.fixture(scope="module")
def solver():
    return oracle(book12=True)


def play(levels: Tuple[str, str], seed: int, solver=None) -> Tuple[Board, List[Tuple[int, SearchResult]]]:
    """One game from the empty board; returns the final board and perfect's results by ply."""
    board = Board()
    perfect = []
    while not board.is_over:
        level = levels[board.ply % 2]
        result = choose_move(board, level, seed=seed * 100 + board.ply, oracle=solver)
        assert board.can_play(result.column)
        if level == "perfect":
            perfect.append((board.ply, result))
        board.play(result.column)
    return board, perfect


# -- the table -------------------------------------------------------------------------------

def test_the_ladder_is_its_rows_weakest_first_each_with_its_words():
    assert list(LEVELS) == NAMES and [level.name for level in LADDER] == NAMES and len(NAMES) >= 9
    assert [number(name) for name in NAMES] == list(range(1, len(NAMES) + 1))
    assert NAMES[0] == "easy" and NAMES[-1] == "perfect" and BELOW_PERFECT == NAMES[:-1]
    assert list(WORDS) == NAMES and all(WORDS[name] for name in NAMES)
    sights = [LEVELS[name].play for name in BELOW_PERFECT]
    assert all(isinstance(s, Sight) for s in sights)
    # further up the horizon is longer at both ends; the noise falls from 1 (easy) below 0.5 from tough up
    assert all(a.low < b.low and a.high < b.high for a, b in zip(sights, sights[1:]))
    assert sights[0].noise == 1.0 and all(0 < s.noise < 0.5 for s in sights[BELOW_PERFECT.index("tough"):])


def test_a_sight_refuses_a_range_that_makes_no_sense():
    with pytest.raises(ValueError, match="low <= high"):
        Sight(5, 3, 1.0)
    with pytest.raises(ValueError, match="noise >= 0"):
        Sight(1, 3, -1.0)


# -- what a level knows ----------------------------------------------------------------------

@pytest.mark.parametrize("cells, moves, score, known", [
    (42, 0, 1, Known(WIN, 41)),        # player 1 wins the empty 7x6 board with its 21st stone
    (42, 10, 16, Known(WIN, 1)),       # a win with the next stone
    (42, 10, 15, Known(WIN, 3)),
    (42, 11, -15, Known(LOSS, 2)),     # the other side's next stone wins
    (42, 11, -14, Known(LOSS, 4)),
    (42, 30, 0, Known(DRAW, 12)),
    (16, 3, 6, Known(WIN, 3)),         # 4x4: (16 + 2 - 3 - 3) // 2 = 6
    (16, 4, -6, Known(LOSS, 2)),
])
def test_an_exact_score_is_an_outcome_so_many_plies_away(cells, moves, score, known):
    assert known_of(cells, moves, score) == known
    assert known.score(cells, moves) == score


def test_every_score_and_its_plies_go_both_ways():
    for cells in (16, 30, 42, 48):
        for moves in range(cells):
            for plies in range(1, cells - moves + 1):
                for outcome in (WIN, LOSS):
                    if (plies % 2 == 1) != (outcome == WIN):
                        continue
                    known = Known(outcome, plies)
                    assert known_of(cells, moves, known.score(cells, moves)) == known


def expected(board: Board, scores: Dict[int, int], horizon: int) -> Dict[int, object]:
    """What a level of ``horizon`` must see, worked out from every move's exact score."""
    cells = board.columns * board.rows
    seen = {}
    for column, score in scores.items():
        known = known_of(cells, board.ply, score)
        seen[column] = known if known.plies <= horizon else None
    return seen


SAMPLES = [moves for moves, _ in positions("Test_L3_R1")[:4] + positions("Test_L2_R1")[:4]]


@pytest.mark.parametrize("moves", SAMPLES)
def test_a_horizon_sees_exactly_the_outcomes_decided_within_it(moves, solver):
    board = Board.from_moves(moves)
    position = Position.of(board)
    scores = solver.move_scores(position, Budget())
    for horizon in range(0, 43 - board.ply, 2 if board.ply < 20 else 1):
        found = foresee(solver, position, horizon, Budget())
        assert found.complete
        assert found.seen == expected(board, scores, horizon), (moves, horizon)


@pytest.mark.parametrize("moves", ["", "12", "2332", "1234", "112233"])
def test_a_horizon_on_4x4_against_a_plain_minimax(moves):
    board = Size(4, 4).from_moves(moves)
    scores = child_scores(board, {})
    fresh = Oracle(shape_of(board.layout))
    for horizon in range(0, 17 - board.ply):
        found = foresee(fresh, Position.of(board), horizon, Budget())
        assert found.seen == expected(board, scores, horizon), (moves, horizon)


def test_a_short_horizon_misses_a_threat_that_a_longer_one_sees(solver):
    board = Board.from_moves("44343")      # player 2 to move; player 1's 3 and 4 on row 1 are open at 2 and 5
    position = Position.of(board)
    scores = solver.move_scores(position, Budget())
    assert {c for c, s in scores.items() if s == -17} == {0, 2, 5, 6}     # lost to player 1's second stone
    for horizon in range(4):
        assert foresee(solver, position, horizon, Budget()).seen == {c: None for c in range(7)}
    four = foresee(solver, position, 4, Budget()).seen
    assert four == {c: Known(LOSS, 4) if c in (0, 2, 5, 6) else None for c in range(7)}
    seeing, blind = Sight(4, 4, 3.0), Sight(3, 3, 3.0)
    moves = {sight: {sight(Search(position, random.Random(seed), Limit(), Budget(), solver)).column
                     for seed in range(40)} for sight in (seeing, blind)}
    assert moves[seeing] <= {1, 3, 4} and moves[blind] & {0, 2, 5, 6}


def test_the_choice_takes_the_fastest_win_avoids_seen_losses_and_defends_longest():
    board = Board.from_moves("4453")
    position = Position.of(board)
    rng = random.Random(1)
    seen = {0: Known(WIN, 5), 1: Known(WIN, 3), 2: None, 3: Known(LOSS, 2), 4: Known(WIN, 3), 5: None, 6: None}
    assert {choose(position, seen, 1.0, random.Random(s))[0] for s in range(20)} == {1, 4}
    seen = {0: Known(LOSS, 2), 1: Known(LOSS, 6), 2: None, 3: Known(LOSS, 4), 4: Known(DRAW, 30), 5: None,
            6: Known(LOSS, 2)}
    assert {choose(position, seen, 5.0, random.Random(s))[0] for s in range(60)} == {2, 4, 5}
    seen = {0: Known(LOSS, 2), 1: Known(LOSS, 6), 2: Known(LOSS, 6), 3: Known(LOSS, 4), 4: Known(LOSS, 2),
            5: Known(LOSS, 2), 6: Known(LOSS, 2)}
    assert {choose(position, seen, 0.0, random.Random(s))[0] for s in range(20)} == {1, 2}
    # no noise: the heuristic's best, ties split by the seed
    column, known, value = choose(position, {c: None for c in range(7)}, 0.0, rng)
    assert known is None and value is not None


def test_a_horizon_reaching_the_end_plays_as_perfect(solver):
    board = Board.from_moves("4344744673633212217741")    # 22 stones of a recorded game: 20 cells left
    sight = Sight(20, 20, 1.0)
    position = Position.of(board)
    scores = solver.move_scores(position, Budget())
    best = max(scores.values())
    for seed in range(5):
        result = sight(Search(position, random.Random(seed), Limit(), Budget(), solver))
        assert scores[result.column] == best and result.optimal and result.depth == 20


# -- not memorisable, not the clock's --------------------------------------------------------

MIDGAME = "4453432"


@pytest.mark.parametrize("level", BELOW_PERFECT)
def test_the_same_position_does_not_always_get_the_same_move(level, solver):
    for moves in ("4453", "44"):
        board = Board.from_moves(moves)
        chosen = {choose_move(board, level, seed=seed, oracle=solver).column for seed in range(30)}
        assert len(chosen) >= 2, (moves, chosen)


@pytest.mark.parametrize("level", NAMES)
def test_the_same_seed_gives_the_same_move_whatever_the_limit(level, solver):
    # a fresh table for each call: perfect's choice among equally good moves (and a level's that
    # sees to the end of the game, which plays as perfect does) depends on what its table holds
    for moves in (MIDGAME, "43447446736332", "434474467363321221774166"):
        board = Board.from_moves(moves)
        answers = {(r.column, r.score, r.value, r.depth, r.source)
                   for limit in (Limit(), Limit(seconds=600), Limit(nodes=10 ** 9))
                   for r in [choose_move(board, level, limit=limit, seed=11, oracle=fresh(solver))]}
        assert len(answers) == 1, (level, moves, answers)


def seeded_game(level: str, seed: int, book12: bool) -> str:
    """A whole game of ``level`` (player 1) against medium, every move's seed drawn from ``seed`` as a
    match's computer player draws them, each side with a new oracle of one thread."""
    board = Board()
    rng = random.Random(seed)
    oracles = (oracle(book12=book12, threads=1), oracle(book12=book12, threads=1))
    while not board.is_over:
        mover = board.ply % 2
        board.play(choose_move(board, (level, "medium")[mover], seed=rng.randrange(2 ** 32),
                               oracle=oracles[mover]).column)
    return board.notation()


@pytest.mark.parametrize("level", NAMES)
def test_a_game_s_seed_gives_the_same_game_and_another_seed_another(level, solver):
    games = [seeded_game(level, seed, book12=solver.book12 is not None) for seed in (5, 5, 6)]
    assert games[0] == games[1] != games[2], games


def fresh(like: Oracle) -> Oracle:
    """A new oracle with ``like``'s books and an empty table."""
    return Oracle(like.shape, like.openings, like.book12)


def test_a_level_whose_budget_runs_out_says_so_and_still_moves(solver):
    board = Board.from_moves("43447446736332")
    solver.solver.reset()
    result = choose_move(board, "tough", limit=Limit(nodes=1), seed=3, oracle=solver)
    assert result.source == "budget" and board.can_play(result.column)


# -- variety: among moves of the same exact score -------------------------------------------

@pytest.mark.parametrize("moves", ["445", "44445"])
@pytest.mark.parametrize("level", ["tough", "hard", "expert"])
def test_below_perfect_a_level_draws_among_the_moves_of_its_choice_s_exact_score(moves, level, solver):
    # columns 3 and 6 both score +2 (the best); the others lose to the next stones: the heuristic and
    # these levels' small noises chose column 3 every time, and now either is drawn
    board = Board.from_moves(moves)
    scores = solver.move_scores(Position.of(board), Budget())
    assert {c for c, s in scores.items() if s == max(scores.values())} == {2, 5}
    chosen = [choose_move(board, level, seed=seed, oracle=solver).column for seed in range(30)]
    assert set(chosen) == {2, 5}
    assert chosen == [choose_move(board, level, seed=seed, oracle=solver).column for seed in range(30)]


def test_vary_keeps_the_exact_score_and_reaches_every_move_that_has_it():
    position = Position.of(Board.from_moves("44444"))      # every move scores -1 (lost with the last stone)
    scores = {column: -1 for column in range(7)}
    drawn = [vary(position, scores, 3, random.Random(seed)) for seed in range(200)]
    assert {column for column, _ in drawn} == set(range(7))
    assert drawn == [vary(position, scores, 3, random.Random(seed)) for seed in range(200)]   # the seed decides
    # the heuristic still counts: the middle columns come up more often than the edges
    count = [sum(column == c for column, _ in drawn) for c in range(7)]
    assert min(count[2:5]) > max(count[0], count[6])
    scores = {0: -1, 1: -3, 2: 2, 3: -3, 4: -3, 5: 2, 6: -1}
    assert {vary(position, scores, 2, random.Random(seed))[0] for seed in range(40)} == {2, 5}
    assert {vary(position, scores, 1, random.Random(seed))[0] for seed in range(40)} == {1, 3, 4}


def test_the_book_scores_every_move_up_to_its_stones_and_no_further(solver):
    for moves in ("", "4", "4453", "4444442"):           # the children have at most 8 stones: in the book
        board = Board.from_moves(moves)
        assert solver.book_scores(Position.of(board)) == solver.move_scores(Position.of(board), Budget())
    assert solver.book_scores(Position.of(Board.from_moves("44444422"))) is None   # their children: 9 stones


def fixed_opening(level: str, opponent: str, level_first: bool, seed: int) -> str:
    """The first 8 stones of ``level`` (its moves drawn from ``seed``) against ``opponent`` drawing every
    move from the seed 0: an opponent that answers a position always the same way."""
    board = Board()
    rng = random.Random(seed)
    mine = 0 if level_first else 1
    while board.ply < 8 and not board.is_over:
        ours = board.ply % 2 == mine
        board.play(choose_move(board, level if ours else opponent, seed=rng.randrange(2 ** 32) if ours else 0).column)
    return board.notation()


@pytest.mark.parametrize("level", BELOW_PERFECT)
def test_against_a_fixed_opponent_a_level_plays_at_least_8_openings_in_20_games_each_way(level):
    # (the first 8 stones are in the opening book: what a level knows there does not depend on its table)
    for level_first in (True, False):
        openings = {fixed_opening(level, "medium", level_first, seed) for seed in range(20)}
        assert len(openings) >= 8, (level, level_first, sorted(openings))


# -- strength --------------------------------------------------------------------------------

@pytest.mark.parametrize("lower, upper", list(zip(NAMES, NAMES[2:])))
def test_each_level_beats_the_level_two_below_in_a_seeded_series(lower, upper, solver):
    points = 0.0
    games = 12
    for game in range(games):
        levels = (upper, lower) if game % 2 == 0 else (lower, upper)   # each starts half the games
        board, _ = play(levels, seed=game, solver=solver)
        outcome = board.outcome
        assert outcome is not None
        points += 0.5 if outcome.winner is None else levels[outcome.winner - 1] == upper
    assert points >= 0.7 * games, (upper, points)


@pytest.mark.parametrize("opponent", BELOW_PERFECT[::2] + ["master", "perfect"])
def test_perfect_as_player_one_wins_every_game_from_the_start(opponent, solver):
    # the empty board is a win for player 1 with its 21st stone: perfect must get at least that
    board, moves = play(("perfect", opponent), 1, solver)
    moves = [(ply, r) for ply, r in moves if ply % 2 == 0]   # player 1's
    assert board.outcome is not None and board.outcome.winner == 1
    assert all(r.optimal for _, r in moves)
    assert all(r.score is None or r.score >= 1 for _, r in moves)
    best = max(r.score for _, r in moves if r.score is not None)
    assert 22 - (board.ply + 1) // 2 >= best   # it won with its k-th stone: at least as fast
    if opponent == "perfect":
        assert board.ply == 41             # both perfect: the first player wins with its last stone


@pytest.mark.parametrize("opponent", BELOW_PERFECT[1::2] + ["perfect"])
def test_perfect_as_player_two_never_gives_a_value_away(opponent, solver):
    board, moves = play((opponent, "perfect"), 2, solver)
    moves = [(ply, r) for ply, r in moves if ply % 2 == 1]   # player 2's
    values = [(ply, r.score) for ply, r in moves if r.score is not None]
    assert all(r.optimal for _, r in moves)
    # the value of perfect's position (exact, from the books or the solver) never drops
    for (_, before), (ply, after) in zip(values, values[1:]):
        assert after >= before, (board.notation()[:ply], before, after)
    best = max(v for _, v in values)
    outcome = board.outcome
    assert outcome is not None
    if best > 0:
        assert outcome.winner == 2 and 22 - board.ply // 2 >= best   # won, at least as fast
    elif best == 0:
        assert outcome.winner != 1
    else:
        assert outcome.winner == 1 and 22 - (board.ply + 1) // 2 <= -best  # lost no sooner


def test_perfect_scores_agree_with_a_test_set_position(solver):
    board = Board.from_moves("2553635322312")     # Test_L1_R1: 13 stones, past both books, score -8
    result = choose_move(board, "perfect", seed=1, oracle=solver)
    assert result.source == "solver" and result.optimal and result.score == -8
    assert result.score == solver.score(Position.of(board), Budget())
    assert solver.move_scores(Position.of(board), Budget())[result.column] == result.score


def test_perfect_splits_ties_between_optimal_moves_by_the_seed(solver):
    board = Board.from_moves("4453")           # columns 3, 6 and 7 all score -2
    scores = solver.move_scores(Position.of(board), Budget())
    best = [c for c, s in scores.items() if s == max(scores.values())]
    assert sorted(best) == [2, 5, 6]
    chosen = {choose_move(board, "perfect", seed=seed, oracle=solver).column for seed in range(12)}
    assert chosen == set(best)
    assert all(choose_move(board, "perfect", seed=5, oracle=solver).column
               == choose_move(board, "perfect", seed=5, oracle=solver).column for _ in range(3))


WIN_IN_ONE = "121212"      # player 1 to move wins in column 1 (its 4th stone)
MUST_BLOCK = "17273"       # player 1 has columns 1-3 on the bottom row: player 2 must play column 4


@pytest.mark.parametrize("level", NAMES)
def test_every_level_wins_in_one_and_all_but_the_first_always_block(level):
    for seed in range(10):
        assert choose_move(Board.from_moves(WIN_IN_ONE), level, seed=seed).column == 0
        if level != "easy":
            assert choose_move(Board.from_moves(MUST_BLOCK), level, seed=seed).column == 3


def test_easy_sometimes_misses_a_block():
    blocks = [choose_move(Board.from_moves(MUST_BLOCK), "easy", seed=s).column for s in range(60)]
    assert 30 <= blocks.count(3) < 60          # it sees it with a horizon of 2 or 3, two times in three


def test_the_board_is_not_changed():
    board = Board.from_moves("4453")
    for level in LEVELS:
        choose_move(board, level, seed=1)
    assert board.notation() == "4453" and board.ply == 4


def test_perfect_out_of_budget_plays_the_heuristic_search_s_move():
    solver = oracle(book12=True, threads=1)            # a node limit is reproducible with one thread only
    board = Board.from_moves("2147756677465")          # Test_L1_R3: needs millions of nodes
    result = choose_move(board, "perfect", limit=Limit(nodes=3000), oracle=solver)
    # nothing proven; the exact search spent the nodes (checked every 4,096), so the heuristic
    # search had only its first depth: column 5 makes the most threats there
    assert (result.column, result.source, result.optimal, result.score) == (4, "budget", False, None)
    assert (result.depth, result.value) == (1, 3)


def test_bad_calls_are_our_errors():
    with pytest.raises(ConfigError, match=f"level must be one of {', '.join(LEVELS)} \\(not 'genius'\\)$"):
        choose_move(Board(), "genius")
    with pytest.raises(IllegalMoveError, match="the game is already over"):
        choose_move(Board.from_moves("1212121"), "easy")


def test_the_guide_s_level_table_is_the_words_table():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "computer.md").read_text()
    rows = ["| level | how it plays |", "| --- | --- |"] + [
        f"| {number(name)} {name} | {WORDS[name]} |" for name in NAMES]
    assert "\n".join(rows) in guide


def numbers(names: List[str]) -> str:
    """``1-4, 9``: the levels' numbers, runs joined."""
    found = sorted(number(name) for name in names)
    runs: List[List[int]] = []
    for n in found:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def test_the_guide_s_table_of_sizes_is_the_levels_table():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "computer.md").read_text()
    rows = ["| board | levels offered, native core | levels offered, Python core |", "| --- | --- | --- |"]
    for size in SIZES:
        native = [level.name for level in LADDER if size in (level.native_sizes or level.sizes)]
        python = [level.name for level in LADDER if size in level.sizes]
        rows.append(f"| {size} | {numbers(native)} | {numbers(python)} |")
    assert "\n".join(rows) in guide, "\n".join(rows)
