"""The code's shape in figures, read from the source with ``ast`` (nothing of the game imported):

    python tools/shape.py

prints ``Backend``'s public members, ``Match``'s methods, comparisons of a domain value's words with a
string, imports inside functions and import cycles (deferred imports included), each with its limit
(docs/ARCHITECTURE.md, "The dependency rules"; ``tests/docs/test_shape.py`` holds them).
"""
from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sensehat_c4", "gamelib")

LIMITS = {"Backend's public members": 15, "Match's methods": 20, "imports in functions": 20, "import cycles": 0}
"""What each figure may be at most (the comparisons of words have no limit: their list says which are left)."""

DOMAIN_WORDS = {"playing", "win", "draw", "abandoned", "finished", "unfinished",      # round results, match status
                "alternate", "random", "p1", "p2",                                      # who starts
                "plain", "letters", "truecolor", "256",                                 # the terminal's colours
                "asking", "welcome", "resumed", "refused", "frame", "dropped", "gave_up", "failed"}  # LAN guest
"""The words the enums of issue 34 stand for: a comparison with one of them as a string is counted."""


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sources() -> List[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def methods(path: Path, name: str) -> List[str]:
    """Every ``def`` in class ``name`` (nested ones too)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return [f.name for f in ast.walk(node) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    raise LookupError(f"no class {name} in {path}")


def string_comparisons() -> List[str]:
    """``path:line: comparison`` of each ``==``/``!=``/``in`` whose side is one of :data:`DOMAIN_WORDS`."""
    def worded(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value in DOMAIN_WORDS
        return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(worded(e) for e in node.elts)
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(isinstance(o, (ast.Eq, ast.NotEq, ast.In, ast.NotIn))
                                                     for o in node.ops):
                if any(worded(side) for side in [node.left, *node.comparators]):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def function_imports() -> List[str]:
    """``path:line`` of each import statement inside a function."""
    found: Set[str] = set()
    for path in sources():
        for function in ast.walk(ast.parse(path.read_text())):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.update(f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(function)
                             if isinstance(node, (ast.Import, ast.ImportFrom)))
    return sorted(found)


def cycles() -> List[List[str]]:
    """The import cycles, by the graph ``tests/docs/test_docs.py`` builds (every import statement)."""
    docs = _load("shape_test_docs", ROOT / "tests" / "docs" / "test_docs.py")
    found: List[List[str]] = docs.import_cycles({name: docs.imported_modules(name) for name in docs.ALL})
    return found


def figures() -> Dict[str, Tuple[int, List[str]]]:
    """Each figure's name: its value and what it counts."""
    members = _load("shape_count_members", ROOT / "tools" / "count_members.py").public_members(
        ROOT / "gamelib" / "backends" / "base.py", "Backend")
    match = methods(ROOT / "sensehat_c4" / "match" / "controller.py", "Match")
    words, imports, loops = string_comparisons(), function_imports(), cycles()
    return {"Backend's public members": (len(members), members), "Match's methods": (len(match), match),
            "comparisons of a domain's words with a string": (len(words), words),
            "imports in functions": (len(imports), imports),
            "import cycles": (len(loops), [" -> ".join(cycle) for cycle in loops])}


def main(argv: List[str]) -> int:
    if argv:
        print("usage: shape.py", file=sys.stderr)
        return 2
    for name, (value, what) in figures().items():
        limit = LIMITS.get(name)
        print(f"{name}: {value}" + ("" if limit is None else f" (at most {limit})"))
        if name == "Backend's public members":
            print(f"    {' '.join(what)}")
        elif name in ("comparisons of a domain's words with a string", "import cycles"):
            for line in what:
                print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
