"""The web pages' words: each page speaks the language its browser asks for, from the catalogues.

A page's language is the reader's own choice first: the ``lang`` cookie the pages' language switch sets
(:func:`cookie_language`: bounded, only a language of :func:`gamelib.i18n.languages`, anything else
ignored), then its request's ``Accept-Language`` (:func:`accepted`: bounded, every tag checked, anything
odd ignored), among the languages a catalogue has (:meth:`gamelib.i18n.Catalogue.languages`), then English; it never changes the
Pi's own (:meth:`gamelib.i18n.Catalogue.translations`).  The words reach the page as a
script (:class:`PageWords`, one per set of pages: ``/page-words.js``, Connect 4's ``/records-words.js``)
made from the catalogue for that language: only the messages the pages use, found in their files as
Babel finds them (:func:`html_messages` for the HTML's text, :func:`js_messages` for the ``_("...")``
and ``ngettext("...", "...", n)`` calls of the scripts), and the words of the values the pages show (a
game's table from each value to its message: Connect 4's levels, ``match-me``), as JSON, with the small
functions the scripts call (``_``, ``ngettext``, ``format``, ``word`` for a value) the step that puts the
words into the HTML, and the language switch every page shows in its header
(:data:`RUNTIME`'s end: a labelled ``<select>`` of the program's languages, each named in itself).
Values of the API (phases, marks, error codes) are never translated: the scripts map them to words.

``pybabel extract`` reads the HTML with :func:`extract_html` (a ``babel.cfg``'s ``[extractors]`` names it,
``html = gamelib.web.words:extract_html``, and ``[html: web/static/**.html]`` uses it: Babel reads a section
named ``[module:function: pattern]`` as the method ``module`` and the pattern ``function: pattern``, which
matches no file) and the scripts with Babel's own ``javascript`` extractor.
"""
from __future__ import annotations

import gettext
import hashlib
import html.parser
import json
import re
import threading
from pathlib import Path
from types import MappingProxyType
from typing import (IO, Any, Collection, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple)

from .. import i18n
from ..i18n import N_, Catalogue
from .http import Request, Response, Route

MOST_HEADER = 512
"""An ``Accept-Language`` longer than this is not read at all (English): browsers send a few dozen characters."""
MOST_ENTRIES = 8
"""Entries of ``Accept-Language`` read, from the first; the rest are ignored."""
MOST_LANGUAGES = 4
"""Languages kept from them, best first."""
PLURALS = 200
"""``ngettext``'s form is sent for every n below this; n beyond takes the form of ``100 + n % 100`` (every
gettext plural rule looks at n, n % 10 and n % 100 only, and tells no n above 100 from its class there)."""

COOKIE = "lang"
"""The cookie that holds the reader's language (``lang=fr``), set by the pages' language switch (:data:`RUNTIME`)."""
MOST_COOKIE_HEADER = 4096
"""A ``Cookie`` header longer than this is not read at all (a browser's cookie for one site is at most that)."""
MOST_COOKIES = 32
"""Cookies read from a ``Cookie`` header, from the first; the rest are ignored."""
MOST_COOKIE_VALUE = 16
"""A ``lang`` value longer than this is ignored unread (a language's code is a few letters)."""
VARY = "Accept-Language, Cookie"
"""What an answer in the page's language depends on (its ``Vary``)."""
LABEL = N_("Language")
"""The language switch's label, in the page's language."""
KEPT = 365 * 24 * 3600
"""How long the browser keeps the reader's choice (seconds: a year)."""

_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,3}")
_Q = re.compile(r"[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)")
_LETTER = re.compile(r"[^\W\d_]")
_SPACES = re.compile(r"\s+")
_TRANSLATED_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
"""The attributes whose text people read (the rest are names and values)."""


def accepted(header: Optional[str]) -> Tuple[str, ...]:
    """The languages ``header`` (``Accept-Language``) asks for, best first, as gettext names them
    (``fr-CH`` -> ``fr_CH``): at most :data:`MOST_LANGUAGES`, read from its first :data:`MOST_ENTRIES`
    entries; an entry whose tag or weight is not well formed, ``*`` and ``q=0`` are left out; a header
    longer than :data:`MOST_HEADER` or not ASCII gives none (English)."""
    if not header or len(header) > MOST_HEADER or not header.isascii():
        return ()
    weighted: List[Tuple[float, int, str]] = []
    for order, entry in enumerate(header.split(",", MOST_ENTRIES)[:MOST_ENTRIES]):
        tag, _semicolon, params = entry.strip().partition(";")
        tag = tag.strip()
        if not _TAG.fullmatch(tag):
            continue
        weight = 1.0
        if params:
            found = _Q.fullmatch(params.strip().replace(" ", ""))
            if found is None:
                continue
            weight = float(found.group(1))
        if weight > 0:
            weighted.append((-weight, order, _gettext_name(tag)))
    names: List[str] = []
    for _weight, _order, name in sorted(weighted):
        if name not in names:
            names.append(name)
    return tuple(names[:MOST_LANGUAGES])


def _gettext_name(tag: str) -> str:
    """``fr-ch`` -> ``fr_CH``; ``zh-Hant-TW`` -> ``zh_TW`` (a region kept, a script or variant left out)."""
    language, *rest = tag.split("-")
    region = next((part for part in rest if len(part) == 2 and part.isalpha() or len(part) == 3 and part.isdigit()),
                  None)
    return language.lower() + (f"_{region.upper()}" if region else "")


def cookie_language(header: Optional[str], choices: Collection[str]) -> Optional[str]:
    """The language of ``choices`` the reader chose, from a request's ``Cookie`` ``header`` (its first
    :data:`COOKIE` cookie among the first :data:`MOST_COOKIES`), or ``None``: none chosen, or a header
    longer than :data:`MOST_COOKIE_HEADER` or not ASCII, or a value that is not exactly one of ``choices``
    (ignored, as if not there)."""
    if not header or len(header) > MOST_COOKIE_HEADER or not header.isascii():
        return None
    for pair in re.split("[;,]", header, maxsplit=MOST_COOKIES)[:MOST_COOKIES]:
        name, equals, value = pair.partition("=")
        if equals and name.strip() == COOKIE:
            value = value.strip()
            return value if len(value) <= MOST_COOKIE_VALUE and value in choices else None
    return None


def page_language(header: Optional[str], languages: Collection[str], chosen: Optional[str] = None) -> Optional[str]:
    """The language of ``languages`` a page asking with ``header`` gets (``fr_CH`` asked: ``fr_CH``, else
    ``fr``), the reader's ``chosen`` one (:func:`cookie_language`) asked for before the header's, or
    ``None``: English (asked for first, or nothing asked for is there)."""
    for name in ((chosen,) if chosen else ()) + accepted(header):
        base = name.split("_")[0]
        if base == i18n.SOURCE_LANGUAGE:
            return None
        for candidate in (name, base):
            if candidate in languages:
                return candidate
    return None


# -- finding the messages -----------------------------------------------------------------------


class _Texts(html.parser.HTMLParser):
    """The text people read in an HTML page: every text with a letter in it, and the attributes of
    :data:`_TRANSLATED_ATTRIBUTES`, whitespace folded; ``(line, text)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: List[Tuple[int, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in _TRANSLATED_ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        folded = _SPACES.sub(" ", text).strip()
        if _LETTER.search(folded):
            self.found.append((self.getpos()[0], folded))


def html_messages(source: str) -> List[Tuple[int, str]]:
    """``(line, message)`` of every text people read in the HTML ``source`` (its words, as a page's
    script looks them up: whitespace folded, ends trimmed)."""
    parser = _Texts()
    parser.feed(source)
    parser.close()
    return parser.found


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Mapping[str, Any]) -> Iterator[Tuple[int, Optional[str], str, List[str]]]:
    """Babel's extraction method for the pages' HTML (babel.cfg: ``[extractors] html = gamelib.web.words:extract_html``,
    then ``[html: web/static/**.html]``)."""
    for line, message in html_messages(fileobj.read().decode(options.get("encoding", "utf-8"))):
        yield line, None, message, []


_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_GETTEXT = re.compile(r"(?<![\w$.])_\(\s*" + _STRING + r"\s*\)")
_NGETTEXT = re.compile(r"(?<![\w$.])ngettext\(\s*" + _STRING + r"\s*,\s*" + _STRING + r"\s*,")


def js_messages(source: str) -> Tuple[List[str], List[Tuple[str, str]]]:
    """The messages of a script's ``_("...")`` calls, and the ``(singular, plural)`` of its
    ``ngettext("...", "...", n)`` calls, in order (double-quoted literals only, as the pages write them)."""
    def text(literal: str) -> str:
        return str(json.loads(f'"{literal}"'))

    singles = [text(m.group(1)) for m in _GETTEXT.finditer(source)]
    plurals = [(text(m.group(1)), text(m.group(2))) for m in _NGETTEXT.finditer(source)]
    return singles, plurals


# -- the script with the words ---------------------------------------------------------------------

RUNTIME = r"""
// gettext for the pages: WORDS (above) holds this page's messages in its language (English: none)
function _(message) { return Object.prototype.hasOwnProperty.call(WORDS.m, message) ? WORDS.m[message] : message; }
function ngettext(singular, plural, n) {
  const found = Object.prototype.hasOwnProperty.call(WORDS.p, singular) ? WORDS.p[singular] : null;
  const count = Math.abs(Math.trunc(Number(n) || 0));
  if (!found) return count === 1 ? singular : plural;
  return found[0][Number(found[1][count < PLURALS ? count : 100 + count % 100])];
}
// a value of the API the page shows (a level's name, "match-me") in words: its message, else the value (a name)
function word(value) { return Object.prototype.hasOwnProperty.call(WORDS.v, value) ? WORDS.v[value] : value; }
// "{name} to move" with {name: "Ann"}: the placeholders as Python's str.format names them ({seconds:g}: a number)
function format(text, values) {
  return text.replace(/\{([a-z_]+)(?::g)?\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
(() => {
  document.documentElement.lang = WORDS.lang;
  const fold = (text) => text.replace(/\s+/g, " ").trim();
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = fold(node.data);
    if (words && Object.prototype.hasOwnProperty.call(WORDS.m, words)) {
      const [, before, after] = /^(\s*)[\s\S]*?(\s*)$/.exec(node.data);
      node.data = before + WORDS.m[words] + after;
    }
  }
  for (const name of ATTRIBUTES) {
    for (const node of document.querySelectorAll(`[${name}]`)) node.setAttribute(name, _(fold(node.getAttribute(name))));
  }
})();
// the language switch, at the end of the page's header: the reader's choice kept in a cookie (the server
// reads it before Accept-Language), the page loaded again in it
(() => {
  const header = document.querySelector("body > header");
  if (!header || SWITCH.choices.length < 2) return;
  const box = document.createElement("div");
  box.className = "language";
  const label = document.createElement("label");
  label.htmlFor = "language";
  label.textContent = SWITCH.label;
  const select = document.createElement("select");
  select.id = "language";
  for (const [code, name] of SWITCH.choices) {
    const option = new Option(name, code, code === SWITCH.chosen, code === SWITCH.chosen);
    option.lang = code.replace("_", "-");
    select.append(option);
  }
  select.addEventListener("change", () => {
    document.cookie = `${SWITCH.cookie}=${select.value}; Path=/; SameSite=Strict; Max-Age=${SWITCH.kept}`;
    location.reload();
  });
  box.append(label, select);
  header.append(box);
})();
"""
"""What every words script runs after its ``WORDS`` and ``SWITCH`` (``_``, ``ngettext``, ``format``, the HTML's
words, and the language switch)."""


class PageWords:
    """``GET`` of a script with the words of the pages in ``files`` (HTML and scripts in ``directory``) from
    ``catalogue``, and the messages ``extra`` (values the scripts say with ``_(value)``: the colours' names), in
    the language each request asks for; made once per language (at most one per language ``catalogue`` has, and
    English) and served with an ETag and ``Vary`` (:data:`VARY`). ``values``: the values of the API the pages
    show, each with its message (the script's ``word(value)``)."""

    def __init__(self, catalogue: Catalogue, directory: Path, files: Sequence[str],
                 values: Mapping[str, str] = MappingProxyType({}), *, extra: Sequence[str] = ()) -> None:
        self.speaker = Speaker(catalogue)
        self.values = dict(values)
        singles: List[str] = list(extra)
        plurals: List[Tuple[str, str]] = []
        for name in files:
            source = (directory / name).read_text(encoding="utf-8")
            if name.endswith(".html"):
                singles += [message for _line, message in html_messages(source)]
            else:
                found, counted = js_messages(source)
                singles += found
                plurals += counted
        self.messages: Tuple[str, ...] = tuple(dict.fromkeys(singles))
        self.plurals: Tuple[Tuple[str, str], ...] = tuple(dict.fromkeys(plurals))
        self._made: Dict[Optional[str], Tuple[bytes, str]] = {}
        self._lock = threading.Lock()

    def words(self, language: Optional[str]) -> Dict[str, Any]:
        """The messages in ``language`` that differ from English: ``{"lang", "m": {message: words},
        "p": {singular: [forms, the form's index for each n below PLURALS]}, "v": {value: words}}`` (each value
        whose words are not the value itself, English too: ``match-me`` is ``match me``)."""
        found = self.speaker.translations(language)
        singles = {message: found.gettext(message) for message in self.messages}
        plurals: Dict[str, List[Any]] = {}
        for singular, plural in self.plurals:
            said = [found.ngettext(singular, plural, n) for n in range(PLURALS)]
            if said != [singular if n == 1 else plural for n in range(PLURALS)]:
                forms = list(dict.fromkeys(said))
                plurals[singular] = [forms, "".join(str(forms.index(text)) for text in said)]
        values = {value: found.gettext(message) for value, message in self.values.items()}
        return {"lang": (language or "en").replace("_", "-"),
                "m": {message: text for message, text in singles.items() if text != message}, "p": plurals,
                "v": {value: text for value, text in values.items() if text != value}}

    def switch(self, language: Optional[str]) -> Dict[str, Any]:
        """The language switch of a page in ``language``: its label (in ``language``), the program's languages
        (``[code, its own name]``), the one shown (the page's, or its base: ``fr`` for ``fr_CH``), and its cookie."""
        choices = self.speaker.choices
        base = (language or i18n.SOURCE_LANGUAGE).split("_")[0]
        shown = language if language in choices else base if base in choices else i18n.SOURCE_LANGUAGE
        label = i18n.CATALOGUE.translations([language] if language is not None else []).gettext(LABEL)
        return {"label": label, "choices": [[code, i18n.own_name(code)] for code in choices], "chosen": shown,
                "cookie": COOKIE, "kept": KEPT}

    def script(self, language: Optional[str]) -> Tuple[bytes, str]:
        """The script for ``language`` and its ETag (made at its first request)."""
        with self._lock:
            made = self._made.get(language)
        if made is None:
            data, switch = (json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":")).replace(
                "<", "\\u003c") for value in (self.words(language), self.switch(language)))   # no "</script>" in it
            body = (f"// the pages' words ({language or 'en'}), from the catalogue {self.speaker.catalogue.domain}\n"
                    '"use strict";\n'
                    f"const WORDS = {data};\nconst PLURALS = {PLURALS};\nconst SWITCH = {switch};\n"
                    f"const ATTRIBUTES = {json.dumps(list(_TRANSLATED_ATTRIBUTES))};" + RUNTIME).encode()
            made = body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            with self._lock:
                self._made[language] = made
        return made

    def serve(self, request: Request) -> Response:
        body, etag = self.script(self.speaker.language(request))
        headers = (("ETag", etag), ("Cache-Control", "no-cache"), ("Vary", VARY))
        if request.header("if-none-match") == etag:
            return Response(304, headers=headers)
        return Response(200, body, "text/javascript; charset=utf-8", headers)

    def route(self, path: str) -> Route:
        return Route("GET", path, self.serve)


class Speaker:
    """A catalogue, the languages it has and the program's (:func:`gamelib.i18n.languages`, the switch's
    choices), read once, for the requests of pages."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.languages = catalogue.languages()
        self.choices: Tuple[str, ...] = i18n.languages()

    def language(self, request: Request) -> Optional[str]:
        """The language of the page asking with ``request`` (``None``: English): the reader's choice (its
        ``lang`` cookie), then its ``Accept-Language``."""
        return page_language(request.header("accept-language"), self.languages,
                             cookie_language(request.header("cookie"), self.choices))

    def translations(self, language: Optional[str]) -> gettext.NullTranslations:
        """The catalogue's words in ``language`` (``None``: English, the messages as written)."""
        return self.catalogue.translations([language] if language is not None else [])
