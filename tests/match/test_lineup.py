"""The seats of a match on their own (sensehat_c4/match/lineup.py): who plays each seat, their names,
who gets helps, the records' sides and the words' seats, and a match me opponent's steps."""
import random

from gamelib.backends.base import STICK
from sensehat_c4.engine.matchme import NAME as MATCH_ME, MatchMe
from sensehat_c4.match.computer import LEVELS, Computer
from sensehat_c4.match.lineup import Lineup
from sensehat_c4.match.players import Kind, Person, Seats
from sensehat_c4.records import Side

RED, YELLOW = (255, 0, 0), (255, 255, 0)
LADDER = tuple(LEVELS)


def lineup(seats=None, computer=None, names=(None, None), helps=False, match_me=None):
    made = []

    def make(computer, seed):
        made.append((computer, seed))
        return Person("thinker")
    return Lineup(seats or Seats(), (RED, YELLOW), computer=computer, names=names, helps=helps, match_me=match_me,
                  make=make, rng=random.Random(3)), made


def test_the_computer_plays_its_seat_made_once_the_stick_the_other_and_a_seat_taken_replaces_either():
    seats = Seats()
    easy = Computer("easy", player=2)
    line, made = lineup(seats, easy, names=("Ann", "Bob"))
    first, second = line.player(1), line.player(2)
    assert (first.source, first.kind) == (STICK, Kind.STICK)
    assert line.player(2) is second and [c for c, _ in made] == [easy]
    assert made[0][1] == random.Random(3).randrange(2 ** 32)
    assert line.names() == ("Ann", None) and line.level() == "easy"
    phone = Person("phone-1", kind=Kind.REMOTE)
    seats.take(2, phone)
    assert line.player(2) is phone and line.names() == ("Ann", "Bob") and line.level() is None
    assert line.sides() == (Side(RED, name="Ann"), Side(YELLOW, name="Bob", remote=True))
    assert not line.gone()


def test_helps_go_to_the_stick_against_the_computer_only():
    line, _ = lineup(computer=Computer("easy", player=2), helps=True)
    assert (line.helps_seat(1), line.helps_seat(2)) == (True, False)
    assert [s.helps for s in line.in_words()] == [True, False]
    assert lineup(computer=Computer("easy", player=2))[0].helps_seat(1) is False
    assert lineup(helps=True)[0].helps_seat(1) is False


def test_a_match_me_opponent_steps_after_a_round_and_its_next_thinker_plays_the_new_level():
    start = LADDER[len(LADDER) // 2]
    ladder = MatchMe.starting(LADDER, start, settled=True)
    line, made = lineup(computer=Computer(start, player=2), match_me=ladder)
    line.player(2)
    assert line.sides()[1] == Side(YELLOW, level=MATCH_ME, seconds=None)
    assert line.in_words()[1].match_me and line.in_words()[1].level == start
    line.step()                     # no round ended yet: no step
    assert line.level() == start
    line.ended(1)                   # the person (seat 1) won: a level up
    line.step()
    up = LADDER[LADDER.index(start) + 1]
    assert line.level() == up and line.computer == Computer(up, player=2)
    line.player(2)
    assert [c.level for c, _ in made] == [start, up]
    line.ended(None)                # a draw: the level stays, the thinker too
    line.step()
    line.player(2)
    assert line.level() == up and len(made) == 2


def test_a_seat_taken_or_left_is_seen_once_and_helps_go_to_the_stick_s_own_turn_only():
    seats = Seats()
    line, _ = lineup(seats, Computer("easy", player=2), helps=True)
    assert line.changed() is False
    seats.take(1, Person("phone-1", kind=Kind.REMOTE))
    assert (line.changed(), line.changed()) == (True, False)
    seats.leave(1)
    assert line.changed() is True
    stick = line.player(1)
    assert line.helping(stick, 1) is True
    assert line.helping(None, 1) is False
    assert line.helping(Person("phone-1", kind=Kind.REMOTE), 1) is False
    assert line.helping(line.player(2), 2) is False
