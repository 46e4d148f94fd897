"""The solver's native core: how it is built and loaded, and how its searches stop.

Its answers are checked against the Python core's in test_engine_solver.py (the same
scores after the same number of nodes) and against the test sets on arm64 and armhf in
CI (.ci/native-cross).
"""
import ctypes
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from engine_data import CORES, at, native_or_skip, positions, scored, solver

from sensehat_c4.engine import Limit, Oracle, choose_move, native
from sensehat_c4.engine.book12 import SHAPE
from sensehat_c4.engine.cores import core_name, new_solver
from sensehat_c4.engine.limit import Budget
from sensehat_c4.engine.position import Position, shape_of
from sensehat_c4.engine.threads import threads_of
from sensehat_c4.errors import ConfigError, NativeCoreError, SearchAborted
from sensehat_c4.rules import Board, Layout, Size

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh(monkeypatch):
    """Forget which core the process chose, so the next look loads (or refuses) again; call to forget again."""
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.delenv(native.LIBRARY_ENV, raising=False)

    def forget():
        monkeypatch.setattr(native, "_loaded", False)
        monkeypatch.setattr(native, "_library", None)

    forget()
    return forget


def unusable_libraries(tmp_path):
    """``{case: (path, what the log line says)}``: libraries the loader must refuse, never crash on."""
    if not native.LIBRARY.is_file():
        pytest.skip("the native core is not built, so there is nothing to damage")
    built = native.LIBRARY.read_bytes()
    machine = int.from_bytes(built[18:20], "little")
    middle = len(built) // 2
    needed = built.index(b"libc.so.6")
    # case: (contents, its checksum beside it: "own" (matching), "build" (the build's), None; the log line)
    cases = {
        "cut short": (built[:middle], "own", "cut short"),    # mapping it, the dynamic loader would SIGBUS
        "not a library": (b"hello, world\n", "own", "not an ELF library"),
        "another architecture": (built[:18] + (183 if machine != 183 else 62).to_bytes(2, "little") + built[20:],
                                 "own", "cannot load"),      # arm64 (or x86-64): the dynamic loader says no
        "another word size": (built[:4] + bytes([3 - built[4]]) + built[5:], "own", "built for another machine"),
        "damaged": (damaged(built), "build", "does not match"),
        "no checksum": (damaged(built), None, "no _c4core.so.sha256 beside it"),
        # the dynamic loader names the library it needs, which is not UTF-8: ctypes raised UnicodeDecodeError
        # (before 3.11, an OSError without the message)
        "loader message not UTF-8": (built[:needed] + b"libc.so.\xff" + built[needed + 9:], "own",
                                     "can't decode byte 0xff" if sys.version_info >= (3, 11) else native.LOADER_SILENT),
    }
    found = {"missing file": (str(tmp_path / "nowhere.so"), "No such file")}
    if shutil.which("cc"):  # a library from another version of c4core.c, without c4_winning_cells()
        older = tmp_path / "older" / "_c4core.so"
        older.parent.mkdir()
        subprocess.run(["cc", "-shared", "-fPIC", "-std=c99", "-Dc4_winning_cells=c4_threats",
                        str(ROOT / "sensehat_c4" / "engine" / "c4core.c"), "-o", str(older)], check=True)
        write_digest(older)
        found["missing symbols"] = (str(older), "has no c4_winning_cells()")
    for case, (data, digest, message) in cases.items():
        path = tmp_path / case.replace(" ", "-") / "_c4core.so"
        path.parent.mkdir()
        path.write_bytes(data)
        if digest == "own":
            write_digest(path)
        elif digest == "build":
            shutil.copy(str(native.LIBRARY) + native.DIGEST_SUFFIX, str(path) + native.DIGEST_SUFFIX)
        found[case] = (str(path), message)
    return found


def damaged(built: bytes) -> bytes:
    """The built library with its ``c4_abi()`` turned into an illegal instruction on x86-64 (loading it
    and calling it dies of SIGILL), else with a byte flipped in the middle."""
    abi = b"\xb8" + native.ABI.to_bytes(4, "little") + b"\xc3"   # mov eax, ABI; ret
    if built.count(abi) == 1:
        at = built.index(abi)
        return built[:at] + b"\x0f\x0b" + built[at + 2:]          # ud2
    middle = len(built) // 2
    return built[:middle] + bytes([built[middle] ^ 1]) + built[middle + 1:]


def write_digest(path: Path) -> None:
    """A checksum file beside ``path`` that matches it, as the build writes one."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    Path(str(path) + native.DIGEST_SUFFIX).write_text(f"{digest}  {path.name}\n")


CASES = ["cut short", "not a library", "another architecture", "another word size", "damaged", "no checksum",
         "loader message not UTF-8", "missing file", "missing symbols"]


@pytest.mark.parametrize("case", CASES)
def test_a_library_that_does_not_load_is_one_log_line_then_the_python_core(case, tmp_path, monkeypatch, fresh,
                                                                          caplog):
    libraries = unusable_libraries(tmp_path)
    if case not in libraries:
        pytest.skip("no C compiler to build a library without a symbol")
    path, reason = libraries[case]
    monkeypatch.setenv(native.LIBRARY_ENV, path)
    with caplog.at_level(logging.DEBUG, logger="sensehat_c4.engine.native"):
        assert native.library() is None
        assert core_name() == "python"
        search = Oracle(SHAPE).solver
    assert search.name == "python"
    assert search.score(at("13165377745111143272264765634"), Budget()) == 0
    assert [r.levelname for r in caplog.records] == ["WARNING"]      # one line
    message = caplog.records[0].getMessage()
    assert message.startswith("native solver core not used (") and reason in message and path in message
    assert message.endswith("; the Python core runs")


def test_a_library_of_another_abi_is_refused(monkeypatch, fresh, caplog):
    native_or_skip()
    monkeypatch.setattr(native, "ABI", native.ABI + 1)
    with pytest.raises(NativeCoreError, match=r"speaks ABI 3, this package 4$"):
        native.load_library(native.LIBRARY)
    fresh()
    with caplog.at_level(logging.WARNING, logger="sensehat_c4.engine.native"):
        assert native.library() is None
    assert len(caplog.records) == 1


def test_asking_for_the_native_core_when_it_is_off_is_an_error(monkeypatch, fresh):
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert core_name() == "python"
    with pytest.raises(NativeCoreError, match="SENSEHAT_C4_PURE_PYTHON is set"):
        Oracle(SHAPE, core="native")
    assert Oracle(SHAPE).solver.name == "python"


def test_sizes_the_native_core_cannot_take_are_refused():
    native_or_skip()
    lib = native.library()
    for width, height, bits, check in ((9, 6, 20, 4096), (7, 6, 40, 4096), (7, 6, 20, 1000), (0, 6, 20, 4096),
                                       (8, 6, 12, 4096)):   # 8 x 6's keys need 2**13 entries for their tags to fit
        assert not lib.c4_new(width, height, bits, check, 32, 20), (width, height, bits, check)
    with pytest.raises(NativeCoreError, match="cannot make a 7 x 6 solver with 2\\*\\*40 slots"):
        new_solver(SHAPE, table_bits=40, core="native")


def test_both_cores_take_every_size_the_game_offers():
    native_or_skip()
    shape = shape_of(Board(8, 6).layout)   # 56 bits: the largest board
    for core in CORES:
        assert new_solver(shape, table_bits=18, core=core).shape is shape
    wider = shape_of(Layout(9, 6))   # 63 bits: no board the game offers
    for core in CORES:
        with pytest.raises(ConfigError, match="up to 56 bits"):
            new_solver(wider, table_bits=12, core=core)


def run_cli(*argv, limit_memory=False, timeout=300, **env):
    """The command in a child process, with only the native core's variables given here (and, if
    ``limit_memory``, at most 1 GB of address space)."""
    inherited = {k: v for k, v in os.environ.items() if k not in (native.PURE_ENV, native.LIBRARY_ENV)}

    def one_gigabyte():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run([sys.executable, "-m", "sensehat_c4", *argv], capture_output=True, text=True,
                          env={**inherited, **env}, timeout=timeout, preexec_fn=one_gigabyte if limit_memory else None)


def test_the_command_line_says_which_core_runs():
    native_or_skip()
    for env, engine in (({}, "native"), ({native.PURE_ENV: "1"}, "python")):
        proc = run_cli("--version", **env)
        assert (proc.returncode, proc.stderr) == (0, "")
        assert proc.stdout.endswith(f" (solver core: {engine})\n")
        proc = run_cli("analyse", "4453", "--solve", "--json", **env)
        info = json.loads(proc.stdout)
        assert (proc.returncode, proc.stderr, info["engine"], info["best"]) == (0, "", engine, 3)


@pytest.mark.parametrize("case", ["no checksum", "loader message not UTF-8", "a FIFO", "/dev/zero",
                                  "too large"])
def test_what_would_crash_hang_or_fill_memory_is_one_line_and_the_python_core(case, tmp_path):
    """In a child process, as each of these crashed it (SIGILL), raised from ctypes, hung on the FIFO or
    read /dev/zero until memory ran out (here held to 1 GB)."""
    if case == "a FIFO":
        path, reason = tmp_path / "fifo.so", "not a regular file"
        os.mkfifo(path)
    elif case == "/dev/zero":
        path, reason = Path("/dev/zero"), "not a regular file"
    elif case == "too large":
        path, reason = tmp_path / "large.so", "more than a library's 4194304"
        with open(path, "wb") as f:
            f.truncate(64 * 1024 * 1024)    # sparse: 64 MB that take no room
    else:
        path, reason = unusable_libraries(tmp_path)[case]
    proc = run_cli("analyse", "4453", "--solve", "--json", limit_memory=True, timeout=60,
                   **{native.LIBRARY_ENV: str(path)})
    assert (proc.returncode, json.loads(proc.stdout)["engine"]) == (0, "python")
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(f"sensehat-c4 analyse: WARNING: native solver core not used (cannot load {path}: ")
    assert reason in proc.stderr and proc.stderr.count("cannot load") == 1


def test_a_corrupt_library_on_the_command_line_is_one_line_on_stderr(tmp_path):
    corrupt = tmp_path / "corrupt.so"
    corrupt.write_bytes(b"\x7fELF not really")
    proc = run_cli("analyse", "4453", "--solve", "--json", **{native.LIBRARY_ENV: str(corrupt)})
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["engine"] == "python"
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(f"sensehat-c4 analyse: WARNING: native solver core not used (cannot load {corrupt}: ")


class SetFromAnotherThread(threading.Event):
    """A stop event that another thread sets at the search's ``n``-th look (like "up" on the
    joystick while the computer thinks); its looks are counted."""

    def __init__(self, n):
        super().__init__()
        self.n = n
        self.looks = 0

    def is_set(self):
        self.looks += 1
        if self.looks == self.n:
            joystick = threading.Thread(target=self.set)
            joystick.start()
            joystick.join()
        return super().is_set()


@pytest.mark.parametrize("core", CORES)
def test_a_stop_event_is_seen_within_4096_nodes(core):
    if core == "native":
        native_or_skip()
    solve = Oracle(SHAPE, core=core)       # no books: "4453" is minutes of search
    stop = SetFromAnotherThread(5)
    result = choose_move(Board.from_moves("4453"), "perfect", limit=Limit(stop=stop), oracle=solve)
    assert (result.source, result.optimal, result.column) == ("budget", False, 5)
    # the looks: when the search starts, then every 4,096 nodes; set at the 5th, it ends there
    assert result.nodes == 4 * 4096
    # the solver goes on afterwards
    assert solve.score(at("13165377745111143272264765634"), Budget()) == 0


@pytest.mark.parametrize("core", CORES)
def test_both_cores_report_progress_at_each_look(core):
    if core == "native":
        native_or_skip()
    told: list = []
    budget = Budget(max_nodes=5 * 4096, progress=told.append)
    with pytest.raises(SearchAborted):
        Oracle(SHAPE, core=core).solver.score(at("4453"), budget)  # no books: minutes of search
    assert told == [4096, 2 * 4096, 3 * 4096, 4 * 4096, 5 * 4096]


@pytest.mark.parametrize("core", CORES)
def test_a_node_limit_ends_a_move_at_the_same_node_on_both_cores(core):
    if core == "native":
        native_or_skip()
    solve = Oracle(SHAPE, core=core)
    result = choose_move(Board.from_moves("4453"), "perfect", limit=Limit(nodes=50_000), oracle=solve)
    # the exact search stops at its first look past 90% of the nodes (11 * 4096 = 45,056), the
    # heuristic ranking that decides then takes the rest (it looks every 1,024): on both cores alike
    assert (result.source, result.nodes) == ("budget", 45_056 + 5 * 1024)


def build(tmp_path, **env):
    # pyproject.toml's build requirement: what pip builds with (a venv of Python 3.9 holds setuptools 58,
    # of 3.12 and later none)
    pytest.importorskip("setuptools", minversion="61")
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "*.so", "build", "*.egg-info",
                                                                  "__pycache__", ".pytest_cache"))
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=source, capture_output=True,
                          text=True, env={**environ, **env}, timeout=300)
    return proc, source / "sensehat_c4" / "engine" / "_c4core.so"


def test_no_compiler_or_a_failed_build_is_a_warning_not_an_error(tmp_path):
    # (setuptools' words for the compiler's failure, made one short line as before its 69: setup.py's failure_words)
    for cc, why in (("/nonexistent/cc", re.compile(r"command '/nonexistent/cc' failed: No such file or directory")),
                    ("false", re.compile(r"command '(/usr/bin/)?false' failed with exit code 1"))):
        proc, library = build(tmp_path / cc.strip("/").replace("/", "-"), CC=cc)
        assert proc.returncode == 0, proc.stderr
        assert "WARNING: the native solver core was not built" in proc.stdout
        assert "the pure-Python core will run" in proc.stdout
        assert not library.exists()
        # the note the first run and doctor read, in the build and (built in place) beside the modules
        note = library.with_name("_c4core.so.not-built").read_text()
        assert why.fullmatch(note[:-1]) and note.endswith("\n"), note
        assert [p.read_text() for p in (library.parents[2] / "build").glob("lib*/sensehat_c4/engine/*.not-built")] \
            == [note]


def test_a_build_that_works_takes_away_the_note_of_one_that_failed(tmp_path):
    native_or_skip()
    proc, library = build(tmp_path, CC="false")
    assert library.with_name("_c4core.so.not-built").is_file()
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=library.parents[2], check=True,
                   capture_output=True, env=environ, timeout=300)
    assert library.is_file() and not library.with_name("_c4core.so.not-built").exists()
    assert list((library.parents[2] / "build").glob("lib*/sensehat_c4/engine/*.not-built")) == []


def test_without_a_compiler_the_first_run_says_so_once_and_doctor_names_the_fix(tmp_path):
    """pip (and pipx) hide setup.py's warning: a copy installed without a compiler says, the first time it runs,
    that the Python core plays and what to run; once (the state folder remembers this install); doctor's line
    names the fix for the kind of install (here a tree, as pip install -e leaves it)."""
    proc, library = build(tmp_path, CC="/nonexistent/cc")
    tree = library.parents[2]
    home = tmp_path / "home"
    environ = {k: v for k, v in os.environ.items() if k not in (native.PURE_ENV, native.LIBRARY_ENV, "XDG_STATE_HOME")}
    environ.update(HOME=str(home), PYTHONPATH=str(tree))

    def run(*argv, **more):
        return subprocess.run([sys.executable, "-m", "sensehat_c4", *argv], capture_output=True, text=True,
                              cwd=tree, env={**environ, **more}, timeout=120)

    why = library.with_name("_c4core.so.not-built").read_text().strip()   # setuptools' words (the test above)
    assert "/nonexistent/cc" in why and "No such file or directory" in why
    notice = (f"sensehat-c4: the native solver core did not build when sensehat-c4 was installed ({why}): the "
              "pure-Python core plays, and the strong levels think more slowly; 'sensehat-c4 doctor' says how to "
              "build it\n")
    assert run("--version", **{native.PURE_ENV: "1"}).stderr == ""      # the Python core chosen: nothing to say
    first, second = run("--version"), run("--version")
    assert first.stdout == second.stdout == "sensehat-c4 0.1.0 (solver core: python)\n"
    assert (first.stderr, second.stderr) == (notice, "")
    assert (home / ".local" / "state" / "sensehat-c4" / "core-not-built").read_text() == \
        f"{library.with_name('_c4core.so.not-built').stat().st_mtime_ns} {library.with_name('_c4core.so.not-built')}\n"
    french = run("--version", "--language", "fr", XDG_STATE_HOME=str(tmp_path / "other-state"))
    assert french.stderr.startswith("sensehat-c4: le cœur natif du solveur ne s'est pas construit")  # in French
    core = [c for c in json.loads(run("doctor", "--json", "--backend", "terminal").stdout)["checks"]
            if c["check"] == "core"]
    assert [(c["status"], c["detail"], c["fix"]) for c in core] == [(
        "fail", f"python: the native core did not build when sensehat-c4 was installed ({why})",
        f"install a C compiler and build it again: sudo apt install gcc, then {sys.executable} -m pip install -e "
        f"{tree}")]
    lines = run("doctor", "--backend", "terminal").stdout.splitlines()     # the fix shown, not kept to the JSON
    assert f"✗ solver core: {core[0]['detail']}; fix: {core[0]['fix']}" in lines


def test_the_environment_variable_skips_the_build(tmp_path):
    proc, library = build(tmp_path, **{native.PURE_ENV: "1"})
    assert proc.returncode == 0, proc.stderr
    assert "SENSEHAT_C4_PURE_PYTHON is set: the native solver core is not built" in proc.stdout
    assert not library.exists()


def test_the_build_makes_a_plain_library_that_loads(tmp_path):
    native_or_skip()  # a compiler was there when this package was installed
    proc, library = build(tmp_path)
    assert proc.returncode == 0, proc.stderr
    lib = native.load_library(library)
    assert lib.c4_abi() == native.ABI
    assert not hasattr(ctypes.CDLL(str(library)), "PyInit__c4core")   # a plain library, not a Python module


# -- threads ---------------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_helper_threads_give_the_scores_of_one_thread(threads):
    """(2 threads on half the rows in the fast tier: some 2.5 s of CPU; 4 threads on them all, slow.)"""
    rows = positions("Test_L2_R2")[:20] + positions("Test_L1_R2")[:30]
    rows = rows if threads > 2 else rows[::2]
    one, many = solver("native", 20), solver("native", 20, threads=threads)
    assert (one.threads, many.threads) == (1, threads)
    for moves, score in rows:
        assert (many.score(at(moves), Budget()), one.score(at(moves), Budget())) == (score, score), moves
    assert many.all_nodes > many.nodes        # the helpers searched too; the budget counts the main search
    assert one.all_nodes == one.nodes


def test_helper_threads_on_the_largest_board_as_an_independent_solver_scores_it():
    shape = shape_of(Board(8, 6).layout)
    rows = [(moves, score) for moves, score, work in scored("8x6") if work <= 2_000_000][:6]
    search = solver("native", 20, shape, threads=3)
    for moves, score in rows:
        assert search.score(Position.of(Size(8, 6).from_moves(moves)), Budget()) == score, moves


@pytest.mark.slow   # some 10 s of CPU; the helper threads' scores are checked in the fast tier
def test_perfect_with_threads_plays_moves_of_the_best_score():
    """Which of the moves of the best score perfect plays may depend on the threads' timing; the score
    may not."""
    native_or_skip()
    threaded = Oracle(SHAPE, core="native", threads=2)
    exact = Oracle(SHAPE, core="native", threads=1)
    for moves, _ in positions("Test_L1_R2")[:4]:
        board = Board.from_moves(moves)
        result = choose_move(board, "perfect", oracle=threaded)
        scores = exact.move_scores(Position.of(board), Budget())
        assert result.optimal and scores[result.column] == max(scores.values()), moves
        assert result.score in (None, scores[result.column])      # a forced move's score may be unknown


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_nothing_searches_once_a_search_is_stopped(threads):
    """A stop event ends the main search; the helpers let go of it too (no CPU while the game waits)."""
    search = solver("native", 20, threads=threads)
    budget = Budget(stop=SetFromAnotherThread(20))
    with pytest.raises(SearchAborted):
        search.score(at(""), budget)        # the empty board: its first window alone is seconds of search
    assert budget.nodes == 19 * 4096
    cpu = time.process_time()
    for _ in range(5):          # a helper still searching is running or ready to run at every look
        time.sleep(0.1)
        assert threads_running() == []
    assert time.process_time() - cpu < 0.1
    assert (search.all_nodes > search.nodes) == (threads > 1)     # the helpers had joined the search
    assert len(helper_tasks()) >= threads - 1           # and were looked at by their name


def helper_tasks() -> list:
    """The /proc entries of the native core's helper threads (they name themselves c4core-helper)."""
    tasks = []
    for task in Path("/proc/self/task").iterdir():
        try:
            if (task / "comm").read_text().strip() == "c4core-helper":
                tasks.append(task)
        except FileNotFoundError:       # a thread that ended while we looked
            continue
    return tasks


def threads_running() -> list:
    """The native core's helper threads that are running or ready to run (state R); other threads of
    the test process (a server left by another test, pytest's own) are not looked at."""
    running = []
    for task in helper_tasks():
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:
            continue
        if stat[stat.rindex(")") + 2] == "R":
            running.append(task.name)
    return running


def test_a_number_of_threads_is_read_one_way():
    """threads_of() reads --threads, $SENSEHAT_C4_THREADS and use_threads()'s number alike."""
    assert [threads_of(text) for text in ("1", "4", "04", "0", "5", "-1", "+2", "2.0", "²", "٣", "", " 2")] == \
        [1, 4, 4, None, None, None, None, None, None, None, None, None]
    assert [threads_of(n) for n in (0, 1, 4, 5, -3)] == [None, 1, 4, None, None]


def test_the_threads_come_from_the_option_the_environment_or_the_cores(monkeypatch, caplog):
    native_or_skip()
    monkeypatch.delenv(native.THREADS_ENV, raising=False)
    cores = min(len(os.sched_getaffinity(0)), native.MAX_THREADS)
    assert native.default_threads() == cores == new_solver(SHAPE, table_bits=12).threads
    monkeypatch.setenv(native.THREADS_ENV, "1")
    assert native.default_threads() == 1 == new_solver(SHAPE, table_bits=12).threads
    native.use_threads(3)
    try:
        assert native.default_threads() == 3 == new_solver(SHAPE, table_bits=12).threads
    finally:
        native.use_threads(None)
    with pytest.raises(ConfigError, match="the native core takes 1 to 4 threads \\(not 5\\)"):
        native.use_threads(5)
    for bad in ("0", "5", "two", "\x1b[2J"):
        monkeypatch.setenv(native.THREADS_ENV, bad)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sensehat_c4.engine.native"):
            assert native.default_threads() == cores
        assert [r.getMessage() for r in caplog.records] == [
            f"SENSEHAT_C4_THREADS is a number of threads from 1 to 4 (not {bad!r}): the default is taken"]


def test_the_command_line_takes_a_number_of_threads():
    native_or_skip()
    proc = run_cli("analyse", "4453", "--solve", "--json", "--threads", "1")
    assert (proc.returncode, proc.stderr, json.loads(proc.stdout)["best"]) == (0, "", 3)
    for bad in ("0", "5", "x"):
        proc = run_cli("analyse", "4453", "--threads", bad)
        assert proc.returncode == 2
        assert proc.stderr == (f"sensehat-c4 analyse: error: argument --threads: must be from 1 to 4: {bad!r} "
                               "(see --help)\n")


def test_a_child_of_fork_searches_with_one_thread():
    """The child of a fork has none of the helper threads (multiprocessing's workers, for one): its
    searches, a reset and the count of every thread's positions went on waiting for them."""
    import signal
    import warnings

    search = solver("native", 20, threads=2)
    (moves, score), = positions("Test_L1_R2")[:1]
    assert search.score(at(moves), Budget()) == score and search.threads == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # "this process is multi-threaded": these are C's
        pid = os.fork()
    if pid == 0:   # the child: a wait for a helper that is not there would hang, so an alarm ends it
        ok = False
        try:
            signal.alarm(30)
            search.reset()
            ok = search.score(at(moves), Budget()) == score and search.all_nodes >= search.nodes
            search.reset()
            ok = ok and search.score(at(moves), Budget()) == score
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    assert search.score(at("4455"), Budget()) is not None      # the parent's helpers still answer
    assert search.all_nodes > search.nodes
