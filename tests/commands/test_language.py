"""The language each command speaks, with the real catalogues, in child processes: gettext's order from
the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) unless ``--language`` names one,
read before the parsers are built (their help is in it); a bad value is one line and exit 2."""
import os
import re
import subprocess
import sys

import pytest

from gamelib import i18n, language
from sensehat_c4.commands import COMMANDS

SPOKEN = ", ".join(["auto", *i18n.languages()[:-1]])
"""The choices of ``--language`` but the last, as its error names them: ``auto, en, fr`` (``or id`` follows)."""
LAST = i18n.languages()[-1]

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

USAGE = {"en": "usage: sensehat-c4 [-h] ", "fr": "usage : sensehat-c4 [-h] ", "id": "penggunaan: sensehat-c4 [-h] "}
DESCRIPTION = {"en": "Connect 4 on the Sense HAT's LEDs and joystick. Left/right move, down or",
               "fr": "Puissance 4 sur les LED et le joystick du Sense HAT. Gauche/droite pour",
               "id": "Connect 4 di LED dan joystick Sense HAT. Kiri/kanan menggeser, bawah atau"}
"""The first line of the play command's description in each language (80 columns)."""


def run(module, *args, **variables):
    """``python -m module args`` with only ``variables`` of the locale's (the tests' LANGUAGE=en removed)."""
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(variables, COLUMNS="80")
    return subprocess.run([sys.executable, "-m", module, *args], env=env, capture_output=True, text=True, timeout=60)


def speaks(proc):
    """The language of ``sensehat-c4 --help``'s output (its usage line and description), checked whole."""
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    found = [code for code, usage in USAGE.items() if lines[0].startswith(usage)]
    assert len(found) == 1, lines[0]
    assert DESCRIPTION[found[0]] in lines, proc.stdout
    return found[0]


@pytest.mark.parametrize(("variables", "expected"), [
    ({}, "en"),                                                               # nothing set: the messages as written
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "id_ID.UTF-8"}, "id"),
    ({"LANGUAGE": "id", "LANG": "fr_FR.UTF-8"}, "id"),                        # LANGUAGE first
    ({"LANGUAGE": "fr:id", "LC_ALL": "id_ID.UTF-8"}, "fr"),                   # LANGUAGE's list, best first
    ({"LANGUAGE": "de:id", "LANG": "fr_FR.UTF-8"}, "id"),                     # a language without catalogue: the next
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "id_ID.UTF-8"}, "fr"),                 # LC_ALL over LANG
    ({"LC_ALL": "id_ID.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "id"),          # LC_ALL over LC_MESSAGES
    ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "id_ID.UTF-8"}, "fr"),            # LC_MESSAGES over LANG
    ({"LC_MESSAGES": "id_ID.UTF-8", "LANG": "fr_FR.UTF-8"}, "id"),
    ({"LANG": "de_DE.UTF-8"}, "en"),                                          # no catalogue: English
])
def test_gettexts_order_from_the_environment(variables, expected):
    assert speaks(run("sensehat_c4", "--help", **variables)) == expected


ALL_SET = {"LANGUAGE": "id", "LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "id_ID.UTF-8", "LANG": "fr_FR.UTF-8"}


@pytest.mark.parametrize(("args", "expected"), [
    (["--language", "en", "--help"], "en"),
    (["--language", "fr", "--help"], "fr"),
    (["--help", "--language", "fr"], "fr"),                                   # read before the parser is built
    (["--language=en", "--help"], "en"),
    (["--lang", "en", "--help"], "en"),                                       # argparse's abbreviation
    (["--language", "fr", "--language", "en", "--help"], "en"),               # the last one, as argparse
    (["--language", "auto", "--help"], "id"),                                 # the environment's: LANGUAGE=id
])
def test_language_over_the_environment(args, expected):
    assert speaks(run("sensehat_c4", *args, **ALL_SET)) == expected


def test_each_subcommand_takes_language():
    proc = run("sensehat_c4", "stats", "--language", "fr", "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage : sensehat-c4 stats [-h] [--language LANG]")
    assert "Victoires, nuls et défaites" in proc.stdout
    proc = run("sensehat_c4", "nosuch", "--language", "id")
    assert (proc.returncode, proc.stdout) == (2, "")
    names = ", ".join(command.name for command in COMMANDS)     # play, analyse, history, ... (the table's)
    assert proc.stderr == f"sensehat-c4: galat: perintah 'nosuch' tidak dikenal: perintahnya {names} (lihat --help)\n"


def test_a_bad_language_is_one_line_and_exit_2_in_the_language_of_the_moment():
    for args, variables, line in (
            (["--language", "xx"], {}, f"sensehat-c4: error: argument --language: must be {SPOKEN} or {LAST} "
                                       "(not 'xx') (see --help)"),
            (["--language", "xx", "--help"], {}, f"sensehat-c4: error: argument --language: must be {SPOKEN} or "
                                                 f"{LAST} (not 'xx') (see --help)"),
            (["--language=", "--help"], {}, f"sensehat-c4: error: argument --language: must be {SPOKEN} or {LAST} "
                                            "(not '') (see --help)"),
            (["--language", "FR"], {"LANG": "fr_FR.UTF-8"}, "sensehat-c4: erreur : argument --language : doit être "
                                                            f"{SPOKEN} ou {LAST} (pas 'FR') (voir --help)"),
            (["history", "--language", "fr_FR"], {}, "sensehat-c4 history: error: argument --language: must be "
                                                     f"{SPOKEN} or {LAST} (not 'fr_FR') (see --help)"),
            (["--language"], {}, "sensehat-c4: error: argument --language: expected one argument (see --help)")):
        proc = run("sensehat_c4", *args, **variables)
        # Python 3.9 and 3.10 write "argument X: message" without looking it up (3.11 on do)
        said = re.sub(r"argument --language: doit", "argument --language : doit", proc.stderr)
        assert (proc.returncode, proc.stdout, said) == (2, "", line + "\n"), args


def test_the_launcher_takes_language_too():
    proc = run("gamelib", "--language", "fr", "--help", LANGUAGE="id")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage : gamelib [-h] ")
    assert "Un menu des jeux Sense HAT installés sur les LED : gauche/droite pour" in proc.stdout.splitlines()
    proc = run("gamelib", "names", "--language", "id", "--help")
    assert proc.stdout.startswith("penggunaan: gamelib names [-h] [--language LANG]")
    proc = run("gamelib", "--language", "xx")
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", f"gamelib: error: argument --language: must be {SPOKEN} or {LAST} (not 'xx') (see --help)\n")


def test_from_argv_reads_what_the_parser_will():
    assert language.from_argv(["--board", "6x5", "--language", "fr"]) == "fr"
    assert language.from_argv(["--language=id"]) == "id"
    assert language.from_argv(["--langu", "id", "--language", "xx"]) == "id"    # a bad one is the parser's to report
    assert language.from_argv(["--", "--language", "fr"]) is None               # after --: not an option
    assert language.from_argv(["--lan", "fr"]) is None                          # --lan is another option
    assert language.from_argv(["--language"]) is None
    assert language.from_argv(["--languages", "fr"]) is None


def helps(monkeypatch, capsys, width):
    """Every command's --help of both programs, in this process, at ``width`` columns."""
    from gamelib.launcher import cli as launcher
    from sensehat_c4 import commands

    monkeypatch.setenv("COLUMNS", str(width))
    said = []
    for main, names in ((commands.main, [command.name for command in commands.COMMANDS]),
                        (launcher.main, ["", *launcher.COMMANDS])):
        for name in names:
            try:
                main([name, "--help"] if name else ["--help"])
            except SystemExit as done:   # play's --help ends the process itself
                assert done.code == 0
            said.append(capsys.readouterr().out)
    return said


@pytest.mark.parametrize("code", language.languages())
def test_no_help_line_starts_with_the_punctuation_french_spaces(code, monkeypatch, capsys):
    """French sets a space before ``: ; ? !`` and ``»``: wrapping a help (argparse's, and the play command's
    description) never breaks there, at any width; argparse's headings take that space too (``options :``,
    which Pythons before 3.13 write with a bare colon)."""
    from gamelib import i18n

    i18n.choose([code])
    try:
        said = [text for width in (40, 52, 64, 80, 100, 132) for text in helps(monkeypatch, capsys, width)]
        title = "options" if sys.version_info >= (3, 10) else "optional arguments"   # argparse's own, before 3.10
        heading = i18n.CATALOGUE.translations([code]).gettext("%(heading)s:") % {
            "heading": i18n.CATALOGUE.translations([code]).gettext(title)}
    finally:
        i18n.choose(None)
    from gamelib.launcher import cli as launcher
    from sensehat_c4 import commands

    lines = [line for text in said for line in text.splitlines()]
    assert len(said) == 6 * (len(commands.COMMANDS) + 1 + len(launcher.COMMANDS)) and [line for line in lines if re.match(r"\s*[:;?!»]", line)] == []
    assert all(heading in text.splitlines() for text in said)
