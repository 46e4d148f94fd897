"""README and the user's guide (``docs/guide/``) against the code and against each other.

README is the start for a newcomer (at most 250 lines); the guide holds the rest, a page a topic.
What README promises is checked here: the two commands of a fresh machine (the test one is what
``.ci/run`` runs), the tests' times and the fast tier, the levels it names, every ``sensehat-c4``
and ``gamelib`` command and option it shows (each one the program's ``--help`` lists). The guide's
exit-code table is checked against every ``EXIT_*`` of both packages, and every relative link of
README and the guide must reach a file and, after a ``#``, a heading of it.
"""
import configparser
import functools
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sensehat_c4.engine.levels import LADDER
from guide import guide_exit_codes, unmarked

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
MAX_LINES = 250


def exit_codes_in_the_code():
    """Every ``EXIT_* = n`` of both packages, and the signals ``app.run`` turns into exits."""
    codes = {}
    for package in ("gamelib", "sensehat_c4"):
        for path in (ROOT / package).rglob("*.py"):
            for name, code in re.findall(r"^(EXIT_\w+) = (\d+)$", path.read_text(), re.M):
                codes[int(code)] = name
    codes[128 + signal.SIGHUP] = "SIGHUP (app.run)"
    codes[128 + signal.SIGTERM] = "SIGTERM (app.run)"
    return codes


def section(text: str, title: str) -> str:
    """README's ``## `` section whose heading starts with ``title``, up to the next one."""
    start = re.search(rf"^## {re.escape(title)}.*$", text, re.M)
    assert start, f"README has no section {title!r}"
    end = re.search(r"^## ", text[start.end():], re.M)
    return text[start.end():start.end() + end.start() if end else len(text)]


def test_the_exit_code_table_lists_every_code_the_commands_use():
    table, used = guide_exit_codes(), exit_codes_in_the_code()
    assert {3, 78} <= set(used)
    assert sorted(table) == sorted(used), f"the guide's table: {sorted(table)}; the code: {used}"


def test_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines: at most {MAX_LINES} (the rest goes to docs/guide/)"


def test_the_quick_start_says_how_long_the_tests_take_and_names_the_fast_tier():
    quick = section(README.read_text(), "Quick start")
    blocks = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    assert blocks[0] == ("python3 -m venv .venv && .venv/bin/pip install -e '.[emu,book]' && .venv/bin/sensehat-c4")
    ci = (ROOT / ".ci" / "run").read_text()
    assert blocks[1] in ci.splitlines()                             # the whole suite: what CI runs
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    fast = re.search(r"the fast tier is (-m \"not slow\")", config["tool:pytest"]["markers"]).group(1)
    assert blocks[2] == f".venv/bin/python -m pytest {fast}"       # the fast tier, as the marker names it
    assert "The whole suite takes 5-10 minutes on a 2-core machine" in " ".join(quick.split())


def test_readme_gives_no_system_wide_pip_install():
    # Raspberry Pi OS refuses it (PEP 668): the ways in on a Pi are apt with pipx, or the Debian package
    for document in DOCUMENTS:
        assert "sudo pip " not in document.read_text(), document.name
    pi = [line.strip() for line in section(README.read_text(), "Installing on a Raspberry Pi").splitlines()]
    assert pi[pi.index("sudo apt install sense-hat pipx") + 1] == "pipx install --system-site-packages ."
    assert "sudo apt install ./dist/sensehat-c4_*.deb" in pi


def test_readme_names_the_levels_of_the_ladder_in_order():
    names = [level.name for level in LADDER]
    computer = " ".join(section(unmarked(README.read_text()), "The computer opponent").split())
    assert f"perfect play: {', '.join(names)} (`1`-`{len(names)}` on the LEDs" in computer


def chooser_tokens():
    """What a document writes for each entry of the opponent chooser (the code's table, ``CHOICES``), in its
    order: each label in backticks, the levels as one run (`` `1`-`9` ``), the LAN's picture as its waves."""
    from sensehat_c4.match.entries import CHOICES
    from sensehat_c4.match.opponents import OpponentKind

    tokens, levels = [], []
    for entry, label, _colour in CHOICES:
        if entry is not None and entry.kind is OpponentKind.COMPUTER:
            levels.append(label)
            continue
        if levels:
            tokens.append(f"`{levels[0]}`-`{levels[-1]}`")
            levels = []
        tokens.append("waves" if entry is not None and entry.kind is OpponentKind.LAN else f"`{label}`")
    return tokens


def chooser_places():
    """Where README and the guide list the opponent chooser's entries: (document, the text of that place)."""
    readme = unmarked(README.read_text())
    options = unmarked((GUIDE / "options.md").read_text())
    return [("README.md", readme[readme.index("1. the opponent:"):readme.index("2. the board size")]),
            ("playing.md", unmarked((GUIDE / "playing.md").read_text()).split("## Choosing the opponent")[1].split("## ")[0]),
            ("launcher.md", next(line for line in unmarked((GUIDE / "launcher.md").read_text()).splitlines()
                                 if "asks for the opponent" in line)),
            ("options.md", next(line for line in options.splitlines() if line.startswith("| `--opponent`")))]


@pytest.mark.parametrize("document, text", chooser_places(), ids=[name for name, _ in chooser_places()])
def test_readme_and_the_guide_name_every_entry_of_the_opponent_chooser_in_its_order(document, text):
    tokens = chooser_tokens()
    assert "`M`" in tokens and "waves" in tokens                 # match me and the LAN are entries
    text = " ".join(text.split())
    at = 0
    for token in tokens:
        found = text.find(token, at)
        assert found >= 0, f"{document}: {token} missing (or out of the chooser's order) in {text!r}"
        at = found + len(token)


def commands_shown(text: str):
    """``(program, command, options)`` of every ``sensehat-c4 ...`` and ``gamelib ...`` a document shows, in
    its code blocks and in its inline code; ``command`` is ``""`` for the program itself."""
    shown = re.findall(r"```sh\n(.*?)```", text, re.S) + [   # inline code that starts with a command (not a
        code for code in re.findall(r"`([^`\n]+)`", text)   # message quoted that names the program)
        if re.match(r"(?:sudo )?(?:\S*/)?(?:sensehat-c4|gamelib)(?:\s|$)", code)]
    found = set()
    for snippet in shown:
        for line in snippet.splitlines():
            line = line.split("#")[0]
            for match in re.finditer(r"(?:^|\s|/)(sensehat-c4|gamelib)((?: [^\s;&|]+)*)", line):
                words = match.group(2).split()
                command = words[0] if words and not words[0].startswith("-") and re.fullmatch(r"[a-z-]+", words[0]) else ""
                found.add((match.group(1), command, tuple(w.split("=")[0] for w in words if w.startswith("--"))))
    return found


@functools.lru_cache(maxsize=None)
def help_of(program: str, command: str) -> str:
    module = "sensehat_c4" if program == "sensehat-c4" else "gamelib"
    argv = [sys.executable, "-m", module] + ([command] if command else []) + ["--help"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, f"{' '.join(argv[2:])}: {done.stderr}"
    return done.stdout


def test_every_command_and_option_readme_and_the_guide_show_is_the_program_s():
    shown = commands_shown(README.read_text())
    assert ("sensehat-c4", "history", ()) in shown and ("sensehat-c4", "", ("--lan", "--names")) in shown
    assert ("gamelib", "install-service", ("--user",)) in shown
    for document in DOCUMENTS:
        for program, command, options in sorted(commands_shown(document.read_text())):
            text = help_of(program, command)
            missing = [option for option in options
                       if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text)]
            assert not missing, f"{document.name} shows {program} {command} {missing}: not in its --help"


def test_the_guide_gives_each_level_s_own_thinking_budget():
    budgets = {}
    for level in LADDER:
        budgets.setdefault(level.seconds, []).append(level.name)
    (short, quick), (long, _) = sorted(budgets.items())
    options = " ".join(unmarked((GUIDE / "options.md").read_text()).split())
    assert f"{short:g} s for {' and '.join(quick)}, {long:g} s for the others" in options


def test_the_options_table_of_readme_gives_options_the_game_has():
    table = section(README.read_text(), "Options")
    options = re.findall(r"^\| `(--[a-z-]+)", table, re.M)
    assert len(options) >= 5
    text = help_of("sensehat-c4", "")
    assert [o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text)] == []


# -- the links -----------------------------------------------------------------------------------

def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation gone, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.M | re.S)     # a "# comment" in code is no heading
    return {anchor(heading) for heading in re.findall(r"^#{1,6} (.+)$", text, re.M)}


DOCUMENTS = [README] + sorted(GUIDE.glob("*.md"))


def test_there_is_a_guide_and_readme_links_every_page_of_it():
    pages = sorted(p.name for p in GUIDE.glob("*.md"))
    assert len(pages) >= 10
    linked = set(re.findall(r"\]\(docs/guide/([\w-]+\.md)", README.read_text()))
    assert sorted(set(pages) - linked) == [], "guide pages README does not link"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_a_file_and_a_heading(document):
    text = re.sub(r"^```.*?^```", "", document.read_text(), flags=re.M | re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = []
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue                                    # https:, mailto:: not ours
        file, _, fragment = link.partition("#")
        target = (document.parent / file).resolve() if file else document
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif fragment and (target.suffix != ".md" or fragment not in anchors(target)):
            broken.append(f"{link}: no heading #{fragment} in {target.relative_to(ROOT)}")
    assert not broken, f"{document.relative_to(ROOT)}: {broken}"


def test_a_python_without_the_test_extra_is_told_readme_s_command_in_one_line(monkeypatch):
    """Run by a Python without the ``test`` extra, pytest stops before collecting (exit 4) with README's
    command, not one ImportError per test module; each missing distribution is named, and a Python without
    the package at all is told so."""
    import importlib.util
    from importlib import metadata

    spec = importlib.util.spec_from_file_location("tests_conftest", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)                       # tests/conftest.py (a folder's
    spec.loader.exec_module(conftest)                                      # own may be "conftest" now)

    real = metadata.distribution

    def without(*names):
        def distribution(name):
            if name in names:
                raise metadata.PackageNotFoundError(name)
            return real(name)
        return distribution

    assert conftest.missing_for_tests() == []                              # this venv has all of them
    monkeypatch.setattr(metadata, "distribution", without("pyte", "h11"))
    assert conftest.missing_for_tests() == ["h11", "pyte"]                 # setup.cfg's order
    monkeypatch.setattr(metadata, "requires", lambda name: (_ for _ in ()).throw(metadata.PackageNotFoundError(name)))
    assert conftest.missing_for_tests() == ["sensehat-c4"]
    assert conftest.SETUP.replace(", then ", " && ") in (ROOT / ".ci" / "run").read_text()   # README's, as CI runs it
    exits = []
    monkeypatch.setattr(pytest, "exit", lambda reason, returncode: exits.append((reason, returncode)))
    conftest.pytest_configure(None)
    assert exits == [(f"this Python ({sys.executable}) lacks what the tests need (sensehat-c4): {conftest.SETUP}", 4)]
