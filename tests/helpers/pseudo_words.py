"""A pseudo-language for tests: every word a catalogue gives wrapped in ``[!...!]``, so English that
escaped the catalogue shows bare."""
import gettext


class Pseudo(gettext.NullTranslations):
    """Every message wrapped in ``[!...!]``: a page showing a word not from the catalogue shows it bare."""

    def gettext(self, message: str) -> str:
        return f"[!{message}!]"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[!{singular if n == 1 else plural}!]"
