"""The web pages' words (``gamelib/web/words.py``): ``Accept-Language`` read strictly and bounded (hostile
headers give English), the messages found in the pages' HTML and scripts as Babel finds them, the words
script served per language (``Vary``, ETag, escaped JSON, plural forms), the reader's own choice (the
``lang`` cookie of the pages' language switch: before ``Accept-Language``, read strictly, hostile cookies
ignored, never the Pi's language), and the API's error codes and the links' titles kept apart from words."""
from __future__ import annotations

import gettext
import json
import re
import subprocess
from pathlib import Path

import pytest
from pseudo_words import Pseudo
from web_client import Console, call

from gamelib import i18n
from gamelib.web import api, words
from gamelib.web.address import Address
from gamelib.web.http import HttpError, Request, Response
from gamelib.web.server import WebServer
from sensehat_c4 import i18n as c4_i18n
from sensehat_c4.study.review import MARKS
from sensehat_c4.web import pages as webpages

ROOT = Path(__file__).parents[3]
GAMELIB_STATIC = ROOT / "gamelib" / "web" / "static"
C4_STATIC = ROOT / "sensehat_c4" / "web" / "static"
SCRIPTS = [GAMELIB_STATIC / "page.js", *(C4_STATIC / name for name in ("records.js", "history.js", "round.js"))]


class Plural(gettext.NullTranslations):
    """A language of three plural forms (as Polish): 1; 2-4 but not 12-14; the rest."""

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        form = 0 if n == 1 else 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2
        return f"{form}:{singular}"


def request(language=None, etag=None, cookie=None) -> Request:
    headers = {**({"accept-language": language} if language is not None else {}),
               **({"if-none-match": etag} if etag else {}), **({"cookie": cookie} if cookie is not None else {})}
    return Request("GET", "/page-words.js", "", headers, b"", "127.0.0.1")


# -- Accept-Language -----------------------------------------------------------------------------


@pytest.mark.parametrize("header, languages", [
    ("fr", ("fr",)),
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", ("fr_CH", "fr", "en", "de")),
    ("de;q=0.5,fr;q=0.9", ("fr", "de")),                 # by weight, not by order
    ("pt-br,pt-BR;q=0.5,es", ("pt_BR", "es")),           # once each, at its best weight
    ("zh-Hant-TW,zh;q=0.1", ("zh_TW", "zh")),            # the script left out, the region kept
    ("es-419", ("es_419",)),
    ("fr;q=0,de", ("de",)),                              # q=0: not wanted
    ("fr; q=0.8 ,de", ("de", "fr")),
    ("FR-ca", ("fr_CA",)),
])
def test_accept_language_best_first_as_gettext_names_them(header, languages):
    assert words.accepted(header) == languages


@pytest.mark.parametrize("header", [
    None, "", "*", "en;q=2", "fr;q=-1", "fr;q=0.5555", "fr;level=1", "fr;q=", "../../etc", "fr_FR",
    "français", "fr\x00", "x" * 9, "a-" + "b" * 9, "fr-ch-de-it-es", "1fr", ",,;", ";q=1", "\u00e9n",
    "fr;q=1;q=0.5", "en\r\nX-Evil: 1", "fr;q=0.5" + " " * (words.MOST_HEADER + 1),
])
def test_hostile_or_odd_accept_language_gives_english(header):
    assert words.accepted(header) == ()
    assert words.page_language(header, {"fr", "fr_FR", "x"}) is None


def test_accept_language_is_bounded():
    many = ",".join(f"l{'a' * (k % 6)}-x{k}" for k in range(100_000))     # a huge header: not read at all
    assert words.accepted(many) == ()
    entries = ",".join(["xx", "yy;q=0.1", "zz", "de", "fr", "it", "es", "nl", "sv", "pl", "fi", "da"])
    assert words.accepted(entries) == ("xx", "zz", "de", "fr")   # the first 8 entries read; 4 kept
    assert len(words.accepted(entries)) == words.MOST_LANGUAGES
    assert words.page_language(entries, {"it", "fr"}) == "fr"     # among the 4 kept
    assert words.page_language(entries, {"it", "pl"}) is None     # it: the fifth kept of 8 read; pl: never read


def test_the_page_language_is_one_a_catalogue_has_and_english_when_asked_first():
    have = {"fr", "de_AT"}
    assert words.page_language("fr-CH,de;q=0.5", have) == "fr"          # fr_CH missing: fr
    assert words.page_language("de-AT", have) == "de_AT"
    assert words.page_language("de", have) is None                       # de_AT is not de
    assert words.page_language("en-GB,fr;q=0.9", have) is None           # English first: English
    assert words.page_language("it,fr;q=0.1", have) == "fr"


def test_a_catalogue_lists_its_compiled_languages_only(tmp_path, monkeypatch):
    monkeypatch.delenv(i18n.LOCALEDIR_ENV, raising=False)
    for language, name in (("fr", "gamelib.mo"), ("de", "other.mo"), ("it", "gamelib.po")):
        (tmp_path / language / "LC_MESSAGES").mkdir(parents=True)
        (tmp_path / language / "LC_MESSAGES" / name).write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a language")
    assert i18n.Catalogue("gamelib", str(tmp_path)).languages() == {"fr"}
    assert i18n.Catalogue("gamelib", str(tmp_path / "gone")).languages() == frozenset()


# -- the messages ------------------------------------------------------------------------------


def test_the_html_messages_are_every_text_people_read():
    found = [text for _line, text in words.html_messages(
        '<html><head><title>Games  played</title><script>var x = "no";</script><style>p{}</style></head>'
        '<body><h1>Sense\n  HAT <span id="game"></span></h1><p>&hellip;</p><p>connecting&hellip;</p>'
        '<button aria-label="one move back" data-x="not this">&#x25C0;</button><td>#</td><td>7</td>'
        '<input title="4 digits" pattern="[0-9]{4}" placeholder="PIN"></body></html>')]
    assert found == ["Games played", "Sense HAT", "connecting\u2026", "one move back", "4 digits", "PIN"]


def test_the_script_messages_are_the_gettext_calls():
    singles, plurals = words.js_messages(
        'x = _("one"); y = _( "two \\"quoted\\" \\u2026" ); z = a_("not"); w = o._("not");\n'
        'n = ngettext("{n} move", "{n} moves", k); m = ngettext(\n  "a {n}",\n  "b {n}", 3); t = _(`not`);')
    assert singles == ["one", 'two "quoted" \u2026']
    assert plurals == [("{n} move", "{n} moves"), ("a {n}", "b {n}")]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_the_scripts_messages_are_what_babel_extracts(script):
    extract = pytest.importorskip("babel.messages.extract")
    with script.open("rb") as source:
        found = list(extract.extract("javascript", source))
    singles = [message for _line, message, _comments, _context in found if isinstance(message, str)]
    plurals = [tuple(message) for _line, message, _comments, _context in found if isinstance(message, tuple)]
    assert (singles, plurals) == words.js_messages(script.read_text(encoding="utf-8"))
    assert singles and all("${" not in message for message in singles)   # no template literal in a message


@pytest.mark.parametrize("page", [GAMELIB_STATIC / "index.html", C4_STATIC / "history.html", C4_STATIC / "round.html"],
                         ids=lambda path: path.name)
def test_babel_extracts_the_html_with_extract_html(page):
    extract = pytest.importorskip("babel.messages.extract")
    with page.open("rb") as source:
        found = [message for _line, message, _comments, _context in
                 extract.extract("gamelib.web.words:extract_html", source)]
    assert found == [text for _line, text in words.html_messages(page.read_text(encoding="utf-8"))]
    assert "Sense HAT" in found or "Games played" in found or "Round" in found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_shows_a_server_message_or_a_literal_sentence(script):
    source = script.read_text(encoding="utf-8")
    assert ".message" not in source          # the API's message is for people reading the API: the page maps codes
    assert "result_text" not in source and ".labels" not in source   # words made from the values, here
    # every text with two words in a row is a message of _() or ngettext(), or a value of the API (a mark)
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("//"))
    code = words._NGETTEXT.sub("ngettext(M, M,", words._GETTEXT.sub("_(M)", code.replace('"use strict";', "")))
    for literal in re.findall(r'"([^"\n]*)"|`([^`\n]*)`', code):
        text = "".join(literal)
        stripped = re.sub(r"\$\{[^}]*\}", "", text)
        assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{2,}", stripped) or text.startswith(
            ("/api/", "rgb(")) or text in MARKS, f"{script.name}: a sentence not through the catalogue: {text!r}"


@pytest.mark.parametrize("page", [GAMELIB_STATIC / "index.html", C4_STATIC / "history.html", C4_STATIC / "round.html"],
                         ids=lambda path: path.name)
def test_every_word_of_a_page_is_in_its_packages_template(page):
    """What the words script looks up in a page is in the template its package's babel.cfg made (a mapping
    that names no file leaves the pages' words English in every language)."""
    from babel.messages.pofile import read_po

    domain = "gamelib" if page.is_relative_to(GAMELIB_STATIC) else "sensehat_c4"
    with (ROOT / domain / "locale" / f"{domain}.pot").open("rb") as f:
        template = {message.id for message in read_po(f)}
    texts = [text for _line, text in words.html_messages(page.read_text(encoding="utf-8"))]
    assert texts and [text for text in texts if text not in template] == []


def test_the_babel_config_names_the_pages_files():
    gamelib_cfg = (ROOT / "gamelib" / "locale" / "babel.cfg").read_text()
    c4_cfg = (ROOT / "sensehat_c4" / "locale" / "babel.cfg").read_text()
    for cfg in (gamelib_cfg, c4_cfg):
        assert "[javascript: web/static/**.js]" in cfg
        assert "[extractors]\nhtml = gamelib.web.words:extract_html\n" in cfg and "[html: web/static/**.html]" in cfg


# -- the words script --------------------------------------------------------------------------


def page_words(monkeypatch, translations, directory=GAMELIB_STATIC, files=api.WORDS[1], catalogue=i18n.CATALOGUE):
    monkeypatch.setattr(i18n.Catalogue, "languages", lambda catalogue: frozenset({"eo"}))
    real = catalogue.translations
    monkeypatch.setattr(catalogue, "translations",
                        lambda languages=None: translations if languages and languages[0] == "eo" else real(languages))
    return words.PageWords(catalogue, directory, files)


def data_of(response: Response):
    text = response.body.decode()
    start = text.index("const WORDS = ") + len("const WORDS = ")
    return json.loads(text[start:text.index(";\nconst PLURALS")])


def test_english_sends_no_words_and_each_language_its_own_script(monkeypatch):
    served = page_words(monkeypatch, Pseudo())
    english = served.serve(request("en-US,eo;q=0.5"))
    assert english.status == 200 and english.content_type == "text/javascript; charset=utf-8"
    assert data_of(english) == {"lang": "en", "m": {}, "p": {}, "v": {}}
    assert ("Vary", "Accept-Language, Cookie") in english.headers and ("Cache-Control", "no-cache") in english.headers
    assert served.serve(request(None)).body == english.body == served.serve(request("fr;q=2")).body
    pseudo = served.serve(request("eo"))
    data = data_of(pseudo)
    assert data["lang"] == "eo"
    assert data["m"]["Not your turn."] == "[!Not your turn.!]" and data["m"]["Sense HAT"] == "[!Sense HAT!]"
    assert set(data["m"]) == set(served.messages) and served.messages     # every message the page uses, no more
    forms, index = data["p"]["Wrong PIN: read it on the LEDs ({n} try left)."]
    assert forms == ["[!Wrong PIN: read it on the LEDs ({n} tries left).!]", "[!Wrong PIN: read it on the LEDs ({n} try left).!]"]
    assert index == "01" + "0" * (words.PLURALS - 2)
    etag = dict(pseudo.headers)["ETag"]
    assert etag != dict(english.headers)["ETag"]
    again = served.serve(request("eo", etag=etag))
    assert again.status == 304 and again.body == b"" and ("Vary", "Accept-Language, Cookie") in again.headers


def test_the_plural_forms_go_by_n_as_the_catalogue_says(monkeypatch):
    served = page_words(monkeypatch, Plural(), C4_STATIC, webpages.WORDS[1], c4_i18n.CATALOGUE)
    forms, index = data_of(served.serve(request("eo")))["p"]["{n} mistake"]
    assert forms == ["2:{n} mistake", "0:{n} mistake", "1:{n} mistake"]   # as n = 0, 1, 2 first say them
    shown = {n: forms[int(index[n])] for n in range(words.PLURALS)}
    assert (shown[1], shown[2], shown[5], shown[12], shown[22], shown[112], shown[122]) == (
        "0:{n} mistake", "1:{n} mistake", "2:{n} mistake", "2:{n} mistake", "1:{n} mistake", "2:{n} mistake",
        "1:{n} mistake")
    for n in (1000, 1012, 1022, 99_999_922):   # beyond the table, as the page picks: 100 + n % 100
        assert forms[int(index[100 + n % 100])][0] == Plural().ngettext("", "", n)[0]


def test_the_words_are_escaped_json_in_the_script(monkeypatch):
    class Hostile(gettext.NullTranslations):
        def gettext(self, message):
            return '</script><script>alert(1)</script>"\u2028\\'

    served = page_words(monkeypatch, Hostile())
    body = served.serve(request("eo")).body
    assert body.isascii() and b"</script>" not in body and b"\\u2028" in body
    assert data_of(served.serve(request("eo")))["m"]["Cancel"] == '</script><script>alert(1)</script>"\u2028\\'
    node = subprocess.run(["node", "--version"], capture_output=True) if Path("/usr/bin/node").exists() else None
    if node is not None and node.returncode == 0:
        checked = subprocess.run(["node", "--check", "-"], input=body, capture_output=True)
        assert checked.returncode == 0, checked.stderr


def test_the_scripts_are_made_once_per_language(monkeypatch):
    served = page_words(monkeypatch, Pseudo())
    made = []
    real = served.words
    monkeypatch.setattr(served, "words", lambda language: made.append(language) or real(language))
    for header in ("eo", "eo-XX", "en", "de", "eo;q=0.9", "x" * 600):
        served.serve(request(header))
    assert made == ["eo", None]          # every other header is one of the two


# -- the reader's choice: the lang cookie ------------------------------------------------------------

CHOICES = ("en", "fr", "id")


@pytest.mark.parametrize("header, chosen", [
    ("lang=fr", "fr"),
    ("theme=dark; lang=id; other=1", "id"),
    ("  lang = en  ", "en"),
    ("a=1, lang=fr", "fr"),                             # two Cookie headers, as the server joins them
    (None, None),
    ("", None),
    ("lang=de", None),                                  # not a language of the program
    ("lang=FR", None), ("lang=fr_FR", None), ('lang="fr"', None), ("Lang=fr", None), ("lang", None),
    ("lang=fr\x00", None), ("lang=fr\x1b[31m", None), ("lang=\x7ffr", None), ("lang=fr\r\nX-A: b", None),
    ("lang=fran\u00e7ais", None), ("lang=fr; x=\u00e9", None),    # not ASCII: the whole header ignored
    ("lang=" + "f" * 17, None),
    ("lang=zz; lang=fr", None),                         # the first lang cookie decides
    ("x=1; " * 32 + "lang=fr", None),                   # beyond the 32 cookies read
    ("x=1; " * 31 + "lang=fr", "fr"),
    ("lang=fr; pad=" + "x" * 4096, None),              # a header beyond 4096 characters is not read
    ("=" * 4000, None), (";" * 4000, None),
])
def test_the_lang_cookie_is_read_strictly(header, chosen):
    assert words.cookie_language(header, CHOICES) == chosen


def test_the_choice_comes_first_then_accept_language_then_english():
    speaker = words.Speaker(i18n.CATALOGUE)
    assert speaker.choices == i18n.languages() and {"en", "fr", "id"} <= set(speaker.choices)
    assert {"fr", "id"} <= speaker.languages

    def spoken(cookie, header):
        return speaker.language(request(header, cookie=cookie))

    assert spoken("lang=id", "fr") == "id"
    assert spoken("lang=en", "fr") is None                # English chosen, over the browser's French
    assert spoken("lang=fr", None) == "fr"
    assert spoken(None, "fr-CH,id;q=0.5") == "fr"
    assert spoken("lang=de", "id") == "id"                # an unknown choice: as if none
    assert spoken("lang=" + "x" * 5000, "id") == "id" and spoken("lang=fr\x00", "id") == "id"
    assert spoken("lang=de", None) is None and spoken(None, None) is None


def switch_of(response: Response):
    text = response.body.decode()
    start = text.index("const SWITCH = ") + len("const SWITCH = ")
    return json.loads(text[start:text.index(";\nconst ATTRIBUTES")])


def test_the_words_script_follows_the_readers_choice_and_never_the_pis_language():
    before = i18n.chosen()
    served = words.PageWords(c4_i18n.CATALOGUE, C4_STATIC, webpages.WORDS[1])
    indonesian = served.serve(request("fr", cookie="lang=id"))
    assert indonesian.status == 200 and ("Vary", "Accept-Language, Cookie") in indonesian.headers
    assert data_of(indonesian)["lang"] == "id"
    assert data_of(indonesian)["m"]["Games played"] == "Riwayat permainan"
    assert switch_of(indonesian) == {
        "label": "Bahasa", "chosen": "id", "cookie": "lang", "kept": 365 * 24 * 3600,
        "choices": [[code, i18n.own_name(code)] for code in i18n.languages()]}   # each in itself
    assert ["fr", "Fran\u00e7ais"] in switch_of(indonesian)["choices"]
    french = served.serve(request("fr", cookie="lang=xx"))        # an unknown choice: the browser's French
    assert data_of(french)["lang"] == "fr" and data_of(french)["m"]["Games played"] == "Parties jou\u00e9es"
    assert switch_of(french)["label"] == "Langue" and switch_of(french)["chosen"] == "fr"
    swiss = served.serve(request("fr-CH"))                        # fr_CH spoken as fr: the switch shows fr
    assert data_of(swiss)["lang"] in ("fr", "fr-CH") and switch_of(swiss)["chosen"] == "fr"
    english = served.serve(request("fr", cookie="lang=en"))
    assert data_of(english) == {"lang": "en", "m": {}, "p": {}, "v": {}} and switch_of(english)["label"] == "Language"
    assert switch_of(english)["chosen"] == "en"
    etag = dict(indonesian.headers)["ETag"]
    assert served.serve(request(None, etag=etag, cookie="lang=id")).status == 304
    assert served.serve(request(None, etag=etag, cookie="lang=fr")).status == 200   # another choice: another script
    assert i18n.chosen() == before                                # the Pi's own language: as it was
    assert i18n.CATALOGUE.gettext("Language") == "Language"
    assert c4_i18n.CATALOGUE.gettext("Games played") == "Games played"


def test_the_links_follow_the_readers_choice_over_the_network(tmp_path):
    before = i18n.chosen()
    with WebServer(Console(), Address("127.0.0.1", 0), pages=[webpages.pages(tmp_path / "games.db")]) as server:
        def title(*headers):
            reply = call(server.port, "GET", "/api/pages", headers=list(headers))
            assert reply.status == 200 and reply.headers.get("vary") == "Accept-Language, Cookie"
            return reply.json()["links"][0]["title"]

        assert title(("Accept-Language", "fr"), ("Cookie", "lang=id")) == "Riwayat permainan"
        assert title(("Accept-Language", "id"), ("Cookie", "lang=fr")) == "Parties jou\u00e9es"
        assert title(("Accept-Language", "fr"), ("Cookie", "lang=en")) == "Games played"
        assert title(("Accept-Language", "id"), ("Cookie", "lang=fr\x01")) == "Riwayat permainan"
        assert title(("Accept-Language", "fr"), ("Cookie", "; ".join(f"c{n}=1" for n in range(40)) + "; lang=id")) == (
            "Parties jou\u00e9es")
        assert title(("Cookie", "lang=" + "i" * 3000)) == "Games played"
        shown = call(server.port, "GET", "/api/pages", headers=[("Accept-Language", "fr")]).json()["words"]
        assert (shown["Connect 4"], shown["easy"], shown["perfect"], "medium" in shown) == (
            "Puissance 4", "facile", "parfait", True)
        assert call(server.port, "GET", "/api/pages", headers=[("Cookie", "lang=id")]).json()["words"]["easy"] == "mudah"
        script = call(server.port, "GET", "/page-words.js", headers=[("Cookie", "lang=fr")])
        assert script.status == 200 and b'"lang":"fr"' in script.body and b'"label":"Langue"' in script.body
    assert i18n.chosen() == before
    assert c4_i18n.CATALOGUE.gettext("Games played") == "Games played"


# -- the API: codes apart from words, titles in the page's language ---------------------------------


def test_a_wrong_pin_says_how_many_tries_are_left_as_a_value(monkeypatch):
    error = HttpError(403, "bad_pin", "wrong PIN", details={"tries_left": 2})
    assert json.loads(Response.error(error).body) == {"error": "bad_pin", "message": "wrong PIN", "tries_left": 2}
    assert json.loads(Response.error(HttpError(403, "no_pin", "x")).body) == {"error": "no_pin", "message": "x"}


def test_the_live_page_links_to_the_games_played_in_its_own_language(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n.Catalogue, "languages", lambda catalogue: frozenset({"eo"}))
    real = c4_i18n.CATALOGUE.translations
    monkeypatch.setattr(c4_i18n.CATALOGUE, "translations",
                        lambda languages=None: Pseudo() if languages and languages[0] == "eo" else real(languages))
    with WebServer(Console(), Address("127.0.0.1", 0), pages=[webpages.pages(tmp_path / "games.db")]) as server:
        reply = call(server.port, "GET", "/api/pages", headers=[("Accept-Language", "eo")])
        assert reply.json()["links"] == [{"path": "/history", "title": "[!Games played!]"}]
        assert reply.json()["words"]["Connect 4"] == "[!Connect 4!]" and reply.json()["words"]["easy"] == "[!easy!]"
        assert reply.headers.get("vary") == "Accept-Language, Cookie"
        english = call(server.port, "GET", "/api/pages", headers=[("Accept-Language", "en,eo;q=0.5")])
        assert english.json() == {"links": [{"path": "/history", "title": "Games played"}], "words": {}}
        assert c4_i18n.CATALOGUE.translations().gettext("Games played") == "Games played"   # the Pi's: English
        for path in ("/page-words.js", "/records-words.js"):
            script = call(server.port, "GET", path, headers=[("Accept-Language", "eo")])
            assert script.status == 200 and script.headers.get("vary") == "Accept-Language, Cookie"


def test_a_round_not_recorded_is_a_404_by_its_type_not_its_words(tmp_path):
    from sensehat_c4.records import NotRecorded, RecordsError
    assert issubclass(NotRecorded, RecordsError)
    pages = webpages.RecordsPages(tmp_path / "none.db")

    def read(stored):
        raise NotRecorded("no round 9 in /secret/games.db", "no round 9")

    with pytest.raises(HttpError) as caught:
        pages._read(read)
    assert (caught.value.status, caught.value.code, caught.value.message) == (404, "not_found", "no round 9")

    def damaged(stored):
        raise RecordsError("no round in /secret/games.db is fine")   # worded as the 404 once was: still a 500

    with pytest.raises(HttpError) as caught:
        pages._read(damaged)
    assert (caught.value.status, caught.value.code) == (500, "records") and "secret" not in caught.value.message
