"""Connect 4's match loop (chooser, computer, match, repeat), as the command and the launcher run it."""
import contextlib

import pytest
from frames import grid

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK
from gamelib.errors import QuitRequested
from gamelib.palette import palette as default_palette
from sensehat_c4.match.chooser import choice_frame, size_frame
from sensehat_c4.match.computer import Computer, ComputerSeat
from sensehat_c4.match.opponents import Opponent
from sensehat_c4.match.controller import MatchResult
from sensehat_c4.match.game import play_matches
from sensehat_c4.match.report import result_line
from sensehat_c4.records import MatchStatus, Recorder, Records
from sensehat_c4.rules import Size

ABANDONED = MatchResult(winner=None, score=(0, 0), abandoned=True, rounds=1)


def test_a_fixed_opponent_alternates_the_computer_and_each_match_is_reported():
    mock = MockBackend()
    mock.tap("up", "up")                                    # abandon match 1 (the player moves first)
    mock.tap("up", "up", at=30)                             # and match 2 (whatever the computer did first)
    reports = []
    played = play_matches(mock, opponent=Opponent.computer("easy"), computer_plays=ComputerSeat.ALTERNATE, think=0.5, matches=2,
                          report=lambda *report: reports.append(report))
    assert played == 2
    assert reports == [(1, Computer("easy", player=2, seconds=0.5), ABANDONED),
                       (2, Computer("easy", player=1, seconds=0.5), ABANDONED)]
    assert tuple(choice_frame(0, default_palette())) not in [f for _, f in mock.frames]   # no chooser


def test_the_chooser_starts_from_the_last_choice():
    mock = MockBackend()
    mock.tap("right", "right", "middle", "middle", "middle", "up", "up")  # 2P -> 1 -> 2: casual; 7x6; no helps; abandon
    mock.tap("left", "middle", "middle", "middle", at=10)   # from 2 (casual) -> 1: easy; 7x6; no helps
    mock.tap("up", "up", at=11)
    reports = []
    assert play_matches(mock, matches=2, report=lambda *report: reports.append(report)) == 2
    assert [r[1] for r in reports] == [Computer("casual", player=2), Computer("easy", player=2)]
    shown = [f for _, f in mock.frames]
    second = shown.index(tuple(choice_frame(2, default_palette())), shown.index(tuple(choice_frame(2, default_palette()))) + 1)
    assert shown[second:second + 2] == [tuple(choice_frame(2, default_palette())), tuple(choice_frame(1, default_palette()))]


def test_up_on_the_chooser_leaves_when_asked_else_it_asks_again():
    mock = MockBackend()
    mock.tap("up")
    assert play_matches(mock, back_leaves=True) == 0
    assert [f for _, f in mock.frames] == [tuple(choice_frame(0, default_palette())), (BLACK,) * 64]

    mock = MockBackend()
    mock.tap("up", "middle", "middle", "up", "up")          # up: asked again; 2P; 7x6; abandon
    assert play_matches(mock, matches=1) == 1
    shown = [f for _, f in mock.frames]
    assert shown[:6] == [tuple(choice_frame(0, default_palette())), (BLACK,) * 64, tuple(choice_frame(0, default_palette())), (BLACK,) * 64,
                         tuple(size_frame(Size(), default_palette())), (BLACK,) * 64]
    assert grid(shown[6]).splitlines()[0] == "...R...."       # then the board, red's cursor


class QuitKey(MockBackend):
    """The mock, where ``q`` is typed (as the terminal backend raises it) at ``when`` on the fake clock."""

    def __init__(self, when: float) -> None:
        super().__init__()
        self.when = when
        wait_event = self.stick.wait_event

        def quitting(timeout=None):
            if self.now() >= self.when:
                raise QuitRequested("q pressed")
            return wait_event(self.when - self.now() if timeout is None else min(timeout, self.when - self.now()))

        self.stick.wait_event = quitting


def test_q_mid_match_reports_the_match_abandoned_and_records_it(tmp_path):
    """``q`` in a match: the match's line is printed (the recorder kept it abandoned, but no line said so)."""
    mock = QuitKey(5.0)
    mock.tap("middle", "middle")                             # 2P, 7x6
    mock.tap("down", at=1.0)                                 # red in column 4
    reports = []
    with contextlib.closing(Recorder(tmp_path / "games.db")) as recorder:
        with pytest.raises(QuitRequested):
            play_matches(mock, matches=3, recorder=recorder, report=lambda *report: reports.append(report))
    assert reports == [(1, None, ABANDONED)]
    assert result_line(*reports[0][1:]) == "match 1: abandoned at 0-0"   # as the records number it
    with Records(tmp_path / "games.db") as stored:
        assert [(m.status, m.rounds[0].moves) for m in stored.matches()] == [(MatchStatus.ABANDONED, "4")]


def test_the_game_the_leds_words_and_history_number_a_match_as_the_records_do(capsys, mock, games_db, tmp_path):
    """One numbering: the records' (``history``'s). Two matches are kept already; the one played now is
    match 3 in the printed line, in the words that end it (what the terminal and the web page show) and in
    ``history``; a match the records do not keep (no database that works) says so and has no number."""
    from records_data import record_match, ticking
    from scripted import run

    with contextlib.closing(Recorder(games_db, clock=ticking())) as earlier:
        record_match(earlier, ["4545454", "4545454"])
        record_match(earlier, ["4545454"], abandoned_moves="44", winner=None)
    mock.tap("down")                                          # a move: the match is kept
    mock.tap("up", "up", at=2.0)                              # abandoned
    assert run(capsys, "--opponent", "human", "--matches", "1") == (0, "match 3: abandoned at 0-0\n", "")
    ended = mock.statuses[-1][1]
    assert (ended.text, ended.caption, ended.details["match"]) == ("match 3: abandoned at 0-0",) * 2 + (3,)
    assert [s.details["match"] for _, s in mock.statuses if s.phase == "playing"][:2] == [None, 3]   # from its row
    code, out, _ = run(capsys, "history")
    assert code == 0 and out.splitlines()[0].startswith("match 3  ") and "abandoned at 0-0" in out.splitlines()[0]

    (tmp_path / "adir").mkdir()
    unusable = str(tmp_path / "adir")                         # a folder, not a database: nothing kept, no number
    mock.tap("down", at=10.0)
    mock.tap("up", "up", at=12.0)
    code, out, err = run(capsys, "--opponent", "human", "--matches", "1", "--db", unusable)
    assert (code, out) == (0, "match not recorded: abandoned at 0-0\n") and "not being recorded" in err
    ended = mock.statuses[-1][1]
    assert (ended.text, ended.details["match"]) == ("match not recorded: abandoned at 0-0", None)
