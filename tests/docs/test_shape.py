"""``tools/shape.py``: the code's shape in figures, each held to its limit (issue 34's numbers)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("shape", ROOT / "tools" / "shape.py")
shape = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(shape)


def test_each_figure_is_within_its_limit():
    figures = shape.figures()
    over = {name: figures[name] for name, limit in shape.LIMITS.items() if figures[name][0] > limit}
    assert over == {}


def test_the_counts_find_what_they_count(tmp_path, monkeypatch):
    package = tmp_path / "gamelib"
    package.mkdir()
    (package / "m.py").write_text(
        "class Match:\n"
        "    def a(self):\n"
        "        def inner():\n"
        "            import os\n"
        "        return self.status == 'playing' or 'x' in ('win', 'y')\n"
        "    def b(self):\n"
        "        return self.kind == 'other'\n")
    monkeypatch.setattr(shape, "ROOT", tmp_path)
    assert shape.methods(package / "m.py", "Match") == ["a", "b", "inner"]
    assert shape.string_comparisons() == ["gamelib/m.py:5: self.status == 'playing'", "gamelib/m.py:5: 'x' in ('win', 'y')"]
    assert shape.function_imports() == ["gamelib/m.py:4"]


def test_the_tool_prints_each_figure_and_its_limit():
    done = subprocess.run([sys.executable, "tools/shape.py"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    lines = [line for line in done.stdout.splitlines() if not line.startswith("    ")]
    assert [line.split(":")[0] for line in lines] == list(shape.figures())
    assert lines[0].endswith("(at most 15)") and lines[-1] == "import cycles: 0 (at most 0)"
