"""A pseudo-language spoken by the whole program, as a shipped language is: every message of both templates
compiled (Babel) as ``[!message!]`` into ``$GAMELIB_LOCALEDIR``, chosen with ``LANGUAGE`` alone; a game in a
terminal (a pty read through pyte), the commands' outputs and their errors then show no English word
outside the brackets (the test of item 5's pseudo-language; the web pages': tests/web/test_web_words_browser.py).
What is not a word to translate: the players' names, the program's name, numbers, board sizes, moves, a
printed board's rows (``..OX...``)."""
import re
import subprocess
import sys

import pytest
import pseudo_words
from pseudo_words import compile_pseudo
from pty_terminal import TRUECOLOR, start

NOT_WORDS = {"Ann", "sensehat"}
"""A player's name and the program's."""


def bare_words(shown: str) -> set:
    return pseudo_words.bare_words(shown, NOT_WORDS)


def test_bare_words_finds_english_outside_the_brackets():
    assert bare_words("[![!Ann (red)!] to move!] 4-2") == set()
    assert bare_words("[!match 1!]: abandoned at 0-0") == {"abandoned", "at"}


@pytest.fixture
def pseudo(tmp_path):
    compile_pseudo(tmp_path / "locale")
    return {"LANGUAGE": "xx", "GAMELIB_LOCALEDIR": str(tmp_path / "locale")}


def screen_text(program) -> str:
    return "\n".join(program.screen.display)


def test_a_game_in_a_terminal_speaks_only_the_catalogues_words(sandbox, pseudo, tmp_path):
    program = start(sandbox, "--opponent", "easy", "--names", "Ann", "--fall-ms", "5", "--db", str(tmp_path / "g.db"),
                    env={**TRUECOLOR, **pseudo}, columns=200)
    seen = []
    try:
        program.wait_for(lambda p: "[![!Ann ([!red!])!] to move: ←/→ choose, [!Enter!] drops, ↑ abandons!]"
                         in screen_text(p), what="Ann's turn, in the pseudo-language")
        seen.append(screen_text(program))
        program.press("down")                                      # Ann drops in column 4; the computer replies
        program.wait_for(lambda p: "[![!Ann ([!red!])!] to move" in screen_text(p) and "thinking" not in screen_text(p)
                         and program.output.count(b"to move") >= 2, what="Ann's second turn", timeout=20)
        seen.append(screen_text(program))
        program.press("up")                                        # the abandon question
        program.wait_for(lambda p: screen_text(p) != seen[-1], what="the abandon question")
        seen.append(screen_text(program))
        program.press("q")
        error = program.finish()
        seen.append(screen_text(program))
    finally:
        program.close()
    assert program.process.returncode == 0 and bare_words(error) == set()   # the terminal's notice, in words too
    assert "[!match 1 (computer: [!easy!], player 2): [!abandoned at 0-0!]!]" in seen[-1]
    assert [bare_words(shown) for shown in seen] == [set()] * 4, seen


@pytest.mark.parametrize("argv, status", [
    (["history"], 0), (["stats"], 0), (["puzzle", "--show", "--date", "2026-11-27"], 0), (["analyse", "4448"], 2),
    (["--bogus"], 2), (["--board", "9x9"], 2), (["--opponent", "nope"], 2), (["levels"], 2), (["--version"], 0),
])
def test_the_commands_say_only_the_catalogues_words(pseudo, tmp_path, argv, status):
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", *argv], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, **pseudo, "SENSEHAT_C4_DB": str(tmp_path / "g.db")})
    assert done.returncode == status and "[!" in done.stdout + done.stderr
    board_rows = re.compile(r"^[.XO]+$", re.M)
    assert bare_words(board_rows.sub("", done.stdout)) == set() and bare_words(done.stderr.replace("sensehat-c4 analyse", "")) == set()


def test_the_puzzle_in_a_terminal_speaks_only_the_catalogues_words(sandbox, pseudo, tmp_path):
    program = start(sandbox, "puzzle", "--date", "2026-11-27", "--db", str(tmp_path / "g.db"),
                    env={**TRUECOLOR, **pseudo}, columns=200)
    try:
        program.wait_for(lambda p: "win within 5 stones!]" in screen_text(p), what="the puzzle's turn, in the "
                         "pseudo-language")
        shown = screen_text(program)
        program.press("q")
        program.finish()
    finally:
        program.close()
    assert bare_words(shown) == set(), shown
    # a value inside a message is a word too: the colour's name, looked up (bare_words cannot see inside)
    assert "[![!red!] to move: win within 5 stones!]" in shown, shown
