"""The documents against the tree they describe, so a map that lies fails the fast tier.

- ``docs/ARCHITECTURE.md``, *What lives where*: every file of both packages (and of
  ``benchmarks/``, ``tools/``, ``.ci/``, ``debian/``, ``docs/guide/``) is in its tree, and every path the tree names exists;
- its *Tests* map has one row per ``tests/**/test_*.py``, each file once, and says which are ``slow``;
- no test module imports another (fixtures in ``conftest.py`` files, helpers in ``tests/helpers/``);
- ``docs/BENCHMARKS.md`` names every benchmark script;
- every repository path the documents mention (``tests/...``, ``benchmarks/...``,
  ``sensehat_c4/...``) exists;
- the dependency rules ARCHITECTURE states hold, read from each module's imports.

It reads files only (no imports of the modules it checks).
"""
import ast
import collections
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
BENCHMARKS = ROOT / "docs" / "BENCHMARKS.md"
README = ROOT / "README.md"
GUIDE = sorted((ROOT / "docs" / "guide").glob("*.md"))
PACKAGES = ("gamelib", "sensehat_c4")
LISTED = PACKAGES + ("benchmarks", "tools", ".ci", "debian", "docs/guide")
"""The folders whose every file the tree lists."""
BUILT = re.compile(r"(^|/)(__pycache__|[^/]*\.egg-info)(/|$)|\.pyc$|(^|/)_c4core\.so|\.mo$")
"""What a build or a run leaves in the tree: not the repository's files (a .mo: tools/words compile)."""


def section(text: str, title: str) -> str:
    """The text of the ``## `` section whose heading holds ``title`` (``""`` if there is none)."""
    start = re.search(rf"^## .*{re.escape(title)}.*$", text, re.M)
    if not start:
        return ""
    end = re.search(r"^## ", text[start.end():], re.M)
    return text[start.end():start.end() + end.start() if end else len(text)]


def tree_paths() -> list:
    """Every path the code blocks of *What lives where* name: one entry a line, two spaces a level;
    a line indented past the names (12 spaces or more) continues the one above."""
    text = ARCHITECTURE.read_text()
    where = section(text, "What lives where") or text[:text.index("\n## ")]   # (before it had a heading: the top)
    blocks = re.findall(r"^```\n(.*?)^```", where, re.M | re.S)
    assert blocks, "no tree in ARCHITECTURE's 'What lives where'"
    paths = []
    for block in blocks:
        parents: list = []
        for line in block.splitlines():
            entry = re.match(r"^( {0,10})(\S+)(?: {2,}|$)", line)
            if not entry:
                continue
            depth, name = len(entry.group(1)) // 2, entry.group(2)
            parents = parents[:depth]
            path = "/".join(parents + [name.rstrip("/")])
            paths.append(path)
            if name.endswith("/"):
                parents.append(name.rstrip("/"))
    return paths


def repository_files(folder: str) -> set:
    return {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
            if p.is_file() and not BUILT.search(p.relative_to(ROOT).as_posix())}


def test_the_tree_names_every_file_of_the_packages_and_only_files_that_exist():
    named = tree_paths()
    twice = [path for path, n in collections.Counter(named).items() if n > 1]
    missing = sorted(path for path in named if not (ROOT / path).exists() and not (ROOT / path).is_symlink())
    unlisted = sorted(set().union(*(repository_files(folder) for folder in LISTED)) - set(named))
    assert not twice, f"named twice in ARCHITECTURE's tree: {twice}"
    assert not missing, f"ARCHITECTURE's tree names what is not there: {missing}"
    assert not unlisted, f"not in ARCHITECTURE's tree (one line each, under its folder): {unlisted}"


def map_names() -> dict:
    """Every test file by its name in the tests map (its path in the repository)."""
    return {p.relative_to(ROOT).as_posix(): p for p in (ROOT / "tests").rglob("test_*.py")}


def test_the_tests_map_has_every_test_file_once():
    table = section(ARCHITECTURE.read_text(), "Tests")
    rows = [name for cell in re.findall(r"^\| ([^|]*`tests/[^|]*)\|", table, re.M)
            for name in re.findall(r"`(tests/[\w/]+\.py)`", cell)]
    files = sorted(map_names())
    twice = [name for name, n in collections.Counter(rows).items() if n > 1]
    assert not twice, f"in ARCHITECTURE's tests map more than once: {twice}"
    assert sorted(set(files) - set(rows)) == [], "test files missing from ARCHITECTURE's tests map"
    assert sorted(set(rows) - set(files)) == [], "ARCHITECTURE's tests map names test files that are not there"


def test_no_test_module_imports_another_and_the_helpers_import_none():
    """Shared fixtures live in a ``conftest.py``, shared helpers in ``tests/helpers/``: a test module (or a
    helper, or a benchmark) importing a test module would run, or hide, another file's tests and fixtures."""
    tests = {p.stem for p in (ROOT / "tests").rglob("test_*.py")}
    scanned = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py"), *(ROOT / "tools").glob("*.py")]
    found = []
    for path in scanned:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] in tests]
    assert found == [], "test modules imported (move what they share to a conftest.py or tests/helpers/)"
    assert len(tests) == len(list((ROOT / "tests").rglob("test_*.py"))), "two test files of one name"


def slow_marks(path: Path) -> str:
    """``"all"`` if every test of the file is marked ``slow`` (by ``pytestmark`` or each one's
    decorator, a parametrized case's ``marks`` included), ``"some"`` if some are, else ``""``."""
    tree = ast.parse(path.read_text())
    slow = lambda node: "mark.slow" in ast.unparse(node)  # noqa: E731
    if any(isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
           and slow(node.value) for node in tree.body):
        return "all"
    tests = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
    marked = [test for test in tests if any(slow(d) for d in test.decorator_list)]
    if tests and len(marked) == len(tests):
        return "all"
    return "some" if marked else ""


def test_the_tests_map_says_which_files_are_slow():
    table = section(ARCHITECTURE.read_text(), "Tests")
    said = {name: cells.strip() for name, cells in re.findall(r"^\| `(tests/[\w/]+\.py)` \|[^|]*\|([^|]*)\|$", table, re.M)}
    files = {name: slow_marks(path) for name, path in map_names().items()}
    assert set(said) == set(files), "every row of the tests map has a slow column"
    wrong = {name: (said[name], files[name]) for name in files if said[name] != files[name]}
    assert not wrong, f"the tests map's slow column (said, marked): {wrong}"
    assert "all" in files.values() and "some" in files.values()


def test_benchmarks_md_gives_every_benchmark_with_its_command():
    text = BENCHMARKS.read_text()
    scripts = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py"))
    assert scripts
    assert [s for s in scripts if f"benchmarks/{s}" not in text] == [], "benchmarks BENCHMARKS.md does not name"
    commands = re.findall(r"python (benchmarks/\w+\.py)", text)
    assert sorted({c.split("/")[1] for c in commands}) == scripts, "a benchmark without a command that runs it"


PATH = re.compile(r"(?<![\w./-])((?:tests|tools|benchmarks|\.ci|docs|sensehat_c4|gamelib)/[\w./*-]*[\w*])")


@pytest.mark.parametrize("document", [ARCHITECTURE, BENCHMARKS, README] + GUIDE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_exists(document):
    text, gone = document.read_text(), set()
    for found in PATH.finditer(text):
        path = found.group(1)
        if "_c4core" in path or text[found.end():found.end() + 1] == "<":
            continue                                   # built by setup.py; a pattern in words (test_<module>.py)
        if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
            gone.add(path)
    assert not gone, f"{document.name} names paths that are not there: {sorted(gone)}"


# -- the dependency rules (ARCHITECTURE, "The dependency rules") ------------------------------



def imports_in(nodes, package: list) -> set:
    """The modules the import statements among ``nodes`` name, absolute (relative ones from ``package``'s
    parts); a ``from x import y`` adds ``x.y`` too (``from . import x`` imports a module)."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def modules(package: str) -> dict:
    """``{module name: (path, every module it imports, absolute)}`` for a package's ``.py`` files."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        here = parts[:-1] if parts[-1] == "__init__" else parts
        name = ".".join(here)
        package_parts = here if parts[-1] == "__init__" else here[:-1]
        found[name] = (path, imports_in(ast.walk(ast.parse(path.read_text())), package_parts))
    return found


ALL = {**modules("gamelib"), **modules("sensehat_c4")}


def ours(imported: set) -> set:
    """Our modules among ``imported`` (a ``from x import name`` adds ``x.name``: kept only if it is a module)."""
    return {name for name in imported if name in ALL or name.split(".")[0] in PACKAGES and name.rsplit(".", 1)[0] not in ALL}


def breaking(rule, where) -> list:
    return sorted(f"{name} imports {sorted(bad)}" for name, (_, imported) in ALL.items() if where(name)
                  for bad in [rule(ours(imported))] if bad)


def test_the_rules_core_imports_only_the_standard_library_its_errors_and_the_words():
    path, imported = ALL["sensehat_c4.rules"]
    assert ours(imported) == {"sensehat_c4.errors", "sensehat_c4.i18n"}
    assert ours(ALL["sensehat_c4.errors"][1]) - {"sensehat_c4.i18n", "sensehat_c4.i18n._"} == {"gamelib.errors"}
    assert ours(ALL["sensehat_c4.i18n"][1]) <= {"gamelib.i18n", "gamelib.i18n.N_", "gamelib.i18n.Catalogue"}
    if hasattr(sys, "stdlib_module_names"):   # Python 3.10+
        others = {name.split(".")[0] for name in imported} - set(PACKAGES) - set(sys.stdlib_module_names)
        assert not others, f"rules.py imports {others}"


def test_gamelib_imports_no_game():
    assert breaking(lambda o: {m for m in o if m.startswith("sensehat_c4")}, lambda n: n.startswith("gamelib")) == []


def test_only_the_launcher_and_python_m_gamelib_import_the_launcher():
    assert breaking(lambda o: {m for m in o if m.startswith("gamelib.launcher")},
                    lambda n: n.startswith("gamelib") and not n.startswith(("gamelib.launcher", "gamelib.__main__"))) == []


def test_the_web_view_imports_neither_the_lan_nor_the_launcher():
    assert breaking(lambda o: {m for m in o if m.startswith(("gamelib.lan", "gamelib.launcher"))},
                    lambda n: n.startswith("gamelib.web")) == []


def test_the_engine_imports_only_the_rules_core_the_errors_and_the_words():
    allowed = ("sensehat_c4.engine", "sensehat_c4.rules", "sensehat_c4.errors", "sensehat_c4.i18n")
    assert breaking(lambda o: {m for m in o if not m.startswith(allowed)},
                    lambda n: n.startswith("sensehat_c4.engine")) == []


def imports_of(name: str) -> set:
    """The modules of ours ``name`` imports, anywhere in it (a function's imports too): a name imported
    from a package that is not a module counts as the package."""
    found = set()
    for imported in ours(ALL[name][1]):
        while imported not in ALL and "." in imported:
            imported = imported.rsplit(".", 1)[0]
        if imported in ALL and imported != name:
            found.add(imported)
    return found


def test_the_match_imports_neither_the_lan_nor_the_web():
    """The match is below the LAN and the web pages: what its loop offers of them is passed in
    (``play_matches(lan=...)``, filled in by ``sensehat_c4/game.py`` and the command)."""
    upper = ("sensehat_c4.lan", "sensehat_c4.web", "gamelib.lan", "gamelib.web")
    assert breaking(lambda o: {m for m in o if m.startswith(upper)}, lambda n: n.startswith("sensehat_c4.match")) == []


def imported_modules(name: str) -> set:
    """The modules of ours module ``name`` imports, from every import statement in it (at its top, under
    ``if TYPE_CHECKING:``, in a function): ``from p import x`` is module ``p.x`` where that is a module, else
    ``p`` (``from . import x`` too, resolved from ``name``'s package); ``import p.q`` is ``p.q``."""
    path = ALL[name][0]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join((package[:len(package) - node.level + 1] if node.level else [])
                            + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in ALL else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in ALL and "." in target:   # a name in a module: the module
                target = target.rsplit(".", 1)[0]
            if target in ALL and target != name:
                found.add(target)
    return found


def import_cycles(graph: dict) -> list:
    """Each group of modules that import one another, through any number of others (a strongly connected
    part of ``graph``, ``{module: the modules it imports}``), as one cycle through all of them: ``[a, b, ..., a]``."""
    order, low, stack, on_stack, groups = {}, {}, [], set(), []
    for root in sorted(graph):   # Tarjan's algorithm, with an explicit stack (no recursion)
        if root in order:
            continue
        work = [(root, iter(sorted(graph[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return [through(graph, group) for group in groups]


def through(graph: dict, group: set) -> list:
    """A walk from the group's first module back to it that passes each of its modules (by shortest paths)."""
    def path(start: str, goal: str) -> list:
        came = {start: None}
        todo = collections.deque([start])
        while todo:
            here = todo.popleft()
            for there in sorted(graph[here] & group):
                if there not in came:
                    came[there] = here
                    todo.append(there)
                if there == goal:
                    steps = [goal, here]
                    while came[steps[-1]] is not None:
                        steps.append(came[steps[-1]])
                    return steps[::-1][1:] if start == goal else steps[::-1]
        raise AssertionError(f"{goal} is not reached from {start}")

    first = min(group)
    walk, left = [first], set(group) - {first}
    while left:
        nearest = min(left)
        walk += path(walk[-1], nearest)[1:]
        left -= set(walk)
    return walk + path(walk[-1], first)[1:]


def imports_in_functions(path: Path) -> list:
    """``(line, statement, why)`` of each import statement inside a function of ``path``: why is the comment
    on its line, or the comment lines just above it (or above the imports just above it)."""
    lines = path.read_text().splitlines()
    found = []
    for function in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    above, number = [], node.lineno - 2
                    while number >= 0 and lines[number].strip().startswith(("#", "from ", "import ")):
                        if lines[number].strip().startswith("#"):
                            above.insert(0, lines[number].strip())
                        number -= 1
                    found.append((node.lineno, ast.unparse(node), " ".join(above + [lines[node.lineno - 1].partition("#")[2]])))
    return sorted(set(found))


def test_an_import_in_a_function_says_it_is_for_start_up_or_an_optional_dependency():
    """Everything else is imported at its module's top (ARCHITECTURE, "A command loads what it uses")."""
    unsaid = [f"{path.relative_to(ROOT)}:{line}: {statement}"
              for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
              for line, statement, why in imports_in_functions(path)
              if "start-up" not in why and "optional dependency" not in why]
    assert unsaid == [], "imports in functions whose comment says neither start-up nor an optional dependency"


ALLOWED_CYCLES: "set[frozenset[str]]" = set()
"""Import cycles known and being removed (kept true: one that is gone must leave the set): none."""


def test_import_cycles_finds_and_names_a_cycle():
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set(), "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    assert import_cycles({"a": {"b"}, "b": {"a", "c"}, "c": {"b"}}) == [["a", "b", "c", "b", "a"]]
    assert imported_modules("gamelib.web.pages") >= {"gamelib.web.http", "gamelib.i18n"}
    assert "sensehat_c4.commands.matches" in imported_modules("sensehat_c4.commands.play")   # a function's import
    assert "sensehat_c4.lan.play" in imported_modules("sensehat_c4.lan.game")


def test_no_module_is_in_an_import_cycle():
    """Imports point one way, even where an import is deferred to a function or only for the type checker
    (``lan.py`` and ``game.py`` once imported each other; ``rungs.py`` and ``strategy.py``; the web view's
    ``api.py``, ``pages.py`` and ``presence.py``)."""
    cycles = import_cycles({name: imported_modules(name) for name in ALL})
    found = {frozenset(cycle) for cycle in cycles}
    assert [" -> ".join(cycle) for cycle in cycles if frozenset(cycle) not in ALLOWED_CYCLES] == [], \
        "modules that import themselves through others"
    assert ALLOWED_CYCLES <= found, f"no longer a cycle: take it out of ALLOWED_CYCLES: {ALLOWED_CYCLES - found}"


PURE = ("sensehat_c4.rules", "sensehat_c4.match.render", "sensehat_c4.match.words", "sensehat_c4.match.opponents",
        "sensehat_c4.match.entries", "sensehat_c4.study.graph",
        "sensehat_c4.study.analysis", "sensehat_c4.records.rows", "sensehat_c4.records.schema", "sensehat_c4.lan.messages",
        "gamelib.status", "gamelib.palette", "gamelib.backends.terminal_screen", "gamelib.backends.terminal_input",
        "gamelib.lan.protocol", "gamelib.lan.screens", "gamelib.web.seating")
IO = {"os", "io", "socket", "sqlite3", "subprocess", "select", "selectors", "termios", "tty", "fcntl", "shutil",
      "pathlib", "asyncio", "mmap", "signal", "ctypes"}


def top_level_imports(name: str) -> set:
    """What importing module ``name`` runs at once: the imports among its top-level statements (not
    those in a function, nor under ``if TYPE_CHECKING:``), absolute; a ``from x import y`` adds ``x.y``."""
    path = ALL[name][0]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    return imports_in(ast.parse(path.read_text()).body, package)


def loaded_by(name: str, past: tuple = ()) -> set:
    """The modules ``name``'s top-level imports name, and theirs in turn, through our modules (the
    standard library's are in the set, not followed; the packages enclosing a module are not counted:
    their ``__init__`` is checked where a module imports the package itself); the imports of the modules
    in ``past`` are not followed."""
    seen, todo = set(), [name]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        if module in ALL and module not in past:
            todo.extend(m for m in top_level_imports(module) if m in ALL or m.split(".")[0] not in PACKAGES)
    return seen - {name}


def test_loaded_by_follows_the_imports_of_our_modules():
    loaded = loaded_by("sensehat_c4.match.words")
    assert {"sensehat_c4.engine.rungs", "sensehat_c4.rules", "gamelib.status", "dataclasses"} <= loaded
    assert "sensehat_c4.engine.oracle" not in loaded          # a function's import is not followed
    assert "sqlite3" in loaded_by("sensehat_c4.study.history")     # through sensehat_c4.records, the package


LOADS_IO = {
    "sensehat_c4.study.graph": "sqlite3 <- sensehat_c4.records <- sensehat_c4.study.review (Review, ending)",
    "gamelib.backends.terminal_input": "os <- gamelib.backends.inbox <- gamelib.backends.base",
    "gamelib.lan.screens": "os <- gamelib.backends.inbox <- gamelib.backends.base <- gamelib.scroll",
    "gamelib.web.seating": "asyncio, socket <- gamelib.web.http",
    "sensehat_c4.lan.messages": "fcntl, socket <- gamelib.web.address <- gamelib.lan (the package of gamelib.lan.protocol: "
                                "offering())",
}
"""Pure modules whose own code does no I/O but whose imports load a module that does (through what)."""
WORDS = ("gamelib.i18n",)
"""The catalogue of words, which every module that shows words imports: it reads its compiled catalogue
when a word is first said (and ``$GAMELIB_LOCALEDIR``, with ``os``); what it loads is not counted."""


@pytest.mark.parametrize("name", PURE)
def test_the_pure_modules_import_nothing_that_does_io(name):
    _, imported = ALL[name]
    assert {m.split(".")[0] for m in imported} & IO == set()
    through = sorted(m for m in loaded_by(name, past=WORDS) if m.split(".")[0] in IO)
    if name in LOADS_IO:   # kept true: a module freed of them leaves the list
        assert through, f"importing {name} no longer loads I/O modules: take it out of LOADS_IO"
    else:
        assert through == [], f"importing {name} loads {through}"


def test_the_words_load_no_engine_search():
    """The words of the LEDs (the level names, their words) come from the ladder's table, not its search."""
    engine = sorted(m for m in loaded_by("sensehat_c4.match.words") if m.startswith("sensehat_c4.engine"))
    assert engine == ["sensehat_c4.engine", "sensehat_c4.engine.matchme", "sensehat_c4.engine.rungs"]
