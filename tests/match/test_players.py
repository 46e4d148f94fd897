"""The player protocol (``players.py``) as the match drives it: scripted players, a phone's seat, seats
changed while a match runs; presses injected from another thread wake the loop without a timer."""
import logging
import threading
import time

import pytest

from gamelib.backends.base import STICK, Action, Direction, StickEvent
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, RED
from sensehat_c4.match import render
from sensehat_c4.match.controller import MatchOptions, MatchResult, Timing, play
from sensehat_c4.match.players import Person, Player, Seats
from sensehat_c4.rules import Board

T = Timing()
P = render.Palette()
PHONE = "phone:1"
BLACK_FRAME = (BLACK,) * 64


class Scripted(Player):
    """A player that does not press: it answers each turn with the next column of its script at once
    (another Pi sending its moves would look like this to the match)."""

    kind = "remote"

    def __init__(self, columns):
        self.columns = list(columns)
        self.started = []
        self.cancelled = 0
        self._next = None

    def start(self, board):
        self.started.append(board.notation())
        self._next = self.columns.pop(0)

    def poll(self):
        return self._next

    def cancel(self):
        self.cancelled += 1


def frames(mock):
    return [f for _, f in mock.frames]


def board(moves, cursor=None):
    return tuple(render.board_frame(Board.from_moves(moves), P, cursor=cursor))


def fall(moves):
    """The last token of ``moves`` falling."""
    return [tuple(f) for f, _ in render.falling(Board.from_moves(moves), int(moves[-1]) - 1, P, T.fall_row)]


def test_two_scripted_players_play_a_whole_round_through_the_protocol():
    mock = MockBackend()
    first, second = Scripted([0, 0, 0, 0]), Scripted([1, 1, 1])
    result = play(mock, MatchOptions(wins=1), seats=Seats(first, second))
    assert result == MatchResult(1, (1, 0), False, 1)
    expected = []
    moves = "1212121"
    for ply, move in enumerate(moves):
        before = Board.from_moves(moves[:ply])
        expected += [tuple(render.thinking_frame(before, P, k)) for k in range(6)]   # 0.6 s shown at least
        expected.append(board(moves[:ply], int(move) - 1))                            # aim
        expected += fall(moves[:ply + 1])
    won = Board.from_moves(moves)
    expected += [tuple(f) for f, _ in render.blink_cells(won, won.outcome.cells, P, 3, T.win_blink)]
    expected += [tuple(render.digit_frame(1, RED, P)), (RED,) * 64, BLACK_FRAME]
    assert frames(mock) == expected
    assert first.started == ["", "12", "1212", "121212"] and second.started == ["1", "121", "12121"]
    assert first.cancelled == second.cancelled == 0
    assert [round(t, 6) for t, _ in list(mock.frames)[:8]] == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.9]  # ticks, aim, fall
    said = [s.text for _, s in mock.statuses]
    assert said == [f"round 1 (0-0, 7x6): player {1 + ply % 2} ({'red' if ply % 2 == 0 else 'yellow'}) is thinking"
                    for ply in range(7)] + ["match not recorded: player 1 wins 1-0"]
    last = mock.statuses[-1][1].as_json()
    assert last["seats"] == [
        {"seat": 1, "colour": "#ff0000", "colour_name": "red", "name": None, "level": None, "kind": "remote"},
        {"seat": 2, "colour": "#ffff00", "colour_name": "yellow", "name": None, "level": None, "kind": "remote"}]
    assert (last["phase"], last["result"], last["winner"], last["score"]) == ("result", "match", 1, [1, 0])


def test_a_column_a_thinking_player_cannot_play_is_ignored_and_it_thinks_on(caplog):
    mock = MockBackend()
    mock.tap("down")                                   # seat 1, the stick, drops in column 4
    mock.tap("up", "up", at=3.0)
    with caplog.at_level(logging.WARNING, logger="sensehat_c4"):
        result = play(mock, MatchOptions(), seats=Seats(None, Scripted([9])))   # seat 2 answers column 10
    assert result.abandoned
    four = Board.from_moves("4")
    thinking = [tuple(render.thinking_frame(four, P, k)) for k in range(20)]
    shown = frames(mock)
    assert shown[len(fall("4")) + 1:][:20] == thinking                # past the 0.6 s, still thinking
    assert shown[-2:] == [tuple(render.confirm_frame(four, P, True)), BLACK_FRAME]
    assert caplog.messages == ["remote player of seat 2 chose column 9, which it cannot play; ignored"]


def test_a_phones_presses_drive_its_seat_and_nobody_elses():
    mock = MockBackend()
    seats = Seats(None, Person(PHONE, kind="phone"))
    mock.tap("right", "down", source=PHONE)         # the phone on seat 1's turn: nothing
    mock.tap("down")                                 # the stick: seat 1 drops in column 4
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("right", "down")                        # the stick on the phone's turn: nothing
    mock.tap("left", "down", source=PHONE)           # the phone: seat 2 drops in column 3
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up", source=PHONE)                     # the phone asks to abandon on seat 1's turn: nothing
    mock.tap("up", "up")                             # the stick asks, and confirms
    result = play(mock, MatchOptions(), seats=seats)
    assert result == MatchResult(None, (0, 0), True, 1)
    assert frames(mock) == ([board("", 3)] + fall("4") + [board("4", 3), board("4", 2)] + fall("43")
                            + [board("43", 3), tuple(render.confirm_frame(Board.from_moves("43"), P, True)),
                               BLACK_FRAME])
    kinds = [[s["kind"] for s in status.as_json()["seats"]] for _, status in mock.statuses if status.details]
    assert kinds[0] == ["stick", "phone"]
    assert [s.text for _, s in mock.statuses][:3] == ["round 1 (0-0, 7x6): player 1 (red) to move",
                                                      "round 1 (0-0, 7x6): player 2 (yellow) to move",
                                                      "round 1 (0-0, 7x6): player 1 (red) to move"]


def test_a_phones_up_asks_on_its_turn_and_its_up_or_the_sticks_answers():
    for answer in (PHONE, STICK):
        mock = MockBackend()
        mock.tap("down")                                         # seat 1 (the stick)
        mock.wait_until(mock._cursor + 0.5)
        mock.tap("up", source=PHONE)                              # the phone asks on its own turn
        mock.tap("down", source="phone:2")                        # another phone's press changes nothing
        mock.tap("up", source=answer)
        result = play(mock, MatchOptions(), seats=Seats(None, Person(PHONE, kind="phone")))
        assert result.abandoned, answer
        assert frames(mock)[-2:] == [tuple(render.confirm_frame(Board.from_moves("4"), P, False)), BLACK_FRAME]


def test_the_stick_asks_to_abandon_on_a_phones_turn_and_another_press_of_the_phone_does_not_answer():
    mock = MockBackend()
    mock.tap("down")
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up")                                   # the stick asks on the phone's turn
    mock.tap("middle", source=PHONE)                 # the phone cannot answer the stick's question
    mock.tap("middle")                               # the stick can: carry on
    mock.tap("down", source=PHONE)                   # the phone plays column 4
    mock.wait_until(mock._cursor + 0.5)
    mock.tap("up", "up")
    play(mock, MatchOptions(), seats=Seats(None, Person(PHONE, kind="phone")))
    assert board("44", 3) in frames(mock)


def wait_blocked(mock, count, timeout=10.0):
    """Wait (in the test's thread) until the match has blocked in its wait ``count`` times."""
    deadline = time.monotonic() + timeout
    while not (mock.real_waits >= count and mock.blocked.is_set()):
        assert time.monotonic() < deadline, f"the match did not wait a {count}th time"
        time.sleep(0.001)
    return mock.now()


def test_presses_injected_from_another_thread_wake_the_match_without_a_timer():
    mock = MockBackend(real_wait=10.0)
    mock.tap("down")                                  # seat 1 (the stick) drops in column 4 at 0.2 s
    seen = []

    def phone():
        seen.append(wait_blocked(mock, 1))            # seat 2's turn: the match waits with no timeout
        mock.stick.inject("right", source=STICK)            # the stick has not seat 2: nothing
        seen.append(wait_blocked(mock, 2))
        mock.stick.inject("right", source=PHONE)            # the phone moves its cursor ...
        seen.append(wait_blocked(mock, 3))
        mock.stick.inject("down", source=PHONE)             # ... and drops
        seen.append(wait_blocked(mock, 4))            # seat 1's turn again
        with mock.together():                         # abandon? and yes, in one batch
            mock.stick.inject("up", source=STICK)
            mock.stick.inject("up", source=STICK)

    thread = threading.Thread(target=phone)
    thread.start()
    events = []
    original = mock.stick.wait_event
    mock.stick.wait_event = lambda timeout=None: events.append(original(timeout)) or events[-1]
    result = play(mock, MatchOptions(), seats=Seats(None, Person(PHONE, kind="phone")))
    thread.join(10)
    assert result.abandoned and not thread.is_alive()
    assert mock.real_waits == 4                       # one real wait per injection batch, none timed out
    assert seen[0] == seen[1] == seen[2]              # no fake time passed while it waited: no timer ran
    injected = [e for e in events if e is not None and e.action is Action.PRESSED][1:]
    assert injected == [StickEvent(seen[0], Direction.RIGHT, Action.PRESSED, STICK),
                        StickEvent(seen[0], Direction.RIGHT, Action.PRESSED, PHONE),
                        StickEvent(seen[0], Direction.DOWN, Action.PRESSED, PHONE),
                        StickEvent(seen[3], Direction.UP, Action.PRESSED, STICK),
                        StickEvent(seen[3], Direction.UP, Action.PRESSED, STICK)]
    assert frames(mock) == ([board("", 3)] + fall("4") + [board("4", 3), board("4", 4)] + fall("45")
                            + [board("45", 3), tuple(render.confirm_frame(Board.from_moves("45"), P, True)),
                               BLACK_FRAME])


def test_a_seat_taken_from_another_thread_changes_hands_at_once():
    mock = MockBackend(real_wait=10.0)
    seats = Seats()
    mock.tap("down")
    phone = Person(PHONE, kind="phone")

    def server():
        wait_blocked(mock, 1)                          # the stick has seat 2's turn
        seats.take(2, phone)                           # a phone takes seat 2: the match is woken
        wait_blocked(mock, 2)
        mock.stick.inject("down", source=STICK)              # the stick no longer plays seat 2
        wait_blocked(mock, 3)
        with mock.together():
            mock.stick.inject("left", source=PHONE)
            mock.stick.inject("down", source=PHONE)
        wait_blocked(mock, 4)                          # seat 1's turn
        seats.leave(2)                                 # the phone leaves on seat 1's turn: nothing to restart
        wait_blocked(mock, 5)
        with mock.together():
            mock.stick.inject("up", source=STICK)
            mock.stick.inject("up", source=STICK)

    thread = threading.Thread(target=server)
    thread.start()
    result = play(mock, MatchOptions(), seats=seats)
    thread.join(10)
    assert result.abandoned and not thread.is_alive()
    assert frames(mock) == ([board("", 3)] + fall("4") + [board("4", 3), board("4", 3), board("4", 2)] + fall("43")
                            + [board("43", 3), tuple(render.confirm_frame(Board.from_moves("43"), P, True)),
                               BLACK_FRAME])
    kinds = [status.as_json()["seats"][1]["kind"] for _, status in mock.statuses if status.phase == "playing"]
    assert kinds == ["stick", "stick", "phone", "phone", "stick"]
    assert seats.version == 2


def test_seats_check_their_numbers():
    with pytest.raises(ValueError, match="a seat is 1 or 2"):
        Seats().take(3, Person())
    assert Person().kind == "stick" and Person(PHONE).kind == "person" and Person(PHONE).source == PHONE
