"""``engine/arm.py`` and the loader's choice between the armhf cores: which ARM architecture a CPU runs (its
description faked) and a core needs (read from the cores ``setup.py`` builds with Debian's armhf cross
compiler, checked against ``readelf -A``); the loader never chooses one the CPU cannot run.

That the ARMv6 core answers right on an ARM1176, and the ARMv7 one does not, is shown under qemu by
``.ci/native-cross``; the Debian package's cores by ``.ci/deb-cross``.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ci_needs import require
from hypothesis import given, settings
from hypothesis import strategies as st

from sensehat_c4.engine import arm, native
from sensehat_c4.errors import NativeCoreError

ROOT = Path(__file__).resolve().parents[2]
CROSS = "arm-linux-gnueabihf-gcc"

PI_1_CPUINFO = """processor\t: 0
model name\t: ARMv6-compatible processor rev 7 (v6l)
BogoMIPS\t: 697.95
Features\t: half thumb fastmult vfp edsp java tls
CPU implementer\t: 0x41
CPU architecture: 7
CPU variant\t: 0x0
CPU part\t: 0xb76
CPU revision\t: 7

Hardware\t: BCM2835
Revision\t: 900093
Model\t: Raspberry Pi Zero Rev 1.3
"""
"""A Pi Zero's /proc/cpuinfo: an ARMv6 CPU whose ``CPU architecture`` line says 7."""
PI_3_CPUINFO = """processor\t: 0
model name\t: ARMv7 Processor rev 4 (v7l)
BogoMIPS\t: 38.40
Features\t: half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae evtstrm crc32
CPU implementer\t: 0x41
CPU architecture: 7
CPU part\t: 0xd03

Hardware\t: BCM2835
Model\t: Raspberry Pi 3 Model B Rev 1.2
"""
X86_CPUINFO = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n"


@pytest.mark.parametrize("cpu, expected", [
    (arm.Cpu("v6l", PI_1_CPUINFO), 6),
    (arm.Cpu("", PI_1_CPUINFO), 6),          # no AT_PLATFORM: the model name's (v6l), not "CPU architecture: 7"
    (arm.Cpu("v7l", PI_3_CPUINFO), 7),
    (arm.Cpu("", PI_3_CPUINFO), 7),
    (arm.Cpu("v8l", ""), 8),                 # a 32-bit process under a 64-bit kernel (a Pi 4 or 5)
    (arm.Cpu("v6b", ""), 6),
    (arm.Cpu("x86_64", X86_CPUINFO), None),
    (arm.Cpu("aarch64", ""), None),
    (arm.Cpu("", ""), None),
    (arm.Cpu("v6l\nv7l", ""), None),
], ids=["pi-zero", "pi-zero-cpuinfo", "pi-3", "pi-3-cpuinfo", "v8l", "big-endian", "x86", "aarch64", "nothing",
        "two-lines"])
def test_the_cpu_s_architecture_from_its_description(cpu, expected):
    assert arm.architecture(cpu) == expected


def test_this_machine_s_description_is_read():
    cpu = arm.this_cpu()
    if sys.platform.startswith("linux"):
        assert cpu.platform == os.uname().machine or cpu.platform.startswith("v")   # x86_64, aarch64; v7l...
        assert "processor" in cpu.cpuinfo


@pytest.fixture(scope="module")
def armhf_cores(tmp_path_factory):
    """``setup.py build_ext`` with Debian's armhf cross compiler (as the Debian package's armhf build runs it):
    ``{name: path}`` of the cores it leaves, beside their checksums."""
    require([] if shutil.which(CROSS) else [CROSS], "the armhf cross compiler is missing", ".ci/native-cross")
    source = tmp_path_factory.mktemp("armhf") / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "*.so", "*.sha256", "build", "dist",
                                                                "*.egg-info", "__pycache__", ".pytest_cache", "tests",
                                                                "docs", "*.not-built"))
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=source, capture_output=True,
                          text=True, env={**environ, "CC": CROSS}, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    engine = source / "sensehat_c4" / "engine"
    assert "WARNING" not in done.stdout, done.stdout
    return {path.name: path for path in sorted(engine.glob("_c4core*.so"))}


def readelf(path: Path) -> dict:
    """``readelf -A``'s file attributes: ``{"Tag_CPU_arch": "v7", ...}``."""
    out = subprocess.run(["readelf", "-A", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.strip().split(": ", 1) for line in out.splitlines() if line.strip().startswith("Tag_"))


def test_an_armhf_build_leaves_an_armv7_core_and_an_armv6_one(armhf_cores):
    assert sorted(armhf_cores) == ["_c4core.so", "_c4core_armv6.so"]
    for name, path in armhf_cores.items():
        assert (path.parent / (name + ".sha256")).is_file()
    threaded, single = readelf(armhf_cores["_c4core.so"]), readelf(armhf_cores["_c4core_armv6.so"])
    assert (threaded["Tag_CPU_arch"], threaded["Tag_THUMB_ISA_use"]) == ("v7", "Thumb-2")   # Debian's armhf baseline
    assert (single["Tag_CPU_arch"], single["Tag_THUMB_ISA_use"], single["Tag_FP_arch"]) == ("v6", "Thumb-1", "VFPv2")
    # arm.needs() reads what readelf reads
    assert arm.needs(armhf_cores["_c4core.so"].read_bytes()) == 7
    assert arm.needs(armhf_cores["_c4core_armv6.so"].read_bytes()) == 6


def test_the_armv6_core_has_no_threads_and_the_armv7_one_has(armhf_cores):
    """(ARMv6 has no lock-free 64-bit atomics, which the helper threads need: that core is built with one.)"""
    def imports(path):
        out = subprocess.run(["readelf", "--dyn-syms", "-W", str(path)], capture_output=True, text=True, check=True)
        return {name.split("@")[0] for name in re.findall(r" UND (\S+)", out.stdout)}
    assert "pthread_create" in imports(armhf_cores["_c4core.so"])
    assert "pthread_create" not in imports(armhf_cores["_c4core_armv6.so"])


@pytest.fixture
def packaged(armhf_cores, tmp_path, monkeypatch):
    """The two armhf cores where the loader looks for its own (:data:`native.LIBRARY` moved to a folder of the
    test's)."""
    monkeypatch.delenv(native.LIBRARY_ENV, raising=False)
    for path in armhf_cores.values():
        shutil.copy(path, tmp_path / path.name)
    monkeypatch.setattr(native, "LIBRARY", tmp_path / "_c4core.so")
    return tmp_path


@pytest.mark.parametrize("cpu, chosen", [
    (arm.Cpu("v6l", PI_1_CPUINFO), "_c4core_armv6.so"),
    (arm.Cpu("", PI_1_CPUINFO), "_c4core_armv6.so"),
    (arm.Cpu("v7l", PI_3_CPUINFO), "_c4core.so"),
    (arm.Cpu("v8l", ""), "_c4core.so"),
], ids=["pi-zero", "pi-zero-cpuinfo", "pi-3", "pi-4-64-bit-kernel"])
def test_the_loader_chooses_the_core_the_cpu_runs(packaged, cpu, chosen):
    assert native.choose(cpu=cpu) == packaged / chosen


def test_a_cpu_that_does_not_say_gets_no_arm_core(packaged):
    with pytest.raises(NativeCoreError) as refused:
        native.choose(cpu=arm.Cpu("", ""))
    assert str(refused.value) == (f"cannot load {packaged / '_c4core.so'}: built for ARMv7, and this CPU does not say "
                                  "which ARM architecture it runs")


def test_an_armv7_core_alone_is_refused_on_an_armv6_cpu(packaged, monkeypatch):
    (packaged / "_c4core_armv6.so").unlink()
    with pytest.raises(NativeCoreError) as refused:
        native.choose(cpu=arm.Cpu("v6l", PI_1_CPUINFO))
    assert str(refused.value) == f"cannot load {packaged / '_c4core.so'}: built for ARMv7, and this CPU is ARMv6"
    monkeypatch.setenv(native.LIBRARY_ENV, str(packaged / "_c4core.so"))      # named: refused all the same
    with pytest.raises(NativeCoreError, match="built for ARMv7, and this CPU is ARMv6"):
        native.choose(cpu=arm.Cpu("v6l", ""))
    with pytest.raises(NativeCoreError, match="built for ARMv7, and this CPU is ARMv6"):
        native.check_cpu(packaged / "_c4core.so", (packaged / "_c4core.so").read_bytes(), cpu=arm.Cpu("v6l", ""))


def test_the_armv6_core_alone_runs_on_every_armhf_pi(packaged):
    (packaged / "_c4core.so").unlink()
    for platform in ("v6l", "v7l", "v8l"):
        assert native.choose(cpu=arm.Cpu(platform, "")) == packaged / "_c4core_armv6.so"


def test_another_machine_s_core_is_not_judged_by_an_arm_cpu(monkeypatch):
    """This machine's own core (x86-64, arm64) is not 32-bit ARM code: the CPU's description is not read."""
    monkeypatch.delenv(native.LIBRARY_ENV, raising=False)
    if not native.LIBRARY.is_file():
        pytest.skip("the native core is not built here")
    assert native.choose(cpu=arm.Cpu("v6l", PI_1_CPUINFO)) == native.LIBRARY
    assert native.cpu_refusal(native.LIBRARY.read_bytes(), arm.Cpu("", "")) is None


@settings(max_examples=300, deadline=None)
@given(cut=st.integers(min_value=0, max_value=4096), flips=st.lists(st.integers(min_value=0), max_size=8))
def test_damaged_attributes_are_a_refusal_never_an_exception(armhf_cores, cut, flips):
    data = bytearray(armhf_cores["_c4core_armv6.so"].read_bytes())
    for at in flips:
        data[at % len(data)] ^= 0x5A
    data = bytes(data[:len(data) - cut])
    why = arm.refusal(data, arm.Cpu("v6l", ""))
    assert why is None or isinstance(why, str)


def test_a_core_without_attributes_is_refused():
    core = bytearray(b"\x7fELF\x01\x01\x01" + bytes(45))
    core[18:20] = arm.EM_ARM.to_bytes(2, "little")
    assert arm.refusal(bytes(core), arm.Cpu("v8l", "")) == \
        "its ARM attributes do not say which CPU it needs (no section headers)"
