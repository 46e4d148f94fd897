"""The words' catalogues: the committed templates are what ``tools/words extract`` makes from the code
now, every placeholder is named, and a language compiled with Babel changes what the launcher and the
terminal say (then English again), while a page's own language leaves the process's alone."""
import ast
import gettext
import os
import re
import runpy
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from gamelib import app, i18n
from gamelib.backends.mock import MockBackend
from gamelib.backends.terminal_screen import hint, plain_keys, too_small_message
from gamelib.launcher import cli
from gamelib.launcher.menu import Launcher
from gamelib.status import ENTER, LEFT_RIGHT
from sensehat_c4 import i18n as game_words

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("gamelib", "sensehat_c4")
ARGPARSE_FIELDS = {"%(default)s", "%(prog)s"}
"""The named fields argparse itself fills in a help string: allowed beside ``{name}`` ones."""


def template(domain: str) -> Path:
    return ROOT / domain / "locale" / f"{domain}.pot"


def test_the_committed_templates_are_what_extract_makes_from_the_code(tmp_path):
    """A word added (or changed) without ``tools/words extract`` fails here."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "words"), "extract", "--output", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for domain in DOMAINS:
        made = (tmp_path / f"{domain}.pot").read_text(encoding="utf-8")
        assert made == template(domain).read_text(encoding="utf-8"), \
            f"{template(domain).relative_to(ROOT)} is not what the code holds now: run tools/words extract"


def test_the_templates_hold_the_launchers_words_without_dates_or_line_numbers():
    text = template("gamelib").read_text(encoding="utf-8")
    assert 'msgid "no names kept"' in text and 'msgid "arrows and Enter (or space) play, q quits"' in text
    assert "#: gamelib/launcher/cli.py\n" in text               # the file, not the line
    assert '"POT-Creation-Date: 2000-01-01 00:00+0000\\n"' in text and "Generated-By" not in text


def fields(message: str) -> list:
    """The ``{...}`` fields of ``message`` (as str.format reads them)."""
    return [name for _, name, _, _ in string.Formatter().parse(message) if name is not None]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_placeholder_in_a_word_is_named(domain):
    """``{name}``, never ``{}``, ``{0}``, ``%s`` or ``%d``: a translation may put them in any order (argparse's
    own words are as argparse writes them)."""
    with template(domain).open("rb") as f:
        catalogue = read_po(f)
    bad = []
    for message in catalogue:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            if not text or text in app.ARGPARSE_WORDS:
                continue
            unnamed = [name for name in fields(text) if not name.isidentifier()]
            printf = [field for field in re.findall(r"%(?:\([a-z]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifrxX]", text)
                      if field not in ARGPARSE_FIELDS]
            if unnamed or printf:
                bad.append(text)
    assert not bad, f"placeholders without names (use {{name}} and .format(name=...)): {bad}"


def test_the_placeholder_check_catches_what_it_should():
    assert fields("{name} to move, {n} left") == ["name", "n"]
    assert [name.isidentifier() for name in fields("{} and {0}")] == [False, False]


XX_GAMELIB = {
    "no names kept": "xx-no-names",
    "arrows and Enter (or space) play, q quits": "xx-arrows-enter-q",
    "arrows, Enter; q quits": "xx-short",
    "Enter": "Entrer",
    "left/right": "gauche/droite",
    "Too small. q quits.": "xx-small",
    "no games are installed": "xx-no-games",
    "{item} (hold {up} {hold} s: system menu)": "xx {item}: {up} {hold} s",
    "menu: {item}": "xx-menu: {item}",
}
XX_GAME = {"a word of the game": "xx-word-of-the-game"}


def compile_language(localedir: Path, language: str, domain: str, words: dict) -> Path:
    """``words`` as ``localedir/language/LC_MESSAGES/domain.mo``, through Babel's .po and .mo writers."""
    catalogue = Catalog(locale=language, domain=domain)
    for english, translated in words.items():
        catalogue.add(english, translated)
    folder = localedir / language / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{domain}.po").open("wb") as f:
        write_po(f, catalogue)
    with (folder / f"{domain}.po").open("rb") as f:
        written = read_po(f, locale=language, domain=domain)
    with (folder / f"{domain}.mo").open("wb") as f:
        write_mo(f, written)
    return folder / f"{domain}.mo"


@pytest.fixture
def xx(tmp_path, monkeypatch):
    """A test language, ``xx``, compiled for both domains into a folder of its own ($GAMELIB_LOCALEDIR);
    English chosen again after."""
    compile_language(tmp_path / "locale", "xx", "gamelib", XX_GAMELIB)
    compile_language(tmp_path / "locale", "xx", "sensehat_c4", XX_GAME)
    monkeypatch.setenv(i18n.LOCALEDIR_ENV, str(tmp_path / "locale"))
    yield
    i18n.choose(None)


def no_games_caption() -> str:
    return Launcher(MockBackend(), [], None).words().caption


def test_a_language_chosen_changes_the_launchers_and_the_terminals_words_then_english_again(xx, tmp_path,
                                                                                            monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "en")
    english = no_games_caption()
    assert english == "no games are installed (hold ↑ 2 s: system menu)"

    i18n.choose(["xx"])
    assert cli.main(["names"]) == 0 and capsys.readouterr().out == "xx-no-names\n"
    assert no_games_caption() == "xx xx-no-games: ↑ 2 s"               # a whole sentence, its fields in place
    assert Launcher(MockBackend(), [], None).words().text == "xx-menu: xx-no-games"
    assert hint(80, pairing=False) == "xx-arrows-enter-q" and hint(12, pairing=False) == "xx-short"
    assert too_small_message(20, 1) == ["xx-small"]                       # the longest that fits
    assert f"{ENTER}: yes" == "Entrer: yes" and ENTER == "Enter"          # the key's name; its value stays
    assert plain_keys(f"{LEFT_RIGHT} browse") == "gauche/droite browse"
    assert game_words._("a word of the game") == "xx-word-of-the-game"   # the game's own domain
    assert i18n._("a word of the game") == "a word of the game"           # ... which gamelib's does not hold
    assert i18n._("not in any catalogue") == "not in any catalogue"       # what xx lacks stays English

    i18n.choose(None)
    assert cli.main(["names"]) == 0 and capsys.readouterr().out == "no names kept\n"
    assert no_games_caption() == english and hint(80, pairing=False) == "arrows and Enter (or space) play, q quits"
    assert f"{ENTER}: yes" == "Enter: yes" and game_words._("a word of the game") == "a word of the game"


def test_a_pages_own_language_leaves_the_processs_alone(xx, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en")
    page = i18n.CATALOGUE.translations(["xx", "en"])
    assert page.gettext("no names kept") == "xx-no-names"
    assert i18n.chosen() is None and i18n._("no names kept") == "no names kept"
    assert game_words.CATALOGUE.translations(["xx"]).gettext("a word of the game") == "xx-word-of-the-game"
    assert i18n.CATALOGUE.translations(["zz"]).gettext("no names kept") == "no names kept"   # no catalogue: English
    assert no_games_caption() == "no games are installed (hold ↑ 2 s: system menu)"


def test_a_language_without_the_folder_is_english(monkeypatch):
    monkeypatch.setenv(i18n.LOCALEDIR_ENV, "/nonexistent/locale")
    i18n.choose(["xx"])
    try:
        assert i18n._("no names kept") == "no names kept" and hint(80, pairing=False) == "arrows and Enter (or space) play, q quits"
    finally:
        i18n.choose(None)


def source_copy(destination: Path, *, languages: bool = True) -> Path:
    """What the build reads: setup.py, setup.cfg, pyproject.toml, README.md and both packages (no built files;
    without the languages' .po files when ``languages`` is false)."""
    for name in ("setup.py", "setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, destination / name)
    left_out = ("__pycache__", "*.so", "*.sha256", "*.mo", "fr", "xx") + (() if languages else ("*.po",))
    for package in DOMAINS:
        shutil.copytree(ROOT / package, destination / package, ignore=shutil.ignore_patterns(*left_out))
    return destination


def build_py(source: Path, *, babel: bool) -> subprocess.CompletedProcess:
    """``setup.py build_py`` of ``source`` into ``source/out``; without Babel importable if ``babel`` is false."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if not babel:   # a package called babel that cannot be imported, first on the path
        (source / "nobabel" / "babel").mkdir(parents=True)
        (source / "nobabel" / "babel" / "__init__.py").write_text("raise ImportError('No module named babel')\n")
        environment["PYTHONPATH"] = str(source / "nobabel")
    return subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", "out"], cwd=source,
                          env=environment, capture_output=True, text=True, timeout=300)


def test_the_build_compiles_each_language_with_babel_and_ships_only_what_runs(tmp_path):
    """The .mo files, not what they are made from (the templates, the .po files: the source distribution keeps
    them), nor the native core's C source (a wheel and the Debian package are built copies)."""
    source = source_copy(tmp_path)
    compile_language(tmp_path / "gamelib" / "locale", "fr", "gamelib", {"no names kept": "aucun nom gardé"})
    (tmp_path / "gamelib" / "locale" / "fr" / "LC_MESSAGES" / "gamelib.mo").unlink()   # the build makes its own
    done = build_py(source, babel=True)
    assert done.returncode == 0, done.stderr
    built = tmp_path / "out" / "gamelib" / "locale"
    shipped = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*")
                     if p.is_file() and p.suffix in (".po", ".pot", ".mo", ".c", ".h"))
    assert shipped == sorted(["gamelib/locale/fr/LC_MESSAGES/gamelib.mo"] + [   # (the copy has no other French)
        f"{domain}/locale/{language}/LC_MESSAGES/{domain}.mo" for domain in DOMAINS for language in SHIPPED
        if language != "fr"])
    french = gettext.translation("gamelib", str(built), languages=["fr"])
    assert french.gettext("no names kept") == "aucun nom gardé"
    assert not (tmp_path / "gamelib" / "locale" / "fr" / "LC_MESSAGES" / "gamelib.mo").exists()   # not in the sources


def test_a_build_without_babel_fails_only_when_there_is_a_language_to_compile(tmp_path):
    (tmp_path / "bare").mkdir()
    done = build_py(source_copy(tmp_path / "bare", languages=False), babel=False)
    assert done.returncode == 0, done.stderr                               # no .po: Babel is not needed
    (tmp_path / "fr").mkdir()
    source = source_copy(tmp_path / "fr")
    compile_language(source / "gamelib" / "locale", "fr", "gamelib", {"no names kept": "aucun nom gardé"})
    done = build_py(source, babel=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == ("error: Babel is needed to compile the words' catalogues "
                                                    "(No module named babel): pip install Babel")


KEYWORDS = {"_", "N_", "NP_", "ngettext", "pgettext"}


def words_in_f_strings(source: str) -> list:
    """The lines where a keyword Babel extracts is called inside an f-string's braces."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            found.extend(call.lineno for call in ast.walk(node) if isinstance(call, ast.Call)
                         and isinstance(call.func, ast.Name) and call.func.id in KEYWORDS)
    return found


def test_no_word_is_looked_up_inside_an_f_string():
    """Python 3.12's tokenizer shows Babel the calls inside an f-string and older ones do not, so such a word
    is extracted under one Python and missing from the templates under another."""
    assert words_in_f_strings("x = f\"{_('col'):>3}\"\n") == [1]           # the check sees one
    found = {str(path.relative_to(ROOT)): words_in_f_strings(path.read_text())
             for package in ("gamelib", "sensehat_c4") for path in sorted((ROOT / package).rglob("*.py"))}
    assert {path: lines for path, lines in found.items() if lines} == {}


WORDS_TOOL = runpy.run_path(str(ROOT / "tools" / "words"), run_name="words")
SHIPPED = tuple(sorted(po.parent.parent.name for po in (ROOT / "gamelib" / "locale").glob("*/LC_MESSAGES/gamelib.po")))
"""The languages in the tree besides English: each a .po file a domain (French and Indonesian at least)."""


def test_every_shipped_language_translates_every_message_with_its_placeholders():
    """``tools/words check``: each .po of each language holds every message of its template, none fuzzy or
    empty, each with its msgid's placeholders (and formats); the count is the template's."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "words"), "check"], capture_output=True, text=True,
                          timeout=120)
    counts = {}
    for domain in DOMAINS:
        with template(domain).open("rb") as f:
            counts[domain] = sum(1 for message in read_po(f) if message.id)
    assert done.stdout.splitlines() == [f"{domain}/locale/{language}/LC_MESSAGES/{domain}.po: {counts[domain]} "
                                        "messages, 0 problems" for domain in DOMAINS for language in SHIPPED]
    assert done.returncode == 0 and i18n.languages() == ("en",) + SHIPPED and {"fr", "id"} <= set(SHIPPED)


def test_the_check_finds_each_kind_of_mistake(tmp_path):
    catalogue = Catalog(locale="nl", domain="gamelib")                     # two forms in every Babel
    catalogue.add("{name} to move", "{naam} is aan zet")                    # another placeholder
    catalogue.add("no names kept", "")                                      # empty
    catalogue.add("rules", "regels", flags=["fuzzy"])                       # fuzzy
    catalogue.add(("{n} round", "{n} rounds"), ("{n} ronde", ""))          # a form empty
    catalogue.add("%(prog)s failed: %s", "%(prog)s: mislukt")              # a %-placeholder lost
    catalogue.add("{n:d} left", "{n:d} over }")                             # str.format refuses it
    catalogue.add("gone", "weg")                                            # no longer in the template
    pot = Catalog(domain="gamelib")
    for message in ("{name} to move", "no names kept", "rules", ("{n} round", "{n} rounds"), "%(prog)s failed: %s",
                    "{n:d} left", "new word"):
        pot.add(message)
    for path, written in ((tmp_path / "nl.po", catalogue), (tmp_path / "t.pot", pot)):
        with path.open("wb") as f:
            write_po(f, written)
    count, found = WORDS_TOOL["check_catalogue"](tmp_path / "nl.po", tmp_path / "t.pot")
    assert count == 7
    assert found == ["missing: 'new word'", "not in the template: 'gone'",
                     "placeholders not the msgid's: '{name} to move' -> '{naam} is aan zet'",
                     "msgstr[0] empty: 'no names kept'", "fuzzy: 'rules'", "msgstr[1] empty: '{n} rounds'",
                     "placeholders not the msgid's: '%(prog)s failed: %s' -> '%(prog)s: mislukt'",
                     "does not format (Single '}' encountered in format string): '{n:d} over }'"]


def test_each_language_names_itself_and_says_or_its_way(monkeypatch):
    names = [i18n.own_name(language) for language in i18n.languages()]
    assert len(set(names)) == len(names) and [i18n.own_name(code) for code in ("en", "fr", "id")] == [
        "English", "Français", "Bahasa Indonesia"]
    try:
        assert i18n.one_of(["a", "b", "c"]) == "a, b or c" and i18n.one_of(["a"]) == "a" and i18n.one_of([]) == ""
        i18n.choose(["fr"])
        assert i18n.one_of(["a", "b", "c"]) == "a, b ou c"
        i18n.choose(["id"])
        assert i18n.one_of(["a", "b"]) == "a atau b"
    finally:
        i18n.choose(None)


def french(*arguments: str) -> subprocess.CompletedProcess:
    """``sensehat-c4 ARGUMENTS`` with ``LANGUAGE=fr``."""
    return subprocess.run([sys.executable, "-m", "sensehat_c4", *arguments], capture_output=True, text=True,
                          env={**os.environ, "LANGUAGE": "fr", "COLUMNS": "100"}, timeout=60)


def test_argparses_own_words_are_in_the_players_language_too():
    """``usage:``, the ``-h`` line and argparse's errors: Python ships no catalogue for them; gamelib's has them."""
    shown = french("--help")
    assert shown.returncode == 0
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("usage : sensehat-c4 [-h] ")
    assert "  -h, --help            affiche cette aide et quitte" in lines
    refused = french("--opponent", "nope")
    assert refused.returncode == 2 and refused.stdout == ""
    # Python 3.9 and 3.10 write "argument X: message" without looking it up (3.11 on do)
    refused.stderr = re.sub(r"argument (--[a-z]+):", r"argument \1 :", refused.stderr)
    assert refused.stderr.startswith("sensehat-c4: erreur : argument --opponent : choix invalide : 'nope' (choisir "
                                     "parmi 'human', 'easy',")
    assert re.sub(r"argument (--[a-z]+):", r"argument \1 :", french("history", "--limit").stderr) == ("sensehat-c4 history: erreur : argument --limit : un argument est "
                                                   "attendu (voir --help)\n")


def test_the_colours_names_are_words_and_stay_values_for_colors():
    """A player reads ``Ann (rouge)``; ``--colors red,yellow`` takes the English names (values)."""
    from gamelib.colours import NAMES, RED, parse_colour
    from sensehat_c4.match.words import colour_word

    with template("gamelib").open("rb") as f:
        assert set(NAMES) <= {message.id for message in read_po(f)}
    try:
        i18n.choose(["fr"])
        assert (colour_word(RED), colour_word((255, 255, 0)), colour_word((1, 2, 3))) == ("rouge", "jaune", "#010203")
        assert parse_colour("red") == RED
        i18n.choose(["id"])
        assert colour_word(RED) == "merah"
    finally:
        i18n.choose(None)


def test_an_editable_install_compiles_the_catalogues_beside_their_po(tmp_path):
    """README's ``pip install -e``: setuptools' PEP 660 hook (what pip calls) builds no package folder of
    its own, so the build writes each .mo beside its .po, where the modules load from: the game speaks
    the system's language straight after README's command."""
    (tmp_path / "source").mkdir()
    source = source_copy(tmp_path / "source")
    for domain in DOMAINS:                      # source_copy leaves French out for the tests' own "fr"
        shutil.copytree(ROOT / domain / "locale" / "fr", source / domain / "locale" / "fr",
                        ignore=shutil.ignore_patterns("*.mo"))
    (tmp_path / "wheel").mkdir()
    done = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                           "print(build_meta.build_editable(sys.argv[1]))", str(tmp_path / "wheel")],
                          cwd=source, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SENSEHAT_C4_PURE_PYTHON": "1"})
    assert done.returncode == 0, done.stderr
    for language, word in (("fr", "Français"), ("id", "Bahasa Indonesia")):
        for domain in DOMAINS:
            assert (source / domain / "locale" / language / "LC_MESSAGES" / f"{domain}.mo").is_file()
        compiled = gettext.translation("gamelib", str(source / "gamelib" / "locale"), languages=[language])
        assert compiled.pgettext("the language's own name", "English") == word
