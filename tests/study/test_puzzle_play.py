"""The puzzle of the day played: exact frames and words on the mock's fake clock, the records (the
puzzles table, its migration, the streak), the launcher's entry, the command on the real sense_emu
library and in a terminal, and a sample of puzzles solved through the play against the solver."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from emu_sandbox import FakeEmulator, child_env, lit
from frames import g, grid
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK
from gamelib.games import GROUP, as_game, entry_points
from gamelib.palette import DEFAULT, PALETTES
from gamelib.scroll import scroll_frames
from gamelib.palette import palette as default_palette
from pty_terminal import PtyProgram, game, hex_colours, leds
from records_data import record_match, rows, ticking
from sensehat_c4 import cli
from sensehat_c4.engine.puzzles import daily, solution_line
from sensehat_c4.match import render
from sensehat_c4.records import Recorder, Records, migrations, streak
from sensehat_c4.records.rows import PuzzleRecord
from sensehat_c4.rules import Board
from sensehat_c4.study import puzzle as pz
from sensehat_c4.study.puzzle import PuzzlePlay, PuzzleTiming, RecordsKeeper

ROOT = Path(__file__).parents[2]
T = PuzzleTiming()
P = PALETTES[DEFAULT]
DAY = date(2026, 11, 24)
PUZZLE = daily(DAY)
"""2-0462: after 441423425 yellow (to move) wins within 2 stones; only column 3 does it (line 315)."""


def at(moves: str, **kw) -> str:
    return grid(render.board_frame(Board.from_moves(PUZZLE.moves + moves), P, **kw))


def fall(moves: str, column: int, start: float, extra: float = 0.0):
    """``(time, grid)`` of the token dropped in ``column`` after the puzzle's moves and ``moves``; the time after."""
    after = Board.from_moves(PUZZLE.moves + moves)
    after.play(column)
    frames, now = [], start
    for pixels, seconds in render.falling(after, column, P, T.fall_row):
        frames.append((round(now, 6), grid(pixels)))
        now += seconds
    return frames, now + extra


def keeper(tmp_path, today=DAY, day=DAY):
    return RecordsKeeper(day, daily(day), tmp_path / "games.db", today=lambda: today,
                         recorder=Recorder(tmp_path / "games.db", clock=ticking()))


def test_the_puzzle_is_the_records_day_and_the_one_move_wins():
    assert (PUZZLE.ident, PUZZLE.moves, PUZZLE.line, PUZZLE.to_move, PUZZLE.n) == ("2-0462", "441423425", "315", 2, 2)


def test_a_wrong_move_shows_the_right_column_then_another_try_solves_it(tmp_path, capsys):
    mock = MockBackend()
    mock.tap("middle", at=1.0)                  # column 4: it does not win within 2
    mock.tap("middle", at=10.0)                 # another try
    mock.tap("left", at=11.0)                   # column 3
    mock.tap("middle", at=12.0)                 # right: the defence blocks at 1
    mock.tap("right", at=20.0)                  # column 5: four in a row
    mock.tap("middle", at=21.0)
    kept = keeper(tmp_path)
    done = PuzzlePlay(mock, DAY, PUZZLE, keeper=kept).run()
    kept.close()
    assert (done.tries, done.solved, done.streak) == (2, True, 1)
    assert done.line == "puzzle 2-0462 of 2026-11-24: solved at try 2; streak: 1 day"
    seen = [(round(t, 6), grid(f)) for t, f in mock.frames]
    assert seen[0] == (0.0, at("", cursor=3))
    assert seen[0][1] == g("""
        ...Y....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBRBBB.
        BBBYBBB.
        BYBYBBB.
        RRYRRBB.""")
    dropped, now = fall("", 3, 1.0, T.landed)
    lit_3 = g("""
        ..Y.....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBRBBB.
        BBBYBBB.
        BYBYBBB.
        RRYRRBB.""")                            # the right column, blinking at the cursor row
    blinks = []
    for _ in range(T.lit_blinks):
        blinks += [(round(now, 6), lit_3), (round(now + T.lit, 6), at(""))]
        now += 2 * T.lit
    blinks.append((round(now, 6), lit_3))       # and lit while another try is offered
    end = 1 + len(dropped) + len(blinks)
    assert seen[1:end] == dropped + blinks
    assert seen[end:end + 2] == [(10.0, at("", cursor=3)), (11.0, at("", cursor=2))]
    dropped, now = fall("", 2, 12.0)
    aim = (round(now, 6), at("3", cursor=0))    # the defence's cursor, in red, over column 1
    defended, now = fall("3", 0, now + T.aim)
    start = end + 2
    assert seen[start:start + len(dropped) + 1 + len(defended)] == dropped + [aim] + defended
    start += len(dropped) + 1 + len(defended)
    assert seen[start:start + 2] == [(round(now, 6), at("31", cursor=3)), (20.0, at("31", cursor=4))]
    won = Board.from_moves(PUZZLE.moves + "315")
    blink = [grid(f) for f, _ in render.blink_cells(won, won.outcome.cells, P, T.win_blinks, T.win_blink)]
    dropped, now = fall("31", 4, 21.0)
    scrolled = [grid(f) for f, _ in scroll_frames("STREAK 1", P.text, P.background, speed=T.scroll)]
    assert [f for _, f in seen[start + 2:]] == [f for _, f in dropped] + blink + scrolled + [grid([BLACK] * 64)]
    said = [(round(t, 6), s.text) for t, s in mock.statuses]
    assert said == [
        (0.0, "puzzle 2-0462, try 1: yellow to move: win within 2 stones"),
        (1.0, "puzzle 2-0462, try 1: 4 does not win in time; column 3 wins"),
        (10.0, "puzzle 2-0462, try 2: yellow to move: win within 2 stones"),
        (round(seen[start][0], 6), "puzzle 2-0462, try 2: yellow to move: win with this stone"),
        (21.0, "puzzle 2-0462 solved at try 2; streak: 1 day")]
    assert mock.statuses[1][1].caption == "column 3 wins; Enter: try again, ↑: leave"
    assert mock.statuses[3][1].as_json() == {
        "phase": "puzzle", "text": "puzzle 2-0462, try 2: yellow to move: win with this stone",
        "caption": "yellow to move: win with this stone; ←/→: choose, Enter: drop, ↑: leave", "game": "Connect 4",
        "puzzle": "2-0462", "date": "2026-11-24", "n": 2, "left": 1, "try": 2, "streak": 0, "colour": "#ffff00",
        "colour_name": "yellow"}
    assert rows(tmp_path / "games.db", "SELECT * FROM puzzles") == [
        (1, "2026-11-24", "2-0462", 2, 2, "2026-11-24", "2026-11-23T14:00:00Z", "2026-11-23T14:01:00Z")]


def test_up_leaves_at_once_even_during_an_animation_and_presses_meanwhile_are_dropped():
    mock = MockBackend()
    mock.tap("left", at=1.0)
    mock.tap("middle", at=2.0)                  # right: the defence comes
    mock.tap("right", "middle", at=2.05, gap=0.01)   # while the token falls: nothing
    mock.tap("up", at=2.1)
    done = PuzzlePlay(mock, DAY, PUZZLE).run()
    assert (done.tries, done.solved, done.streak) == (0, False, None)
    assert done.line == "puzzle 2-0462 of 2026-11-24: not solved (0 tries)"
    assert round(mock.frames[-1][0], 6) == 2.1 and mock.leds == (BLACK,) * 64
    assert all(grid(f) != at("", cursor=3) for t, f in mock.frames if t > 1.5)   # the cursor never moved back


def test_a_full_column_flashes_and_the_player_chooses_again():
    day = next(DAY + timedelta(days=k) for k in range(0, 400, 7)
               if any(Board.from_moves(daily(DAY + timedelta(days=k)).moves).height(c) == 6 for c in range(7)))
    puzzle = daily(day)
    board = puzzle.board()
    full = next(c for c in range(7) if board.height(c) == 6)
    mock = MockBackend()
    step = "right" if full >= 3 else "left"
    mock.tap(*[step] * abs(full - 3), at=1.0, gap=0.2)
    mock.tap("middle", at=3.0)
    mock.tap("up", at=5.0)
    PuzzlePlay(mock, day, puzzle).run()
    flashes = [(round(3.0 + k * T.flash, 6), grid(f)) for k, (f, _) in enumerate(
        render.flash_column(board, full, P, P.player(board.to_move), T.flashes, T.flash))]
    seen = [(round(t, 6), grid(f)) for t, f in mock.frames]
    start = seen.index(flashes[0])
    assert seen[start:start + len(flashes)] == flashes
    assert seen[start + len(flashes)] == (round(3.0 + len(flashes) * T.flash, 6),
                                          grid(render.board_frame(board, P, cursor=full)))
    assert mock.statuses[-1][1].text.endswith("try 1: " + ("red" if puzzle.to_move == 1 else "yellow")
                                              + f" to move: win within {puzzle.n} stones")


@pytest.mark.parametrize("k", range(0, 70, 5))
def test_a_sample_of_days_is_solved_by_playing_the_solver_s_line(k):
    """Playing the solver's own line (:func:`solution_line`, computed here) on the LEDs solves the day's puzzle
    at the first try with its ``n``-th stone, the defence replying as the line does."""
    day = DAY + timedelta(days=k)
    puzzle = daily(day)
    line = [int(c) - 1 for c in solution_line(puzzle.moves)]
    assert len(line) == 2 * puzzle.n - 1
    mock = MockBackend()
    when = 1.0
    for ply in range(0, len(line), 2):
        moves = [("right" if line[ply] > 3 else "left")] * abs(line[ply] - 3)
        mock.tap(*moves, at=when, gap=0.2)
        mock.tap("middle", at=when + 2.0)
        when += 10.0
    done = PuzzlePlay(mock, day, puzzle).run()
    assert done.solved and done.tries == 1, (day, puzzle.ident)
    final = Board.from_moves(puzzle.moves + "".join(str(c + 1) for c in line))
    last = [grid(f) for _, f in mock.frames if grid(f) == grid(render.board_frame(final, P))]
    assert last, "the final board is shown"


# -- the records --------------------------------------------------------------------------------

def played(day: date, solved_on=None, tries=1) -> PuzzleRecord:
    from datetime import datetime, timezone
    when = datetime(2026, 1, 1, tzinfo=timezone.utc)
    return PuzzleRecord(1, day, "1-0001", 1, tries, solved_on, when, when)


def test_the_streak_counts_days_solved_on_the_day_up_to_today_or_yesterday():
    d = date(2026, 11, 20)
    run = [played(d + timedelta(days=k), d + timedelta(days=k)) for k in range(3)]   # the 20th to the 22nd
    assert streak(run, date(2026, 11, 22)) == 3
    assert streak(run, date(2026, 11, 23)) == 3     # today's not solved yet: the streak lasts
    assert streak(run, date(2026, 11, 24)) == 0     # a day passed unsolved
    gap = run + [played(date(2026, 11, 24), date(2026, 11, 24))]   # the 23rd missing
    assert streak(gap, date(2026, 11, 24)) == 1
    late = run + [played(date(2026, 11, 23), date(2026, 11, 24)), played(date(2026, 11, 24), date(2026, 11, 24))]
    assert streak(late, date(2026, 11, 24)) == 1    # the 23rd's solved a day late breaks it
    unsolved = run + [played(date(2026, 11, 23), None, tries=4)]
    assert streak(unsolved, date(2026, 11, 23)) == 3
    assert streak([], date(2026, 11, 23)) == 0


def test_tries_and_days_are_kept_a_row_a_day_and_a_day_solved_twice_counts_once(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    day1, day2, day4 = date(2026, 11, 23), date(2026, 11, 24), date(2026, 11, 26)
    assert recorder.puzzle_tried(day1, "1-0408", 1, solved=True, today=day1)
    assert recorder.puzzle_tried(day2, "2-0462", 2, solved=False, today=day2)
    assert recorder.puzzle_tried(day2, "2-0462", 2, solved=True, today=day2)
    assert recorder.puzzle_tried(day2, "2-0462", 2, solved=True, today=day2)    # solved again: one more try
    assert recorder.puzzle_tried(day4, "4-0227", 4, solved=True, today=day4)   # the 25th missing
    recorder.close()
    assert rows(path, "SELECT day, puzzle, n, tries, solved_on FROM puzzles ORDER BY day") == [
        ("2026-11-23", "1-0408", 1, 1, "2026-11-23"), ("2026-11-24", "2-0462", 2, 3, "2026-11-24"),
        ("2026-11-26", "4-0227", 4, 1, "2026-11-26")]
    with Records(path) as stored:
        found = stored.puzzles()
    assert [(p.day, p.tries, p.on_the_day) for p in found] == [(day4, 1, True), (day2, 3, True), (day1, 1, True)]
    assert streak(found, day4) == 1
    assert streak(found, day2) == 2


def test_a_clock_set_back_during_a_try_still_makes_a_row_its_readers_read(tmp_path, capsys):
    """The day's puzzle started on 2026-12-09 by the clock, solved once the clock was put back to 2026-12-07:
    kept as solved on its day (the readers refuse a row solved before its day: ``stats`` skipped it)."""
    path = tmp_path / "games.db"
    day, earlier = date(2026, 12, 9), date(2026, 12, 7)
    clock = iter([earlier, earlier])
    kept = RecordsKeeper(day, daily(day), path, today=lambda: next(clock),
                         recorder=Recorder(path, clock=ticking()))
    assert kept.tried(False) == 0 and kept.tried(True) == 0   # the streak counts up to the clock's today
    kept.close()
    assert rows(path, "SELECT day, tries, solved_on FROM puzzles") == [("2026-12-09", 2, "2026-12-09")]
    with Records(path) as stored:
        assert [(p.day, p.tries, p.on_the_day) for p in stored.puzzles()] == [(day, 2, True)]
        assert stored.notes == []


def test_the_command_says_an_unusable_db_before_the_puzzle_once(mock, tmp_path, capsys):
    """``puzzle --db adir``: the recorder's line when the backend opens (the board has not taken the terminal
    yet), ``GAMES NOT RECORDED`` on the LEDs before the puzzle, and no second line about reading it."""
    import sys

    from gamelib import backends

    folder = tmp_path / "adir"
    folder.mkdir()
    opened = backends.open_backend
    before = []
    backends.open_backend = lambda *a, **k: (before.append(sys.stderr.getvalue()), opened())[1]
    mock.tap("up", at=10.0)
    try:
        assert cli.main(["puzzle", "--date", DAY.isoformat(), "--db", str(folder)]) == 0
    finally:
        backends.open_backend = opened
    warning = f"sensehat-c4: WARNING: games are not being recorded: adir is a directory ({folder})\n"
    assert before == [warning]
    assert capsys.readouterr() == ("puzzle 2-0462 of 2026-11-24: not solved (0 tries)\n", warning)
    steps = list(scroll_frames("GAMES NOT RECORDED", P.warning, P.background))
    shown = [frame for _, frame in mock.frames]
    assert shown[:len(steps)] == [tuple(frame) for frame, _ in steps]
    assert list(shown[len(steps)]) == render.board_frame(PUZZLE.board(), P, cursor=3)
    assert [s.phase for _, s in mock.statuses][:2] == ["unrecorded", "puzzle"]


def test_a_file_of_version_3_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(str(path))
    for step in migrations.MIGRATIONS[:3]:
        conn.executescript(step)
    conn.executescript("PRAGMA user_version = 3; PRAGMA application_id = 1127507042;")
    conn.close()
    record_match(Recorder(path, clock=ticking()), ["1212121"])   # migrates it
    assert rows(path, "PRAGMA user_version") == [(migrations.SCHEMA_VERSION,)]
    assert rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == [
        ("matches",), ("puzzles",), ("rounds",)]
    assert [name for _, name, *_ in rows(path, "PRAGMA table_info(puzzles)")] == [
        "id", "day", "puzzle", "n", "tries", "solved_on", "started", "ended"]
    with Records(path) as stored:
        assert stored.puzzles() == [] and [m.id for m in stored.matches()] == [1]


def test_a_file_of_version_3_is_read_as_it_is_with_no_puzzles(tmp_path):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(str(path))
    for step in migrations.MIGRATIONS[:3]:
        conn.executescript(step)
    conn.executescript("PRAGMA user_version = 3; PRAGMA application_id = 1127507042;")
    conn.close()
    with Records(path) as stored:
        assert stored.puzzles() == [] and stored.notes == []
    assert rows(path, "PRAGMA user_version") == [(3,)]


@pytest.mark.parametrize("column, value, why", [
    ("day", "2026-11-24T00:00", "day '2026-11-24T00:00' is not a date"),
    ("puzzle", "8-0001", "puzzle '8-0001' is not a puzzle's id"),
    ("n", 3, "n 3 is not puzzle 2-0462's"),
    ("solved_on", "2026-11-23", "solved_on 2026-11-23 is before its day 2026-11-24"),
    ("tries", "x2", "tries 'x2' is not a number"),
])
def test_a_puzzle_row_that_makes_no_sense_is_skipped_with_one_line(tmp_path, column, value, why):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.puzzle_tried(DAY, "2-0462", 2, solved=True, today=DAY)
    recorder.close()
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA ignore_check_constraints = 1")
    conn.execute(f"UPDATE puzzles SET {column} = ?", (value,))
    conn.commit()
    conn.close()
    with Records(path) as stored:
        assert stored.puzzles() == []
        assert stored.notes == [f"skipped puzzles row 1: {why}"]


def test_a_file_that_cannot_be_written_loses_the_try_and_the_play_goes_on(tmp_path, caplog):
    folder = tmp_path / "dir.db"
    folder.mkdir()
    kept = RecordsKeeper(DAY, PUZZLE, folder, today=lambda: DAY)
    mock = MockBackend()
    mock.tap("left", at=1.0)
    mock.tap("middle", at=2.0)
    mock.tap("right", at=10.0)
    mock.tap("middle", at=11.0)
    done = PuzzlePlay(mock, DAY, PUZZLE, keeper=kept).run()
    kept.close()
    assert (done.solved, done.tries, done.streak) == (True, 1, None)
    assert done.line == "puzzle 2-0462 of 2026-11-24: solved at try 1"
    scrolled = [grid(f) for f, _ in scroll_frames("SOLVED", P.text, P.background, speed=T.scroll)]
    assert [grid(f) for _, f in mock.frames][-len(scrolled) - 1:-1] == scrolled
    assert "games are not being recorded: dir.db is a directory" in caplog.text


# -- the launcher's entry and the command ------------------------------------------------------

def test_the_entry_is_registered_as_the_puzzle_of_the_day():
    assert "connect4-puzzle" in [p.name for p in entry_points(GROUP)]
    assert as_game(pz.GAME) == pz.GAME and pz.GAME.name == "puzzle of the day" and not pz.GAME.remembers
    assert grid(pz.ICON(default_palette())) == g("""
        ...R....
        ........
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        BBBBBBB.
        YYYBBBB.
        RRRBYBB.""")


def test_the_entry_plays_today_s_puzzle_and_counts_earlier_tries(tmp_path, capsys):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    recorder.puzzle_tried(DAY - timedelta(days=1), daily(DAY - timedelta(days=1)).ident, 1, solved=True,
                          today=DAY - timedelta(days=1))
    recorder.puzzle_tried(DAY, PUZZLE.ident, 2, solved=False, today=DAY)
    recorder.close()
    mock = MockBackend()
    mock.tap("left", at=1.0)
    mock.tap("middle", at=2.0)
    mock.tap("right", at=10.0)
    mock.tap("middle", at=11.0)
    done = pz.play(mock, path=path, today=lambda: DAY)
    assert done is not None and (done.tries, done.solved, done.streak) == (2, True, 2)
    assert capsys.readouterr().out == "puzzle 2-0462 of 2026-11-24: solved at try 2; streak: 2 days\n"
    assert mock.statuses[0][1].text == "puzzle 2-0462, try 2: yellow to move: win within 2 stones"
    assert mock.leds == (BLACK,) * 64


def test_the_command_on_the_emulator(emu_dir, tmp_path):
    """``sensehat-c4 puzzle --date`` in a child process on the real library: a wrong move, another try, up."""
    path = tmp_path / "games.db"
    with FakeEmulator(emu_dir) as emulator:
        child = subprocess.Popen([sys.executable, "-m", "sensehat_c4", "puzzle", "--date", DAY.isoformat(),
                                  "--backend", "emu", "--db", str(path)], env=child_env(emu_dir),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            emulator.wait_client()
            start = lit(render.board_frame(PUZZLE.board(), P, cursor=3))
            emulator.wait_screen(lambda px: px == start)
            emulator.tap("middle")                   # column 4: wrong
            emulator.wait_screen(lambda px: px == lit(pz.lit_frame(PUZZLE.board(), [2], P, True)))
            emulator.tap("middle")                   # another try
            emulator.wait_screen(lambda px: px == start)
            emulator.tap("up")
            out, err = child.communicate(timeout=30)
        finally:
            child.kill()
        assert (child.returncode, out, err) == (0, "puzzle 2-0462 of 2026-11-24: not solved (1 try)\n", "")
        assert emulator.pixels() == [BLACK] * 64
    assert rows(path, "SELECT day, tries, solved_on FROM puzzles") == [("2026-11-24", 1, None)]


@pytest.mark.slow
def test_the_command_in_a_terminal(tmp_path):
    """``sensehat-c4 puzzle --backend terminal``: the board in the terminal, solved by the keys."""
    path = tmp_path / "games.db"
    env = child_env(str(tmp_path))
    env.update({"TERM": "xterm-256color", "COLORTERM": "truecolor"})
    program = PtyProgram(game("puzzle", "--date", DAY.isoformat(), "--backend", "terminal", "--db", str(path)),
                         env=env)
    try:
        program.wait_for(lambda p: leds(p.screen) == hex_colours(render.board_frame(PUZZLE.board(), P, cursor=3)),
                         what="the puzzle")
        assert "yellow to move: win within 2 stones" in program.text()
        program.press("left")
        program.wait_for(lambda p: leds(p.screen) == hex_colours(render.board_frame(PUZZLE.board(), P, cursor=2)))
        program.press("enter")
        after = Board.from_moves(PUZZLE.moves + "31")
        program.wait_for(lambda p: leds(p.screen) == hex_colours(render.board_frame(after, P, cursor=3)),
                         what="the defence's reply")
        program.press("right")
        program.wait_for(lambda p: leds(p.screen) == hex_colours(render.board_frame(after, P, cursor=4)))
        program.press("enter")
        assert program.finish(timeout=30) == ""
        out = program.output.decode()
    finally:
        program.close()
    assert program.process.returncode == 0
    assert "puzzle 2-0462 of 2026-11-24: solved at try 1; streak: " in out
    assert rows(path, "SELECT day, tries FROM puzzles") == [("2026-11-24", 1)]


def test_stats_count_the_puzzles_and_the_streak_up_to_today(tmp_path):
    path = tmp_path / "games.db"
    recorder = Recorder(path, clock=ticking())
    today = date.today()
    for back, solved in ((3, True), (2, True), (1, True)):
        day = today - timedelta(days=back)
        recorder.puzzle_tried(day, daily(day).ident, daily(day).n, solved=False, today=day)
        recorder.puzzle_tried(day, daily(day).ident, daily(day).n, solved=solved, today=day)
    old = today - timedelta(days=9)
    recorder.puzzle_tried(old, daily(old).ident, daily(old).n, solved=True, today=today)   # solved late
    recorder.close()
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "stats", "--db", str(path)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "puzzles: 4 played, 4 solved (3 on the day) in 7 tries; streak: 3 days"
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "stats", "--json", "--db", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert json.loads(done.stdout)["puzzles"] == {"played": 4, "solved": 4, "on_the_day": 3, "tries": 7, "streak": 3}


def test_the_web_page_shows_the_puzzle_being_played(tmp_path):
    """The live page's API (real sockets on loopback): the puzzle's words and details as the LEDs show them."""
    import threading
    import time

    from gamelib import web
    from gamelib.errors import MockExhausted
    from gamelib.web.address import Address
    from web_client import call

    mock = MockBackend(real_wait=3.0)   # once the script is done it waits (for a phone) 3 s, then ends
    mock.tap("middle", at=1.0)          # column 4: wrong
    ended = []

    def puzzle():
        try:
            PuzzlePlay(mock, DAY, PUZZLE, keeper=keeper(tmp_path)).run()
        except MockExhausted:
            ended.append(True)

    with web.serving(mock, Address("127.0.0.1", 0)) as server:
        game = threading.Thread(target=puzzle)
        game.start()
        deadline = time.monotonic() + 10
        while True:
            state = call(server.port, "GET", "/api/state").json()
            if "does not win" in str((state["status"] or {}).get("text")):
                break
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        game.join(30)
    status = state["status"]
    assert {k: status[k] for k in ("phase", "text", "puzzle", "date", "n", "try", "streak", "tried", "right",
                                   "winning")} == {
        "phase": "puzzle", "text": "puzzle 2-0462, try 1: 4 does not win in time; column 3 wins",
        "puzzle": "2-0462", "date": "2026-11-24", "n": 2, "try": 1, "streak": 0, "tried": 4, "right": False,
        "winning": [3]}
    page = (ROOT / "gamelib" / "web" / "static" / "page.js").read_text()
    assert 's.phase === "puzzle"' in page and '<dd id="puzzle">' in (ROOT / "gamelib/web/static/index.html").read_text()
    assert ended == [True]


@pytest.mark.parametrize("argv, message", [
    (["--date", "2026-02-30", "--backend", "terminal"],
     "argument --date: not a date YYYY-MM-DD: '2026-02-30' (that month has 28 days)"),
    (["--backend", "bogus"], "argument --backend: invalid choice: 'bogus' (choose from 'auto', 'hat', 'emu', 'terminal')"),
    (["--rotation", "45"], "argument --rotation: invalid choice: 45 (choose from 0, 90, 180, 270)"),
])
def test_bad_input_to_the_play_is_one_line_and_exit_2_before_any_backend_opens(argv, message):
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "puzzle", *argv], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"sensehat-c4 puzzle: error: {message} (see --help)\n")


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_the_puzzle_is_drawn_in_the_backend_s_palette(name):
    mock = MockBackend()
    mock.palette = PALETTES[name]
    mock.tap("up", at=1.0)
    PuzzlePlay(mock, DAY, PUZZLE).run()
    assert list(mock.frames[0][1]) == render.board_frame(PUZZLE.board(), PALETTES[name], cursor=3)


@pytest.mark.parametrize("code, line, said", [
    ("en", "puzzle 2-0462 of 2026-11-24: solved at try 2; streak: 3 days", "puzzle 2-0462 solved at try 2; streak: 3 days"),
    ("fr", "énigme 2-0462 du 2026-11-24 : résolue à l'essai 2 ; série : 3 jours",
     "énigme 2-0462 résolue à l'essai 2 ; série : 3 jours"),
    ("id", "teka-teki 2-0462 hari 2026-11-24: terpecahkan pada percobaan 2; beruntun: 3 hari",
     "teka-teki 2-0462 terpecahkan pada percobaan 2; beruntun: 3 hari"),
])
def test_the_solve_and_its_streak_are_one_sentence_in_each_language(code, line, said):
    """The streak follows the solve in one message (French sets a space before the semicolon)."""
    from gamelib import i18n

    i18n.choose([code])
    try:
        words = (pz.PuzzleResult(DAY, PUZZLE, 2, True, 3).line, pz.solved(DAY, PUZZLE, 2, 3).text)
    finally:
        i18n.choose(None)
    assert words == (line, said)


def test_the_puzzles_keys_are_its_screens_table():
    from gamelib.backends.base import Action, Direction
    from gamelib.keys import Animated
    from sensehat_c4.study.puzzle import PuzzlePlay
    assert issubclass(PuzzlePlay, Animated)
    by_method = {}
    for press, key in PuzzlePlay.KEYS.items():
        by_method.setdefault(key.do.__name__, set()).add(press)
    assert by_method == {
        "_stepped": {(d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD)},
        "_leave": {(Direction.UP, Action.PRESSED)},
        "_dropped": {(Direction.MIDDLE, Action.PRESSED), (Direction.DOWN, Action.PRESSED)}}
