"""The terminal backend on a real pseudo-terminal: in this process, then the whole game in a child.

In-process tests open the backend on one end of ``os.openpty()`` and play the
terminal on the other (typing bytes, reading what is drawn through ``pyte``).
The child-process tests run ``sensehat-c4`` as a person in a terminal would,
with the pty as its controlling terminal, so resizes send it SIGWINCH and
closing the pty hangs it up like a dropped SSH connection.
"""
import io
import os
import signal
import sys
import termios
import threading
import time

import pytest
from pyte.graphics import FG_BG_256

from emu_sandbox import child_env
from frames import in_order, turned
from pty_terminal import PtyProgram, PtyScreen, below, board_origin, under_help, game, hex_colours, history, leds, letters, set_size, TRUECOLOR, start, board, shows

from gamelib.backends import open_backend
from gamelib.backends.base import STICK, Action, Direction
from gamelib.backends import terminal
from gamelib.backends.terminal import NOT_A_TERMINAL, TerminalBackend
from gamelib.backends.terminal_screen import ENTER, LEAVE, SHORT_HINT, dim, dot_colour, xterm_256
from gamelib.colours import RED
from gamelib.errors import BackendError, QuitRequested
from gamelib.status import Status
from gamelib.palette import palette as default_palette
from sensehat_c4.match import render
from sensehat_c4.match.chooser import CHOICES, choice_frame, size_frame
from sensehat_c4.engine.levels import LEVELS
from sensehat_c4.rules import Board, Size

P = render.Palette()


class Terminal(PtyScreen):
    """The far end of a pty, with the backend opened on its near end in this process."""

    def type(self, data):
        os.write(self.master, data)

    def backend(self, **kwargs):
        kwargs.setdefault("env", TRUECOLOR)
        return TerminalBackend(stdin=self.slave, stdout=self.slave, **kwargs)


@pytest.fixture
def term():
    terminal = Terminal()
    yield terminal
    terminal.close()


# -- in this process ----------------------------------------------------------------------------

def test_not_a_terminal_is_a_clear_error():
    r, w = os.pipe()
    try:
        with pytest.raises(BackendError) as info:
            TerminalBackend(stdin=r, stdout=w)
        assert str(info.value) == NOT_A_TERMINAL
    finally:
        os.close(r)
        os.close(w)


def test_opening_takes_the_terminal_and_closing_gives_it_back_exactly(term):
    backend = term.backend()
    raw = termios.tcgetattr(term.slave)
    lflag = raw[3]
    assert not lflag & (termios.ECHO | termios.ICANON | termios.ISIG)
    assert not raw[0] & (termios.ICRNL | termios.IXON)
    backend.screen.show(board())
    term.pump(0.05)
    assert term.output.startswith(ENTER.encode())
    assert leds(term.screen) == hex_colours(board())
    backend.close()
    backend.close()
    term.pump(0.05)
    assert term.output.endswith(LEAVE.encode())
    assert termios.tcgetattr(term.slave) == term.attributes_before


@pytest.mark.parametrize("interrupted", ["os.write", "termios.tcsetattr", "signal.set_wakeup_fd"])
def test_exceptions_from_signals_during_the_restore_do_not_stop_it(term, monkeypatch, interrupted):
    """Each of three signals' handlers raises once, at one step of the restore; it still completes."""
    out = io.TextIOWrapper(io.FileIO(os.dup(term.slave), "w"), write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    backend = term.backend()
    print("match 1: player 1 wins 2-0")
    module, name = interrupted.split(".")
    real = getattr(getattr(terminal, module), name)
    raised = []

    def interrupt_three_times(*args):
        if len(raised) < 3:
            raised.append((SystemExit(129), SystemExit(143), KeyboardInterrupt())[len(raised)])
            raise raised[-1]
        return real(*args)

    monkeypatch.setattr(getattr(terminal, module), name, interrupt_three_times)
    with pytest.raises((SystemExit, KeyboardInterrupt)):
        backend.close()
    setattr(getattr(terminal, module), name, real)
    assert len(raised) == 3
    term.pump(0.05)
    assert termios.tcgetattr(term.slave) == term.attributes_before
    assert term.output.endswith(LEAVE.encode() + b"match 1: player 1 wins 2-0\r\n")
    assert signal.getsignal(signal.SIGWINCH) is signal.SIG_DFL and signal.set_wakeup_fd(-1) == -1
    assert sys.stdout is out and not signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_failure_while_opening_gives_the_terminal_back(term):
    from gamelib.errors import ConfigError
    with pytest.raises(ConfigError):
        term.backend(rotation=45)
    term.pump(0.05)
    assert termios.tcgetattr(term.slave) == term.attributes_before
    assert term.output.endswith(LEAVE.encode())
    assert signal.getsignal(signal.SIGWINCH) is signal.SIG_DFL


@pytest.mark.parametrize("data, expected", [
    (b"\x1b[D", [(Direction.LEFT, Action.PRESSED), (Direction.LEFT, Action.RELEASED)]),
    (b"\x1bOC\r", [(Direction.RIGHT, Action.PRESSED), (Direction.RIGHT, Action.RELEASED),
                   (Direction.MIDDLE, Action.PRESSED), (Direction.MIDDLE, Action.RELEASED)]),
    (b"\x1b[B\x1b[B\x1b[B", [(Direction.DOWN, Action.PRESSED), (Direction.DOWN, Action.HELD),
                             (Direction.DOWN, Action.HELD), (Direction.DOWN, Action.RELEASED)]),
    (b"h", [(Direction.MIDDLE, Action.PRESSED), (Direction.MIDDLE, Action.RELEASED)]),    # a hint (helps on)
    (b"u", [(Direction.UP, Action.PRESSED), (Direction.UP, Action.RELEASED),             # a take-back (helps on):
            (Direction.DOWN, Action.PRESSED), (Direction.DOWN, Action.RELEASED)]),       # up, then down
    (b"\x7f", [(Direction.UP, Action.PRESSED), (Direction.UP, Action.RELEASED),          # Backspace: the same
                (Direction.DOWN, Action.PRESSED), (Direction.DOWN, Action.RELEASED)]),
])
def test_keys_are_stick_events(term, data, expected):
    with term.backend() as backend:
        assert backend.stick.wait_event(0.02) is None
        typed = backend.now()
        term.type(data)
        events = [backend.stick.wait_event(1.0) for _ in expected]
        assert [(e.direction, e.action) for e in events] == expected
        assert all(typed <= e.timestamp <= backend.now() for e in events)   # on the backend's clock
        assert backend.stick.wait_event(0.02) is None


def test_rotation_turns_the_arrows_with_the_picture(term):
    with term.backend(rotation=90) as backend:
        backend.screen.show(board())
        term.pump(0.05)
        assert leds(term.screen) == hex_colours(turned(board(), 90))
        term.type(b"\x1b[C")                               # right, on a picture turned clockwise: up
        assert backend.stick.wait_event(1.0).direction is Direction.UP


@pytest.mark.parametrize("key, error", [(b"q", QuitRequested), (b"\x03", KeyboardInterrupt)])
def test_q_quits_and_ctrl_c_interrupts(term, key, error):
    backend = term.backend()
    term.type(b"\x1b[A")
    assert backend.stick.wait_event(1.0).direction is Direction.UP
    term.type(key)
    with pytest.raises(error):
        backend.stick.wait_event(1.0)
    term.type(b"\x1b[B" + key)                        # at once, even behind another key
    with pytest.raises(error):
        backend.stick.wait_event(1.0)
    backend.close()
    assert termios.tcgetattr(term.slave) == term.attributes_before


def test_a_resize_wakes_the_wait_and_redraws(term):
    with term.backend() as backend:
        backend.screen.show(board())
        term.pump(0.05)
        assert leds(term.screen) == hex_colours(board())

        def resize():
            time.sleep(0.1)
            set_size(term.master, 60, 20)
            os.kill(os.getpid(), signal.SIGWINCH)     # the kernel sends it to a controlling terminal's job
            term.pump(0.2)                            # the redraw comes while the wait goes on ...
            term.type(b"\x1b[D")                      # ... which a key then ends

        thread = threading.Thread(target=resize)
        thread.start()
        assert backend.stick.wait_event(10).direction is Direction.LEFT
        thread.join()
        term.screen.resize(20, 60)
        term.pump(0.05)
        assert leds(term.screen) == hex_colours(board())
        assert term.screen.display[4][20:39] == "┌─────────────────┐"   # centred: (20 - 12) // 2, (60 - 19) // 2
    assert signal.getsignal(signal.SIGWINCH) is signal.SIG_DFL
    assert signal.set_wakeup_fd(-1) == -1                            # put back as it was


def test_low_light_redraws_dimmer(term):
    with term.backend() as backend:
        backend.screen.show(board())
        backend.screen.low_light = True
        term.pump(0.05)
        assert leds(term.screen) == hex_colours([dim(p) for p in board()])


def test_what_the_program_prints_shows_under_the_board_then_stays_after(term, monkeypatch):
    out = io.TextIOWrapper(io.FileIO(os.dup(term.slave), "w"), write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    with term.backend() as backend:
        backend.screen.show(board())
        print("match 1: player 1 wins 2-0")
        term.pump(0.05)
        assert [line.strip() for line in term.screen.display[11:14]] == [   # the board up half a line
            SHORT_HINT, "match 1: player 1 wins 2-0", ""]                    # under the hint (its own row empty)
        assert sys.stdout is not out
    assert sys.stdout is out
    term.pump(0.05)
    assert term.output.endswith(LEAVE.encode() + b"match 1: player 1 wins 2-0\r\n")
    out.close()


def test_plain_mode_prints_the_lines_once(term, monkeypatch):
    out = io.TextIOWrapper(io.FileIO(os.dup(term.slave), "w"), write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    with term.backend(env={"TERM": "dumb"}) as backend:
        backend.screen.show(board())
        print("match 1: player 1 wins 2-0")
    term.pump(0.05)
    assert term.output.count(b"match 1: player 1 wins 2-0") == 1   # no alternate screen to come back from
    out.close()


def test_a_caption_shows_under_the_board_and_the_line_it_hid_comes_back(term, monkeypatch):
    out = io.TextIOWrapper(io.FileIO(os.dup(term.slave), "w"), write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    with term.backend() as backend:
        backend.screen.show(board())
        backend.screen.notice("no Sense HAT or emulator found")
        backend.screen.say(Status("choosing opponent", "choosing the opponent: 2 players", "2 players (left/right: browse)"))
        term.pump(0.05)
        assert term.screen.display[13].strip() == "2 players (left/right: browse)"
        backend.screen.say(Status("playing", "round 1 (0-0, 7x6): player 1 (red) to move"))   # no caption: the notice
        term.pump(0.05)
        assert term.screen.display[13].strip() == "no Sense HAT or emulator found"
        print("match 1: player 1 wins 2-0")
        backend.screen.say(Status("choosing size", "choosing the board size: 6x5", "board size: 6x5"))
        term.pump(0.05)                    # the printed line keeps a row of its own under the caption
        assert [line.strip() for line in term.screen.display[12:14]] == ["board size: 6x5", "match 1: player 1 wins 2-0"]
        backend.screen.say(Status("playing", "round 1 (0-0, 6x5): player 1 (red) to move", "player 1 (red) to move"))
        term.pump(0.05)                    # in play: whose turn, and the last match's result under it
        assert [line.strip() for line in term.screen.display[12:14]] == ["player 1 (red) to move",
                                                                          "match 1: player 1 wins 2-0"]
        backend.screen.say(Status("playing", "round 1 (0-0, 6x5): player 1 (red) to move"))   # no caption: the line
        term.pump(0.05)
        assert [line.strip() for line in term.screen.display[12:14]] == ["match 1: player 1 wins 2-0", ""]
    out.close()


def test_another_threads_press_or_wake_up_ends_a_wait_for_ever_at_once(term):
    with term.backend() as backend:
        for act, expected in ((lambda: backend.stick.inject("up", source="phone:1"), (Direction.UP, "phone:1")),
                              (backend.stick.wake, None)):
            timer = threading.Timer(0.2, act)
            timer.start()
            started = time.monotonic()
            event = backend.stick.wait_event()                   # no timeout: only the other thread ends it
            waited = time.monotonic() - started
            timer.join()
            assert 0.15 < waited < 2.0
            assert (event if event is None else (event.direction, event.source)) == expected
        term.type(b"\x1b[D")                               # the keys still come, from the stick
        event = backend.stick.wait_event(2.0)
        assert (event.direction, event.source) == (Direction.LEFT, STICK)


def test_a_key_typed_during_an_animation_is_discarded_even_when_undecided(term):
    with term.backend() as backend:
        term.type(b"\r")
        assert (backend.stick.wait_event(1.0).action) is Action.PRESSED   # Enter drops a token
        time.sleep(0.3)
        term.type(b"\r")                                 # Enter again while it falls: a tap or a repeat?
        time.sleep(0.02)
        backend.stick.discard_events()                          # the fall ends
        later = [backend.stick.wait_event(1.0) for _ in range(2)]
        assert [(e.direction, e.action) for e in later if e] == [(Direction.MIDDLE, Action.RELEASED)]


def test_the_terminal_going_away_is_an_error_not_a_spin(term):
    backend = term.backend()
    os.close(term.master)
    term.master = -1
    with pytest.raises(BackendError, match="the terminal has gone"):
        backend.stick.wait_event(1.0)
    backend.close()                                    # nothing left to restore: no error either


def test_auto_takes_the_terminal_when_there_is_nothing_else(term, monkeypatch):
    from gamelib.backends import senselib
    monkeypatch.setattr(senselib, "hat_present", lambda: False)
    monkeypatch.setattr(senselib, "emulator_running", lambda: None)
    monkeypatch.setattr("gamelib.backends.terminal.standard_fds", lambda: (term.slave, term.slave))
    said = []
    with open_backend("auto", notice=said.append) as backend:
        assert backend.name == "terminal"
    assert said == ["no Sense HAT or running emulator found; playing in this terminal "
                    "(--backend emu opens the emulator window)"]


def test_auto_with_no_terminal_says_what_is_missing(monkeypatch):
    from gamelib.backends import senselib
    monkeypatch.setattr(senselib, "hat_present", lambda: False)
    monkeypatch.setattr(senselib, "emulator_running", lambda: None)
    monkeypatch.setattr("gamelib.backends.terminal.standard_fds", lambda: None)
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(BackendError) as info:
        open_backend("auto")
    assert str(info.value) == (
        "no Sense HAT found, the emulator is not running and this is not a terminal: run it in a terminal, "
        "start sense_emu_gui on a desktop, or on a Pi check the HAT and that this user is in the 'video' and "
        "'input' groups")


# -- the whole game in a terminal -------------------------------------------------------------



def play_moves(program, moves, palette=P):
    """Play ``moves`` (1-based columns) with the arrow keys and Enter or space, waiting for each frame."""
    for ply, move in enumerate(moves):
        before = moves[:ply]
        program.wait_for(shows(board(before, 3, palette)), what=f"the board before move {ply + 1}")
        steps = int(move) - 4
        for _ in range(abs(steps)):
            program.press("right" if steps > 0 else "left")
        program.wait_for(shows(board(before, int(move) - 1, palette)), what=f"the cursor over column {move}")
        program.press("enter" if ply % 2 else "space")


TURN = "player 1 (red) to move: ←/→ choose, Enter drops, ↑ abandons"
"""The line under the hint while player 1 is to move at the keyboard."""


@pytest.mark.slow
def test_auto_plays_a_round_in_the_terminal_and_q_quits(sandbox):
    program = start(sandbox, "--opponent", "human")
    try:
        program.wait_for(shows(board("")), what="the empty board")
        program.wait_for(lambda p: below(p.screen)[:3] == [SHORT_HINT, "player 1 (red) to move: ←/→ choose,",
                                                           "Enter drops, ↑ abandons"],   # whose turn, wrapped to fit
                         what="whose turn under the board")
        program.press("right")                                     # the cursor moves, and wraps
        program.wait_for(shows(board("", 4)))
        program.press("left", "left", "left", "left", "left")
        program.wait_for(shows(board("", 6)))
        program.press("right", "right", "right", "right")         # 6 -> 0 (wraps) -> 3
        program.wait_for(shows(board("", 3)))
        play_moves(program, "4545454")                             # red stacks column 4
        program.wait_for(shows(render.digit_frame(1, RED, P)), what="red's score digit")
        program.press("q")
        err = program.finish()
        assert program.process.returncode == 0
        assert err == ("sensehat-c4: no Sense HAT or running emulator found; playing in this terminal "
                       "(--backend emu opens the emulator window)\n")
        # q mid-match: the abandoned match's line, under the board and again once the terminal is back
        assert program.output.endswith(LEAVE.encode() + b"match 1: abandoned at 1-0, player 1 ahead\r\n")
        assert termios.tcgetattr(program.slave) == program.attributes_before
        seen = history(program.output, 40, 16)
        first_drop = [hex_colours(f) for f, _ in render.falling(Board.from_moves("4"), 3, P, 0)]
        assert in_order(first_drop[1:], seen)                      # every row of the fall, in order
        win = Board.from_moves("4545454")
        blinks = [hex_colours(f) for f, _ in render.blink_cells(win, win.outcome.cells, P, 3, 0)]
        assert in_order(blinks + [hex_colours(render.digit_frame(1, RED, P))], seen)
        assert hex_colours(board("454545", 3)) in seen             # yellow never got its turn after
        assert seen.index(hex_colours(board("454545", 3))) < seen.index(blinks[0])
    finally:
        program.close()


def test_the_choosers_say_in_words_what_the_leds_show(sandbox):
    """Under the board, the opponent chooser's item and the keys, then the board size; in play whose
    turn it is, in which colour, and the keys (each wrapped whole to the terminal's 40 columns)."""
    program = start(sandbox)
    status = lambda p: under_help(p.screen)   # noqa: E731 (the lines under the hint, 40 x 16)
    browse = "(←/→ browse, Enter chooses)"
    try:
        program.wait_for(shows(choice_frame(0, default_palette())), what="the opponent chooser")
        program.wait_for(lambda p: status(p) == f"2 players {browse}")
        said = []
        count = len(CHOICES)
        for index in range(1, count + 1):
            program.press("right")
            program.wait_for(shows(choice_frame(index % count, default_palette())), what=f"choice {index % count}")
            program.wait_for(lambda p: status(p) != (said or [f"2 players {browse}"])[-1])
            said.append(status(program))
        assert said == [f"{label} {browse}" for label in (
            [f"computer: {number} {name}" for number, name in enumerate(LEVELS, 1)]
            + ["computer: match me", "over the LAN", "rules", "2 players"])]
        program.press("enter")
        program.wait_for(shows(size_frame(Size(), default_palette())), what="the size chooser")
        program.wait_for(lambda p: status(p) == "board size: 7x6 (←/→ browse, Enter chooses, ↑ back)")
        assert below(program.screen)[1:3] == ["board size: 7x6 (←/→ browse, Enter", "chooses, ↑ back)"]
        program.press("left")
        program.wait_for(lambda p: status(p) == "board size: 6x6 (←/→ browse, Enter chooses, ↑ back)")
        program.press("enter")
        program.wait_for(shows(render.board_frame(Board(6, 6), P, cursor=2)), what="the 6x6 board")
        program.wait_for(lambda p: status(p) == TURN)
        program.press("q")
        assert program.finish() == ("sensehat-c4: no Sense HAT or running emulator found; playing in this "
                                    "terminal (--backend emu opens the emulator window)\n")
    finally:
        program.close()


TAP_GAPS = [None, 0.0, 0.01, 0.04] + [pytest.param(gap, marks=pytest.mark.slow) for gap in (0.08, 0.1, 0.14, 0.2)]
"""Seconds between taps: ``None`` is all the keys in one write (one read in the game), 0 one
write each with no pause; 80-140 ms is a player who knows where they are going."""


def dropped(program, moves):
    """The column (1-7) of the token dropped after ``moves``, once its fall has ended."""
    after = {c: hex_colours(board(moves + str(c))) for c in range(1, 8)}
    program.wait_for(lambda p: leds(p.screen) in after.values(), what=f"a token dropped after {moves!r}")
    return next(c for c, frame in after.items() if frame == leds(program.screen))


@pytest.mark.parametrize("gap", TAP_GAPS, ids=["one-read", "0ms", "10ms", "40ms", "80ms", "100ms", "140ms", "200ms"])
def test_every_left_right_tap_moves_the_cursor_one_column_whatever_the_gap(sandbox, gap):
    """Quick taps (or an SSH connection bunching slow ones) each step once; Enter drops where they led."""
    program = start(sandbox, "--backend", "terminal", "--opponent", "human")
    try:
        moves = ""
        for keys, column in ((("left",) * 3, 1), (("right",) * 3, 7), (("left",) * 5, 6),
                             (("right", "right", "left", "right"), 6)):
            program.wait_for(shows(board(moves)), what=f"the board after {moves!r}")
            program.tap(*keys, "enter", gap=gap)
            assert dropped(program, moves) == column, f"{keys} then Enter, {gap} s apart"
            moves += str(column)
        program.press("q")
        assert program.finish() == "" and program.process.returncode == 0
    finally:
        program.close()


@pytest.mark.parametrize("env, args, expected", [
    ({"TERM": "xterm-256color"}, (), lambda frame: [FG_BG_256[xterm_256(dot_colour(p))] for p in frame]),
    ({**TRUECOLOR}, ("--low-light",), lambda frame: hex_colours([dim(p) for p in frame])),
    ({**TRUECOLOR}, ("--rotation", "180"), lambda frame: hex_colours(frame[::-1])),
])
def test_colours_low_light_and_rotation_in_the_game(sandbox, env, args, expected):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human", *args, env=env)
    try:
        program.wait_for(lambda p: leds(p.screen) == expected(board("")), what="the empty board")
        program.press("right")                     # at 180 degrees, right on the keyboard is left in the game
        moved = board("", 2 if "180" in args else 4)
        program.wait_for(lambda p: leds(p.screen) == expected(moved), what="the cursor moved")
    finally:
        program.close()


def test_letters_when_colour_is_off(sandbox):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human",
                    env={"TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1", "LC_ALL": "C"})
    try:
        program.wait_for(lambda p: letters(p.screen) is not None and letters(p.screen)[0] == ". . . R . . . . ")
        program.press("space")
        program.wait_for(lambda p: letters(p.screen)[0] == ". . . Y . . . . ")
        assert letters(program.screen) == [". . . Y . . . . ", ". . . . . . . . "] + ["B B B B B B B . "] * 5 + [
            "B B B R B B B . "]
        assert b"\x1b[48;" not in program.output and b"\x1b[38;" not in program.output
        top, left = board_origin(program.screen)
        assert program.screen.display[top][left:left + 19] == "+-----------------+"   # not a UTF-8 locale: ASCII
        assert program.screen.display[top + 1][left:left + 19] == "| . . . Y . . . . |"
    finally:
        program.close()


def test_too_small_says_so_and_growing_shows_the_board(sandbox):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human", columns=20, lines=8)
    try:
        program.wait_for(lambda p: p.text().startswith("This terminal is too"), what="the too-small message")
        assert program.text() == ("This terminal is too\nsmall for the board:\nit needs 19 x 10\n"
                                  "characters and has\n20 x 8. Make it\nbigger (or press q\nto quit).")
        program.resize(40, 16)
        program.wait_for(shows(board("")), what="the board after growing")
        program.press("left")
        program.wait_for(shows(board("", 2)))
        program.resize(30, 9)                                       # too small again, then bigger
        program.wait_for(lambda p: "30 x 9." in p.text(), what="the too-small message again")
        program.resize(50, 20)
        program.wait_for(shows(board("", 2)))
        assert program.screen.display[3][15:34] == "┌─────────────────┐"   # centred: (20 - 13) // 2, (50 - 19) // 2
        assert below(program.screen)[:3] == ["arrows and Enter (or space) play, q quits",   # the turn: two lines
                                             "player 1 (red) to move: ←/→ choose, Enter drops, ↑",
                                             "abandons"]
        program.press("q")
        assert program.finish() == "" and program.process.returncode == 0
    finally:
        program.close()


@pytest.mark.parametrize("how, code", [
    (lambda p: p.process.send_signal(signal.SIGTERM), 143),        # systemd, kill
    (lambda p: p.process.send_signal(signal.SIGHUP), 129),
    (lambda p: p.press("ctrl-c"), 130),
])
def test_stopping_restores_the_terminal(sandbox, how, code):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human")
    try:
        program.wait_for(shows(board("")))
        assert termios.tcgetattr(program.slave) != program.attributes_before
        how(program)
        assert program.finish() == ""
        assert program.process.returncode == code
        assert termios.tcgetattr(program.slave) == program.attributes_before   # echo, line editing, signals
        assert program.output.endswith(LEAVE.encode())             # colours, wrap, cursor, alternate screen
    finally:
        program.close()


PAIRS = [(signal.SIGHUP, signal.SIGTERM), (signal.SIGTERM, signal.SIGHUP), (signal.SIGHUP, signal.SIGINT)]


def two_signals_restore_the_terminal(program, first, second, gap):
    """Send ``first``, then ``second`` ``gap`` seconds later (a person's ``kill; kill``, a service
    stopped while its terminal closes); the program must exit by one of them, with the terminal
    as it found it."""
    program.process.send_signal(first)
    time.sleep(gap)
    program.process.send_signal(second)
    assert program.finish() == ""
    # exit 128 + signal, or killed by the second one once all was put back (a shell shows both as 128 + n)
    assert program.process.returncode in {128 + first, 128 + second, -first, -second}
    assert termios.tcgetattr(program.slave) == program.attributes_before   # echo, line editing, signals
    assert program.output.endswith(LEAVE.encode())       # attributes off, cursor shown, alternate screen left


@pytest.mark.parametrize("first, second", PAIRS, ids=lambda s: s.name)
@pytest.mark.parametrize("gap", [0.0, 0.002, 0.02])
def test_two_signals_while_the_computer_thinks_still_restore_the_terminal(sandbox, first, second, gap):
    program = start(sandbox, "--backend", "terminal", "--opponent", "hard", "--computer-plays", "1",
                    "--think", "30")
    try:
        program.wait_for(lambda p: leds(p.screen) is not None, what="the board")
        program.pump(0.2)                                  # the computer waits at least 0.6 s: still thinking
        assert leds(program.screen)[3 * 8:4 * 8] == hex_colours(board(""))[3 * 8:4 * 8]   # no move shown yet
        two_signals_restore_the_terminal(program, first, second, gap)
    finally:
        program.close()


@pytest.mark.parametrize("first, second", PAIRS, ids=lambda s: s.name)
def test_two_signals_in_the_launcher_still_restore_the_terminal(sandbox, first, second):
    base = child_env(sandbox)
    base.update(TRUECOLOR, XDG_CONFIG_HOME=sandbox, XDG_STATE_HOME=sandbox)
    program = PtyProgram([sys.executable, "-m", "gamelib", "--backend", "terminal", "--log-level", "error"],
                         env=base)
    try:
        program.wait_for(lambda p: leds(p.screen) is not None, what="the menu")
        two_signals_restore_the_terminal(program, first, second, 0.002)
    finally:
        program.close()


def test_a_dropped_connection_ends_the_game_quietly(sandbox):
    program = start(sandbox, "--backend", "terminal", "--opponent", "human")
    try:
        program.wait_for(shows(board("")))
        program.hang_up()
        assert program.finish() == ""                              # no traceback (stderr is a pipe here)
        assert program.process.returncode == 129                   # SIGHUP
    finally:
        program.close()


def test_not_a_terminal_is_one_line_and_exit_1(sandbox):
    import subprocess
    proc = subprocess.run(game("--backend", "terminal"), env=child_env(sandbox), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == f"sensehat-c4: {NOT_A_TERMINAL}\n"
