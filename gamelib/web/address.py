"""``--web [HOST:]PORT``: where the server listens, and the address to tell people.

``8080`` listens on every address of the machine (IPv4 and IPv6), ``127.0.0.1:8080``
or ``[::1]:8080`` on one; port 0 takes a free one (tests).  The address printed for
people is this machine's address on the LAN (read from its interfaces, no packet
sent), so a phone can type it.
"""
from __future__ import annotations

import argparse
import fcntl
import ipaddress
import socket
import struct
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..errors import ConfigError
from ..i18n import _

SIOCGIFADDR = 0x8915
"""Linux's ioctl that reads an interface's IPv4 address."""


@dataclass(frozen=True)
class Address:
    """Where to listen: ``host`` (``None``: every address) and ``port``."""

    host: Optional[str]
    port: int

    def __str__(self) -> str:
        if self.host is None:
            return str(self.port)
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


class BadAddress(ConfigError):
    """``--web``'s value is not an address: ``why`` says so without naming the option (as argparse says it)."""

    def __init__(self, why: str, *, whole: Optional[str] = None) -> None:
        super().__init__(whole or f"--web: {why}")
        self.why = why


def parse(text: str) -> Address:
    """``PORT``, ``HOST:PORT`` or ``[IPV6]:PORT`` -> :class:`Address` (:class:`~gamelib.errors.ConfigError` if not)."""
    host: Optional[str]
    value = text.strip()
    if value.startswith("["):
        inside, bracket, rest = value[1:].partition("]")
        if not bracket or not rest.startswith(":"):
            why = _("--web takes [HOST:]PORT, e.g. 8080 or [::1]:8080 (not {text})").format(text=repr(text))
            raise BadAddress(why, whole=why)
        host, port_text = inside, rest[1:]
    elif ":" in value:
        host, _colon, port_text = value.rpartition(":")
        if ":" in host:
            raise BadAddress(_("write an IPv6 address in brackets, e.g. [{host}]:{port} (not {text})").format(
                host=host, port=port_text, text=repr(text)))
    else:
        host, port_text = None, value
    if not port_text.isascii() or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise BadAddress(_("the port is a number from 0 to 65535 (not {port})").format(port=repr(port_text)))
    if host is not None:
        host = host.strip()
        if host in ("", "*"):
            host = None
        elif not _valid_host(host):
            raise BadAddress(_("{host} is not an address or a host name").format(host=repr(host)))
    return Address(host, int(port_text))


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return name_labels(host) is not None


def name_labels(name: str) -> Optional[List[str]]:
    """The labels of a host name (``pi.local`` -> ``["pi", "local"]``), or ``None`` if it is not one
    (letters, digits and hyphens, 1-63 a label, at most 253 in all)."""
    labels = name.rstrip(".").split(".")
    if len(name) > 253 or not all(label and len(label) <= 63 and
                                  all(c.isascii() and (c.isalnum() or c == "-") for c in label) for label in labels):
        return None
    return labels


def argument(text: str) -> Address:
    """An argparse ``type`` for ``--web``."""
    try:
        return parse(text)
    except BadAddress as exc:
        raise argparse.ArgumentTypeError(exc.why) from None


def lan_addresses() -> List[str]:
    """This machine's IPv4 addresses on its networks, private ranges first, loopback last."""
    found = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        interfaces = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:   # never connected: nothing is sent
        for _, name in interfaces:
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address (or the interface is down)
            found.append(socket.inet_ntoa(packed[20:24]))

    def rank(address: str) -> Tuple[int, str]:
        ip = ipaddress.IPv4Address(address)
        return (2 if ip.is_loopback else 0 if ip.is_private else 1), address

    return sorted(set(found), key=rank)


def page_urls(bound: Sequence[Tuple[str, int]], host: Optional[str]) -> List[str]:
    """The page's addresses for people: the machine's LAN addresses when listening on all of
    them, else the one asked for."""
    if not bound:
        return []
    port = bound[0][1]
    if host is None:
        names = [a for a in lan_addresses() if not ipaddress.IPv4Address(a).is_loopback] or ["localhost"]
    else:
        names = [host]
    return [f"http://[{name}]:{port}/" if ":" in name else f"http://{name}:{port}/" for name in names]


def split_address(text: str, default_port: int) -> Tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``V6``, ``[V6]:PORT`` -> ``(host, port)`` (``ValueError`` if it is none of those)."""
    value = text.strip()
    if value.startswith("["):
        if value.endswith("]"):
            value += f":{default_port}"
    elif value.count(":") > 1:
        value = f"[{value}]:{default_port}"
    elif ":" not in value:
        value += f":{default_port}"
    try:
        address = parse(value)
    except ValueError as exc:
        raise ValueError(str(exc).removeprefix("--web: ")) from None
    if address.host is None or address.port == 0:
        raise ValueError(_("{text}: give the host's address or name, and a port from 1 to 65535").format(text=repr(text)))
    return address.host, address.port
