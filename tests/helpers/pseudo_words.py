"""A pseudo-language for tests: every word a catalogue gives wrapped in ``[!...!]``, so English that
escaped the catalogue shows bare."""
import gettext
import re
from typing import AbstractSet


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
