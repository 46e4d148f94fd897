"""The computer's turn in the controller: indicator, visible delay, and a responsive stick.

The search is replaced by a thinker that answers when the *fake* clock says so, so
these tests are exact and never sleep.  (The engine itself is tested in test_engine*.)
"""
import pytest
from frames import grid

from gamelib.backends.mock import MockBackend
from sensehat_c4.match.computer import LEVELS, Computer
from sensehat_c4.match.controller import MatchOptions, MatchResult, play
from sensehat_c4.errors import ConfigError
from scripted import ClockThinker, factory


def screen_at(mock, when):
    shown = [f for t, f in mock.frames if t <= when]
    return grid(shown[-1]).splitlines()


def test_computer_thinks_visibly_then_drops():
    mock = MockBackend()
    mock.tap("down")                                  # red (human) drops in column 4 at t=0.2
    human = mock._cursor - 0.05
    mock.tap("up", "up", at=human + 3.0)
    options = MatchOptions(computer=Computer("easy", player=2))
    result = play(mock, options, thinker=factory(mock, column=0, delay=0.3))
    assert result == MatchResult(None, (0, 0), True, 1)
    landed = human + 0.24                              # 8 rows of 30 ms
    dots = [screen_at(mock, landed + 0.1 * k + 0.001)[0] for k in range(6)]
    assert dots == ["Y.......", ".Y......", "..Y.....", "...Y....", "....Y...", ".....Y.."]
    # the answer came at 0.3 s but the move waits for the 0.6 s visible minimum, then aims 0.3 s
    aim = screen_at(mock, landed + 0.6 + 0.001)
    assert aim[0] == "Y......." and aim[7] == "BBBRBBB."
    assert screen_at(mock, landed + 0.9 + 0.001)[0] == "Y......."      # the fall starts at the top
    after = screen_at(mock, landed + 0.9 + 0.24 + 0.001)
    assert after[0] == "...R...." and after[7] == "YBBRBBB."            # human's turn, centred
    assert ClockThinker.made[0].boards == ["4"]


def test_up_abandons_while_the_computer_thinks():
    mock = MockBackend()
    mock.tap("down")
    pressed = mock._cursor
    mock.tap("up", at=pressed + 1.0)
    mock.tap("up", at=pressed + 1.5)
    result = play(mock, MatchOptions(computer=Computer("perfect")), thinker=factory(mock, delay=60.0))
    assert result.abandoned
    assert screen_at(mock, pressed + 1.0)[0] == "YYYYYYYY"            # asked at once, mid-search
    assert ClockThinker.made[0].cancelled
    assert mock.now() == pytest.approx(pressed + 1.5)                   # never waited for the search


def test_cancelled_abandon_goes_back_to_thinking_and_other_keys_are_ignored():
    mock = MockBackend()
    mock.tap("down")
    pressed = mock._cursor
    mock.tap("left", "right", "down", at=pressed + 0.4, gap=0.1)        # ignored while it thinks
    mock.tap("up", "middle", at=pressed + 1.0, gap=0.2)                 # ask, then cancel
    mock.tap("up", "up", at=pressed + 4.0)
    result = play(mock, MatchOptions(computer=Computer("hard")), thinker=factory(mock, column=6, delay=2.0))
    assert result.abandoned
    final = screen_at(mock, pressed + 3.9)
    assert final[0] == "...R...." and final[7] == "BBBRBBY."            # it played column 7
    assert len(ClockThinker.made) == 1


def test_computer_as_player_one_starts_at_once():
    mock = MockBackend()
    mock.tap("up", "up", at=2.0)
    play(mock, MatchOptions(computer=Computer("medium", player=1)), thinker=factory(mock, column=3))
    assert screen_at(mock, 0.0)[0] == "R......."                        # thinking dot, red
    assert screen_at(mock, 1.95)[7] == "BBBRBBB." and screen_at(mock, 1.95)[0] == "...Y...."


def test_computer_settings_are_checked():
    with pytest.raises(ConfigError, match=f"level must be one of {', '.join(LEVELS)} "):
        Computer("genius")
    with pytest.raises(ConfigError, match="player 1 or 2"):
        Computer("easy", player=3)
    with pytest.raises(ConfigError, match="more than 0 seconds"):
        Computer("easy", seconds=0)
