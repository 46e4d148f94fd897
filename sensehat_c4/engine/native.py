"""The exact solver's optional native core: ``c4core.c``, loaded with :mod:`ctypes`.

``pip install`` builds ``_c4core.so`` next to this module when a C compiler is present
(``setup.py``); it is a plain shared library, so no Python headers are needed.  Without
it, or with :data:`PURE_ENV` set, the solver runs its pure-Python negamax, which stays the
reference.  A build for 32-bit ARM also leaves ``_c4core_armv6.so`` (:data:`ARMV6_NAME`), ARMv6
code with one thread, for the Pis whose CPU cannot run the first (ARMv7 on armhf): :func:`choose`
takes the first of :func:`libraries` whose code this CPU runs (:mod:`.arm`), never one it cannot.
A library is loaded only if it is a regular file of a sane size whose checksum
file (written by the build) is beside it and matches; one that does not load (no checksum,
damaged, another architecture or CPU, a missing symbol, another ABI) is reported in one log line
and the Python core runs.

The C search gives :mod:`.solver`'s answers after fewer positions (``c4core.c`` says how;
node counts differ between the cores).  It never calls into Python: it
returns every :data:`~.solver.CHECK_EVERY` nodes, when :class:`NativeSolver` looks at
the search's :class:`~.limit.Budget` (stop event, deadline, node cap) exactly where the
Python core does, and at every position with the book's number of stones, whose score
Python looks up (so the books stay in Python, read by one reader).  So a stop event
ends a native search within a fraction of a millisecond, and a node limit ends it after
as many positions as in Python (the positions themselves differ).

With more than one thread (:func:`default_threads`: the machine's cores, at most
:data:`MAX_THREADS`; :data:`THREADS_ENV` to choose) helper threads in C search beside the
main search, sharing its table (lazy SMP, ``c4core.c``); the main search returns to
Python as before, the budget counts its nodes only, and the scores are those of one
thread.  Every window search ends with ``c4_halt`` (the helpers let go of it), so
nothing searches while Python does not.
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import stat
import struct
import sys
import weakref
from pathlib import Path
from typing import Callable, Mapping, Optional, Tuple

from ..errors import ConfigError, NativeCoreError, SearchAborted
from ..i18n import N_, _
from . import arm
from .corefiles import CORE_NAME
from .corefiles import DIGEST_SUFFIX as DIGEST_SUFFIX  # (the names the loader's users read here)
from .corefiles import PURE_ENV as PURE_ENV
from .corefiles import pure_python_forced as pure_python_forced
from .limit import Budget
from .position import Shape
from .solver import CHECK_EVERY, Solver, check_size, table_bits_for
from .threads import MAX_THREADS, THREADS_ENV, threads_of

LIBRARY_ENV = "SENSEHAT_C4_NATIVE_LIB"
"""An explicit path to the native library (else the first of :func:`libraries` this CPU runs)."""
LIBRARY = Path(__file__).resolve().with_name(CORE_NAME)
ARMV6_NAME = "_c4core_armv6.so"
"""The core a build for 32-bit ARM leaves beside :data:`LIBRARY` (setup.py): ARMv6 code, one thread."""
ABI = 3
"""The ``C4_ABI`` of ``c4core.h`` this module speaks."""
ETC_BELOW = 36
"""The native core looks up every child in the table (enhanced transposition cutoffs) in
positions with fewer stones than this."""
MIRROR_BELOW = 20
"""A position and its mirror image share a table entry in the native core while fewer stones
than this are on the board."""
DONE, CHECK, LEAF = 0, 1, 2
UNKNOWN = -128

log = logging.getLogger(__name__)

_u64, _int, _ptr = ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p
_SIGNATURES = {
    "c4_abi": ((), _int),
    "c4_new": ((_int, _int, _int, _int, _int, _int), _ptr),
    "c4_free": ((_ptr,), None),
    "c4_table_bytes": ((_ptr,), _u64),
    "c4_nodes": ((_ptr,), _u64),
    "c4_clear": ((_ptr,), None),
    "c4_set_leaf_ply": ((_ptr, _int), None),
    "c4_start": ((_ptr, _u64, _u64, _int, _u64, _int, _int), _int),
    "c4_resume": ((_ptr, _int), _int),
    "c4_result": ((_ptr,), _int),
    "c4_leaf_current": ((_ptr,), _u64),
    "c4_leaf_mask": ((_ptr,), _u64),
    "c4_winning_cells": ((_ptr, _u64, _u64), _u64),
    "c4_set_threads": ((_ptr, _int), _int),
    "c4_threads": ((_ptr,), _int),
    "c4_halt": ((_ptr,), None),
    "c4_all_nodes": ((_ptr,), _u64),
}


_chosen_threads: Optional[int] = None


def use_threads(threads: Optional[int]) -> None:
    """The threads every native solver made from now on takes (``--threads``); ``None``: the default."""
    global _chosen_threads
    if threads is not None and threads_of(threads) is None:
        raise ConfigError(_("the native core takes 1 to {most} threads (not {threads})").format(most=MAX_THREADS, threads=threads))
    _chosen_threads = threads


def default_threads() -> int:
    """The threads a native search takes: as :func:`use_threads` chose, else :data:`THREADS_ENV` if set,
    else the cores this process may run on, at most :data:`MAX_THREADS`.  A bad :data:`THREADS_ENV` is
    one log line and the default."""
    if _chosen_threads is not None:
        return _chosen_threads
    text = os.environ.get(THREADS_ENV, "")
    if text:
        chosen = threads_of(text)
        if chosen is not None:
            return chosen
        log.warning(_("{name} is a number of threads from 1 to {most} (not {text!r}): the default is taken").format(
            name=THREADS_ENV, most=MAX_THREADS, text=text[:20]))
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


MAX_LIBRARY_BYTES = 4 * 1024 * 1024
"""A sane size for the library (it is about 40 KB): anything larger is not read."""
MAX_DIGEST_BYTES = 4096


def cannot_load(path: Path, why: str) -> NativeCoreError:
    """The library (or its checksum file) at ``path`` cannot be loaded, and ``why``, in words."""
    return NativeCoreError(_("cannot load {path}: {why}").format(path=path, why=why))


def read_regular(path: Path, limit: int) -> bytes:
    """The whole of ``path`` if it is a regular file of at most ``limit`` bytes.  A FIFO or a device is
    refused without reading from it (opened non-blocking, so a FIFO without a writer does not hang);
    :class:`NativeCoreError` for anything refused."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise cannot_load(path, exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise cannot_load(path, _("not a regular file"))
        if info.st_size > limit:
            raise cannot_load(path, _("{size} bytes, more than a library's {limit}").format(size=info.st_size, limit=limit))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise cannot_load(path, _("more than a library's {limit} bytes").format(limit=limit))
        return b"".join(chunks)
    except NativeCoreError:  # an OSError too: already says why
        raise
    except OSError as exc:
        raise cannot_load(path, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def check_file(path: Path, data: bytes, *, cpu: Optional[arm.Cpu] = None) -> None:
    """Refuse what must not reach the dynamic loader: a library without its checksum file beside it or
    that no longer matches it (damaged on disk), a file cut short (mapping it would end in SIGBUS), one
    of another word size, or ARM code this CPU (``cpu``: else this machine's) cannot run."""
    digest = path.with_name(path.name + DIGEST_SUFFIX)
    try:
        text = read_regular(digest, MAX_DIGEST_BYTES)
    except NativeCoreError as exc:
        if not digest.exists():
            raise cannot_load(path, _("no {name} beside it (build it again: pip install .)").format(
                name=digest.name)) from None
        raise cannot_load(path, _("its checksum file: {error}").format(error=exc)) from None
    try:
        expected = text.decode("ascii").split()[0]
    except (UnicodeDecodeError, IndexError):
        raise cannot_load(path, _("{name} holds no SHA-256").format(name=digest.name)) from None
    if hashlib.sha256(data).hexdigest() != expected.lower():
        raise cannot_load(path, _("it does not match {name} (damaged?)").format(name=digest.name))
    if sys.platform.startswith("linux"):
        check_elf(path, data)
    check_cpu(path, data, cpu=cpu)


_cpu: Optional[arm.Cpu] = None


def this_cpu() -> arm.Cpu:
    """This machine's CPU as the kernel describes it (:func:`.arm.this_cpu`), read once."""
    global _cpu
    if _cpu is None:
        _cpu = arm.this_cpu()
    return _cpu


def cpu_refusal(data: bytes, cpu: Optional[arm.Cpu] = None) -> Optional[str]:
    """Why the CPU (``cpu``: else this machine's) cannot run the library ``data``; ``None`` if it can or the
    library is not 32-bit ARM code (the CPU is then not read)."""
    if not arm.is_arm32(data):
        return None
    return arm.refusal(data, cpu if cpu is not None else this_cpu())


def check_cpu(path: Path, data: bytes, *, cpu: Optional[arm.Cpu] = None) -> None:
    """Refuse 32-bit ARM code the CPU cannot run (an ARMv7 core on an ARMv6 Pi dies of an illegal instruction
    or runs astray: the dynamic loader does not look)."""
    why = cpu_refusal(data, cpu)
    if why is not None:
        raise cannot_load(path, why)


def libraries() -> Tuple[Path, ...]:
    """The native cores a build may leave, in the order they are tried: :data:`LIBRARY` (on 32-bit ARM,
    ARMv7 code with threads), then the ARMv6 one beside it."""
    return (LIBRARY, LIBRARY.with_name(ARMV6_NAME))


def choose(*, cpu: Optional[arm.Cpu] = None, environ: Optional[Mapping[str, str]] = None) -> Path:
    """The native core to load: :data:`LIBRARY_ENV`'s (in ``environ``, else the process's), else the first of
    :func:`libraries` that is there and whose code the CPU (``cpu``: else this machine's) runs.
    :class:`NativeCoreError`: none is there, one cannot be read, or the CPU runs none of them (the first's
    refusal)."""
    explicit = (os.environ if environ is None else environ).get(LIBRARY_ENV)
    found = [Path(explicit)] if explicit else [path for path in libraries() if path.exists()]
    if not found:
        raise cannot_load(LIBRARY, _("not built"))
    refused = []
    for path in found:
        why = cpu_refusal(read_regular(path, MAX_LIBRARY_BYTES), cpu)
        if why is None:
            return path
        refused.append(cannot_load(path, why))
    raise refused[0]


def check_elf(path: Path, data: bytes) -> None:
    """Refuse a file that is not a whole ELF library of this Python's word size and byte order."""
    if data[:4] != b"\x7fELF" or len(data) < 6 or data[4] not in (1, 2) or data[5] not in (1, 2):
        raise cannot_load(path, _("not an ELF library"))
    bits, order = 32 * data[4], "<" if data[5] == 1 else ">"
    if bits != 8 * struct.calcsize("P") or order != ("<" if sys.byteorder == "little" else ">"):
        endian = "little" if order == "<" else "big"
        raise cannot_load(path, _("built for another machine ({bits}-bit, {endian}-endian)").format(bits=bits, endian=endian))
    word = "Q" if bits == 64 else "I"
    header = order + "16xHHI" + 3 * word + "IHHHHHH"  # e_ident .. e_shstrndx
    program = order + ("IIQQQQQQ" if bits == 64 else "IIIIIIII")  # one program header
    if len(data) < struct.calcsize(header):
        raise cannot_load(path, _("cut short"))
    _type, _machine, _version, _entry, phoff, shoff, _flags, _size, phentsize, phnum, shentsize, shnum, _names = \
        struct.unpack_from(header, data)
    ends = [shoff + shnum * shentsize, phoff + phnum * phentsize]
    for at in range(phoff, min(phoff + phnum * phentsize, len(data) - struct.calcsize(program) + 1), phentsize):
        fields = struct.unpack_from(program, data, at)
        if fields[0] == 1:  # PT_LOAD: where it lies in the file
            offset, size = (fields[2], fields[5]) if bits == 64 else (fields[1], fields[4])
            ends.append(offset + size)
    if max(ends) > len(data):
        raise cannot_load(path, _("cut short ({size} bytes of {needed})").format(size=len(data), needed=max(ends)))


LOADER_SILENT = N_("the dynamic loader refused it (its message could not be read)")


def load_library(path: Path, *, cpu: Optional[arm.Cpu] = None) -> ctypes.CDLL:
    """The library at ``path`` with its functions typed; :class:`NativeCoreError` if unusable (``cpu``: the
    CPU it must run on, else this machine's)."""
    check_file(path, read_regular(path, MAX_LIBRARY_BYTES), cpu=cpu)
    try:
        lib = ctypes.CDLL(str(path))
    except (OSError, ValueError) as exc:  # a loader message that is not UTF-8 is a UnicodeDecodeError
        # (Python 3.10 and older raise OSError() instead: the loader's message is lost)
        raise cannot_load(path, str(exc) or _(LOADER_SILENT)) from None
    for name, (args, result) in _SIGNATURES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise NativeCoreError(_("{path} has no {function}()").format(path=path, function=name)) from None
        function.argtypes, function.restype = args, result
    if lib.c4_abi() != ABI:
        raise NativeCoreError(_("{path} speaks ABI {abi}, this package {ours}").format(path=path, abi=lib.c4_abi(), ours=ABI))
    return lib


_loaded = False
_library: Optional[ctypes.CDLL] = None


def library() -> Optional[ctypes.CDLL]:
    """The process's native library, or ``None`` for the Python core (decided once)."""
    global _loaded, _library
    if not _loaded:
        _loaded = True
        _library = _find()
    return _library


def _find() -> Optional[ctypes.CDLL]:
    if pure_python_forced():
        return None
    if not os.environ.get(LIBRARY_ENV) and not any(path.exists() for path in libraries()):
        return None  # not built (no compiler at install time): the Python core, quietly
    try:
        return load_library(choose())
    except NativeCoreError as exc:
        log.warning(_("native solver core not used ({error}); the Python core runs").format(error=exc))
        return None


class NativeSolver(Solver):
    """The native solver core: :class:`.solver.Solver`'s interface and its root searches
    (:meth:`score`, :meth:`at_most`), with the negamax in C.  Made by :func:`.cores.new_solver`."""

    name = "native"

    def __init__(self, shape: Shape, *, table_bits: Optional[int] = None,
                 leaf: Optional[Callable[[int, int], Optional[int]]] = None, leaf_ply: int = -1,
                 lib: Optional[ctypes.CDLL] = None, threads: Optional[int] = None) -> None:
        check_size(shape)
        if table_bits is None:
            table_bits = table_bits_for(shape)
        if threads is None:
            threads = default_threads()
        lib = lib or library()
        if lib is None:
            raise NativeCoreError(_("the native solver core is not available (not built, or {name} is set)").format(name=PURE_ENV))
        handle = lib.c4_new(shape.width, shape.height, table_bits, CHECK_EVERY, ETC_BELOW, MIRROR_BELOW) \
            if shape.stride == shape.height + 1 else None
        if not handle:
            raise NativeCoreError(_("the native core cannot make a {columns} x {rows} solver with 2**{bits} slots").format(
                columns=shape.width, rows=shape.height, bits=table_bits))
        self.shape = shape
        self.leaf = leaf
        self.leaf_ply = leaf_ply if leaf is not None else -1
        self._lib, self._handle = lib, handle
        self._finalizer = weakref.finalize(self, lib.c4_free, handle)
        lib.c4_set_leaf_ply(handle, self.leaf_ply)
        self.table_bytes = lib.c4_table_bytes(handle)
        """The transposition table's size, allocated once in C."""
        self.threads = lib.c4_set_threads(handle, threads)
        """The threads that search (1 where the library was built without threads)."""

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made (by the main search: the budget's count)."""
        return int(self._lib.c4_nodes(self._handle))

    @property
    def all_nodes(self) -> int:
        """Positions searched since the solver was made by all its threads."""
        return int(self._lib.c4_all_nodes(self._handle))

    def reset(self) -> None:
        """Empty the transposition table."""
        self._lib.c4_clear(self._handle)

    def _run(self, budget: Budget, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """One window search from the root, within ``budget`` (its nodes counted there as it goes)."""
        if budget.spent():
            raise SearchAborted("the search was stopped")
        lib, handle = self._lib, self._handle
        start, before = lib.c4_nodes(handle), budget.nodes
        threats = self.shape.winning_cells(current ^ mask, mask)
        try:
            status = lib.c4_start(handle, current, mask, moves, threats, alpha, beta)
            while status != DONE:
                if status == CHECK:  # every CHECK_EVERY nodes, as the Python core looks
                    budget.nodes = before + lib.c4_nodes(handle) - start
                    if budget.progress is not None:
                        budget.progress(budget.nodes)
                    if budget.spent():
                        raise SearchAborted("the search was stopped")
                    status = lib.c4_resume(handle, UNKNOWN)
                else:  # LEAF: a position with leaf_ply stones
                    known = self.leaf(lib.c4_leaf_current(handle), lib.c4_leaf_mask(handle))  # type: ignore[misc]
                    status = lib.c4_resume(handle, UNKNOWN if known is None else known)
            return int(lib.c4_result(handle))
        finally:
            lib.c4_halt(handle)  # the helper threads let go of the search (within microseconds)
            budget.nodes = before + lib.c4_nodes(handle) - start
