"""Count a class's public members: its public methods, properties and class attributes, and the public
attributes its ``__init__`` sets on ``self`` (read from the source with ``ast``, nothing imported).

    python tools/count_members.py gamelib/backends/base.py Backend

prints the count, then the names, one line.  ``tests/gamelib/backends/test_backends.py`` holds
``Backend`` to at most 15 with it.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import List, Set


def public_members(path: Path, name: str) -> List[str]:
    """The public members of class ``name`` in the module at ``path``, sorted (``LookupError``: no such class)."""
    tree = ast.parse(path.read_text(), str(path))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            found: Set[str] = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.add(item.name)
                    if item.name == "__init__":
                        found.update(target.attr for target in ast.walk(item)
                                     if isinstance(target, ast.Attribute) and isinstance(target.ctx, ast.Store)
                                     and isinstance(target.value, ast.Name) and target.value.id == "self")
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    found.update(t.id for t in targets if isinstance(t, ast.Name))
            return sorted(member for member in found if not member.startswith("_"))
    raise LookupError(f"no class {name} in {path}")


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        print("usage: count_members.py MODULE.py CLASS", file=sys.stderr)
        return 2
    try:
        members = public_members(Path(argv[0]), argv[1])
    except (OSError, SyntaxError, LookupError) as exc:
        print(f"count_members.py: {exc}", file=sys.stderr)
        return 1
    print(len(members), " ".join(members))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
