"""`gamelib/palette.py`: one table of colours by role; every drawing takes its colours from it.

A colour written anywhere else in the games' code (a Python tuple or hex code, a name imported
from `gamelib.colours`, a CSS or SVG colour in the web pages' files) is a defect: the scans here
find them.  A new palette is one entry of `PALETTES`, and a round drawn with it shows its colours.
"""
import ast
import re
from dataclasses import fields
from pathlib import Path
from typing import List

import pytest
from frames import g, grid

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, BLUE, GREEN, NAMES, ORANGE, RED, WHITE, YELLOW
from gamelib.backends.senselib import LIT_MIN
from gamelib.colours import led_colour
from gamelib.palette import (DEFAULT, GREEN_PINK, PALETTES, PURPLE_YELLOW, PageColours, Palette, css,
                             for_round, palette)
from gamelib.web.api import palette_files
from sensehat_c4.match.chooser import size_frame
from sensehat_c4.match.controller import MatchOptions, MatchResult, play
from sensehat_c4.rules import Size

ROOT = Path(__file__).resolve().parents[2]
PALETTE_MODULES = {"gamelib/colours.py", "gamelib/palette.py"}
"""Where colours are written: the named constants, and the table made of them."""
EXEMPT = ("gamelib/backends/",)
"""Backends draw nothing of their own: they show the frames they are given (their black is the LEDs
off, the terminal's names and dots are how a terminal shows a frame's colours)."""
STATIC = [ROOT / "gamelib/web/static", ROOT / "sensehat_c4/web/static"]
COLOUR_CONSTANTS = {name.upper() for name in NAMES}
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{1,5})?")
FUNCTION = re.compile(r"\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(", re.I)
NAME_LIST = re.compile(r"\s*(?:{0})(?:\s*,\s*(?:{0}))*\s*".format("|".join(NAMES)), re.I)
NAMED = re.compile(r"\b(?:%s|gr[ae]y|silver|navy|maroon|olive|teal|lime|aqua|fuchsia)\b" % "|".join(NAMES), re.I)


def python_colours(source: str) -> List[str]:
    """The colours written in Python ``source``: a tuple or list of three ints 0-255 (one of them 32
    or more, or all 0: smaller ones are codes and indices), a string that is a hex code or colour
    names (``"red,yellow"``), a colour constant imported from or read off ``gamelib.colours``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 3 and all(
                isinstance(e, ast.Constant) and type(e.value) is int and 0 <= e.value <= 255 for e in node.elts):
            values = [e.value for e in node.elts]  # type: ignore[attr-defined]
            if max(values) >= 32 or max(values) == 0:
                found.append(f"line {line}: {tuple(values)}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                HEX.fullmatch(node.value.strip()) or NAME_LIST.fullmatch(node.value)):
            found.append(f"line {line}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("colours"):
            found += [f"line {line}: import {a.name}" for a in node.names if a.name in COLOUR_CONSTANTS]
        elif isinstance(node, ast.Attribute) and node.attr in COLOUR_CONSTANTS and \
                isinstance(node.value, ast.Name) and node.value.id == "colours":
            found.append(f"line {line}: colours.{node.attr}")
    return found


def _value_colours(value: str) -> List[str]:
    return [m.group(0) for pattern in (HEX, FUNCTION, NAMED) for m in pattern.finditer(value)]


def static_colours(text: str, kind: str) -> List[str]:
    """The colours written in a page's file: in CSS declarations' values, in JS strings, in HTML and
    SVG attributes' values."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    if kind == ".css":
        values = [d.split(":", 1)[1] for block in re.findall(r"\{([^{}]*)\}", text)
                  for d in block.split(";") if ":" in d]
    elif kind == ".js":
        text = re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)
        values = [m.group(2) for m in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*?)\1", text)]
        return [v for v in values if HEX.fullmatch(v.strip()) or FUNCTION.match(v.strip()) and
                re.search(r"\(\s*\d", v) or NAMED.fullmatch(v.strip())]
    else:
        values = re.findall(r"=\"([^\"]*)\"", text) + re.findall(r"<style[^>]*>(.*?)</style>", text, re.S)
    return [c for v in values for c in _value_colours(v)]


def _sources():
    for package in ("gamelib", "sensehat_c4"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in PALETTE_MODULES and not name.startswith(EXEMPT):
                yield name, path


def test_no_colour_is_written_outside_the_palette_in_python():
    found = {name: hits for name, path in _sources() if (hits := python_colours(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_no_colour_is_written_in_the_pages_files():
    files = [p for d in STATIC for p in sorted(d.iterdir()) if p.suffix in (".css", ".js", ".html", ".svg")]
    assert {p.suffix for p in files} == {".css", ".js", ".html", ".svg"}
    found = {p.name: hits for p in files if (hits := static_colours(p.read_text(encoding="utf-8"), p.suffix))}
    assert found == {}


@pytest.mark.parametrize("source, hits", [
    ("FIELD = (0, 0, 255)\n", ["line 1: (0, 0, 255)"]),
    ("x = [0, 0, 0]\n", ["line 1: (0, 0, 0)"]),
    ("ERRORS = (8, 10, 14)\nORDER = (0, 1, 2)\n", []),
    ("css = '#9cf'\nhelp = 'a hex code like #ff8800'\n", ["line 1: '#9cf'"]),
    ("add('--colors', default='red,yellow', help='red wins')\n", ["line 1: 'red,yellow'"]),
    ("from gamelib.colours import RED, RGB, parse_colour\n", ["line 1: import RED"]),
    ("from ..colours import WHITE\nfrom gamelib import colours\nc = colours.CYAN\n",
     ["line 1: import WHITE", "line 3: colours.CYAN"]),
])
def test_the_python_scan_finds_each_kind_of_colour(source, hits):
    assert sorted(python_colours(source)) == sorted(hits)


@pytest.mark.parametrize("text, kind, hits", [
    ("#game { color: #9cf; } #facts { gap: 3px; }", ".css", ["#9cf"]),
    ("a { background: rgb(1, 2, 3); white-space: nowrap; border: 1px solid black; }", ".css", ["rgb(", "black"]),
    ("a { color: var(--accent); } /* on black, #000 */", ".css", []),
    ('ctx.fillStyle = "#1c1c1c"; el.style.background = s.colour; $("#board");', ".js", ["#1c1c1c"]),
    ("const c = `rgb(${r},${g},${b})`; const d = 'rgb(0, 0, 0)'; const e = 'white';", ".js",
     ["rgb(0, 0, 0)", "white"]),
    ('<button id="up">&#9650;</button><circle fill="#f00"/>', ".svg", ["#f00"]),
    ('<rect fill="{background}"/><p style="color: red">', ".html", ["red"]),
])
def test_the_pages_scan_finds_each_kind_of_colour(text, kind, hits):
    assert static_colours(text, kind) == hits


# -- the table ------------------------------------------------------------------------------

def test_the_default_palette_is_the_colours_the_game_always_showed():
    p = palette()
    assert p is PALETTES[DEFAULT] and list(PALETTES)[:3] == [DEFAULT, PURPLE_YELLOW, GREEN_PINK]   # the first three
    assert (p.first, p.second, p.field, p.background, p.flash) == (RED, YELLOW, BLUE, BLACK, WHITE)
    assert (p.text, p.lan, p.join, p.menu, p.warning, p.sand, p.error) == (
        WHITE, (0, 255, 255), GREEN, (0, 255, 255), ORANGE, YELLOW, RED)
    assert p.levels == (GREEN, (128, 255, 0), YELLOW, (255, 192, 0), ORANGE, (255, 64, 0), RED, (255, 0, 128),
                        (255, 0, 255))
    assert p.players == (RED, YELLOW) and MatchOptions().players(p) == (RED, YELLOW)
    with pytest.raises(KeyError):
        palette("colour-blind")


def test_every_palette_shows_only_what_the_leds_light_and_keeps_its_roles_apart_on_them():
    """A lit channel under 48 does not light through the driver's gamma table (python-sense-hat issue 67); the
    board's roles must differ as the LEDs show them (RGB565)."""
    for name, chosen in PALETTES.items():
        colours = [getattr(chosen, f.name) for f in fields(Palette) if f.name not in ("levels", "page", "cue", "name")]
        for colour in colours + list(chosen.levels):
            assert all(v == 0 or LIT_MIN <= v <= 255 for v in colour), (name, colour)
        board = [led_colour(c) for c in (chosen.first, chosen.second, chosen.field, chosen.background, chosen.flash)]
        assert len(set(board)) == 5, name
    assert LIT_MIN == 48
    assert (PALETTES[PURPLE_YELLOW].first, PALETTES[PURPLE_YELLOW].second, PALETTES[PURPLE_YELLOW].field,
            PALETTES[PURPLE_YELLOW].flash) == ((208, 0, 255), YELLOW, (0, 128, 0), (160, 255, 255))
    assert (PALETTES[GREEN_PINK].first, PALETTES[GREEN_PINK].second, PALETTES[GREEN_PINK].field,
            PALETTES[GREEN_PINK].flash) == (GREEN, (160, 128, 128), BLUE, WHITE)


def test_the_web_view_s_palette_files_follow_the_backend_s_palette():
    from gamelib import web
    from gamelib.web.address import Address
    from web_client import call

    mock = MockBackend()
    with web.serving(mock, Address("127.0.0.1", 0)) as server:
        first = call(server.port, "GET", "/palette.css")
        icon = call(server.port, "GET", "/icon.svg")
        mock.palette = PALETTES[PURPLE_YELLOW]         # the launcher's menu changed it
        second = call(server.port, "GET", "/palette.css")
        again = call(server.port, "GET", "/palette.css", headers=[("If-None-Match", first.headers["etag"])])
        green = call(server.port, "GET", "/icon.svg")
    assert first.body == palette_files(palette())["/palette.css"].body and icon.body == palette_files(palette())["/icon.svg"].body
    made = palette_files(PALETTES[PURPLE_YELLOW])
    assert second.body == made["/palette.css"].body and b"--field: #0a600a;" in second.body
    assert again.status == 200 and again.body == second.body      # the old ETag no longer matches
    assert green.body == made["/icon.svg"].body and b'fill="#008000"' in green.body


def test_a_round_s_palette_puts_the_starter_s_colour_first():
    base = Palette(field=GREEN)
    assert for_round((ORANGE, WHITE), 1, base) == Palette(ORANGE, WHITE, GREEN)
    assert for_round((ORANGE, WHITE), 2, base) == Palette(WHITE, ORANGE, GREEN)
    assert for_round((ORANGE, WHITE), 2, palette()) == Palette(WHITE, ORANGE)
    assert for_round((ORANGE, WHITE), 2, palette()).player(1) == WHITE


def test_the_pages_colours_are_css_custom_properties():
    text = css(PageColours())
    assert text.splitlines()[:4] == ["/* The pages' colours (gamelib/palette.py). */", ":root {",
                                     "  --bg: #111;", "  --text: #eee;"]
    assert "  --accent-glow: #9cf5;" in text.splitlines() and text.endswith("}\n")
    defined = {"--" + f.name.replace("_", "-") for f in fields(PageColours)}
    used = {m for d in STATIC for p in d.glob("*.css") for m in re.findall(r"var\((--[\w-]+)\)", p.read_text())}
    used |= {m for d in STATIC for p in d.glob("*.js") for m in re.findall(r"\"(--[\w-]+)\"", p.read_text())}
    assert used == defined          # every role used is in the table, and every one in the table is used


def test_the_files_made_from_the_palette():
    files = palette_files(palette())
    assert files["/palette.css"].body.decode() == css(PALETTES[DEFAULT].page)
    assert (files["/palette.css"].content_type, files["/icon.svg"].content_type) == (
        "text/css; charset=utf-8", "image/svg+xml")
    for page in ("gamelib/web/static/index.html", "sensehat_c4/web/static/history.html",
                 "sensehat_c4/web/static/round.html"):    # before the page's own style sheet
        assert re.search(r'<link rel="stylesheet" href="/palette.css">\n<link rel="stylesheet" href="/\w+.css">',
                         (ROOT / page).read_text())
    # the icon as it was shipped before the palette made it: the same drawing
    assert palette_files(palette())["/icon.svg"].body.decode() == (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
        'fill="#000000"/><g fill="#0000ff"><circle cx="3" cy="9" r="1.3"/><circle cx="6.3" cy="9" r="1.3"/>'
        '<circle cx="9.7" cy="9" r="1.3"/><circle cx="13" cy="9" r="1.3"/><circle cx="3" cy="12.5" r="1.3"/>'
        '<circle cx="13" cy="12.5" r="1.3"/></g><circle cx="6.3" cy="12.5" r="1.3" fill="#ff0000"/>'
        '<circle cx="9.7" cy="12.5" r="1.3" fill="#ffff00"/><circle cx="6.3" cy="4" r="1.3" fill="#ff0000"/>'
        '</svg>\n')
    night = palette_files(Palette(field=GREEN, first=WHITE))["/icon.svg"].body.decode()
    assert 'fill="#00ff00"' in night and night.count('fill="#ffffff"') == 2


# -- the proof: a palette added in one place ------------------------------------------------

def test_a_palette_added_to_the_table_draws_a_whole_round(monkeypatch):
    monkeypatch.setitem(PALETTES, "proof", Palette(first=ORANGE, second=WHITE, field=GREEN, name="proof"))
    chosen = palette("proof")
    mock = MockBackend()
    mock.palette = chosen                        # --palette proof
    for char in "4545454":                       # the first mover stacks column 4 and wins
        steps = int(char) - 4
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
        mock.wait_until(mock._cursor + 0.5)
    mock.wait_until(mock._cursor + 4.0)
    mock.tap("up", "up")                         # then leave the match
    result = play(mock, MatchOptions())
    assert result == MatchResult(winner=None, score=(1, 0), abandoned=True, rounds=2)
    shown = [grid(f) for _, f in mock.frames]
    assert shown[0] == g("""
        ...O....
        ........
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.""")
    assert g("""
        ....W...
        ........
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGGGGG.
        GGGOGGG.""") in shown                    # the second mover's cursor after the first token
    won = g("""
        ........
        ........
        GGGGGGG.
        GGGGGGG.
        GGGOGGG.
        GGGOWGG.
        GGGOWGG.
        GGGOWGG.""")
    hidden = won.replace("GGGOGGG.\nGGGOW", "GGGGGGG.\nGGGGW").replace("GGGOWGG.\nGGGOWGG.", "GGGGWGG.\nGGGGWGG.")
    assert shown.count(won) >= 3 and shown.count(hidden) == 3      # the winning line blinks three times
    assert g("""
        ........
        ........
        ....O...
        ...OO...
        ....O...
        ....O...
        ...OOO..
        ........""") in shown                                        # the score: 1, in the winner's colour
    assert shown[-1] == g("\n".join(["........"] * 8))
    default = {BLUE, RED, YELLOW}
    assert not any(default & set(f) for _, f in mock.frames)        # nothing of the default's board
    assert grid(size_frame(Size(4, 4), chosen)) == g("""
        ..WWWW..
        ........
        ........
        ........
        ..GGGG..
        ..GGGG..
        ..GGGG..
        ..GGGG..""")                                                 # the size chooser's field in it too
