"""``tools/tables``: README's and the guide's tables and lists of the levels, palettes, languages and commands
are what the code's tables say (``RUNGS``, ``PALETTES``, the catalogues, ``COMMANDS``), and a stale one is
found and written again."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from gamelib import i18n
from gamelib.palette import PALETTES
from sensehat_c4.commands import COMMANDS
from sensehat_c4.engine.rungs import RUNGS
from sensehat_c4.match.words import LEVEL_WORDS

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "tables"


def tables(*arguments: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GAMELIB_LOCALEDIR"}
    return subprocess.run([sys.executable, str(TOOL), *arguments], capture_output=True, text=True, timeout=120,
                          env=env, check=False)


def docs_copy(into: Path) -> Path:
    (into / "docs").mkdir()
    shutil.copy(ROOT / "README.md", into / "README.md")
    shutil.copytree(ROOT / "docs" / "guide", into / "docs" / "guide")
    return into


def test_the_docs_tables_are_current():
    done = tables("--check")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_the_tables_hold_every_row_in_its_words():
    options = (ROOT / "docs" / "guide" / "options.md").read_text()
    computer = (ROOT / "docs" / "guide" / "computer.md").read_text()
    for number, rung in enumerate(RUNGS, 1):
        assert f"| {number} {rung.name} | {LEVEL_WORDS[rung.name]} |" in computer
    for name in PALETTES:
        assert re.search(rf"^\| `{re.escape(name)}` \| `#[0-9a-f]{{6}}` \|", options, re.M), name
    for command in COMMANDS:
        assert f"| `sensehat-c4 {command.usage}` | {command.summary}" in options
    assert "<!-- tables: language-codes -->" + ", ".join(f"`{c}`" for c in i18n.languages()) in options


def test_a_stale_table_is_found_and_written_again(tmp_path):
    root = docs_copy(tmp_path)
    options = root / "docs" / "guide" / "options.md"
    readme = root / "README.md"
    before = options.read_text(), readme.read_text()
    first = COMMANDS[1]
    options.write_text(before[0].replace(f"| `sensehat-c4 {first.usage}` |", "| `sensehat-c4 gone` |")
                       .replace("--palette {default,", "--palette {old,"))
    readme.write_text(before[1].replace("<!-- tables: level-keys -->`1`-", "<!-- tables: level-keys -->`0`-"))
    done = tables("--check", "--root", str(root))
    assert (done.returncode, done.stdout) == (1, "tables: README.md is not current (run tools/tables)\n"
                                                 "tables: docs/guide/options.md is not current (run tools/tables)\n")
    assert (options.read_text(), readme.read_text()) != before          # --check writes nothing
    done = tables("--root", str(root))
    assert (done.returncode, done.stdout) == (0, "tables: README.md written\ntables: docs/guide/options.md written\n")
    assert (options.read_text(), readme.read_text()) == before
    assert tables("--check", "--root", str(root)).returncode == 0


def test_an_unknown_table_is_one_line(tmp_path):
    root = docs_copy(tmp_path)
    (root / "docs" / "guide" / "playing.md").write_text("<!-- tables: nothing -->x<!-- /tables: nothing -->\n")
    done = tables("--check", "--root", str(root))
    assert done.returncode == 1 and done.stderr.splitlines()[-1].startswith("tables: no table called 'nothing'")


def test_a_root_without_the_documents_is_one_line(tmp_path):
    done = tables("--check", "--root", str(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", f"tables: {tmp_path} holds no README.md (--root names a copy of the tree's documents)\n")
