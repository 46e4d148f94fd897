"""Copies the documents the Debian package ships: README.md and every file of this tree it links, and they
link, in turn (the user's guide, its pictures, API.md...), each at its path in the tree, so that every
relative link of a shipped document reaches a shipped file (``debian/rules`` runs it; dh_installdocs puts
the copy in ``/usr/share/doc/sensehat-c4``).

    python3 tools/package_docs.py DIRECTORY

A link to a file that is not in the tree is an error (``tests/docs/test_readme.py`` checks README's and the
guide's links anyway); links inside code blocks and to other sites are not followed.
"""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parent.parent
START = "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def links(document: Path) -> List[Path]:
    """The files of this tree ``document`` (Markdown) links, outside its code blocks, resolved."""
    found = []
    for link in LINK.findall(FENCE.sub("", document.read_text(encoding="utf-8"))):
        target = link.split("#", 1)[0]
        if not target or re.match(r"[a-z]+:", target):
            continue                                            # a heading of its own, https:, mailto:
        found.append((document.parent / target).resolve())
    return found


def shipped(root: Path = ROOT) -> List[Path]:
    """README.md and every document and picture reached from it by links, relative to ``root``, sorted."""
    seen = {(root / START).resolve()}
    todo = list(seen)
    while todo:
        document = todo.pop()
        if document.suffix != ".md":
            continue
        for target in links(document):
            if not target.is_file() or not target.is_relative_to(root):
                raise SystemExit(f"package_docs.py: {document.relative_to(root)} links {target}, which is not a "
                                 "file of this tree")
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(path.relative_to(root) for path in seen)


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print("usage: package_docs.py DIRECTORY", file=sys.stderr)
        return 2
    out = Path(argv[0])
    for relative in shipped():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / relative, out / relative)
    print(f"package_docs.py: {len(shipped())} files in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
