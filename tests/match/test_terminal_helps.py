"""Helps in a terminal: the whole program in a pseudo-terminal against the computer with ``--helps on``;
``h`` asks for a hint (the real solver's column blinks), ``u`` takes back, the line under the board
says the keys and the counts, the records keep them; a press during a hint's blinks is not lost; the key
help and the abandon question fit an 80-column terminal whole, in every language."""
import sqlite3
import textwrap

import pytest
from emu_sandbox import child_env
from pty_terminal import TRUECOLOR, PtyProgram, below, board, game, hex_colours, leds, shows, start, under_help

from gamelib.colours import RED, YELLOW
from gamelib import i18n
from gamelib.i18n import choose
from sensehat_c4.match import render, words
from sensehat_c4.rules import Board, Size

P = render.Palette()
KEYS = "player 1 (red) to move: ←/→ choose, ↓ drops, Enter or h: a hint, ↑ then ↓ or u: take back, ↑ abandons"


def test_h_shows_a_hint_and_u_takes_back_in_the_terminal(sandbox, tmp_path):
    db = tmp_path / "games.db"
    env = child_env(sandbox)
    for name in ("TERM", "COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"):
        env.pop(name, None)
    env.update(TRUECOLOR)
    program = PtyProgram(game("--opponent", "easy", "--helps", "on", "--fall-ms", "5", "--db", str(db)),
                         columns=120, lines=16, env=env)
    status = lambda p: under_help(p.screen)   # noqa: E731 (the lines under the key help)
    try:
        program.wait_for(shows(board("")), what="the empty board")
        program.wait_for(lambda p: status(p) == KEYS + " (no helps used)")
        program.press("left", "h")                                    # a hint: perfect's column 4
        program.wait_for(shows(render.board_frame(Board(), P)), what="the hint's dark half")
        program.wait_for(shows(board("", 3)), what="the cursor left over column 4")
        program.wait_for(lambda p: status(p) == KEYS + " (1 hint, 0 take-backs)")
        program.pump(1.5)                                             # the blink's end
        program.press("down")
        replies = [board(f"4{c}", 3) for c in range(1, 8)]
        program.wait_for(lambda p: any(shows(r)(p) for r in replies), what="the computer's reply", timeout=15)
        program.press("u")                                            # up then down: both moves taken back
        program.wait_for(shows(board("", 3)), what="the empty board again")
        program.wait_for(lambda p: status(p) == KEYS + " (1 hint, 1 take-back)")
        program.press("q")
        program.finish()
    finally:
        program.close()
    conn = sqlite3.connect(str(db))
    try:
        assert conn.execute("SELECT moves, result, level, hints, takebacks FROM rounds").fetchall() == [
            ("", "abandoned", "easy", 1, 1)]
    finally:
        conn.close()


def stones(program, colour):
    """How many tokens of ``colour`` the terminal's board holds (the cursor row and the gap row left out)."""
    shown = leds(program.screen)
    return 0 if shown is None else shown[16:].count(hex_colours([colour])[0])


def test_a_press_during_a_hints_blinks_drops_at_once_and_the_counts_show_at_80_and_200_columns(sandbox):
    program = start(sandbox, "--opponent", "easy", "--helps", "on", "--fall-ms", "5", columns=80, lines=24)
    try:
        program.wait_for(shows(board("")), what="the empty board")
        for turn, after in enumerate((0.6, 1.0, 1.3)):               # seconds from h to down: inside the blinks
            program.press("h")
            program.wait_for(lambda p: under_help(p.screen).endswith(f"({turn + 1} hint{'s' * bool(turn)}, "
                                                                      "0 take-backs)"), what="the hint")
            program.pump(after - 0.05)
            program.press("down")                                     # not lost: red drops where the hint was
            program.wait_for(lambda p: stones(p, RED) == turn + 1, what=f"red's token {after} s after h", timeout=3)
            program.wait_for(lambda p: "thinking" in under_help(p.screen), what="the computer's turn")
            program.wait_for(lambda p: under_help(p.screen).startswith("player 1 (red) to move"), what="red's turn",
                             timeout=15)
            assert stones(program, YELLOW) == turn + 1                # the computer replied
        program.press("h")
        program.wait_for(lambda p: under_help(p.screen) == KEYS + " (4 hints, 0 take-backs)", what="four hints")
        assert below(program.screen)[1:3] == textwrap.wrap(KEYS + " (4 hints, 0 take-backs)", 80)
        program.resize(200, 24)
        program.wait_for(lambda p: below(p.screen)[1] == KEYS + " (4 hints, 0 take-backs)", what="one line at 200")
        program.press("q")
        program.finish()
    finally:
        program.close()


def said_in(language, phase):
    """The line under the key help in ``language`` while red (with helps) plays the computer: its turn with
    the round's counts, or the abandon question."""
    choose([language])
    try:
        seats = (words.Seat(1, RED, helps=True), words.Seat(2, YELLOW, level="easy"))
        caption = words.match(phase, seats, size=Size(), number=1, score=(0, 0), helps=(0, 0), take_back=True,
                              turn=1 if phase == words.PLAYING else None).caption
    finally:
        choose(None)
    assert caption is not None
    return caption


@pytest.mark.parametrize("language", i18n.languages())
def test_the_key_help_and_the_abandon_question_fit_80_columns_whole(sandbox, language):
    turn, question = said_in(language, words.PLAYING), said_in(language, words.CONFIRMING)
    if language == "en":
        assert (turn, question) == (KEYS + " (no helps used)", "abandon the match? ↑ again: yes, ↓: take back your "
                                    "last move, another key: play on")
    assert len(turn) > 80 and len(question) > 80                       # neither fits one line
    program = start(sandbox, "--opponent", "easy", "--helps", "on", env={**TRUECOLOR, "LANGUAGE": language},
                    columns=80, lines=24)
    try:
        program.wait_for(shows(board("")), what="the empty board")
        for said, key in ((turn, "up"), (question, "left")):
            program.wait_for(lambda p: under_help(p.screen) == said, what=repr(said))   # every word
            lines = below(program.screen)
            count = len(textwrap.wrap(said, 80))
            assert lines[1:1 + count] == textwrap.wrap(said, 80, break_on_hyphens=False)   # each line whole,
            assert all(len(line) <= 80 for line in lines)                                # centred, none cut
            program.press(key)                                         # up: the question; left: play on
        program.wait_for(lambda p: under_help(p.screen) == turn, what="the turn again")
        program.press("q")
        program.finish()
    finally:
        program.close()
