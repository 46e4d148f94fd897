"""Builds the solver's optional native core (``sensehat_c4/engine/_c4core.so``) and compiles the words'
catalogues (``.po`` to ``.mo``); the rest is setup.cfg.

The core is a plain shared library loaded with ctypes: no Python headers, no Python
symbols.  A missing compiler or a failed build is a warning, not an error (the pure-Python
core runs; the build leaves ``_c4core.so.not-built`` saying why, which the first run and ``doctor``
read), and ``SENSEHAT_C4_PURE_PYTHON=1`` skips the build.  For 32-bit ARM (armhf: Raspberry Pi OS's
32-bit userland) a second core is built beside it, ``_c4core_armv6.so``: ARMv6 code only, one thread,
which every armhf Pi runs (the Pi 1 and Zero too); the loader takes the first of the two this CPU runs
(``sensehat_c4/engine/arm.py``).

The catalogues (``<package>/locale/LANG/LC_MESSAGES/<domain>.po``) are compiled by Babel into the
build, beside the modules (an editable install, ``pip install -e``, compiles them beside their ``.po`` in
the source tree, where its modules are loaded from); Babel is needed to build only when a ``.po`` file is
there.
"""
import hashlib
import os
import platform
import re
import struct
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# sensehat_c4.engine.native's PURE_ENV, DIGEST_SUFFIX, NOT_BUILT_SUFFIX and ARMV6_NAME (setup.py cannot import
# the package)
PURE_ENV = "SENSEHAT_C4_PURE_PYTHON"
DIGEST_SUFFIX = ".sha256"
NOT_BUILT_SUFFIX = ".not-built"
CORE = "sensehat_c4.engine._c4core"
ARMV6_CORE = "sensehat_c4.engine._c4core_armv6"
ARMV6_FLAGS = ["-march=armv6", "-mfpu=vfp", "-mfloat-abi=hard", "-marm"]
"""Raspberry Pi OS's armhf baseline, the ARM1176 of the Pi 1 and Zero: ARMv6 with VFPv2, ARM code (it has
no Thumb-2).  (.ci/native-cross reads this line.)"""
ARMV6_LINK = ["-nostartfiles"]
"""An ARMv7 toolchain's start files (Debian's armhf: crti.o, crtbeginS.o) are Thumb-2 code that runs when the
library is loaded; the core needs none of them (no constructors), so they are left out."""
DOMAINS = ("gamelib", "sensehat_c4")
"""The words' gettext domains, each its package's name (gamelib.i18n, tools/words)."""


class build_py_with_words(build_py):
    """``build_py`` that also compiles every catalogue (``.po``) of both domains to its ``.mo`` in the build."""

    def catalogues(self):
        """(the .po in the source tree, the .mo's path in the package) for every catalogue."""
        found = []
        for domain in DOMAINS:
            for language in sorted(os.listdir(os.path.join(domain, "locale"))):
                po = os.path.join(domain, "locale", language, "LC_MESSAGES", domain + ".po")
                if os.path.isfile(po):
                    found.append((po, po[:-3] + ".mo"))
        return found

    def run(self):
        super().run()
        catalogues = self.catalogues()
        if not catalogues:
            return
        try:
            from babel.messages.mofile import write_mo  # noqa: PLC0415 (needed only when there are catalogues)
            from babel.messages.pofile import read_po  # noqa: PLC0415
        except ImportError as exc:
            raise SystemExit(f"error: Babel is needed to compile the words' catalogues ({exc}): pip install Babel") from exc
        for po, mo in catalogues:
            target = mo if self.editable() else os.path.join(self.build_lib, mo)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(po, "rb") as source:
                catalogue = read_po(source, domain=os.path.basename(po)[:-3])
            with open(target, "wb") as compiled:
                write_mo(compiled, catalogue)
            print(f"compiled {po} -> {target}")

    def editable(self):
        """Whether this is an editable install's build (setuptools 64+, which pip's isolated build fetches): its
        modules are the source tree's."""
        return bool(getattr(self, "editable_mode", False))

    def get_outputs(self, include_bytecode=1):
        built = [] if self.editable() else [os.path.join(self.build_lib, mo) for _, mo in self.catalogues()]
        return super().get_outputs(include_bytecode) + built


class build_plain_library(build_ext):
    """``build_ext`` for a library that is not a Python module: a plain name, no ``PyInit_``."""

    def initialize_options(self):
        super().initialize_options()
        self.failures = {}
        """The reason each core that failed to build gave, by its extension's name."""

    def get_ext_filename(self, fullname):
        return os.path.join(*fullname.split(".")) + ".so"

    def get_export_symbols(self, ext):
        return []

    def run(self):
        if os.environ.get(PURE_ENV, "") not in ("", "0"):
            print(f"{PURE_ENV} is set: the native solver core is not built")
            return
        super().run()
        # each copy's checksum beside it (in build/ and, for pip install -e, in the source tree):
        # the loader refuses a library damaged on disk.  Where the core was not built, a note saying why
        # (the first run says so once; doctor names the fix); one left by an earlier build goes.
        inplace = self.inplace
        places = (0, 1) if inplace else (0,)   # (an editable install's build is in place)
        for self.inplace in (0, 1):
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()
                    with open(path + DIGEST_SUFFIX, "w") as f:
                        f.write(f"{digest}  {os.path.basename(path)}\n")
                    if os.path.exists(path + NOT_BUILT_SUFFIX):
                        os.remove(path + NOT_BUILT_SUFFIX)
                elif ext.name in self.failures and self.inplace in places:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path + NOT_BUILT_SUFFIX, "w") as f:
                        f.write(self.failures[ext.name] + "\n")
        self.inplace = inplace

    def build_extension(self, ext):
        if ext.name == ARMV6_CORE:
            if not armhf_target(self.compiler.compiler_so):
                return   # (32-bit ARM hard-float only)
            try:
                super().build_extension(ext)
            except Exception as exc:  # noqa: BLE001 (the ARMv7 core is there; ARMv6 Pis run the Python core)
                print(f"WARNING: the ARMv6 native solver core was not built ({exc}); a Pi 1 or Zero will run the "
                      "pure-Python core")
            return
        flags = arm32_flags()
        if flags:  # first with them, then (if that failed) as the compiler targets by default
            ext.extra_compile_args = ext.extra_compile_args + flags
            try:
                super().build_extension(ext)
                return
            except Exception as exc:  # noqa: BLE001 (a compiler refusing a flag: built again without it)
                print(f"the native solver core did not build with {' '.join(flags)} ({exc}); again without")
                ext.extra_compile_args = [a for a in ext.extra_compile_args if a not in flags]
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 (no compiler, or it failed: the Python core runs)
            print(f"WARNING: the native solver core was not built ({exc}); the pure-Python core will run")
            self.failures[ext.name] = failure_words(exc)


def failure_words(exc):
    """Why the compiler failed, in one short line, as setuptools before 69 said it (``command 'gcc' failed
    with exit code 1``, ``command '/x/cc' failed: No such file or directory``); newer ones give the whole
    command line, or the system's error."""
    text = " ".join(str(exc).split())
    found = re.match(r"Command '\['([^']*)'.*' returned non-zero exit status (\d+)", text)
    if found:
        return f"command '{found.group(1)}' failed with exit code {found.group(2)}"
    found = re.fullmatch(r"\[Errno \d+\] (.+): '([^']*)'", text)
    if found:
        return f"command '{found.group(2)}' failed: {found.group(1)}"
    return text[:300] or type(exc).__name__


def arm32_flags():
    """``-march=armv7-a`` for a 32-bit ARM userland on an ARMv7 or ARMv8 CPU (every Raspberry Pi with
    four cores under 32-bit Raspberry Pi OS): that OS's compiler targets ARMv6 (the Pi 1 and Zero), which
    has no lock-free 64-bit atomics, and the core's helper threads need them (without, it searches with
    one thread).  The library is built on the Pi it runs on, so its CPU takes the ARMv7 instructions (and
    the ARMv6 core built beside it runs if the card moves to a Pi 1 or Zero)."""
    if struct.calcsize("P") == 4 and platform.machine() in ("armv7l", "armv8l", "aarch64"):
        return ["-march=armv7-a"]
    return []


def armhf_target(compiler):
    """Whether the C compiler (its command line) makes 32-bit ARM hard-float Linux code (``-dumpmachine``:
    ``arm-linux-gnueabihf``, Debian's and Raspberry Pi OS's, or ``armv7l-unknown-linux-gnueabihf``): on the
    Pi, or cross-building the Debian package for armhf."""
    program = []
    for arg in compiler:
        if arg.startswith("-"):
            break
        program.append(arg)   # (ccache gcc)
    try:
        machine = subprocess.run([*program, "-dumpmachine"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(re.fullmatch(r"arm\S*-linux-gnueabihf\s*", machine))


SOURCES = {"sources": ["sensehat_c4/engine/c4core.c"], "depends": ["sensehat_c4/engine/c4core.h"]}
setup(
    ext_modules=[Extension(
        CORE, **SOURCES,
        extra_compile_args=["-std=c99", "-O2", "-pthread"],
        extra_link_args=["-pthread"],  # the helper threads (POSIX threads; in the C library itself on glibc 2.34+)
        optional=True,  # also tells build_ext --inplace (pip install -e) not to copy a library that is not there
    ), Extension(
        # built for 32-bit ARM hard-float only (build_extension): one thread (no lock-free 64-bit atomics)
        ARMV6_CORE, **SOURCES, extra_compile_args=["-std=c99", "-O2", *ARMV6_FLAGS], extra_link_args=ARMV6_LINK,
        optional=True,
    )],
    cmdclass={"build_ext": build_plain_library, "build_py": build_py_with_words},
)
