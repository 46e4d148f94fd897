"""``gamelib/web/seating.py`` and ``gamelib/seats.py``: the PIN, the lockout, the tokens, the seat table
(a fake clock; no sockets: the routes over real sockets are in test_web_api.py)."""
import itertools

import pytest

from gamelib.seats import SeatTable, check_seat
from gamelib.web.http import HttpError
from gamelib.web.limits import Limits, RateTable, TokenBucket
from gamelib.web.seating import Seating, new_pin, new_token


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def seating(pins=("1234", "5678", "9012", "3456", "7890"), **limits):
    clock = Clock()
    table = SeatTable()
    told = []
    source = iter(pins)
    tokens = (f"token-{n}" for n in itertools.count(1))
    seats = Seating(table, Limits(**limits), clock=clock, pins=lambda: next(source), tokens=lambda: next(tokens),
                    pin_changed=told.append)
    return seats, table, clock, told


def refused(call, status, code):
    with pytest.raises(HttpError) as caught:
        call()
    assert (caught.value.status, caught.value.code) == (status, code)
    return caught.value


def test_the_right_pin_gives_the_seat_a_token_and_a_fresh_pin():
    seats, table, _, told = seating()
    assert seats.pin == "1234"
    token, sitter, version = seats.sit("1234", 2)
    assert token == "token-1"
    assert (sitter.seat, sitter.source, sitter.kind) == (2, "phone:1", "phone")
    assert table[2] is sitter and table[1] is None
    assert seats.pin == "5678" and told == ["5678"]          # each PIN seats once
    assert seats.sitter("token-1") is sitter
    refused(lambda: seats.sit("1234", 1), 403, "bad_pin")    # the old PIN is spent


def test_five_wrong_pins_from_anywhere_lock_seating_for_a_minute_then_a_fresh_pin_opens_it():
    seats, table, clock, told = seating()
    for _ in range(4):
        refused(lambda: seats.sit("0000", 1), 403, "bad_pin")
    assert seats.locked_for() == 0 and told == []
    error = refused(lambda: seats.sit("0000", 1), 403, "bad_pin")   # the fifth: wrong, and locks
    assert ("Retry-After", "60") in error.headers
    assert seats.locked_for() == 60 and seats.pin == "5678" and told == ["5678"]
    # locked: even the right PIN is refused, and guesses do not count
    for pin in ("5678", "0000", "1111"):
        error = refused(lambda: seats.sit(pin, 1), 429, "locked")
    assert ("Retry-After", "60") in error.headers
    clock.now += 59.5
    refused(lambda: seats.sit("5678", 1), 429, "locked")
    clock.now += 0.5
    token, sitter, _ = seats.sit("5678", 1)
    assert table[1] is sitter and seats.wrong_total == 5


def test_a_right_pin_starts_the_count_of_wrong_ones_again():
    seats, _, _, _ = seating()
    for _ in range(4):
        refused(lambda: seats.sit("0000", 1), 403, "bad_pin")
    seats.sit("1234", 1)
    for _ in range(4):
        refused(lambda: seats.sit("0000", 1), 403, "bad_pin")
    assert seats.locked_for() == 0


@pytest.mark.parametrize("pin", [1234, "123", "12345", "12a4", "１２３４", None, ["1234"], "", " 1234"])
def test_a_pin_that_is_not_four_digits_is_a_bad_request_and_no_guess(pin):
    seats, table, _, _ = seating()
    for _ in range(10):
        refused(lambda: seats.sit(pin, 1), 400, "bad_request")
    assert seats.wrong_total == 0 and seats.locked_for() == 0 and table.sitters() == (None, None)


@pytest.mark.parametrize("seat", [0, 3, "1", 1.0, True, None, [1]])
def test_a_seat_is_the_integer_1_or_2(seat):
    seats, table, _, _ = seating()
    refused(lambda: seats.sit("1234", seat), 400, "bad_request")
    assert seats.pin == "1234" and table.sitters() == (None, None)


def test_a_token_lasts_until_the_seat_is_emptied_taken_over_or_left():
    seats, table, _, _ = seating()
    first, sitter, _ = seats.sit("1234", 1)
    second, other, _ = seats.sit("5678", 2)
    table.clear()                                           # the match ended
    for token in (first, second):
        refused(lambda: seats.sitter(token), 403, "bad_token")
    again, sitter, _ = seats.sit("9012", 1)
    takeover, new, _ = seats.sit("3456", 1)                     # the right PIN takes a held seat over
    assert table[1] is new and new.source != sitter.source
    refused(lambda: seats.sitter(again), 403, "bad_token")
    assert seats.leave(takeover) is new and table[1] is None
    refused(lambda: seats.sitter(takeover), 403, "bad_token")


@pytest.mark.parametrize("token", ["token-2", "", "x" * 10_000, 5, None, {"a": 1}])
def test_a_forged_token_is_refused(token):
    seats, _, _, _ = seating()
    seats.sit("1234", 1)
    refused(lambda: seats.sitter(token), 403, "bad_token")


def test_presses_are_rate_limited_per_seat():
    seats, _, clock, _ = seating(presses_per_second=10, press_burst=20)
    _, one, _ = seats.sit("1234", 1)
    _, two, _ = seats.sit("5678", 2)
    assert [seats.press_allowed(one) for _ in range(21)] == [True] * 20 + [False]
    assert seats.press_allowed(two)                          # the other seat has its own
    clock.now += 0.15                                        # 1.5 presses' worth
    assert seats.press_allowed(one) and not seats.press_allowed(one)


def test_the_state_says_which_seats_phones_hold_and_whether_seating_is_locked():
    seats, _, _, _ = seating(pin_tries=1)
    assert seats.state()["version"] == 0
    _, _, version = seats.sit("1234", 2)
    refused(lambda: seats.sit("0000", 1), 403, "bad_pin")
    assert (version, seats.state()) == (1, {"seats": [{"seat": 1, "taken": False, "kind": None},
                                                     {"seat": 2, "taken": True, "kind": "phone"}],
                                           "locked": True, "version": 1})


def test_a_seat_comes_with_the_version_a_state_must_reach_to_speak_of_it():
    """The page sits at version n and ignores an older state still on its way (which would say the seat
    is free and make the page give it up); every change of the table raises the version."""
    seats, _, _, _ = seating()
    _, _, first = seats.sit("1234", 1)
    seats.table.clear()                                      # the match ended: the seat with it
    assert seats.state()["version"] > first
    _, _, again = seats.sit("5678", 1)
    assert again == seats.state()["version"] > first


def test_pins_and_tokens_are_random():
    pins = {new_pin() for _ in range(200)}
    assert all(len(p) == 4 and p.isdigit() for p in pins) and len(pins) > 150
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50 and all(len(t) >= 32 for t in tokens)


def test_the_seat_table_tells_its_watchers_and_leaves_only_the_sitter_given():
    table = SeatTable()
    told = []
    stop = table.watch(lambda seat, sitter: told.append((seat, sitter)))
    one = table.take(1, "phone:1")
    two = table.take(1, "phone:2")
    assert not table.leave(1, one) and table[1] is two       # a stale sitter cannot empty the seat
    assert table.leave(1, two)
    table.clear()                                            # nothing to clear: nobody told
    stop()
    table.take(2, "phone:3")
    assert told == [(1, one), (1, two), (1, None)] and table.version == 4
    with pytest.raises(ValueError):
        check_seat(True)


def test_rate_limiters():
    clock = Clock()
    bucket = TokenBucket(2, 3, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == pytest.approx(0.5)
    clock.now += 0.5
    assert bucket.take()
    table = RateTable(1, 1, size=3, clock=clock)
    assert all(table.take(n) for n in range(10)) and len(table) == 3   # bounded: old keys are forgotten
    assert not table.take(9)
