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
MESSAGES = pseudo_words.template_messages()
"""Every message of both templates: what a bracket may say (the values put into it aside)."""


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
    said = pseudo_words.raw_words(board_rows.sub("", done.stdout.replace(str(tmp_path / "g.db"), "0")), MESSAGES,
                                  NOT_WORDS)   # a value put into a message too (the core's name)
    assert said == set() and bare_words(done.stderr.replace("sensehat-c4 analyse", "")) == set()


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


# -- every records command, in this process: no stored value shown as it is -----------------------------------

RECORDED_NAMES = NOT_WORDS | {"Bob"}
"""The players' names the records hold (every_kind's) and the program's."""


def raw_words(shown: str) -> set:
    return pseudo_words.raw_words(shown, MESSAGES, RECORDED_NAMES)


def test_raw_words_finds_a_stored_value_put_into_a_message_as_it_is():
    assert raw_words("[!computer [!easy!] ([!1 s!])!]") == set() == raw_words("[!computer [!match me!]!]")
    assert raw_words("[!computer easy!]") == {"easy"} and raw_words("[!computer match-me!]") == {"match", "me"}
    assert raw_words("[!match 1  2026-11-23 14:00  Ann v Bob  [!Ann wins 2-0!]  (7x6, terminal)!]") == {"terminal"}
    assert raw_words("[!no such message!]") == {"no", "such", "message"} and raw_words("Ann: [!v!] draw") == {"draw"}


@pytest.fixture
def speaking_pseudo(tmp_path, monkeypatch):
    """The pseudo-language spoken by this process (LANGUAGE alone, as a shipped language is)."""
    compile_pseudo(tmp_path / "locale")
    monkeypatch.setenv("GAMELIB_LOCALEDIR", str(tmp_path / "locale"))
    monkeypatch.setenv("LANGUAGE", "xx")


@pytest.fixture
def every_db(tmp_path):
    from records_data import every_kind

    path = tmp_path / "records" / "games.db"
    path.parent.mkdir()
    every_kind(path)
    return path


def help_of(name: str, capsys) -> str:
    from sensehat_c4.commands import main

    try:
        assert main([name, "--help"]) == 0
    except SystemExit as done:   # play's --help ends the process itself
        assert done.code == 0
    return capsys.readouterr().out


def scripted(monkeypatch, *keys):
    """Each backend a command opens from now on: a new mock, ``keys`` tapped a second apart; the mocks made."""
    from gamelib import backends
    from gamelib.backends.mock import MockBackend

    made = []

    def open_backend(*args, **kwargs):
        mock = MockBackend()
        for second, key in enumerate(keys, start=1):
            mock.tap(key, at=float(second))
        made.append(mock)
        return mock

    monkeypatch.setattr(backends, "open_backend", open_backend)
    return made


def round_ids(db) -> list:
    from sensehat_c4.records import Records

    with Records(db) as stored:
        return [rnd.id for match in stored.matches() for rnd in match.rounds]


# Each command that reads the games database, and how it is run over it (a list of command lines, and the keys a
# backend it opens is tapped with: up leaves the replay, the training, the puzzle; starts the match afresh).
RECORDS_RUNS = {
    "play": lambda db: ([["--db", str(db)]], ("up", "up")),            # the interrupted match's question
    "history": lambda db: ([["history", "--limit", "0", "--db", str(db)]], ()),
    "stats": lambda db: ([["stats", "--db", str(db)]], ()),
    "replay": lambda db: ([["replay", str(ident), "--db", str(db)] for ident in round_ids(db)], ("up",)),
    "review": lambda db: ([["review", str(ident), "--db", str(db)] for ident in round_ids(db)]
                          + [["review", str(ident), "--train", "--db", str(db)] for ident in round_ids(db)[-12:]],
                          ("up",)),
    "puzzle": lambda db: ([["puzzle", "--date", day, "--db", str(db)] for day in ("2026-11-23", "2026-11-24")],
                          ("up",)),
    "doctor": lambda db: ([["doctor", "--db", str(db)]], ()),
}


def test_every_command_that_reads_the_records_is_run_here(capsys):
    from sensehat_c4.commands import COMMANDS

    reading = {command.name for command in COMMANDS if "--db PATH" in help_of(command.name, capsys)}
    assert reading == set(RECORDS_RUNS)


@pytest.mark.parametrize("name", sorted(RECORDS_RUNS))
def test_a_records_command_says_every_stored_value_in_words(name, every_db, speaking_pseudo, monkeypatch, capsys):
    """Over a database of every kind of game: what the command prints and what its backend says (text and caption)
    hold no English outside the brackets and no stored value put into a message as it is (a level's name,
    ``match-me``, a backend's, a result)."""
    from sensehat_c4.commands import main

    argvs, keys = RECORDS_RUNS[name](every_db)
    made = scripted(monkeypatch, *keys)
    shown = []
    for argv in argvs:
        main(argv)
        out, err = capsys.readouterr()
        shown.append(out + err)
    shown += [text for mock in made for _at, status in mock.statuses for text in (status.text, status.caption or "")]
    shown = [text.replace(str(every_db), "0").replace(str(every_db.parent), "0") for text in shown]
    if name == "doctor":   # the records are one line of its report (the machine's lines are the doctor's own)
        shown = [line for text in shown for line in text.splitlines() if "[!games database!]" in line]
        assert len(shown) == 1
    assert shown and "[!" in "".join(shown)
    assert {text: raw_words(text) for text in shown if raw_words(text)} == {}
