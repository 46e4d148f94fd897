"""What Connect 4 says about its LEDs, in words (``words.py``), and where the game says it."""
import pytest

from gamelib.backends.mock import MockBackend
from gamelib.status import Status
from sensehat_c4.engine.rungs import number
from sensehat_c4.match import words
from sensehat_c4.match.chooser import RULES, choose_opponent, choose_size
from sensehat_c4.match.computer import Computer
from sensehat_c4.match.controller import MatchOptions, play
from sensehat_c4.match.opponents import HUMAN, Opponent
from sensehat_c4.rules import SIZES, Size
from scripted import factory

SOME = ("easy", "medium", "hard", "perfect")
OFFERED = [HUMAN, *map(Opponent.computer, SOME), None]   # None: the rules
LABELS = ["2 players", *(f"computer: {number(name)} {name}" for name in SOME), "rules"]   # a level's number: its row


def test_a_level_s_words_say_its_horizon_from_the_ladder():
    """The plies in a level's words are its Horizon's: the ladder's numbers, written once."""
    from sensehat_c4.engine.rungs import RUNGS

    assert words.LEVEL_WORDS["steady"] == ("sees wins and losses 7 to 13 stones ahead; plays by feel beyond "
                                           "(Elo about 1130)")
    for rung in RUNGS[1:-1]:   # casual to master: the words of easy and perfect name no plies
        horizon = rung.horizon
        assert f"sees wins and losses {horizon.low} to {horizon.high} stones ahead" in words.LEVEL_WORDS[rung.name]
    assert list(words.LEVEL_WORDS) == [rung.name for rung in RUNGS]


def test_the_choosers_words():
    about = words.LEVEL_WORDS["easy"]
    assert words.choosing_opponent(Opponent.computer("easy"), OFFERED) == Status(
        "choosing opponent", f"choosing the opponent: computer: 1 easy: {about}",
        "computer: 1 easy (←/→ browse, Enter chooses)",
        {"game": "Connect 4", "choice": "computer: 1 easy", "choices": LABELS,
         "opponent": {"kind": "computer", "level": "easy", "number": 1}, "about": about})
    assert words.choosing_opponent(HUMAN, OFFERED) == Status(
        "choosing opponent", "choosing the opponent: 2 players", "2 players (←/→ browse, Enter chooses)",
        {"game": "Connect 4", "choice": "2 players", "choices": LABELS,
         "opponent": {"kind": "human", "level": None, "number": None}})
    assert words.choosing_size(Size(6, 5), SIZES[:3]).as_json() == {
        "phase": "choosing size", "text": "choosing the board size: 6x5", "caption": "board size: 6x5 (←/→ browse, Enter chooses, ↑ back)",
        "game": "Connect 4", "choice": "6x5", "choices": ["4x4", "5x4", "6x4"]}


def test_the_opponent_chooser_says_each_item_and_the_rules():
    mock = MockBackend()
    mock.tap("left", "middle")                         # 2P -> ? (the rules), choose: they scroll
    mock.tap("right", "right", "down", at=200.0)       # ? -> 2P -> easy, choose
    assert choose_opponent(mock) == Opponent.computer("easy")
    browse = "(←/→ browse, Enter chooses)"
    assert [s.caption for _, s in mock.statuses] == [
        f"2 players {browse}", f"rules {browse}", "the rules are scrolling: any key stops them",
        f"rules {browse}", f"2 players {browse}", f"computer: 1 easy {browse}"]
    assert mock.statuses[2][1].text == RULES


def test_the_size_chooser_says_each_size():
    mock = MockBackend()
    mock.tap("left", "left", "middle")
    assert choose_size(mock, SIZES, Size(6, 5)) == Size(4, 5)
    assert [s.caption for _, s in mock.statuses] == [f"board size: {size} (←/→ browse, Enter chooses, ↑ back)"
                                                     for size in ("6x5", "5x5", "4x5")]


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
        "match not recorded: abandoned at 1-0, Ann ahead"]                   # no records: no number
    ann_keys = f"{ann} to move: ←/→ choose, Enter drops, ↑ abandons"      # the terminal's line: no "stick", no "middle"
    assert [s.caption for _, s in mock.statuses] == [ann_keys, f"{computer} thinking"] * 3 + [
        ann_keys, f"{ann} wins round 1", f"{computer} thinking", ann_keys,
        "abandon the match? ↑ again: yes, another key: play on", ann_keys,
        "abandon the match? ↑ again: yes, another key: play on", "match not recorded: abandoned at 1-0, Ann ahead"]
    assert mock.statuses[1][1].as_json() == {
        "phase": "thinking", "text": f"round 1 (0-0, 7x6): {computer} is thinking", "caption": f"{computer} thinking",
        "game": "Connect 4", "board": "7x6", "match": None, "round": 1, "score": [0, 0], "turn": 2, "winner": None, "result": None,
        "take_back": False,
        "seats": [{"seat": 1, "colour": "#ff0000", "colour_name": "red", "name": "Ann", "level": None, "kind": "stick"},
                  {"seat": 2, "colour": "#ffff00", "colour_name": "yellow", "name": None, "level": "easy",
                   "kind": "computer"}]}
    won = mock.statuses[7][1].as_json()
    assert (won["phase"], won["result"], won["winner"], won["score"], won["turn"]) == ("result", "round", 1, [1, 0], None)
    ended = mock.statuses[-1][1].as_json()
    assert (ended["result"], ended["match"], ended["summary"]) == ("abandoned", None, "abandoned at 1-0, Ann ahead")


def test_a_won_match_and_a_draw_are_said():
    from scripted import MATCH_SETTLE, ROUND_SETTLE, moves

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
                       "round 3 (1-1, 7x6): Ann (red) wins the round", "match not recorded: Ann wins 2-1"]
    assert [s.caption for _, s in mock.statuses if s.phase == "result"] == [
        "round 1: a draw", "Bob (yellow) wins round 2", "Ann (red) wins round 3", "match not recorded: Ann wins 2-1"]


@pytest.mark.parametrize("kind, name, level, caption", [
    ("stick", "Ann", None, "Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons"),
    ("stick", None, None, "player 1 (red) to move: ←/→ choose, Enter drops, ↑ abandons"),
    ("phone", "Bob", None, "waiting for Bob's phone (red)"),
    ("phone", None, None, "waiting for player 1's phone (red)"),
    ("remote", "Cy", None, "waiting for Cy (red) at the other Pi"),
    ("computer", None, "hard", "computer (hard, red) thinking"),
])
def test_whose_turn_in_the_terminals_words(kind, name, level, caption):
    seat = words.Seat(1, (255, 0, 0), name, level, kind)
    other = words.Seat(2, (255, 255, 0))
    phase = words.THINKING if kind == "computer" else words.PLAYING
    status = words.match(phase, (seat, other), size=Size(), number=1, score=(0, 0), turn=1)
    assert status.caption == caption
    assert "stick" not in caption and "middle" not in caption


def test_the_lan_guest_says_whose_turn_from_its_own_side():
    """The host (Ann, red, seat 1) sends its words; the guest (Bob, seat 2) shows its own turn with its
    keys and the host's as the other Pi's (it showed the host's line throughout)."""
    host, guest = words.Seat(1, (255, 0, 0), "Ann"), words.Seat(2, (255, 255, 0), "Bob", kind="remote")
    said = lambda turn: words.match(words.PLAYING, (host, guest), size=Size(), number=1, score=(0, 0),  # noqa: E731
                                    turn=turn)
    assert said(1).caption == "Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons"        # at the host
    assert said(2).caption == "waiting for Bob (yellow) at the other Pi"
    assert words.as_guest(said(1), 2).caption == "waiting for Ann (red) at the other Pi"       # at the guest
    assert words.as_guest(said(2), 2).caption == "Bob (yellow) to move: ←/→ choose, Enter drops, ↑ abandons"
    assert words.as_guest(said(2), 2).text == said(2).text                                     # the LEDs' words
    result = words.match(words.RESULT, (host, guest), size=Size(), number=1, score=(1, 0), winner=1, result="round")
    assert words.as_guest(result, 2) == result
    odd = Status(words.PLAYING, "x", "Ann (red) to move", {"turn": 3, "seats": []})           # unreadable: no caption
    assert words.as_guest(odd, 2) == Status(words.PLAYING, "x", None, {"turn": 3, "seats": []})


def test_the_lan_guest_numbers_the_match_as_its_own_records_do():
    """The host's words carry its records' number (12); the guest says its own (3), or none (not recorded
    there), in the detail and in the match's one line at its end, remade from ``summary``."""
    host, guest = words.Seat(1, (255, 0, 0), "Ann"), words.Seat(2, (255, 255, 0), "Bob", kind="remote")
    ended = words.match(words.RESULT, (host, guest), size=Size(), number=3, score=(2, 1), winner=1,
                        result=words.MATCH, summary="Ann wins 2-1", match_number=12)
    assert (ended.text, ended.caption, ended.details["match"], ended.details["summary"]) == (
        "match 12: Ann wins 2-1", "match 12: Ann wins 2-1", 12, "Ann wins 2-1")
    mine = words.as_guest(Status.from_json(ended.as_json()), 2, 3)          # as the guest reads it off the link
    assert (mine.text, mine.caption, mine.details["match"]) == ("match 3: Ann wins 2-1",) * 2 + (3,)
    assert words.as_guest(ended, 2, None).text == "match not recorded: Ann wins 2-1"
    playing = words.match(words.PLAYING, (host, guest), size=Size(), number=1, score=(0, 0), turn=1, match_number=12)
    assert words.as_guest(playing, 2, 3).details["match"] == 3 and words.as_guest(playing, 2, 3).text == playing.text
    bare = Status(words.RESULT, "match 12: Ann wins 2-1", None, {"match": 12, "result": "match"})   # no summary
    assert words.as_guest(bare, 2, 3) == Status(words.RESULT, "match 12: Ann wins 2-1", None, {"match": 3,
                                                                                             "result": "match"})


def test_whose_turn_it_is_and_the_seats_are_typed_fields_the_api_writes_as_keys():
    ann, bob = words.Seat(1, (255, 0, 0), "Ann"), words.Seat(2, (255, 255, 0), "Bob")
    playing = words.match(words.PLAYING, (ann, bob), size=Size(), number=1, score=(0, 0), turn=2)
    assert playing.turn == 2 and playing.seats == (ann.as_json(), bob.as_json())
    assert "turn" not in playing.details and "seats" not in playing.details
    as_json = playing.as_json()
    assert (as_json["turn"], as_json["seats"]) == (2, [ann.as_json(), bob.as_json()])
    assert Status.from_json(as_json) == playing                          # what a LAN guest reads back
    confirming = words.match(words.CONFIRMING, (ann, bob), size=Size(), number=1, score=(0, 0))
    assert confirming.as_json()["turn"] is None and Status.from_json(confirming.as_json()) == confirming
    rules = words.rules("the rules")
    assert "turn" not in rules.as_json() and Status.from_json(rules.as_json()) == rules


@pytest.mark.parametrize("data, turn, seats, details", [
    ({"turn": 3, "seats": []}, None, None, {"turn": 3, "seats": []}),  # neither a seat: details as they came
    ({"turn": True, "seats": [{}, {}]}, None, ({}, {}), {}),            # a bool is no seat
    ({"turn": "1"}, None, None, {"turn": "1"}),                          # not a turn: a detail as it came
    ({"turn": {"seat": 2}}, None, None, {"turn": {"seat": 2}}),          # training's seat to find a move
    ({"turn": 1, "seats": [{}, {}, {}]}, 1, None, {}),                   # a turn typed: what is no seats goes
])
def test_words_from_another_pi_become_typed_fields_only_when_they_are_a_seat(data, turn, seats, details):
    status = Status.from_json({"phase": "playing", "text": "x", "caption": None, **data})
    assert (status.turn, status.seats, dict(status.details)) == (turn, seats, details)


def test_a_status_refuses_a_turn_that_is_no_seat_and_a_turn_in_its_details_beside_the_typed_one():
    with pytest.raises(ValueError, match="turn is seat 1 or 2, not 3"):
        Status(words.PLAYING, "x", turn=3)
    with pytest.raises(ValueError, match="turn and seats are typed fields, not details"):
        Status(words.PLAYING, "x", None, {"turn": 1}, turn=1)


def test_a_players_kind_is_a_typed_value_said_and_sent_as_its_word():
    """``Kind`` is the one list of kinds; each is its string where it is said or sent (the web API's
    ``kind``, the LAN's state, the logs), so nothing a phone or another Pi reads changed."""
    import json

    from gamelib.seats import Kind, SeatTable
    from sensehat_c4.match.computer import Thinker
    from sensehat_c4.match.players import Person

    assert [k.value for k in Kind] == ["stick", "phone", "remote", "computer", "person", "player"]
    assert (str(Kind.PHONE), f"{Kind.PHONE}:1", f"{Kind.REMOTE:>7}", json.dumps([Kind.COMPUTER])) == (
        "phone", "phone:1", " remote", '["computer"]')
    assert (Person().kind, Person("phone:1", kind=Kind.PHONE).kind, Person("key:2").kind, Thinker.kind) == (
        Kind.STICK, Kind.PHONE, Kind.PERSON, Kind.COMPUTER)
    assert repr(Person("phone:1", kind=Kind.PHONE)) == "Person('phone:1', kind='phone')"
    assert SeatTable().take(2, "phone:1").kind is Kind.PHONE
    with pytest.raises(ValueError):
        Person("phone:1", kind="robot")
    seat = words.Seat(1, (255, 0, 0), "Ann", kind=Kind.PHONE)
    assert seat.as_json()["kind"] == "phone" and json.dumps(seat.as_json()["kind"]) == '"phone"'
    # another Pi's kind this one does not know: a person at some keys, as before the kinds were typed
    host = words.match(words.PLAYING, (seat, words.Seat(2, (255, 255, 0))), size=Size(), number=1, score=(0, 0),
                       turn=1)
    assert host.seats is not None
    unknown = Status(host.phase, host.text, host.caption, host.details, turn=host.turn,
                     seats=({**host.seats[0], "kind": "robot"}, host.seats[1]))
    assert words.as_guest(unknown, 2).caption == "Ann (red) to move: ←/→ choose, Enter drops, ↑ abandons"


@pytest.mark.parametrize("seat", [
    {"colour": 123, "name": "Ann", "level": None, "kind": "stick"},            # not a colour: no caption
    {"colour": "nope", "name": "Ann", "level": None, "kind": "stick"},         # no colour's name
    {},
])
def test_a_host_s_seat_that_cannot_be_read_loses_the_turn_s_caption_never_raises(seat):
    status = Status.from_json({"phase": "playing", "text": "t", "caption": "c", "turn": 1, "seats": [seat, seat]})
    assert words.as_guest(status, 2).caption is None

