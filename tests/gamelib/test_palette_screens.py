"""The palette is a context: every screen draws in the palette its backend carries (`Backend.palette`), given
at run time by the one place that resolves the choice (`--palette`, the launcher's setting).

Each screen (the launcher's menus and icons, the choosers, a match, the resume question, a replay, training's
and the puzzle's frames, the LAN's screens, the web console's scrolls, the unrecorded warning) is drawn in each
palette of `PALETTES` and in `CONTRAST`, a palette made here whose every role differs from the default's: no
pixel may carry a colour that palette lacks (black, the LEDs off, excepted).  And the code is read: no module
reads a palette at import or as a default argument, outside the resolvers.
"""
import ast
import contextlib
from dataclasses import fields
from datetime import date
from pathlib import Path

import pytest
from records_data import record_match, ticking

from gamelib.backends.mock import MockBackend
from gamelib.errors import MockExhausted
from gamelib.games import Entry
from gamelib.lan import screens
from gamelib.launcher.menu import Launcher, LauncherOptions
from gamelib.launcher.settings import Settings
from gamelib.palette import DEFAULT, PALETTES, PURPLE_YELLOW, Palette
from gamelib.web.console import BackendConsole
from sensehat_c4.engine.puzzles import daily
from sensehat_c4.lan import game as lan_game
from sensehat_c4.match import chooser, resume, unrecorded
from sensehat_c4 import game as c4
from sensehat_c4.match.controller import MatchOptions, Resumed, play
from sensehat_c4.match.opponents import HUMAN
from sensehat_c4.records import Recorder, Records, Side
from sensehat_c4.study import puzzle, training
from sensehat_c4.study.puzzle import PuzzlePlay
from sensehat_c4.study.replay import Replay

ROOT = Path(__file__).resolve().parents[2]
BLACK = (0, 0, 0)


def _role(i):
    """A colour of its own for role ``i``: lit as the LEDs light (every channel 0 or 48 and more), none of the
    default palette's."""
    return (49 + 3 * i, 250 - 5 * i, 97 + 2 * i)


_ROLES = [f.name for f in fields(Palette) if f.name not in ("levels", "page", "cue", "name")]
CONTRAST = Palette(**{name: _role(i) for i, name in enumerate(_ROLES)},
                   levels=tuple(_role(len(_ROLES) + i) for i in range(9)), name="contrast")
"""Every role in a colour the default palette has nowhere: a screen that draws with the default's shows it."""
NAMES = [*PALETTES, CONTRAST.name]


def colours(palette):
    """Every colour ``palette`` gives the LEDs: its roles and its levels' labels."""
    return {getattr(palette, name) for name in _ROLES} | set(palette.levels)


def strays(frames, palette):
    """The colours in ``frames`` that ``palette`` lacks (black excepted), with a count of frames each is in."""
    allowed = colours(palette) | {BLACK}
    found = {}
    for frame in frames:
        for colour in set(map(tuple, frame)) - allowed:
            found[colour] = found.get(colour, 0) + 1
    return found


@pytest.fixture(params=NAMES)
def chosen(request, monkeypatch):
    """A palette of the table, or :data:`CONTRAST` put in it (as a new palette would be)."""
    monkeypatch.setitem(PALETTES, CONTRAST.name, CONTRAST)
    return PALETTES[request.param]


def backend_in(palette):
    mock = MockBackend()
    mock.palette = palette          # as backends.from_args and the launcher's settings set it
    return mock


def shown(mock):
    return [f for _, f in mock.frames]


def test_the_contrast_palette_shares_no_colour_with_the_default_and_keeps_its_roles_apart():
    assert colours(CONTRAST).isdisjoint(colours(PALETTES[DEFAULT]))
    assert len(colours(CONTRAST)) == len(_ROLES) + 9 and BLACK not in colours(CONTRAST)


# -- every screen, in every palette --------------------------------------------------------------------------

def test_the_launcher_s_menus_and_the_games_icons(chosen):
    entries = [Entry("connect4", game=c4.GAME), Entry("connect4-lan", game=lan_game.GAME),
               Entry("connect4-puzzle", game=puzzle.GAME), Entry("connect4-training", game=training.GAME),
               Entry("broken", error="no such module")]
    mock = backend_in(PALETTES[DEFAULT])         # the launcher's setting gives the backend its palette
    mock.tap(*["right"] * len(entries))          # every game's icon, and the error icon
    mock.hold("up", 2.1)                         # the system menu: every item
    mock.tap(*["right"] * 6, "right", "right", "right", "middle")   # ... round to shut down: P?
    mock.tap("up")
    with contextlib.suppress(MockExhausted):
        Launcher(mock, entries, LauncherOptions(dim_after=0, blank_after=0, allow_poweroff=True),
                 settings=Settings(palette=chosen.name)).run()
    assert mock.palette is chosen
    frames = shown(mock)
    assert {c4.GAME.drawn(chosen), lan_game.GAME.drawn(chosen), puzzle.GAME.drawn(chosen)} <= set(frames)
    assert len(frames) > 15 and strays(frames, chosen) == {}

    empty = backend_in(chosen)
    with contextlib.suppress(MockExhausted):
        Launcher(empty, [], LauncherOptions(dim_after=0, blank_after=0), settings=Settings(palette=chosen.name)).run()
    assert shown(empty) and strays(shown(empty), chosen) == {}


def test_the_choosers(chosen):
    mock = backend_in(chosen)
    mock.tap("left", "middle")                   # ?: the rules scroll, to their end
    mock.tap(*["right"] * len(chooser.CHOICES), "up", at=80.0)   # every entry
    assert chooser.choose_opponent(mock) is None
    sizes = list(HUMAN.sizes())                  # every board size
    mock.tap(*["right"] * len(sizes), "up")
    assert chooser.choose_size(mock, sizes) is None
    mock.tap("right", "right", "up")
    assert chooser.choose_helps(mock) is None
    mock.tap("right", "right", "up")
    assert lan_game.choose_role(mock) is None
    frames = shown(mock)
    assert len(frames) > 300 and strays(frames, chosen) == {}
    assert all(tuple(chooser.size_frame(size, chosen)) in frames for size in sizes)


def test_a_match_the_resume_question_and_the_replay(chosen, tmp_path):
    mock = backend_in(chosen)
    for char in "4545454":                       # the first mover stacks column 4 and wins
        steps = int(char) - 4
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
        mock.wait_until(mock._cursor + 0.5)
    result = play(mock, MatchOptions(wins=1, names=("Ann", None)))   # won: the winner's colour, her name
    assert result.score == (1, 0) and not result.abandoned
    frames = shown(mock)
    assert chosen.first in frames[0] and strays(frames, chosen) == {}

    question = resume.frames(resume.Interrupted(None, MatchOptions(), Resumed((1, 0), 2, 2, "4453")), chosen)
    assert strays([f for f, _ in question], chosen) == {}

    path = tmp_path / "games.db"
    record_match(Recorder(path, clock=ticking()), ["1212121"],
                 sides=(Side(chosen.first, name="Ann"), Side(chosen.second, name="Bob")))
    with Records(path) as stored:
        match = stored.matches()[0]
    replayed = backend_in(chosen)
    replayed.tap("up", at=30.0)
    Replay(replayed, match, match.rounds[0]).run()
    assert len(shown(replayed)) > 10 and strays(shown(replayed), chosen) == {}


def test_the_puzzle_and_training(chosen, tmp_path):
    day = date(2026, 11, 24)
    mock = backend_in(chosen)
    mock.tap("down")                             # a try: the move under the cursor
    mock.tap("up", at=20.0)
    with contextlib.suppress(MockExhausted):
        PuzzlePlay(mock, day, daily(day)).run()
    assert len(shown(mock)) > 5 and strays(shown(mock), chosen) == {}

    board = daily(day).board()
    drawn = [training.result_frame(-2, chosen.second, chosen), training.result_frame(0, chosen.second, chosen),
             training.progress_frame(board, chosen, 1, 2), training.lit_frame(board, [3], chosen, True)]
    assert strays(drawn, chosen) == {}
    empty = backend_in(chosen)
    assert training.play(empty, path=tmp_path / "none.db") is None     # NO GAMES scrolls
    assert len(shown(empty)) > 20 and strays(shown(empty), chosen) == {}


def test_the_lan_s_screens(chosen):
    steps = [*screens.offering(chosen), *screens.searching(chosen), *screens.request("Ann", "192.168.1.7", chosen),
             *screens.found("Bob", 1, 3, chosen), *screens.asking(chosen), (screens.REFUSED(chosen), 0.0),
             *screens.away(chosen), *screens.left("Bob", chosen)]
    assert len(steps) > 80 and strays([f for f, _ in steps], chosen) == {}


def test_the_web_console_s_scrolls_and_the_unrecorded_warning(chosen):
    mock = backend_in(chosen)
    console = BackendConsole(mock)
    console.show_pin("1234")
    console.show_pairing("12345678")
    console.show_seated(1)                       # no colour said for the seat: the text's
    while mock.now() < 120.0:
        mock.stick.wait_event(1.0)                     # the game waits: the interludes play
    assert len(shown(mock)) > 100 and strays(shown(mock), chosen) == {}
    unrecorded.warn(mock, "no folder")
    assert strays(shown(mock), chosen) == {}


# -- the choice reaches the screens that missed it ----------------------------------------------------------

def test_the_launcher_s_palette_reaches_the_games_icon_and_the_size_chooser():
    """The colours setting reaches Connect 4's icon in the menu and the size chooser's field (both drew the
    default palette's blue whatever the setting)."""
    chosen = PALETTES[PURPLE_YELLOW]
    mock = MockBackend()
    mock.tap("middle")                           # Connect 4
    mock.tap("middle")                           # 2P: the size chooser
    mock.tap("up", "up")                         # back, and back to the menu
    with contextlib.suppress(MockExhausted):
        Launcher(mock, [Entry("connect4", game=c4.GAME)], LauncherOptions(dim_after=0, blank_after=0),
                 settings=Settings(palette=PURPLE_YELLOW)).run()
    frames = shown(mock)
    icon, size = frames[0], frames[4]            # the menu; the chooser, dark, then the size chooser (7x6)
    assert icon[2 * 8: 3 * 8] == (chosen.field,) * 8            # the icon's board
    assert size[7 * 8: 7 * 8 + 7] == (chosen.field,) * 7 and size[:7] == (chosen.flash,) * 7   # field, lid


# -- the code: no palette read at import or as a default -----------------------------------------------------

RESOLVERS = {"gamelib/palette.py", "gamelib/backends/__init__.py", "gamelib/launcher/settings.py"}
"""The table, and where a choice is resolved (--palette and its default; the launcher's saved setting)."""


def _palette_names(tree):
    """The names a module binds to the table, the default's name and the resolver (``from ... palette import``)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("palette"):
            for alias in node.names:
                if alias.name in ("PALETTES", "DEFAULT", "palette", "Palette"):
                    names[alias.asname or alias.name] = alias.name
    return names


def palette_reads(source):
    """Where ``source`` reads a palette when imported or in a default argument: ``PALETTES``, the default's name,
    the resolver called or a ``Palette`` made, at module level (a class body's too) or in a default."""
    tree = ast.parse(source)
    names = _palette_names(tree)
    found = []

    def scan(node, where):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and names.get(sub.id) in ("PALETTES", "DEFAULT"):
                found.append(f"line {sub.lineno}: {where} {sub.id}")
            elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                    names.get(sub.func.id) in ("palette", "Palette"):
                found.append(f"line {sub.lineno}: {where} {sub.func.id}()")

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                defaults = [*node.args.defaults, *[d for d in node.args.kw_defaults if d is not None]]
                for d in defaults:
                    scan(d, "default")
                for d in node.decorator_list:
                    scan(d, "decorator")
            elif isinstance(node, ast.ClassDef):
                visit(node.body)
            else:
                for sub in ast.walk(node):   # module level: everything but the bodies of functions and lambdas
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        for d in [*sub.args.defaults, *[d for d in sub.args.kw_defaults if d is not None]]:
                            scan(d, "default")
                visit_expressions(node)

    def visit_expressions(node):
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                if isinstance(current, ast.ClassDef):
                    visit(current.body)
                continue
            if isinstance(current, ast.Name) and names.get(current.id) in ("PALETTES", "DEFAULT"):
                found.append(f"line {current.lineno}: import-time {current.id}")
            elif isinstance(current, ast.Call) and isinstance(current.func, ast.Name) and \
                    names.get(current.func.id) in ("palette", "Palette"):
                found.append(f"line {current.lineno}: import-time {current.func.id}()")
            stack.extend(ast.iter_child_nodes(current))

    visit(tree.body)
    return sorted(set(found))


def test_no_module_reads_a_palette_at_import_or_as_a_default():
    found = {}
    for package in ("gamelib", "sensehat_c4"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in RESOLVERS and (hits := palette_reads(path.read_text(encoding="utf-8"))):
                found[name] = hits
    assert found == {}


@pytest.mark.parametrize("source, hits", [
    ("from gamelib.palette import DEFAULT, PALETTES\n_COLOURS = PALETTES[DEFAULT]\n",
     ["line 2: import-time DEFAULT", "line 2: import-time PALETTES"]),
    ("from ..palette import PALETTES\ndef f(c=PALETTES['x'].text):\n    return c\n", ["line 2: default PALETTES"]),
    ("from ..palette import palette\nclass O:\n    p = palette()\n", ["line 3: import-time palette()"]),
    ("from gamelib.palette import Palette\nICON = make(lambda p=Palette(): p)\n",
     ["line 2: default Palette()"]),
    ("from gamelib.palette import PALETTES, palette\ndef run(backend, name):\n    return PALETTES[name], palette()\n",
     []),
    ("from gamelib.palette import Palette\ndef draw(palette: Palette):\n    return palette.text\n", []),
])
def test_the_scan_finds_each_kind_of_read(source, hits):
    assert palette_reads(source) == hits
