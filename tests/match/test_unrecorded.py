"""``match/unrecorded.py``: the warning before play when the games cannot be recorded, as exact frames and
words on the mock, from the launcher's entries that play (a match, the LAN, the day's puzzle); none when the
file can be written or is only locked a moment.  The commands' (the line before the board, ``--db``'s missing
folder) are in ``tests/commands/test_cli_paths.py``, the terminal's in ``test_match_records``."""
from __future__ import annotations

import contextlib
import sqlite3
from datetime import date

import pytest

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK
from gamelib.palette import DEFAULT, PALETTES
from gamelib.scroll import scroll_frames
from gamelib.status import Status
from gamelib.palette import palette as default_palette
from sensehat_c4.engine.puzzles import daily
from sensehat_c4.lan.game import play_lan, role_frame
from sensehat_c4 import game
from sensehat_c4.match import render, unrecorded
from sensehat_c4.match.chooser import choice_frame
from sensehat_c4.records import Reason, Recorder
from sensehat_c4.study import puzzle as pz

WHY = "adir is a directory"
SAID = Status("unrecorded", f"games are not being recorded: {WHY}", f"games are not being recorded: {WHY}; any key goes on",
              {"game": "Connect 4", "why": WHY, "reason": "directory", "name": "adir"})
"""What a directory as the games database says: the reason in words, and as values (its code and the name)."""


def scrolled(palette=PALETTES[DEFAULT]):
    """``(time, frame)`` of ``GAMES NOT RECORDED`` scrolling from 0 in ``palette``'s warning colour; when it ends."""
    steps, now = [], 0.0
    for frame, seconds in scroll_frames("GAMES NOT RECORDED", palette.warning, palette.background):
        steps.append((round(now, 6), tuple(frame)))
        now += seconds
    return steps, now


def shown(mock):
    return [(round(when, 6), frame) for when, frame in mock.frames]


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_the_words_scroll_once_in_the_palette_s_warning_colour_and_say_why(name):
    mock = MockBackend()
    mock.palette = PALETTES[name]                        # the palette shown (--palette, the launcher's setting)
    unrecorded.warn(mock, WHY, reason=Reason("directory", {"name": "adir"}))
    steps, _ = scrolled(PALETTES[name])
    assert shown(mock) == steps
    assert any(PALETTES[name].warning in frame for _, frame in steps)
    assert mock.statuses == [(0.0, SAID)]


def test_a_reason_without_a_code_is_said_in_words_only():
    mock = MockBackend()
    unrecorded.warn(mock, "database is locked")
    assert mock.statuses[0][1].as_json() == {
        "phase": "unrecorded", "text": "games are not being recorded: database is locked",
        "caption": "games are not being recorded: database is locked; any key goes on",
        "game": "Connect 4", "why": "database is locked", "reason": None}


def test_a_file_that_can_be_written_or_is_locked_a_moment_shows_nothing(tmp_path):
    mock = MockBackend()
    with contextlib.closing(Recorder(tmp_path / "games.db")) as recorder:
        assert unrecorded.check(mock, recorder)
    locked = tmp_path / "locked.db"
    with contextlib.closing(Recorder(locked)) as made:
        made.open()
    holder = sqlite3.connect(str(locked), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")   # another program writing: the moves wait, nothing is lost
    try:
        with contextlib.closing(Recorder(locked, move_busy=0.0)) as recorder:
            assert unrecorded.check(mock, recorder) and recorder.failed is None
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (list(mock.frames), mock.statuses) == ([], [])


def test_a_directory_is_warned_of_then_play_goes_on(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    mock = MockBackend()
    with contextlib.closing(Recorder(folder)) as recorder:
        assert not unrecorded.check(mock, recorder)
    assert (shown(mock), mock.statuses) == (scrolled()[0], [(0.0, SAID)])


@pytest.fixture
def adir(tmp_path, monkeypatch):
    """The launcher's games database (``$SENSEHAT_C4_DB``): a directory."""
    folder = tmp_path / "adir"
    folder.mkdir()
    monkeypatch.setenv("SENSEHAT_C4_DB", str(folder))
    return folder


def test_the_launcher_s_match_warns_before_the_chooser(adir):
    steps, end = scrolled()
    mock = MockBackend()
    mock.tap("up", at=end + 1.0)      # back to the menu
    game.play(mock)
    assert shown(mock)[:len(steps) + 1] == steps + [(round(end, 6), tuple(choice_frame(0, default_palette())))]
    assert mock.statuses[0] == (0.0, SAID) and mock.statuses[1][1].phase == "choosing opponent"


def test_the_launcher_s_lan_entry_warns_before_the_choice_of_role(adir):
    steps, end = scrolled()
    mock = MockBackend()
    mock.tap("up", at=end + 1.0)
    assert play_lan(mock) == 0
    assert shown(mock)[:len(steps) + 1] == steps + [(round(end, 6), tuple(role_frame("offer", 0, default_palette())))]
    assert mock.statuses[0] == (0.0, SAID)


def test_the_launcher_s_puzzle_warns_before_the_puzzle(adir, capsys):
    day = date(2026, 11, 24)
    steps, end = scrolled()
    mock = MockBackend()
    mock.tap("up", at=end + 1.0)
    done = pz.play(mock, today=lambda: day)
    assert done is not None and (done.tries, done.streak) == (0, None)
    start = tuple(render.board_frame(daily(day).board(), PALETTES[DEFAULT], cursor=3))
    assert shown(mock)[:len(steps) + 1] == steps + [(round(end, 6), start)]
    assert mock.statuses[0] == (0.0, SAID) and mock.statuses[1][1].phase == "puzzle"
    assert mock.leds == (BLACK,) * 64
    assert capsys.readouterr().out == "puzzle 2-0462 of 2026-11-24: not solved (0 tries)\n"
