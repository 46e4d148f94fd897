"""What Connect 4 says about its LEDs, in words (``words.py``), and where the game says it."""
from gamelib.backends.mock import MockBackend
from gamelib.status import Status
from sensehat_c4 import words
from sensehat_c4.chooser import RULES, choose_opponent, choose_size
from sensehat_c4.computer import Computer
from sensehat_c4.engine.levels import WORDS
from sensehat_c4.controller import MatchOptions, play
from sensehat_c4.rules import SIZES, Size
from test_computer_turns import factory

OFFERED = ["human", "easy", "medium", "hard", "perfect", "rules"]
LABELS = ["2 players", "computer: 1 easy", "computer: 4 medium", "computer: 6 hard", "computer: 9 perfect", "rules"]


def test_the_choosers_words():
    about = WORDS["easy"]
    assert words.choosing_opponent("easy", OFFERED) == Status(
        "choosing opponent", f"choosing the opponent: computer: 1 easy: {about}",
        "computer: 1 easy (left/right: browse)",
        {"game": "Connect 4", "choice": "computer: 1 easy", "choices": LABELS, "about": about})
    assert words.choosing_opponent("human", OFFERED) == Status(
        "choosing opponent", "choosing the opponent: 2 players", "2 players (left/right: browse)",
        {"game": "Connect 4", "choice": "2 players", "choices": LABELS})
    assert words.choosing_size(Size(6, 5), SIZES[:3]).as_json() == {
        "phase": "choosing size", "text": "choosing the board size: 6x5", "caption": "board size: 6x5",
        "game": "Connect 4", "choice": "6x5", "choices": ["4x4", "5x4", "6x4"]}


def test_the_opponent_chooser_says_each_item_and_the_rules():
    mock = MockBackend()
    mock.tap("left", "middle")                         # 2P -> ? (the rules), choose: they scroll
    mock.tap("right", "right", "down", at=200.0)       # ? -> 2P -> easy, choose
    assert choose_opponent(mock) == "easy"
    assert [s.caption for _, s in mock.statuses] == [
        "2 players (left/right: browse)", "rules (left/right: browse)", "the rules are scrolling: any key stops them",
        "rules (left/right: browse)", "2 players (left/right: browse)", "computer: 1 easy (left/right: browse)"]
    assert mock.statuses[2][1].text == RULES


def test_the_size_chooser_says_each_size():
    mock = MockBackend()
    mock.tap("left", "left", "middle")
    assert choose_size(mock, SIZES, Size(6, 5)) == Size(4, 5)
    assert [s.caption for _, s in mock.statuses] == ["board size: 6x5", "board size: 5x5", "board size: 4x5"]


def test_the_match_says_whose_turn_the_result_and_the_score():
    mock = MockBackend()
    for _ in range(4):                                         # red (Ann) stacks column 4; the computer plays 1
        mock.tap("down")
        mock.wait_until(mock._cursor + 2.0)
    mock.tap("up", at=12.0)                                    # round 2, Ann's turn: ask, then carry on
    mock.tap("left", at=12.5)
    mock.tap("up", "up", at=14.0)
    options = MatchOptions(computer=Computer("easy", player=2), names=("Ann", "Bob"))
    result = play(mock, options, thinker=factory(mock, column=0, delay=0.1))
    assert result.abandoned
    ann, computer = "Ann (red)", "computer (easy, yellow)"
    assert [s.text for _, s in mock.statuses] == [
        f"round 1 (0-0, 7x6): {ann} to move", f"round 1 (0-0, 7x6): {computer} is thinking"] * 3 + [
        f"round 1 (0-0, 7x6): {ann} to move",
        f"round 1 (1-0, 7x6): {ann} wins the round",
        f"round 2 (1-0, 7x6): {computer} is thinking",
        f"round 2 (1-0, 7x6): {ann} to move",
        "round 2 (1-0, 7x6): abandon the match? up again to confirm",
        f"round 2 (1-0, 7x6): {ann} to move",
        "round 2 (1-0, 7x6): abandon the match? up again to confirm",
        "abandoned at 1-0, Ann ahead"]
    assert mock.statuses[1][1].as_json() == {
        "phase": "thinking", "text": f"round 1 (0-0, 7x6): {computer} is thinking", "caption": None,
        "game": "Connect 4", "board": "7x6", "round": 1, "score": [0, 0], "turn": 2, "winner": None, "result": None,
        "seats": [{"seat": 1, "colour": "#ff0000", "name": "Ann", "level": None, "kind": "stick"},
                  {"seat": 2, "colour": "#ffff00", "name": None, "level": "easy", "kind": "computer"}]}
    won = mock.statuses[7][1].as_json()
    assert (won["phase"], won["result"], won["winner"], won["score"], won["turn"]) == ("result", "round", 1, [1, 0], None)
    assert mock.statuses[-1][1].as_json()["result"] == "abandoned"


def test_a_won_match_and_a_draw_are_said():
    from test_controller import MATCH_SETTLE, ROUND_SETTLE, moves

    mock = MockBackend()
    moves(mock, "455714637617614767242476316455122212535333", settle=0.35)   # a draw
    mock.wait_until(mock._cursor + 2.0)
    moves(mock, "4545454")                     # round 2: Bob (yellow) starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "4545454")                     # round 3: Ann starts and wins
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14241464")                    # round 4: Bob starts; Ann wins in column 4
    mock.wait_until(mock._cursor + MATCH_SETTLE)
    result = play(mock, MatchOptions(names=("Ann", "Bob")))
    assert (result.winner, result.score) == (1, (2, 1))
    results = [s.text for _, s in mock.statuses if s.phase == "result"]
    assert results == ["round 1 (0-0, 7x6): a draw", "round 2 (0-1, 7x6): Bob (yellow) wins the round",
                       "round 3 (1-1, 7x6): Ann (red) wins the round", "Ann wins 2-1"]
