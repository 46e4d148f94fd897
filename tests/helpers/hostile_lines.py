"""Hostile command lines for every command and option of ``sensehat-c4`` and ``gamelib``, from a seeded
generator: huge, negative and odd numbers, unicode, control characters, empty strings, bytes that are
not UTF-8, repeated and unknown options, paths to FIFOs, directories and devices.

:func:`lines` yields ``(program, argv)``; :func:`check` says what is wrong with one run's outcome
(``None`` if nothing): an exit code not in the guide's table (docs/guide/options.md), a traceback, a line on stderr that is not
one of our one-line messages, or a control character on stdout or stderr.
"""
from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

Line = Tuple[str, List[str]]
"""``("sensehat-c4" or "gamelib", argv)``."""

NUMBERS = ["0", "1", "2", "-1", "-0", "3", "7", "12", "100", "3600", "3601", "86400", "1e9", "1e400", "-1e400",
           "nan", "inf", "-inf", "0.001", "0.5", "2.5", "9223372036854775807", "9223372036854775808",
           "99999999999999999999999999999", "-9223372036854775809", "0x10", "1_000", " 5", "5 ", "\uff11\uff12",
           "\u0663", "\u00b2", "1/2", "", "1e-400"]
TEXT = ["", " ", "x", "-", "--", "-x", "--x", "a\nb", "\n", "\r", "\t", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07",
        "\x1b[2J", "\u2028", "\u202e", "\u200b", "\x7f", "\x01\x02", "é", "名前", "😀", "\udcff\udcfe", "'", '"',
        "$(id)", "`id`", ";", "%s%n", "{}", "\\", "a" * 300, "Ann", "Bob", "ann", "Ann,Bob", "Ann,Ann", ",", ",,",
        "Ann,Bob,Cy", "A" * 13, "red,yellow", "blue,red", "#000,#fff", "f80,0f0", "red", "#0000fc,red", "7x6",
        "9x9", "8x6", "4x4", "0x0", "7X6", "\uff17x\uff16", "x", "last", "first", "LAST", "--help", "-h",
        "--version", "=", "--db"]
MOVES = ["", "4453", "4455667", "44444444", "1" * 100, "12121212", "4458", "0", "8", "445566712", "2553635322312",
         "444442222666", "3133322443664325445", "455714637617614767242476316455122212535333", "4\n4", "٤٤",
         "\uff14\uff14", " 44 ", "44\x1b[2J5", "9" * 1000]
BOARDS = ["7x6", "6x5", "4x4", "8x6", "8x4", "5x5", "9x9", "3x3", "0x0", "-1x6", "7x6x5", "7*6", "7x", "x6",
          "99999999999999999999x6", "７x６"]
WEB = ["127.0.0.1:0", "[::1]:0", "localhost:0", "", "x", "99999", "127.0.0.1:65536", "[::1", "::1:80", "*:x",
       "a b:1", "\n:1", "-1", "127.0.0.1:-1", "[\x1b]:1", "host..name:1", "\uff11\uff12\uff13"]
"""``--web`` values: loopback with a free port, or refused (never a bare port: that listens on every address)."""
CHOICES = {
    "--backend": ["auto", "hat", "emu", "terminal", "mock", "AUTO", ""],
    "--rotation": ["0", "90", "180", "270", "45", "-90", "360", "90.0"],
    "--first": ["p1", "p2", "alternate", "random", "p3"],
    "--opponent": ["human", "easy", "casual", "medium", "master", "perfect", "god", "Easy", "1"],
    "--date": ["2026-11-24", "2026-11-29", "2000-02-29", "2026-02-29", "0000-01-01", "0001-01-01", "9999-12-31",
               "2026-13-01", "2026-1-1", "20261124", "2026-W48-2", "2026-11-24T00:00", "\uff12\uff10\uff12\uff16-11-24",
               "2026-11-24\n"],
    "--computer-plays": ["1", "2", "alternate", "3", "0"],
    "--log-level": ["debug", "info", "warning", "error", "critical", "DEBUG"],
}


class Paths:
    """Odd files the generator points ``--db`` at (made in ``folder``): a FIFO, a directory, junk, a
    name too long, a name with a newline, devices; and a good database."""

    def __init__(self, folder: Path, good: Path) -> None:
        self.folder = folder
        fifo = folder / "fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        (folder / "dir.db").mkdir(exist_ok=True)
        (folder / "junk.db").write_bytes(b"SQLite format 2\0" + b"\x01" * 4000)
        (folder / "empty.db").write_bytes(b"")
        self.all = [str(good), str(good), str(fifo), str(folder / "dir.db"), str(folder / "junk.db"),
                    str(folder / "empty.db"), str(folder / "missing.db"), str(folder / ("a" * 300) / "games.db"),
                    str(folder / "x\n\x1b[31my.db"), str(folder / "new" / "games.db"), "/dev/null", "/dev/zero",
                    "/dev/full", "/proc/self/status", "", ".", "/", "\udcff.db"]


def _value(rng: random.Random, flag: str, paths: Paths) -> str:
    if flag in CHOICES and rng.random() < 0.7:
        return rng.choice(CHOICES[flag])
    if flag == "--web":
        return rng.choice(WEB)
    if flag == "--db":
        return rng.choice(paths.all) if rng.random() < 0.9 else rng.choice(TEXT)
    if flag == "--board":
        return rng.choice(BOARDS) if rng.random() < 0.8 else rng.choice(TEXT)
    if flag in ("--think", "--matches", "--fall-ms", "--limit", "--time-limit", "--dim-after", "--blank-after"):
        return rng.choice(NUMBERS) if rng.random() < 0.8 else rng.choice(TEXT)
    return rng.choice(TEXT + NUMBERS)


PLAY = ["--backend", "--rotation", "--low-light", "--colors", "--colours", "--first", "--opponent",
        "--computer-plays", "--think", "--matches", "--fall-ms", "--board", "--names", "--db", "--web"]
SWITCHES = {"--low-light", "--json", "--solve", "--allow-poweroff", "--clear", "--user-unit", "--version",
            "--help", "-h", "--solution", "--show"}
COMMANDS: Dict[Tuple[str, str], Tuple[List[str], Optional[Callable[[random.Random], str]]]] = {
    ("sensehat-c4", "play"): (PLAY + ["--version", "--help"], None),
    ("sensehat-c4", "analyse"): (["--board", "--json", "--solve", "--time-limit", "--help"],
                                 lambda rng: rng.choice(MOVES)),
    ("sensehat-c4", "history"): (["--limit", "--json", "--db", "--help"], None),
    ("sensehat-c4", "stats"): (["--json", "--db", "--help"], None),
    ("sensehat-c4", "doctor"): (["--backend", "--json", "--db", "--help"], None),
    ("sensehat-c4", "replay"): (["--db", "--backend", "--rotation", "--low-light", "--help"],
                                lambda rng: rng.choice(["last", "1", "2", "0", "-1", "9223372036854775808"] + TEXT)),
    ("sensehat-c4", "review"): (["--db", "--json", "--time-limit", "--help"],
                                lambda rng: rng.choice(["last", "1", "2", "0", "-1", "9223372036854775808"] + TEXT)),
    ("sensehat-c4", "puzzle"): (["--date", "--json", "--solution", "--show", "--backend", "--rotation", "--low-light",
                                 "--db", "--web", "--help"], None),
    ("gamelib", "menu"): (["--backend", "--rotation", "--low-light", "--dim-after", "--blank-after",
                           "--allow-poweroff", "--log-level", "--web", "--help"], None),
    ("gamelib", "list"): (["--help"], None),
    ("gamelib", "names"): (["--clear", "--help"], lambda rng: rng.choice(TEXT)),
    ("gamelib", "install-service"): (["--user", "--user-unit", "--backend", "--dim-after", "--blank-after",
                                      "--allow-poweroff", "--web", "--help"], None),
    ("gamelib", "uninstall-service"): (["--user-unit", "--help"], None),
}
NETWORK = {"--lan", "--join"}
"""Options never generated: they reach the LAN (mDNS, another host); ``--web`` takes only :data:`WEB`'s values."""


def _options(name: str) -> List[str]:
    """The options ``sensehat-c4 NAME --help`` lists (but :data:`NETWORK`), and ``--help``."""
    import contextlib
    import io

    from sensehat_c4.commands import COMMANDS as ROWS

    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), contextlib.suppress(SystemExit):
        next(row for row in ROWS if row.name == name).run(["--help"])
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", shown.getvalue())) - NETWORK - {"--language"})


def _every_row() -> None:
    """A row of the commands table (``sensehat_c4.commands.COMMANDS``) not above: its options from its help,
    hostile text as its arguments."""
    from sensehat_c4.commands import COMMANDS as ROWS

    for row in ROWS:
        COMMANDS.setdefault(("sensehat-c4", row.name), (_options(row.name), lambda rng: rng.choice(TEXT)))


_every_row()
TIME_CAP = ["--time-limit", "0.5"]
"""Appended to ``analyse --solve`` and ``review`` (the last value wins): a legal long search is not a hang."""


def line(rng: random.Random, paths: Paths) -> Line:
    program, command = rng.choice(list(COMMANDS))
    flags, positional = COMMANDS[(program, command)]
    argv: List[str] = []
    if command not in ("play", "menu") or rng.random() < 0.3:
        argv.append(command if rng.random() < 0.95 else rng.choice(["analyze", "Play", "histroy", ""]))
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 6])):
        roll = rng.random()
        if roll < 0.75:
            flag = rng.choice(flags)
            if flag in ("--help", "-h", "--version") and rng.random() < 0.7:
                continue  # a help text now and then is enough
        elif roll < 0.85:
            flag = rng.choice(["--bogus", "--db", "--json", "-x", "--", "--limit", "--opponent"])
        else:
            argv.append(rng.choice(TEXT + NUMBERS))
            continue
        if flag in SWITCHES:
            argv.append(flag)
        elif rng.random() < 0.15:
            argv.append(f"{flag}={_value(rng, flag, paths)}")
        else:
            argv += [flag, _value(rng, flag, paths)]
    if positional is not None and rng.random() < 0.9:
        argv.insert(rng.randrange(len(argv) + 1) if argv else 0, positional(rng))
    if program == "sensehat-c4" and ("--solve" in argv or "review" in argv[:1]):
        argv += TIME_CAP
    return program, argv


def lines(seed: int, count: int, paths: Paths) -> Iterator[Line]:
    rng = random.Random(seed)
    for _ in range(count):
        yield line(rng, paths)


_PREFIX = re.compile(r"(sensehat-c4|gamelib)( [a-z-]+)?: ")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters, but tab and newline (the help texts are wrapped, the tables aligned by spaces)."""


def check(outcome: Tuple[object, str, str], codes: Set[int]) -> Optional[str]:
    """What is wrong with ``(exit code, stdout, stderr)``, or ``None``."""
    code, out, err = outcome
    if not isinstance(code, int) or code not in codes:
        return f"exit {code!r} is not in the exit-code table (docs/guide/options.md)"
    if "Traceback" in err or "Exception ignored" in err:
        return "a traceback"
    for text, where in ((out, "stdout"), (err, "stderr")):
        if _CONTROL.search(text) or "\u2028" in text or "\u202e" in text:
            return f"a control character on {where}"
    for row in err.splitlines():
        if not _PREFIX.match(row):
            return f"a line on stderr that is not one message: {row[:80]!r}"
    return None


def command_of(line: Line) -> str:
    """``sensehat-c4 history``, ``gamelib list``... (``sensehat-c4 play`` and ``gamelib menu`` by default)."""
    program, argv = line
    names = {command for prog, command in COMMANDS if prog == program} | ({"analyze"} if program == "sensehat-c4" else set())
    first = argv[0] if argv and argv[0] in names else ("play" if program == "sensehat-c4" else "menu")
    return f"{program} {'analyse' if first == 'analyze' else first}"


def summary(results: Sequence[Tuple[Line, Tuple[object, str, str]]]) -> str:
    """Per command, how many lines ended with each exit code; and how many printed on stderr."""
    table: Dict[str, Dict[object, int]] = {}
    for line_, (code, _, _) in results:
        counts = table.setdefault(command_of(line_), {})
        counts[code] = counts.get(code, 0) + 1
    said = sum(1 for _, (_, _, err) in results if err)
    lines_said = sum(err.count("\n") for _, (_, _, err) in results)
    rows = [f"  {command:<30} {sum(counts.values()):>5} lines: "
            + ", ".join(f"exit {code} x{n}" for code, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
            for command, counts in sorted(table.items())]
    return "\n".join(rows + [f"  {said} runs printed on stderr, {lines_said} lines in all"])
