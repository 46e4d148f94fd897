"""What a command loads: each run in a fresh interpreter, its modules read from ``sys.modules``
after :func:`sensehat_c4.cli.main`.  ``--version``, ``--help``, ``history`` and ``stats`` load
no engine search, no asyncio and no h11 (the timings are ``benchmarks/startup.py``'s)."""
import json
import os
import subprocess
import sys
from typing import List, Set, Tuple

import pytest

SHOW = """
import json, sys
from sensehat_c4.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""

LIGHT_ENGINE = {"sensehat_c4.engine", "sensehat_c4.engine.matchme", "sensehat_c4.engine.rungs",
                "sensehat_c4.engine.threads", "sensehat_c4.engine.corefiles"}
"""The engine's package (its ``__init__`` imports nothing), match me's steps (pure), the ladder's table, the
bounds of ``--threads`` and the native core's file names (every command looks whether its build failed)."""
CORE_CHECK = {"sensehat_c4.engine.cores", "sensehat_c4.engine.native", "sensehat_c4.engine.solver",
              "sensehat_c4.engine.position", "sensehat_c4.engine.limit", "sensehat_c4.engine.arm"}
"""What ``--version`` loads to say which solver core runs (the native library is loaded to know)."""
NEVER = ("asyncio", "h11")


def loaded(tmp_path, *argv: str) -> Tuple[int, str, Set[str]]:
    """The exit code, standard output and modules of ``sensehat-c4 ARGV`` in a fresh interpreter."""
    report = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", SHOW, str(report), *argv], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    assert proc.stderr == ""
    found = json.loads(report.read_text())
    return found["code"], proc.stdout, set(found["modules"])


def ours_and_never(modules: Set[str]) -> Tuple[List[str], List[str]]:
    engine = sorted(m for m in modules if m.startswith("sensehat_c4.engine"))
    never = sorted(m for m in modules if m.split(".")[0] in NEVER)
    return engine, never


@pytest.mark.parametrize("argv, output", [
    (["--help"], "usage: sensehat-c4 "),
    (["history", "--db", "{tmp}/none.db"], "no matches recorded yet ({tmp}/none.db does not exist)\n"),
    (["stats", "--db", "{tmp}/none.db"], "no matches recorded yet ({tmp}/none.db does not exist)\n"),
    (["history", "--help"], "usage: sensehat-c4 history "),
])
def test_help_history_and_stats_load_no_engine_search_nor_asyncio_nor_h11(tmp_path, argv, output):
    code, out, modules = loaded(tmp_path, *(arg.format(tmp=tmp_path) for arg in argv))
    assert code == 0 and out.startswith(output.format(tmp=tmp_path))
    engine, never = ours_and_never(modules)
    assert set(engine) <= LIGHT_ENGINE, engine
    assert never == [] and "ctypes" not in modules
    assert "sensehat_c4.match.controller" not in modules and "gamelib.lan.guest" not in modules


def test_version_loads_only_the_solver_core_s_check(tmp_path):
    code, out, modules = loaded(tmp_path, "--version")
    assert code == 0 and out in ("sensehat-c4 0.1.0 (solver core: native)\n", "sensehat-c4 0.1.0 (solver core: python)\n")
    engine, never = ours_and_never(modules)
    assert set(engine) <= LIGHT_ENGINE | CORE_CHECK, engine
    assert never == [] and "sensehat_c4.engine.levels" not in modules


def test_a_command_that_needs_the_engine_loads_it_when_it_runs(tmp_path):
    """The other side: the check above sees what is loaded (a search loads the engine and its core)."""
    code, out, modules = loaded(tmp_path, "analyse", "4453", "--solve", "--json", "--time-limit", "60")
    assert code == 0 and json.loads(out)["best"] == 3
    assert {"sensehat_c4.engine.oracle", "sensehat_c4.engine.moves", "sensehat_c4.engine.levels"} <= modules
    code, _, modules = loaded(tmp_path, "analyse", "4453")
    assert code == 0 and "sensehat_c4.engine.oracle" not in modules     # without --solve: the rules only
