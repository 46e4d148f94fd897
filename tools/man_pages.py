"""Writes the man pages ``sensehat-c4(6)`` and ``gamelib(6)`` with help2man (``debian/rules`` runs it).

    python3 tools/man_pages.py DIRECTORY

Each page is help2man's reading of the program's ``--help``, with sections it cannot find there
added from where each fact lives: every subcommand's own ``--help`` (the commands tables),
the exit codes (docs/guide/options.md's table), the files and the environment.  The programs run from the
modules this script finds first on ``sys.path`` (``PYTHONPATH``: the package being built).

help2man reads the help unwrapped (``COLUMNS`` wide): argparse breaks its lines at hyphens, and help2man
joins a word broken at a hyphen without it (``installservice``).  The page is then set ragged-right
without hyphenation (:func:`tidy`), and a list of choices may break after a comma, so that ``man`` never
warns that it cannot adjust or break a line (``tests/packaging/test_man_pages.py`` renders each page).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
SUMMARIES = {
    "sensehat-c4": "Connect 4 on the Raspberry Pi Sense HAT's LEDs and joystick",
    "gamelib": "the Sense HAT games launcher",
}
FILES = {
    "sensehat-c4": [("~/.local/share/sensehat-c4/games.db", "every game played ($XDG_DATA_HOME; --db, "
                                                            "$SENSEHAT_C4_DB name another)"),
                    ("/usr/share/doc/sensehat-c4/README.md", "the start"),
                    ("/usr/share/doc/sensehat-c4/docs/guide/", "the user's guide, a page a topic")],
    "gamelib": [("~/.config/gamelib/settings.json", "the launcher's settings ($XDG_CONFIG_HOME)"),
                ("/lib/systemd/system/sensehat-games@.service", "the packaged system unit: "
                                                                 "sudo systemctl enable --now sensehat-games@USER"),
                ("/usr/lib/systemd/user/sensehat-games.service", "the packaged user unit"),
                ("/usr/share/doc/sensehat-c4/README.md", "the start"),
                ("/usr/share/doc/sensehat-c4/docs/guide/", "the user's guide (launcher.md, autostart.md)")],
}
ENVIRONMENT = [("GAMELIB_BACKEND", "the backend when --backend is not given (auto, hat, emu, terminal)"),
               ("SENSEHAT_C4_DB", "the games database"),
               ("SENSEHAT_C4_PURE_PYTHON", "1: the pure-Python solver core, not the native one")]


def roff(text: str) -> str:
    """``text`` safe as roff: backslashes doubled, a line's leading dot or quote escaped, dashes kept."""
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def help_text(program: Path, args: Sequence[str]) -> str:
    return subprocess.run([str(program), *args, "--help"], capture_output=True, text=True, check=True,
                          env={**os.environ, "COLUMNS": "80"}, cwd=program.parent).stdout


def subcommands(name: str) -> List[Tuple[str, List[str]]]:
    """``(title, argv)`` of each subcommand, from its program's commands table."""
    if name == "sensehat-c4":
        from sensehat_c4.commands import COMMANDS

        return [(f"sensehat-c4 {c.name}", [c.name]) for c in COMMANDS[1:]]
    from gamelib.launcher.cli import COMMANDS as LAUNCHER

    return [(f"gamelib {n}", [n]) for n in LAUNCHER]


def exit_codes() -> str:
    """The guide's exit-code table (``docs/guide/options.md``) as a roff list."""
    text = (ROOT / "docs" / "guide" / "options.md").read_text()
    table = text[text.index("Exit codes, for every command"):]
    table = table[:table.index("\n\n", table.index("| code |"))]
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", table, re.M)
    return "\n".join(f".TP\n.B {code}\n{roff(re.sub(r'[`*]', '', meaning).replace(chr(92) + '|', '|'))}" for code, meaning in rows)


def include(name: str, program: Path) -> str:
    parts = [f"[NAME]\n{name} \\- {SUMMARIES[name]}\n"]
    parts.append("[COMMANDS]\n" + "\n".join(
        f'.SS "{title}"\n.nf\n{roff(help_text(program, argv))}\n.fi' for title, argv in subcommands(name)) + "\n")
    parts.append("[EXIT STATUS]\n" + exit_codes() + "\n")
    if name == "sensehat-c4":
        parts.append("[ENVIRONMENT]\n" + "\n".join(f".TP\n.B {k}\n{roff(v)}" for k, v in ENVIRONMENT) + "\n")
    parts.append("[FILES]\n" + "\n".join(f".TP\n.I {path}\n{roff(what)}" for path, what in FILES[name]) + "\n")
    other = "gamelib" if name == "sensehat-c4" else "sensehat-c4"
    parts.append(f"[SEE ALSO]\n.BR {other} (6),\n.BR systemctl (1).\n"
                 "Run\n.B sensehat-c4 doctor\nwhen a Sense HAT does not work: it says what is wrong and the fix.\n")
    return "\n".join(parts)


HELP_COLUMNS = "1000"
"""The width help2man has argparse write the help in: every paragraph on one line."""
CHOICES = re.compile(r"\{[^{}\s]*,[^{}\s]*\}")


def tidy(page: str) -> str:
    """help2man's page set ragged-right (``.ad l``) without hyphenation (``.nh``), with a break allowed (``\\:``)
    after each comma of a ``{a,b,c}`` list of choices."""
    lines = []
    for line in page.splitlines():
        if not line.startswith((".", "'")):
            line = CHOICES.sub(lambda found: found.group(0).replace(",", ",\\:"), line)
        lines.append(line)
        if line.startswith(".TH "):
            lines += [".ad l", ".nh"]
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print("usage: man_pages.py DIRECTORY", file=sys.stderr)
        return 2
    if shutil.which("help2man") is None:
        print("man_pages.py: help2man is missing: sudo apt install help2man", file=sys.stderr)
        return 1
    from sensehat_c4 import __version__

    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for name, module in (("sensehat-c4", "sensehat_c4"), ("gamelib", "gamelib")):
            program = Path(work) / name  # help2man names the page after the program it runs
            program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n')
            program.chmod(0o755)
            extra = Path(work) / f"{name}.h2m"  # (in work: python -m takes modules from the current directory)
            extra.write_text(include(name, program))
            page = out / f"{name}.6"
            subprocess.run(["help2man", "--no-info", "--section=6", f"--version-string={__version__}",
                            f"--name={SUMMARIES[name]}", f"--include={extra}", f"--output={page}", str(program)],
                           check=True, env={**os.environ, "COLUMNS": HELP_COLUMNS}, cwd=work)
            page.write_text(tidy(page.read_text()))
            print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
