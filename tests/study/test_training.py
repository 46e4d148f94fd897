"""Find the better move on the LEDs: exact frames and times on the mock's fake clock, the words, the
launcher's entry (picking a round, progress, nothing to train on), the command on the real sense_emu."""
from __future__ import annotations

import logging
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from emu_sandbox import FakeEmulator, child_env, lit
from frames import g, grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, RED, WHITE, YELLOW
from gamelib.font import centred_text
from gamelib.games import GROUP, Entry, as_game, discover, entry_points
from gamelib.scroll import scroll_frames
from gamelib.palette import palette as default_palette
from records_data import ANN, BOB, record_match, ticking
from sensehat_c4.lan import game as lan
from sensehat_c4.match import render, words
from sensehat_c4.study import puzzle, review, training
from sensehat_c4.errors import SearchAborted
from sensehat_c4.records import Recorder, Records
from sensehat_c4.rules import Board
from sensehat_c4.study.training import Training, TrainingTiming
from sensehat_c4.match import game as c4

ROOT = Path(__file__).resolve().parents[2]
T = TrainingTiming()
MOVES = "1122334"
"""Ann (red) v Bob (yellow), Ann first: moves 1, 2, 3, 5 and 6 change the outcome (the solver says,
``test_review``): the positions to train on."""
PALETTE = render.Palette(RED, YELLOW)


def record(tmp_path, rounds, **kwargs):
    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), rounds, **kwargs)
    return path


def reviewed(tmp_path, moves=MOVES, scorer=None, **kwargs) -> review.Review:
    path = record(tmp_path, [moves], **kwargs)
    with Records(path) as records:
        match, rnd = records.round("last")
    if scorer is None:
        return review.review_round(match, rnd, seconds=60.0)
    return review.review_round(match, rnd, seconds=60.0, scorer=scorer)


def board(moves: str, **kw) -> str:
    return grid(render.board_frame(Board.from_moves(moves), PALETTE, **kw))


def fall(moves: str, column: int, start: float):
    """``(time, grid)`` of the token dropped in ``column`` (0-based) after ``moves``, from ``start``; the
    time after it has landed and stayed."""
    after = Board.from_moves(moves)
    after.play(column)
    steps = list(render.falling(after, column, PALETTE, T.fall_row))
    frames, now = [], start
    for pixels, seconds in steps:
        frames.append((round(now, 6), grid(pixels)))
        now += seconds
    return frames, now + T.landed


def lights(lit_grid: str, unlit_grid: str, start: float):
    """The right columns blinking, then staying lit; the time the next position comes up."""
    frames, now = [], start
    for _ in range(T.lit_blinks):
        frames += [(round(now, 6), lit_grid), (round(now + T.lit, 6), unlit_grid)]
        now += 2 * T.lit
    frames.append((round(now, 6), lit_grid))
    return frames, now + T.after


def test_positions_are_the_moves_that_changed_the_outcome(tmp_path):
    result = reviewed(tmp_path)
    assert [(m.ply, m.seat, m.keeping) for m in training.positions(result)] == [
        (1, 1, (3,)), (2, 2, (1, 2, 3, 5)), (3, 1, (3, 5)), (5, 1, (1, 3, 5)), (6, 2, (3,))]


def test_a_right_try_lights_the_right_columns_then_the_next_position_comes(tmp_path):
    result = reviewed(tmp_path)
    mock = MockBackend()
    mock.tap("middle", at=1.0)                 # the cursor starts over column 4: the one winning move
    mock.tap("up", at=30.0)
    done = Training(mock, result).run()
    assert (done.total, done.tried, done.right) == (5, 1, 1)
    assert done.line == "training (round 1): 1 of 1 right, left after 1 of 5"
    seen = [(round(t, 6), grid(f)) for t, f in mock.frames]
    assert seen[0] == (0.0, board("", cursor=3))
    dropped, now = fall("", 3, 1.0)
    lit = g("""
        ...R....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBRBBB.""")
    blinks, now = lights(lit, board(""), now)
    assert seen[1:1 + len(dropped) + len(blinks)] == dropped + blinks
    assert seen[1 + len(dropped) + len(blinks):] == [(round(now, 6), board("1", cursor=3)),   # Bob's turn
                                                      (30.0, grid([BLACK] * 64))]
    said = [(round(t, 6), s) for t, s in mock.statuses]
    bob = words.Seat(2, YELLOW, "Bob")
    assert said == [
        (0.0, words.training(1, 1, 5, words.Seat(1, RED, "Ann"), "win", (3,))),
        (1.0, words.training_try(1, 1, 5, words.Seat(1, RED, "Ann"), "win", (3,), 3, "wins", words.try_outcome(1))),
        (round(now, 6), words.training(1, 2, 5, bob, "win", (1, 2, 3, 5))),
    ]
    assert said[0][1].text == "training 1 of 5: Ann (red) to move; find a move that keeps the win"
    assert said[0][1].caption == "1/5: find a move that keeps the win"
    assert said[1][1].text == "training 1 of 5: right: 4 wins"
    assert said[2][1].as_json() == {
        "phase": "training", "text": "training 2 of 5: Bob (yellow) to move; find a move that keeps the win",
        "caption": "2/5: find a move that keeps the win", "game": "Connect 4", "step": "position", "round": 1,
        "position": 2, "positions": 5, "turn": {"seat": 2, "colour": "#ffff00", "colour_name": "yellow", "name": "Bob",
                                                "level": None, "kind": "stick"},
        "goal": "win", "keeping": [2, 3, 4, 6]}


def test_a_wrong_try_shows_its_result_then_the_right_columns(tmp_path):
    result = reviewed(tmp_path)
    mock = MockBackend()
    mock.tap("middle", at=1.0)                 # position 1: right; Bob's position comes at 4.04 s
    mock.tap("right", at=5.0)                  # column 5: it loses
    mock.tap("middle", at=5.5)
    mock.tap("up", at=30.0)
    done = Training(mock, result).run()
    assert (done.tried, done.right) == (2, 1)
    seen = [(round(t, 6), grid(f)) for t, f in mock.frames]
    start = seen.index((5.0, board("1", cursor=4)))
    dropped, now = fall("1", 4, 5.5)
    assert seen[start + 1:start + 1 + len(dropped)] == dropped
    assert seen[start + 1 + len(dropped)] == (round(now, 6), g("""
        ........
        ........
        ...R....
        ...R....
        ...R....
        ...R....
        ...RRR..
        ........"""))                          # L in Ann's red: the move loses
    lit = g("""
        .YYY.Y..
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        RYYYBYB.""")                           # 2, 3, 4 and 6 keep Bob's win
    blinks, now = lights(lit, board("1"), now + T.result)
    after = start + 2 + len(dropped)
    assert seen[after:after + len(blinks)] == blinks
    assert seen[after + len(blinks)] == (round(now, 6), board("11", cursor=3))   # position 3: Ann's
    tried = mock.statuses[3][1]
    assert tried.text == "training 2 of 5: wrong: 5 loses (Ann wins in 20); 2, 3, 4 and 6 keep the win"
    assert (tried.details["tried"], tried.details["right"], tried.details["keeping"]) == (5, False, [2, 3, 4, 6])


def test_a_draw_shows_d_in_white_and_the_cursor_wraps(tmp_path):
    result = reviewed(tmp_path)
    mock = MockBackend()
    mock.tap("middle", at=1.0)                 # position 1: right
    mock.tap("middle", at=10.0)                # position 2 (Bob): column 4, right
    # position 3 (Ann, after "11"): from column 4, right x5 wraps round to column 2: it draws
    mock.tap("right", "right", "right", "right", "right", at=20.0, gap=0.2)
    mock.tap("middle", at=21.5)
    mock.tap("up", at=40.0)
    done = Training(mock, result).run()
    assert (done.tried, done.right) == (3, 2)
    seen = [(round(t, 6), grid(f)) for t, f in mock.frames]
    assert (20.8, board("11", cursor=1)) in seen
    dropped, now = fall("11", 1, 21.5)
    start = seen.index(dropped[0])
    assert seen[start:start + len(dropped)] == dropped
    assert seen[start + len(dropped)] == (round(now, 6), grid(centred_text("D", WHITE, (0, 0, 0))))
    assert mock.statuses[-2][1].text == "training 3 of 5: wrong: 2 draws; 4 and 6 keep the win"


def test_presses_during_an_animation_are_dropped_and_up_leaves_at_once(tmp_path):
    result = reviewed(tmp_path)
    mock = MockBackend()
    mock.tap("middle", at=1.0)
    mock.tap("right", "middle", "left", at=1.05, gap=0.01)   # while the token falls: nothing
    mock.tap("up", at=2.0)                                    # while the right columns blink: leaves
    done = Training(mock, result).run()
    assert (done.tried, done.right) == (1, 1)
    assert [round(t, 6) for t, _ in mock.frames][-1] == 2.0 and mock.leds == (BLACK,) * 64
    assert all(grid(f)[:8] != "....R..." for _, f in mock.frames)   # the cursor never moved


def test_a_full_column_flashes_and_the_player_chooses_again(tmp_path):
    table = {"": {c: 0 for c in range(7)}, "111111": {c: (-2 if c == 1 else 1) for c in range(1, 7)}}

    def scorer(b, seconds):
        if b.notation() not in table:
            raise SearchAborted("not in the table")
        return table[b.notation()]

    result = reviewed(tmp_path, "1111112", scorer)   # move 7: column 2 loses where the others win
    assert [m.ply for m in training.positions(result)] == [7]
    mock = MockBackend()
    mock.tap("left", "left", "left", at=1.0, gap=0.1)   # column 1: full
    mock.tap("middle", at=2.0)
    mock.tap("right", "right", at=5.0, gap=0.1)         # column 3
    mock.tap("middle", at=6.0)
    done = Training(mock, result).run()
    assert (done.total, done.tried, done.right) == (1, 1, 1)
    by_time = {round(t, 6): grid(f) for t, f in mock.frames}
    assert by_time[2.0] == g("""
        W.......
        W.......
        WBBBBBB.
        WBBBBBB.
        WBBBBBB.
        WBBBBBB.
        WBBBBBB.
        WBBBBBB.""")
    assert by_time[round(2.0 + T.flash, 6)] == board("111111", cursor=0)
    assert by_time[round(2.0 + 2 * T.flash * T.flashes, 6)] == board("111111", cursor=0)
    # the end: the count scrolls across in white, then the LEDs clear
    counted = [grid(f) for f, _ in scroll_frames("1/1", WHITE, (0, 0, 0))]
    frames = [grid(f) for _, f in mock.frames]
    assert frames[-len(counted) - 1:-1] == counted and frames[-1] == grid([BLACK] * 64)
    assert mock.statuses[-1][1].text == "training over: 1 of 1 right"


def test_nothing_to_train_on(tmp_path):
    result = reviewed(tmp_path, "4")             # the one winning move: best
    mock = MockBackend()
    done = Training(mock, result).run()
    assert (done.total, done.tried, done.right) == (0, 0, 0) and mock.leds == (BLACK,) * 64


# -- the launcher's entry --------------------------------------------------------------

def test_the_entry_is_registered_and_sits_after_connect_4_and_the_lan():
    assert "connect4-training" in [p.name for p in entry_points(GROUP)]
    entries = [e for e in discover() if e.key.startswith("connect4")]
    assert entries == [Entry("connect4", game=as_game(__import__("sensehat_c4.game").game.GAME)),
                       Entry("connect4-lan", game=as_game(lan.GAME)),
                       Entry("connect4-puzzle", game=puzzle.GAME),
                       Entry("connect4-training", game=training.GAME)]
    assert training.GAME.name == "Connect 4 training" and not training.GAME.remembers


def test_the_entry_trains_on_the_newest_round_with_a_mistake(tmp_path, capsys):
    path = record(tmp_path, [MOVES, "4"], sides=(ANN, BOB))   # round 2 (Bob first): his one move is best
    mock = MockBackend()
    mock.tap("middle", at=1.0)
    mock.tap("up", at=30.0)
    done = training.play(mock, path=path)
    assert done is not None and (done.round_id, done.tried, done.right) == (1, 1, 1)
    assert capsys.readouterr().out == "training (round 1): 1 of 1 right, left after 1 of 5\n"
    seen = [grid(f) for _, f in mock.frames]
    yellow = render.Palette(YELLOW, RED)
    bars = [grid(training.progress_frame(Board.from_moves("4"), yellow, d, 1)) for d in (0, 1)]
    bars += [grid(training.progress_frame(Board.from_moves(MOVES), PALETTE, d, 7)) for d in range(8)]
    assert seen[:10] == bars and seen[10] == board("", cursor=3)
    assert bars[-2][:8] == "WWWWWW.." and bars[-1][:8] == "WWWWWWWW"
    assert [s.text for _, s in mock.statuses][:2] == ["reviewing round 2", "reviewing round 1"]


def test_up_while_the_entry_reviews_goes_back(tmp_path):
    path = record(tmp_path, [MOVES])
    mock = MockBackend()
    mock.tap("up", at=0.5)

    def slow(match, rnd, progress):
        progress(0, 7)
        mock.advance(1.0)   # the first position took a second: up was pushed meanwhile
        progress(1, 7)
        raise AssertionError("not reached")

    assert training.play(mock, path=path, reviewer=slow) is None
    assert mock.leds == (BLACK,) * 64


@pytest.mark.parametrize("case, text", [("missing", "NO GAMES"), ("empty", "NO GAMES"), ("no mistake", "NO MISTAKES")])
def test_the_entry_says_when_there_is_nothing_to_train_on(tmp_path, case, text):
    path = tmp_path / "games.db"
    if case == "empty":
        path.write_bytes(b"")
    elif case == "no mistake":
        record(tmp_path, ["4"])
    mock = MockBackend()
    assert training.play(mock, path=path) is None
    scrolled = [grid(f) for f, _ in scroll_frames(text, WHITE, (0, 0, 0))]
    assert [grid(f) for _, f in mock.frames][-len(scrolled):] == scrolled


def test_a_database_that_cannot_be_read_is_no_games(tmp_path, caplog):
    path = tmp_path / "games.db"
    path.write_text("not a database")
    mock = MockBackend()
    with caplog.at_level(logging.WARNING, logger="sensehat_c4.study.training"):
        assert training.play(mock, path=path) is None
    assert "no rounds to train on" in caplog.text
    assert [grid(f) for _, f in mock.frames][-1] == grid(list(scroll_frames("NO GAMES", WHITE, (0, 0, 0)))[-1][0])


# -- on the real sense_emu library ---------------------------------------------------------

def test_review_train_on_the_emulator(emu_dir, tmp_path):
    """The whole command in a child process on the real library: right at the first position, then up."""
    path = record(tmp_path, [MOVES])
    with FakeEmulator(emu_dir) as emulator:
        child = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "review", "last", "--train", "--backend", "emu",
                                  "--db", str(path)], env=child_env(emu_dir),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            emulator.wait_client()
            emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), PALETTE, cursor=3)))
            emulator.tap("middle")
            lit_frame = lit(training.lit_frame(Board(), (3,), PALETTE, True))
            emulator.wait_screen(lambda px: px == lit_frame)
            emulator.wait_screen(lambda px: px == lit(render.board_frame(Board.from_moves("1"), PALETTE, cursor=3)))
            emulator.tap("up")
            out, err = child.communicate(timeout=30)
        finally:
            child.kill()
        assert (child.returncode, out, err) == (0, "training (round 1): 1 of 1 right, left after 1 of 5\n", "")
        assert emulator.pixels() == [BLACK] * 64


def test_review_train_with_nothing_to_train_on_opens_no_backend(tmp_path):
    path = record(tmp_path, ["4"])
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "review", "last", "--train", "--backend", "emu",
                           "--db", str(path)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "round 1: no move changed the outcome, nothing to train on\n", "")


def test_the_launcher_s_entry_on_the_emulator(emulator, emu_dir, games_db):
    """``python -m gamelib`` on the real library: right three times (past the LAN's and the puzzle's
    icons) to the training's icon, middle trains on the round recorded last, up goes back to the menu."""
    from emu_play import start_launcher

    record_match(Recorder(games_db, clock=ticking()), [MOVES])
    launcher = start_launcher(emu_dir)
    try:
        emulator.wait_client()
        emulator.wait_screen(lambda px: px == lit(c4.ICON(default_palette())))
        emulator.tap("right")
        emulator.wait_screen(lambda px: px == lit(lan.ICON(default_palette())))
        emulator.tap("right")
        emulator.wait_screen(lambda px: px == lit(puzzle.ICON(default_palette())))
        emulator.tap("right")
        emulator.wait_screen(lambda px: px == lit(training.ICON(default_palette())))
        emulator.tap("middle")
        emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), PALETTE, cursor=3)))
        emulator.tap("left")
        emulator.wait_screen(lambda px: px == lit(render.board_frame(Board(), PALETTE, cursor=2)))
        emulator.tap("middle")                      # column 3 draws: D, then column 4 lights
        emulator.wait_screen(lambda px: px == lit(centred_text("D", WHITE, (0, 0, 0))))
        emulator.wait_screen(lambda px: px == lit(training.lit_frame(Board(), (3,), PALETTE, True)))
        emulator.tap("up")
        emulator.wait_screen(lambda px: px == lit(training.ICON(default_palette())))   # back in the menu, on the training
        launcher.send_signal(signal.SIGTERM)
        out, err = launcher.communicate(timeout=30)
    finally:
        launcher.kill()
    assert (launcher.returncode, out, err) == (
        143, "training (round 1): 0 of 1 right, left after 1 of 5\n", "gamelib: INFO: starting Connect 4 training\n")
    assert emulator.pixels() == [BLACK] * 64


def test_the_trainings_keys_are_its_screens_table():
    from gamelib.backends.base import Action, Direction
    from gamelib.keys import Animated
    from sensehat_c4.study.training import Training
    assert issubclass(Training, Animated)
    by_method = {}
    for press, key in Training.KEYS.items():
        by_method.setdefault(key.do.__name__, set()).add(press)
    assert by_method == {
        "_stepped": {(d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD)},
        "_leave": {(Direction.UP, Action.PRESSED)},
        "_tried": {(Direction.MIDDLE, Action.PRESSED), (Direction.DOWN, Action.PRESSED)}}
