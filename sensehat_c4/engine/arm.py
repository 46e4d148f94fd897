"""32-bit ARM: which architecture this CPU runs, and which one a native core's code needs.

Raspberry Pi OS's 32-bit userland (armhf) runs on ARMv6 Pis (the Pi 1 and Zero: an ARM1176, ARMv6
with VFPv2, no Thumb-2) and on ARMv7 and ARMv8 ones.  A library built for ARMv7 (Debian's armhf
baseline, the threaded native core) dies of an illegal instruction on an ARMv6 CPU, and the dynamic
loader checks only the word size and the byte order, so :mod:`.native` asks :func:`refusal` first.

Both sides are read as data, so tests give them faked:

* the CPU (:class:`Cpu`, :func:`this_cpu`): the kernel's ``AT_PLATFORM`` for this process
  (``getauxval``: ``v6l`` on a Pi 1 or Zero, ``v7l`` on a Pi 2 or 3 under a 32-bit kernel, ``v8l``
  under a 64-bit one), else the ``(v6l)`` that ``/proc/cpuinfo``'s ``model name`` ends with.  Its
  ``CPU architecture`` line is not read: on an ARM1176 it says ``7`` (the CPUID scheme's number, not
  the architecture's).
* the library (:func:`needs`): the ``aeabi`` attributes the compiler and linker write into every ARM
  ELF file (``readelf -A``): ``Tag_CPU_arch``, the Thumb instruction set, the floating-point unit and
  NEON, each mapped to the ARM architecture that first had it on a Pi.

Pure, but for :func:`this_cpu`.
"""
from __future__ import annotations

import ctypes
import re
import struct
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from ..i18n import _

EM_ARM = 40
"""``e_machine`` of a 32-bit ARM ELF file."""
SHT_ARM_ATTRIBUTES = 0x70000003
AT_PLATFORM = 15
MAX_CPUINFO = 65536

TAG_FILE = 1
TAG_CPU_RAW_NAME = 4
TAG_CPU_NAME = 5
TAG_CONFORMANCE = 67
TAG_CPU_ARCH, TAG_THUMB_ISA_USE, TAG_FP_ARCH, TAG_ADVANCED_SIMD_ARCH = 6, 9, 10, 12
TAG_COMPATIBILITY = 32
STRING_TAGS = frozenset({TAG_CPU_RAW_NAME, TAG_CPU_NAME, TAG_CONFORMANCE})
"""Attributes whose value is a NUL-terminated string; ``Tag_compatibility`` is a number then a string; any
other tag from 32 on is a string when odd, a number when even (the ARM ABI's addenda)."""

NEEDS: Dict[int, Dict[int, int]] = {
    # Tag_CPU_arch: pre-v4, v4, v4T, v5T, v5TE, v5TEJ, v6, v6KZ (the ARM1176), v6T2 (Thumb-2, which no
    # Pi had before ARMv7), v6K, v7, v8 (10 and 14: the values readelf calls v7 and v8)
    TAG_CPU_ARCH: {0: 4, 1: 4, 2: 4, 3: 5, 4: 5, 5: 5, 6: 6, 7: 6, 8: 7, 9: 6, 10: 7, 14: 8},
    # none, Thumb-1, Thumb-2, as the architecture allows
    TAG_THUMB_ISA_USE: {0: 4, 1: 4, 2: 7, 3: 4},
    # none, VFPv1, VFPv2 (the ARM1176's), VFPv3, VFPv3-D16, VFPv4, VFPv4-D16, FP for ARMv8 (and D16)
    TAG_FP_ARCH: {0: 4, 1: 6, 2: 6, 3: 7, 4: 7, 5: 7, 6: 7, 7: 8, 8: 8},
    # none, NEON, NEON with fused multiply-add, NEON for ARMv8 (and v8.1)
    TAG_ADVANCED_SIMD_ARCH: {0: 4, 1: 7, 2: 7, 3: 8, 4: 8},
}
"""For each attribute that decides where code runs, the ARM architecture each of its values needs on a
Raspberry Pi (every ARMv6 Pi has VFPv2 and no NEON; every ARMv7 and ARMv8 one VFPv4 and NEON)."""


@dataclass(frozen=True)
class Cpu:
    """What this process is told about its CPU: the kernel's ``AT_PLATFORM`` and ``/proc/cpuinfo``'s text."""

    platform: str = ""
    cpuinfo: str = ""


def architecture(cpu: Cpu) -> Optional[int]:
    """The ARM architecture ``cpu`` runs (6, 7, 8...), or ``None`` if it does not say (not a 32-bit ARM
    description: ``x86_64``, ``aarch64``)."""
    found = re.fullmatch(r"v(\d+)[lb]", cpu.platform)
    if found is None:   # the model name's "(v6l)": ARMv6-compatible processor rev 7 (v6l)
        found = re.search(r"^(?:model name|Processor)\s*:.*\(v(\d+)[lb]\)\s*$", cpu.cpuinfo, re.M)
    return int(found.group(1)) if found else None


def _uleb128(data: bytes, at: int) -> Tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]                       # IndexError past the end
        value |= (byte & 0x7F) << shift
        at += 1
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 35:
            raise ValueError(_("a number too long"))


def _string_end(data: bytes, at: int, end: int) -> int:
    stop = data.index(b"\0", at, end)         # ValueError without one
    return stop + 1


def attributes(data: bytes) -> Dict[int, int]:
    """The numeric ``aeabi`` file attributes of a 32-bit little-endian ARM ELF file (``readelf -A``), by
    tag.  :class:`ValueError` if the file is not one or its attributes cannot be read."""
    try:
        if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
            raise ValueError(_("not a 32-bit little-endian ELF file"))
        shoff, = struct.unpack_from("<I", data, 32)
        shentsize, shnum = struct.unpack_from("<HH", data, 46)
        if shentsize < 40:
            raise ValueError(_("no section headers"))
        for index in range(shnum):
            _name, kind, _flags, _addr, offset, size = struct.unpack_from("<6I", data, shoff + index * shentsize)
            if kind == SHT_ARM_ATTRIBUTES:
                return _aeabi(data[offset:offset + size], size)
    except (IndexError, struct.error) as exc:
        raise ValueError(_("cut short")) from exc
    raise ValueError(_("no ARM attributes"))


def _aeabi(section: bytes, size: int) -> Dict[int, int]:
    """The file attributes of an ``.ARM.attributes`` section (its vendor ``aeabi``'s, tag ``Tag_File``)."""
    if len(section) != size or section[:1] != b"A":
        raise ValueError(_("not an attributes section"))
    found: Dict[int, int] = {}
    at = 1
    while at < len(section):
        length, = struct.unpack_from("<I", section, at)
        end = at + length
        if length < 5 or end > len(section):
            raise ValueError(_("a subsection's length is wrong"))
        vendor_end = _string_end(section, at + 4, end)
        if section[at + 4:vendor_end - 1] == b"aeabi":
            inner = vendor_end
            while inner < end:
                tag, after = _uleb128(section, inner)
                inner_length, = struct.unpack_from("<I", section, after)
                if inner_length < 5 or inner + inner_length > end:
                    raise ValueError(_("a subsection's length is wrong"))
                if tag == TAG_FILE:
                    _file_attributes(section, after + 4, inner + inner_length, found)
                inner += inner_length
        at = end
    return found


def _file_attributes(section: bytes, at: int, end: int, found: Dict[int, int]) -> None:
    while at < end:
        tag, at = _uleb128(section, at)
        if tag in STRING_TAGS or (tag > TAG_COMPATIBILITY and tag % 2 == 1):
            at = _string_end(section, at, end)
        elif tag == TAG_COMPATIBILITY:
            _, at = _uleb128(section, at)
            at = _string_end(section, at, end)
        else:
            found[tag], at = _uleb128(section, at)


def needs(data: bytes) -> int:
    """The ARM architecture the code of the 32-bit ARM ELF file ``data`` needs (6: an ARMv6 Pi runs it);
    :class:`ValueError` if its attributes do not say."""
    found = attributes(data)
    if TAG_CPU_ARCH not in found:
        raise ValueError(_("no Tag_CPU_arch"))
    most = 0
    for tag, values in NEEDS.items():
        value = found.get(tag, 0)
        if value not in values:
            raise ValueError(_("attribute {tag} = {value}, which this check does not know").format(tag=tag, value=value))
        most = max(most, values[value])
    return most


def is_arm32(data: bytes) -> bool:
    """Whether ``data`` starts as a 32-bit little-endian ARM ELF file."""
    return len(data) >= 20 and data[:6] == b"\x7fELF\x01\x01" and struct.unpack_from("<H", data, 18)[0] == EM_ARM


def refusal(data: bytes, cpu: Cpu) -> Optional[str]:
    """Why ``cpu`` cannot run the library ``data``, in words; ``None`` if it can (or if the library is not
    32-bit ARM code, which the loader's other checks judge)."""
    if not is_arm32(data):
        return None
    try:
        needed = needs(data)
    except ValueError as exc:
        return _("its ARM attributes do not say which CPU it needs ({error})").format(error=exc)
    runs = architecture(cpu)
    if runs is None:
        return _("built for ARMv{needed}, and this CPU does not say which ARM architecture it runs").format(
            needed=needed)
    if runs < needed:
        return _("built for ARMv{needed}, and this CPU is ARMv{runs}").format(needed=needed, runs=runs)
    return None


def this_cpu() -> Cpu:
    """This process's :class:`Cpu`: ``getauxval(AT_PLATFORM)`` and ``/proc/cpuinfo`` (each empty where
    it cannot be read)."""
    platform = ""
    try:
        getauxval = ctypes.CDLL(None).getauxval
        getauxval.argtypes, getauxval.restype = [ctypes.c_ulong], ctypes.c_void_p
        address = getauxval(AT_PLATFORM)
        if address:
            platform = ctypes.string_at(address)[:32].decode("ascii", "replace")
    except (AttributeError, OSError):  # no getauxval (not glibc or musl)
        pass
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            cpuinfo = f.read(MAX_CPUINFO)
    except OSError:
        cpuinfo = ""
    return Cpu(platform=platform, cpuinfo=cpuinfo)
