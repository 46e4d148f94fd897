"""``gamelib/web/seating.py`` and ``gamelib/seats.py``: the PINs (each for the address that asked), their
queue, the tokens, the seat table (a fake clock; no sockets: the routes over real sockets are in
test_web_server.py, a PIN spray in test_web_hostile.py)."""
import itertools

import pytest

from gamelib.seats import SeatTable, check_seat
from gamelib.web.http import HttpError
from gamelib.web.limits import Limits, RateTable, TokenBucket
from gamelib.web.seating import HOLD_ADVICE, Seating, grouped, new_pairing_pin, new_pin, new_token


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def seating(pins=("1234", "5678", "9012", "3456", "7890", "2468"), pairing=("13579024", "24680246", "00000000"), **limits):
    clock = Clock()
    table = SeatTable()
    told = []
    source, pairing_source = iter(pins), iter(pairing)
    tokens = (f"token-{n}" for n in itertools.count(1))
    seats = Seating(table, Limits(**limits), clock=clock, pins=lambda: next(source),
                    pairing_pins=lambda: next(pairing_source), tokens=lambda: next(tokens), pin_changed=told.append)
    return seats, table, clock, told


def refused(call, status, code):
    with pytest.raises(HttpError) as caught:
        call()
    assert (caught.value.status, caught.value.code) == (status, code)
    return caught.value


def shown(seats, address):
    """``address`` asks and its PIN scrolls at once (nobody waits before it)."""
    assert seats.ask(address) == 0
    turn = seats.next_pin()
    assert turn is not None and turn[0] == address
    return turn[1]


PHONE, OTHER = "192.168.1.20", "192.168.1.66"


def test_the_right_pin_gives_the_seat_a_token_and_the_pin_is_spent():
    seats, table, _, told = seating()
    assert seats.pin is None and seats.pin_for(PHONE) is None          # no PIN before one is asked for
    assert shown(seats, PHONE) == "1234" and seats.pin == "1234" and told == ["1234"]
    token, sitter, version = seats.sit("1234", 2, PHONE)
    assert token == "token-1"
    assert (sitter.seat, sitter.source, sitter.kind) == (2, "phone:1", "phone")
    assert table[2] is sitter and table[1] is None
    assert seats.pin is None and told == ["1234", None]                 # each PIN seats once
    assert seats.sitter("token-1") is sitter
    refused(lambda: seats.sit("1234", 1, PHONE), 403, "no_pin")         # the PIN is spent


def test_a_pin_is_only_for_the_address_it_was_shown_for():
    seats, table, _, _ = seating()
    pin = shown(seats, PHONE)
    for _ in range(50):                                                 # another address: never checked, never spends it
        refused(lambda: seats.sit(pin, 1, OTHER), 403, "no_pin")
    assert seats.wrong_total == 0
    seats.sit(pin, 1, PHONE)
    assert table[1] is not None


def test_wrong_pins_void_that_address_s_pin_only_and_lock_nothing():
    seats, table, _, _ = seating(pin_tries=3)
    mine = shown(seats, PHONE)
    theirs = shown_after(seats, OTHER)
    first = refused(lambda: seats.sit("0000", 1, OTHER), 403, "bad_pin")
    assert str(first) == "wrong PIN: read it on the LEDs (2 tries left)"
    refused(lambda: seats.sit("0000", 1, OTHER), 403, "bad_pin")
    last = refused(lambda: seats.sit("0000", 1, OTHER), 403, "bad_pin")
    assert str(last) == "wrong PIN 3 times: ask for a new one"
    refused(lambda: seats.sit(theirs, 1, OTHER), 403, "no_pin")         # void: even the right one
    token, sitter, _ = seats.sit(mine, 1, PHONE)                        # the phone's own: untouched
    assert table[1] is sitter and seats.wrong_total == 3


def shown_after(seats, address, clock=None):
    """``address`` asks while another's PIN has just scrolled: its turn comes ``pin_show_seconds`` later."""
    wait = seats.ask(address)
    assert wait == seats.limits.pin_show_seconds and seats.next_pin() is None
    seats._clock.now += wait
    turn = seats.next_pin()
    assert turn is not None and turn[0] == address
    return turn[1]


def test_a_right_pin_after_wrong_ones_seats():
    seats, table, _, _ = seating(pin_tries=3)
    pin = shown(seats, PHONE)
    for _ in range(2):
        refused(lambda: seats.sit("0000", 1, PHONE), 403, "bad_pin")
    seats.sit(pin, 1, PHONE)
    assert table[1] is not None


def test_a_pin_is_good_for_pin_seconds():
    seats, _, clock, _ = seating(pin_seconds=300)
    pin = shown(seats, PHONE)
    clock.now += 300
    refused(lambda: seats.sit(pin, 1, PHONE), 403, "no_pin")
    assert seats.pin is None


def test_asking_again_gives_a_fresh_pin_in_its_turn_and_the_old_one_is_good_until_then():
    seats, _, clock, _ = seating(pin_show_seconds=30)
    old = shown(seats, PHONE)
    assert seats.ask(PHONE) == 30 and seats.ask(PHONE) == 30            # once in the queue, however often it asks
    clock.now += 29
    assert seats.next_pin() is None and seats.pin_for(PHONE) == old
    clock.now += 1
    assert seats.next_pin() == (PHONE, "5678") and seats.pin_for(PHONE) == "5678"
    refused(lambda: seats.sit(old, 1, PHONE), 403, "bad_pin")


def test_the_queue_takes_addresses_in_the_order_they_asked_one_scroll_per_pin_show_seconds():
    seats, _, clock, _ = seating(pin_show_seconds=30)
    assert [seats.ask(a) for a in ("a", "b", "c")] == [0, 30, 60]
    assert seats.ask("b") == 30 and seats.due() == 0
    assert seats.next_pin() == ("a", "1234") and seats.next_pin() is None and seats.due() == 30
    assert seats.ask("a") == 90                                          # asked again: after the others
    clock.now += 30
    assert seats.next_pin() == ("b", "5678")
    clock.now += 30
    assert seats.next_pin() == ("c", "9012")
    clock.now += 30
    assert seats.next_pin() == ("a", "3456") and seats.due() is None


def test_the_queue_is_bounded():
    seats, _, _, _ = seating(pin_queue=3)
    for address in ("a", "b", "c"):
        seats.ask(address)
    error = refused(lambda: seats.ask("d"), 503, "busy")
    assert ("Retry-After", "30") in error.headers
    seats.ask("c")                                                       # one already waiting: still fine


@pytest.mark.parametrize("pin", [1234, "123", "12345", "1234567", "123456789", "12a4", "12a45678", "１２３４",
                                 "１２３４５６７８", None, ["1234"], "", " 1234", " 13579024", "1357 9024", 13579024,
                                 "135790", "579024"])
def test_a_pin_that_is_not_four_or_eight_digits_is_a_bad_request_and_no_guess(pin):
    seats, table, _, _ = seating()                                       # six digits too (the old pairing PIN's)
    shown(seats, PHONE)
    seats.pair()
    for _ in range(10):
        error = refused(lambda: seats.sit(pin, 1, PHONE), 400, "bad_request")
    assert str(error) == "pin must be a string of 4 digits (this device's PIN) or 8 (the pairing PIN)"
    assert seats.wrong_total == 0 and seats.pin_for(PHONE) == "1234" and table.sitters() == (None, None)
    seats.sit("13579024", 1, PHONE)                                        # the pairing PIN's try is not spent


@pytest.mark.parametrize("seat", [0, 3, "1", 1.0, True, None, [1]])
def test_a_seat_is_the_integer_1_or_2(seat):
    seats, table, _, _ = seating()
    shown(seats, PHONE)
    refused(lambda: seats.sit("1234", seat, PHONE), 400, "bad_request")
    assert seats.pin_for(PHONE) == "1234" and table.sitters() == (None, None)


def test_a_token_lasts_until_the_seat_is_emptied_taken_over_or_left():
    seats, table, clock, _ = seating(pin_show_seconds=0)
    first, sitter, _ = seats.sit(shown(seats, PHONE), 1, PHONE)
    second, other, _ = seats.sit(shown(seats, OTHER), 2, OTHER)
    table.clear()                                           # the match ended
    for token in (first, second):
        refused(lambda: seats.sitter(token), 403, "bad_token")
    again, sitter, _ = seats.sit(shown(seats, PHONE), 1, PHONE)
    takeover, new, _ = seats.sit(shown(seats, OTHER), 1, OTHER)     # the right PIN takes a held seat over
    assert table[1] is new and new.source != sitter.source
    refused(lambda: seats.sitter(again), 403, "bad_token")
    assert seats.leave(takeover) is new and table[1] is None
    refused(lambda: seats.sitter(takeover), 403, "bad_token")


def test_a_seated_phone_s_address_is_trusted_while_it_holds_the_seat():
    seats, table, _, _ = seating(pin_show_seconds=0)
    assert not seats.trusts(PHONE)
    token, _, _ = seats.sit(shown(seats, PHONE), 2, PHONE)
    assert seats.trusts(PHONE) and not seats.trusts(OTHER)
    seats.leave(token)
    assert not seats.trusts(PHONE)
    seats.sit(shown(seats, PHONE), 1, PHONE)
    table.clear()                                           # the match ended: the seat with it
    assert not seats.trusts(PHONE)


@pytest.mark.parametrize("token", ["token-2", "", "x" * 10_000, 5, None, {"a": 1}])
def test_a_forged_token_is_refused(token):
    seats, _, _, _ = seating()
    seats.sit(shown(seats, PHONE), 1, PHONE)
    refused(lambda: seats.sitter(token), 403, "bad_token")


def test_presses_are_rate_limited_per_seat():
    seats, _, clock, _ = seating(presses_per_second=10, press_burst=20, pin_show_seconds=0)
    _, one, _ = seats.sit(shown(seats, PHONE), 1, PHONE)
    _, two, _ = seats.sit(shown(seats, OTHER), 2, OTHER)
    assert [seats.press_allowed(one) for _ in range(21)] == [True] * 20 + [False]
    assert seats.press_allowed(two)                          # the other seat has its own
    clock.now += 0.15                                        # 1.5 presses' worth
    assert seats.press_allowed(one) and not seats.press_allowed(one)


def test_the_state_says_which_seats_phones_hold():
    seats, _, _, _ = seating()
    assert seats.state()["version"] == 0
    _, _, version = seats.sit(shown(seats, PHONE), 2, PHONE)
    assert (version, seats.state()) == (1, {"seats": [{"seat": 1, "taken": False, "kind": None},
                                                     {"seat": 2, "taken": True, "kind": "phone"}],
                                           "version": 1})


def test_a_seat_comes_with_the_version_a_state_must_reach_to_speak_of_it():
    """The page sits at version n and ignores an older state still on its way (which would say the seat
    is free and make the page give it up); every change of the table raises the version."""
    seats, _, _, _ = seating(pin_show_seconds=0)
    _, _, first = seats.sit(shown(seats, PHONE), 1, PHONE)
    seats.table.clear()                                      # the match ended: the seat with it
    assert seats.state()["version"] > first
    _, _, again = seats.sit(shown(seats, PHONE), 1, PHONE)
    assert again == seats.state()["version"] > first


# -- the pairing PIN ---------------------------------------------------------------------------------

ATTACKERS = [f"fd00::{n:x}" for n in range(1, 71)]


def test_the_pairing_pin_is_good_from_any_address_once_the_first_right_try_seats():
    seats, table, _, told = seating()
    assert seats.pairing is None
    assert seats.pair() == "13579024" and seats.pairing == "13579024" and seats.pin == "13579024" and told == ["13579024"]
    token, sitter, _ = seats.sit("13579024", 2, PHONE)                    # an address that never asked: no queue
    assert table[2] is sitter and seats.sitter(token) is sitter and seats.trusts(PHONE)
    assert seats.pairing is None and seats.pin is None and told == ["13579024", None]
    error = refused(lambda: seats.sit("13579024", 1, OTHER), 403, "no_pin")   # spent: every PIN seats once
    assert str(error) == f"no pairing PIN is up: {HOLD_ADVICE}"
    assert HOLD_ADVICE == "hold the middle of the stick at the Pi for 3 seconds: the LEDs show a PIN for any phone"


def test_one_try_per_address_a_wrong_one_spends_only_that_address_s_and_nothing_caps_the_others():
    seats, table, _, _ = seating()
    seats.pair()
    for address in ATTACKERS:                                            # 70 addresses, a wrong try each
        error = refused(lambda: seats.sit("00000000", 1, address), 403, "bad_pin")
    assert str(error) == ("wrong pairing PIN (one try per device): read it on the LEDs, or hold the middle of the "
                          "stick at the Pi again for a new one")
    for address in ATTACKERS:                                            # a second try, even the right one: refused
        error = refused(lambda: seats.sit("13579024", 1, address), 403, "tried")
    assert str(error) == ("this device has had its one try at this pairing PIN: hold the middle of the stick at the "
                          "Pi again for a new one")
    assert seats.wrong_total == 70 and table.sitters() == (None, None) and seats.pairing == "13579024"
    seats.sit("13579024", 1, PHONE)                                        # the owner: the first try seats
    assert table[1] is not None


def test_the_pairing_pin_is_void_after_pair_seconds_and_a_new_gesture_replaces_it():
    seats, _, clock, told = seating(pair_seconds=60)
    seats.pair()
    clock.now += 59.9
    assert seats.pairing == "13579024"
    seats.expire()
    assert seats.pairing == "13579024"                                     # still good: kept
    clock.now += 0.1
    assert seats.pairing is None and seats.pin is None
    seats.expire()                                                       # void: forgotten (the tries with it)
    assert seats._pairing is None
    refused(lambda: seats.sit("13579024", 1, PHONE), 403, "no_pin")       # void after 60 s: no try spent
    assert seats.pair() == "24680246"                                      # the gesture again: a fresh one ...
    refused(lambda: seats.sit("00000000", 1, OTHER), 403, "bad_pin")
    assert seats.pair() == "00000000"                                      # ... and each address's try again
    refused(lambda: seats.sit("24680246", 1, PHONE), 403, "bad_pin")       # the one it replaced is no more
    seats.sit("00000000", 1, OTHER)
    assert told == ["13579024", "24680246", "00000000", None]


def test_the_pairing_pin_and_a_device_s_pin_are_apart():
    seats, table, _, _ = seating(pin_tries=3)
    mine = shown(seats, PHONE)
    seats.pair()
    assert seats.pin == "13579024" and seats.pin_for(PHONE) == mine       # the last scroll's, for the terminal
    refused(lambda: seats.sit("00000000", 1, PHONE), 403, "bad_pin")       # the pairing try spent ...
    for _ in range(2):
        refused(lambda: seats.sit("0000", 1, PHONE), 403, "bad_pin")
    seats.sit(mine, 1, PHONE)                                            # ... not one of its own PIN's
    refused(lambda: seats.sit("13579024", 2, PHONE), 403, "tried")
    seats.sit("13579024", 2, OTHER)
    assert table.sitters()[0] is not None and table.sitters()[1] is not None


def test_a_full_queue_s_refusal_says_how_to_pair():
    seats, _, _, _ = seating(pin_queue=1)
    seats.ask("a")
    error = refused(lambda: seats.ask(PHONE), 503, "busy")
    assert str(error) == f"too many devices are waiting for a PIN: try again later, or {HOLD_ADVICE}"


def test_a_pin_is_shown_in_groups_of_four_digits():
    assert [grouped(pin) for pin in ("13579024", "00000000", "1234")] == ["1357 9024", "0000 0000", "1234"]


def test_pins_and_tokens_are_random():
    pins = {new_pin() for _ in range(200)}
    assert all(len(p) == 4 and p.isdigit() for p in pins) and len(pins) > 150
    pairing = {new_pairing_pin() for _ in range(200)}
    assert all(len(p) == 8 and p.isdigit() for p in pairing) and len(pairing) > 190
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
