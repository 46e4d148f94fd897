"""A pseudo-language for tests: every word a catalogue gives wrapped in ``[!...!]``, so English that
escaped the catalogue shows bare (:func:`bare_words`), and a value shown as it is inside a message
(``[!computer easy (1 s)!]``: the stored ``easy`` put into ``computer {level}``) shows too
(:func:`raw_words`)."""
import gettext
import re
from functools import lru_cache
from pathlib import Path
from typing import AbstractSet, Iterable, List, Pattern, Tuple


class Pseudo(gettext.NullTranslations):
    """Every message wrapped in ``[!...!]``: a page showing a word not from the catalogue shows it bare."""

    def gettext(self, message: str) -> str:
        return f"[!{message}!]"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[!{singular if n == 1 else plural}!]"


def compile_pseudo(localedir, language: str = "xx") -> None:
    """A catalogue of ``language`` for both domains in ``localedir`` (gettext's layout, for
    ``$GAMELIB_LOCALEDIR``): every message of the committed templates as ``[!message!]`` (each plural form
    too), compiled with Babel: the pseudo-language a whole program speaks, as a shipped language is."""
    from pathlib import Path

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2]
    for domain in ("gamelib", "sensehat_c4"):
        with (root / domain / "locale" / f"{domain}.pot").open("rb") as f:
            catalogue = read_po(f, locale="en", domain=domain)
        for message in catalogue:
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                message.string = tuple(f"[!{form}!]" for form in message.id)
            else:
                message.string = f"[!{message.id}!]"
        folder = Path(localedir) / language / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / f"{domain}.mo").open("wb") as f:
            write_mo(f, catalogue)


DECORATED = re.compile(r"\[!((?:(?!\[!|!\]).)*)!\]", re.S)


def bare_words(shown: str, names: AbstractSet[str] = frozenset()) -> set:
    """The words of ``shown`` outside every ``[!...!]`` (inner ones first: a value inside a message), but
    ``names`` (a player's, the game's): English that escaped the catalogue."""
    while True:
        stripped = DECORATED.sub(" ", shown)
        if stripped == shown:
            break
        shown = stripped
    return set(re.findall(r"[^\W\d_]{2,}", shown)) - set(names)


PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]")
"""A message's placeholders: str.format's (``{level}``, ``{seconds:g}``) and argparse's (``%(default)s``)."""
INNER = "\x01"
"""Stands for a message already read inside another (a value in words: ``[!computer [!easy!]!]``)."""
WORD = re.compile(r"[^\W\d_]{2,}")


ROOT = Path(__file__).resolve().parents[2]


def template_messages(root: Path = ROOT) -> Tuple[str, ...]:
    """Every message of both committed templates (each plural form too)."""
    from babel.messages.pofile import read_po

    found: List[str] = []
    for domain in ("gamelib", "sensehat_c4"):
        with (root / domain / "locale" / f"{domain}.pot").open("rb") as f:
            for message in read_po(f):
                if message.id:
                    found.extend(message.id if isinstance(message.id, tuple) else (message.id,))
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=None)
def _patterns(messages: Tuple[str, ...]) -> Tuple[Pattern[str], ...]:
    def pattern(message: str) -> Pattern[str]:
        parts = PLACEHOLDER.split(message)
        return re.compile("(.*?)".join(re.escape(part) for part in parts), re.S)

    return tuple(pattern(message) for message in messages)


def raw_words(shown: str, messages: Iterable[str], names: AbstractSet[str] = frozenset()) -> set:
    """The English words ``shown`` holds that no catalogue said: those outside every ``[!...!]`` (as
    :func:`bare_words`), and those a message's placeholder was filled with (each ``[!...!]``, inner ones first,
    is read as one of ``messages`` whose placeholders hold no word but ``names``, numbers and the messages
    inside it): a stored value put into a message as it is (``easy``, ``match-me``, ``terminal``).  A bracket
    that is none of ``messages`` gives all its words."""
    patterns = _patterns(tuple(messages))
    found: set = set()

    def words(text: str) -> set:
        return set(WORD.findall(text)) - set(names)

    def read(match: "re.Match[str]") -> str:
        inside = match.group(1)
        best = None
        for pattern in patterns:
            filled = pattern.fullmatch(inside)
            if filled is not None:
                left = set().union(*(words(group) for group in filled.groups())) if filled.groups() else set()
                if not left:
                    return INNER
                best = left if best is None or len(left) < len(best) else best
        found.update(words(inside) if best is None else best)
        return INNER

    while True:
        stripped = DECORATED.sub(read, shown)
        if stripped == shown:
            break
        shown = stripped
    return found | words(shown)
