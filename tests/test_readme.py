"""README against the code, where README states a fact the code decides: the exit codes, the tests' tiers."""
import configparser
import re
import signal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_exit_codes():
    """``{code: meaning}`` from README's exit-code table (rows ``| 3 | ... |``)."""
    text = (ROOT / "README.md").read_text()
    table = text[text.index("Exit codes, for every command"):]
    table = table[:table.index("\n\n", table.index("| code |"))]
    return {int(code): meaning for code, meaning in re.findall(r"^\| (\d+) \| (.+) \|$", table, re.M)}


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


def test_the_exit_code_table_lists_every_code_the_commands_use():
    table, used = readme_exit_codes(), exit_codes_in_the_code()
    assert {3, 78} <= set(used)
    assert sorted(table) == sorted(used), f"README's table: {sorted(table)}; the code: {used}"


def test_the_quick_start_says_how_long_the_tests_take_and_names_the_fast_tier():
    text = (ROOT / "README.md").read_text()
    quick = text[text.index("## Quick start"):text.index("## What you see")]
    blocks = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    ci = (ROOT / ".ci" / "run").read_text()
    assert blocks[1] in ci.splitlines()                             # the whole suite: what CI runs
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    fast = re.search(r"the fast tier is (-m \"not slow\")", config["tool:pytest"]["markers"]).group(1)
    assert blocks[2] == f".venv/bin/python -m pytest {fast}"       # the fast tier, as the marker names it
    assert "The whole suite takes 10-20 minutes on a 2-core machine" in " ".join(quick.split())
