"""The user's guide, read by the tests that check what it says."""
import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"


def guide_exit_codes():
    """``{code: meaning}`` from the guide's exit-code table (docs/guide/options.md, rows ``| 3 | ... |``)."""
    text = (GUIDE / "options.md").read_text()
    table = text[text.index("Exit codes, for every command"):]
    table = table[:table.index("\n\n", table.index("| code |"))]
    return {int(code): meaning for code, meaning in re.findall(r"^\| (\d+) \| (.+) \|$", table, re.M)}


def unmarked(text: str) -> str:
    """A document's text without its HTML comments (``tools/tables``' markers: ``<!-- tables: levels -->``), as
    a reader sees it."""
    import re

    return re.sub(r"<!--.*?-->", "", text, flags=re.S)
