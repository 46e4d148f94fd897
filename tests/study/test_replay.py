"""Replaying a stored round: exact frames and times on the mock's fake clock, and on the real sense_emu."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path


from emu_sandbox import FakeEmulator, child_env, lit
from frames import g, grid
from gamelib.backends.mock import MockBackend
from gamelib.backends.senselib import EmuBackend
from gamelib.colours import BLACK, BLUE, GREEN, RED, YELLOW
from gamelib.palette import PALETTES, PURPLE_YELLOW, for_round
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.match import render
from sensehat_c4.records import Recorder, Records, Side
from sensehat_c4.study.replay import Replay, ReplayTiming
from sensehat_c4.rules import Board

T = ReplayTiming()


def stored(tmp_path, rounds, sides=(ANN, BOB), columns=7, rows=6):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), rounds, sides=sides, columns=columns, rows=rows)
    with Records(path) as records:
        return records.matches()[0]


def fall_frames(board_before: str, column: int, columns=7, rows=6) -> int:
    """How many frames the token dropped in ``column`` (0-based) takes: cursor row to its landing row."""
    height = Board.from_moves(board_before, columns, rows).height(column)
    return 2 + rows - height


def test_the_backend_s_palette_draws_the_replay_and_seat_2_s_line_blinks_twice_as_often(tmp_path):
    match = stored(tmp_path, ["1212121", "1212121"])      # round 2: Bob (seat 2) starts and wins
    chosen = PALETTES[PURPLE_YELLOW]
    blinks = []
    for rnd, seat in ((match.rounds[0], 1), (match.rounds[1], 2)):
        mock = MockBackend()
        mock.palette = PALETTES[PURPLE_YELLOW]
        mock.tap("up", at=30.0)
        Replay(mock, match, rnd).run()
        colours = for_round((RED, YELLOW), rnd.starter, chosen)    # the recorded players, the palette's field
        final = Board.from_moves("1212121")
        hidden = tuple(render.board_frame(final, colours, hide=final.outcome.cells))
        assert mock.frames[1][1][7 * 8] == chosen.field != BLUE
        times = [t for t, f in mock.frames if f == hidden]
        blinks.append((seat, [round(b - a, 6) for a, b in zip(times, times[1:])]))
    assert blinks == [(1, [2 * T.win_blink] * (T.win_blinks - 1)), (2, [T.win_blink] * (2 * T.win_blinks - 1))]


def test_a_round_plays_at_its_pace_and_ends_with_the_win_blinking(tmp_path):
    match = stored(tmp_path, ["1212121"])
    mock = MockBackend()
    mock.tap("up", at=30.0)
    Replay(mock, match, match.rounds[0]).run()
    times = [round(t, 6) for t, _ in mock.frames]
    expected, now = [0.0], T.start
    for ply, move in enumerate("1212121"):
        expected.append(round(now, 6))                    # the mover's token over its column
        now += T.aim
        for _ in range(fall_frames("1212121"[:ply], int(move) - 1)):
            expected.append(round(now, 6))
            now += T.fall_row
        now += T.move
    now -= T.move
    for _ in range(2 * T.win_blinks):                     # the winning line blinks
        expected.append(round(now, 6))
        now += T.win_blink
    expected += [round(now, 6), 30.0]                     # the final board stays; up clears
    assert times == expected
    first_aim = mock.frames[1][1]
    assert grid(first_aim) == g("""
        R.......
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.""")
    blink_off = mock.frames[-3 - 2 * T.win_blinks + 1][1]
    assert grid(blink_off) == g("""
        ........
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BYBBBBB.
        BYBBBBB.
        BYBBBBB.""")
    assert grid(mock.frames[-2][1]) == g("""
        ........
        ........
        BBBBBBB.
        BBBBBBB.
        RBBBBBB.
        RYBBBBB.
        RYBBBBB.
        RYBBBBB.""")
    assert mock.frames[-1][1] == (BLACK,) * 64


def test_the_colours_are_the_seats_and_the_second_round_starts_with_seat_two(tmp_path):
    match = stored(tmp_path, ["1212121", "4455667"], sides=(Side(GREEN, name="Ann"), BOB))
    mock = MockBackend()
    mock.tap("up", at=2.0)
    Replay(mock, match, match.rounds[1]).run()   # Bob (yellow) moved first in round 2
    assert grid(mock.frames[1][1])[:8] == "...Y...."


def test_left_right_step_middle_pauses_and_goes_on_up_leaves(tmp_path):
    match = stored(tmp_path, ["4455667"])
    mock = MockBackend()
    mock.tap("right", at=0.1)    # during the opening pause: one move at once, paused
    mock.tap("right", at=0.3)
    mock.tap("left", at=0.5)
    mock.tap("middle", at=5.0)   # go on from one move
    mock.tap("middle", at=6.5)   # pause in the middle of the next
    mock.tap("up", at=20.0)
    Replay(mock, match, match.rounds[0]).run()
    by_time = {round(t, 6): grid(f) for t, f in mock.frames}
    board = lambda moves, **kw: grid(render.board_frame(Board.from_moves(moves), render.Palette(), **kw))  # noqa: E731
    assert by_time[0.1] == board("4")
    assert by_time[0.3] == board("44")
    assert by_time[0.5] == board("4")
    assert all(t >= 5.0 or t in (0.0, 0.1, 0.3, 0.5) for t in by_time)   # paused: nothing moved
    assert by_time[5.0] == board("4", cursor=3)           # the next mover's token over column 4 at once
    paused = [f for t, f in sorted(by_time.items()) if 6.5 <= t < 20.0]
    assert paused == [board("44")]                         # middle during the second move lands it
    assert mock.frames[-1][1] == (BLACK,) * 64


def test_middle_at_the_end_starts_again(tmp_path):
    match = stored(tmp_path, ["1212121"])
    mock = MockBackend()
    mock.tap("right", "right", "right", "right", "right", "right", "right", at=0.1, gap=0.01)
    mock.tap("right", at=0.2)    # past the end: stays
    mock.tap("middle", at=1.0)
    mock.tap("up", at=1.5)
    Replay(mock, match, match.rounds[0]).run()
    by_time = {round(t, 6): grid(f) for t, f in mock.frames}
    final = grid(render.board_frame(Board.from_moves("1212121"), render.Palette()))
    assert by_time[0.16] == final and 0.2 not in by_time
    assert by_time[1.0] == grid(render.board_frame(Board(), render.Palette()))


def test_other_board_sizes_are_drawn_in_their_own_field(tmp_path):
    match = stored(tmp_path, ["1212121"], columns=6, rows=5)
    mock = MockBackend()
    mock.tap("right", "right", "right", "right", "right", "right", "right", at=0.1, gap=0.01)
    mock.tap("up", at=1.0)
    Replay(mock, match, match.rounds[0]).run()
    # where a smaller field sits is the renderer's business; the replay draws the stored size
    final = render.board_frame(Board.from_moves("1212121", 6, 5), render.Palette())
    assert list(mock.frames[-2][1]) == final
    assert grid(final).count("B") == 6 * 5 - 7


# -- on the real sense_emu library --------------------------------------------------


def test_replay_on_the_emulator_library_in_process(emu_dir, tmp_path):
    match = stored(tmp_path, ["4455667"])
    fast = ReplayTiming(start=0.01, move=0.01, aim=0.01, fall_row=0.001, win_blink=0.01)
    final = lit(render.board_frame(Board.from_moves("4455667"), render.Palette()))
    with FakeEmulator(emu_dir) as emulator, EmuBackend() as backend:
        emulator.wait_client()
        player = threading.Thread(target=Replay(backend, match, match.rounds[0], fast).run)
        player.start()
        try:
            emulator.wait_screen(lambda px: px == final)
            time.sleep(0.2)                   # the blinking is over: the final board stays
            assert emulator.pixels() == final
        finally:
            emulator.tap("up")
            player.join(10)
        assert not player.is_alive()
        assert emulator.pixels() == [BLACK] * 64


def test_the_replay_command_on_the_emulator(emu_dir, tmp_path):
    """The whole command in a child process on the real library: the final board, then up leaves."""
    stored(tmp_path, ["4455667"])
    final = lit(render.board_frame(Board.from_moves("4455667"), render.Palette(RED, YELLOW)))
    with FakeEmulator(emu_dir) as emulator:
        child = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "replay", "last", "--backend", "emu",
                                  "--db", str(tmp_path / "games.db")], env=child_env(emu_dir),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            emulator.wait_client()
            emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), render.Palette())))
            emulator.tap("right", "right", "right", "right", "right", "right", "right")
            emulator.wait_screen(lambda px: px == final)
            emulator.tap("up")
            out, err = child.communicate(timeout=30)
        finally:
            child.kill()
        assert (child.returncode, out, err) == (0, "", "")
        assert emulator.pixels() == [BLACK] * 64


def test_replay_of_a_missing_round_is_one_line(tmp_path):
    stored(tmp_path, ["4455667"])
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "replay", "7", "--db", str(tmp_path / "games.db")],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"sensehat-c4 replay: no round 7 in {tmp_path / 'games.db'}\n")


def test_the_replay_says_the_move_shown_and_the_keys(tmp_path):
    """In a terminal the line under the board counts the moves and names the keys (``replay ID`` showed
    neither)."""
    match = stored(tmp_path, ["1212121"])
    rnd = match.rounds[0]
    mock = MockBackend()
    mock.tap("middle", at=T.start + 0.1)             # pause while the first token is over its column
    mock.tap("right", "left", "left", at=5.0)        # step forward, back, back (already at the start: no change)
    mock.tap("middle", at=6.0)                       # play on
    mock.tap("up", at=60.0)
    Replay(mock, match, rnd).run()
    said = [(s.phase, s.caption) for _, s in mock.statuses]
    keys = "←/→ step, Enter {}, ↑ leaves"
    where = f"round {rnd.id}: move"
    assert said[:6] == [
        ("replay", f"{where} 0 of 7: {keys.format('pauses')}"),
        ("replay", f"{where} 1 of 7: {keys.format('pauses')}"),
        ("replay", f"{where} 1 of 7 (paused): {keys.format('plays on')}"),
        ("replay", f"{where} 2 of 7 (paused): {keys.format('plays on')}"),
        ("replay", f"{where} 1 of 7 (paused): {keys.format('plays on')}"),
        ("replay", f"{where} 0 of 7 (paused): {keys.format('plays on')}"),
    ]
    assert said[6:] == [("replay", f"{where} 0 of 7: {keys.format('pauses')}")] + [
        ("replay", f"{where} {n} of 7: {keys.format('pauses')}") for n in range(1, 8)] + [
        ("replay", f"{where} 7 of 7 (the end): {keys.format('plays it again')}")]
    assert mock.statuses[-1][1].as_json() == {
        "phase": "replay", "text": f"replay of {where} 7 of 7 (the end)",
        "caption": f"{where} 7 of 7 (the end): {keys.format('plays it again')}", "game": "Connect 4",
        "round": rnd.id, "move": 7, "moves": 7, "paused": False, "ended": True}


def test_the_replays_keys_are_its_screens_table():
    from gamelib.backends.base import Action, Direction
    from gamelib.keys import Animated
    from sensehat_c4.study.replay import Replay
    assert issubclass(Replay, Animated)
    by_method = {}
    for press, key in Replay.KEYS.items():
        by_method.setdefault(key.do.__name__, set()).add(press)
    assert by_method == {
        "_stepped": {(d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD)},
        "_leave": {(Direction.UP, Action.PRESSED)}, "_toggled": {(Direction.MIDDLE, Action.PRESSED)}}
