"""Finding each other on the LAN: mDNS / DNS-SD with ``python-zeroconf``.

The host advertises :data:`~.protocol.SERVICE_TYPE` (``_sensehat-c4._tcp``) on its LAN
addresses and port, with TXT ``v`` (the protocol's version), ``game`` (``connect4``),
``name`` (its player's) and ``path``; the guest browses for it and lists what it finds
(:class:`Browser`).  Why ``python-zeroconf``: pure Python (its Cython speed-ups are
optional and a Pi without a compiler installs it as it is), kept up for years, and it
both answers and asks, which Avahi's service files cannot (they only advertise, and
only where the Avahi daemon runs).  It shares UDP port 5353 with ``avahi-daemon`` (both
bind it with ``SO_REUSEADDR``/``SO_REUSEPORT`` and join the mDNS group; each gets every
multicast packet), so it runs beside Raspberry Pi OS's own daemon.

``interfaces`` (addresses) limits where it sends and listens; ``None`` is every
interface with an IPv4 address, as zeroconf chooses.  Nothing here blocks the game for
long: registering takes zeroconf's probing (about 1 s, in :meth:`Advertiser.start`), and
the browser's callbacks run in zeroconf's own thread.
"""
from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import SetupError
from ..i18n import _
from . import protocol as p

log = logging.getLogger("gamelib.lan")

RESOLVE_MS = 3000
"""How long the browser waits for a found service's address and TXT record."""
MAX_FOUND = 32
"""The browser lists at most this many games (more advertisements are left out)."""


def _zeroconf() -> Any:
    try:
        import zeroconf  # noqa: PLC0415 (an optional dependency, only where the LAN is used)
    except ImportError:
        raise SetupError(_("the LAN game needs the zeroconf package: pip install zeroconf")) from None
    return zeroconf


def _interfaces(zc: Any, interfaces: Optional[Sequence[str]]) -> Any:
    return zc.InterfaceChoice.All if interfaces is None else list(interfaces)


def close_zeroconf(zc: Any) -> None:
    """Close a ``Zeroconf``, and the event loop of its own thread with it.  zeroconf before 0.50 (Debian 12
    has 0.47.3) stops that loop but leaves it open, and the garbage collector then closes it at exit after
    its sockets have gone: a traceback on stderr ("Invalid file descriptor: -1") as the program ends."""
    zc.close()
    loop = getattr(zc, "loop", None)
    if loop is not None and not loop.is_running() and not loop.is_closed():
        loop.close()


def instance_name(name: str) -> str:
    """The service's instance name: the player's name and this machine's (unique enough on a LAN)."""
    host = socket.gethostname().split(".")[0] or "pi"
    return f"{name} on {host}"[:63]


class Advertiser:
    """``name``'s game of ``game`` on ``port`` at ``addresses``, advertised while it is open."""

    def __init__(self, name: str, game: str, port: int, addresses: Sequence[str], *,
                 interfaces: Optional[Sequence[str]] = None) -> None:
        self.name = name
        self.game = game
        self.port = port
        self.addresses = list(addresses)
        self.interfaces = interfaces
        self._zc: Any = None
        self._info: Any = None
        self.error: Optional[str] = None
        """Why it is not advertised (``None`` while it is)."""

    def start(self) -> "Advertiser":
        """Register the service; a failure (no multicast on this network) is logged in one line and kept
        in :attr:`error`: guests can still come with the address."""
        zc = _zeroconf()
        try:
            self._zc = zc.Zeroconf(interfaces=_interfaces(zc, self.interfaces), ip_version=zc.IPVersion.V4Only)
            host = socket.gethostname().split(".")[0] or "pi"
            self._info = zc.ServiceInfo(
                p.SERVICE_TYPE, f"{instance_name(self.name)}.{p.SERVICE_TYPE}",
                addresses=[socket.inet_aton(a) for a in self.addresses], port=self.port,
                properties={"v": str(p.VERSION), "game": self.game, "name": self.name, "path": p.PATH},
                server=f"{host}.local.")
            self._zc.register_service(self._info, allow_name_change=True)
        except (OSError, zc.Error, ValueError) as exc:
            self.error = _("not advertised on the LAN ({error}): the guest can come with --join ADDRESS:{port}").format(
                error=exc, port=self.port)
            log.warning("%s", self.error)
            self.close()
        return self

    def close(self) -> None:
        zc, self._zc = self._zc, None
        if zc is None:
            return
        try:
            if self._info is not None and self.error is None:
                zc.unregister_service(self._info)
        except Exception:  # leaving must not fail
            log.debug("unregistering the LAN game failed", exc_info=True)
        finally:
            close_zeroconf(zc)

    def __enter__(self) -> "Advertiser":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Found:
    """A game found on the LAN: its player's name, where it is, and its instance's name."""

    name: str
    host: str
    port: int
    instance: str
    version: str = str(p.VERSION)


class Browser:
    """The games of ``game`` on the LAN, as they come and go; ``notify`` is told each change (from
    zeroconf's thread: it must not block).  Anyone on the LAN may advertise anything: a name is
    kept as :func:`~.protocol.outside_name` makes it (one line, at most
    :data:`~.protocol.MAX_NAME` characters; the LEDs draw what their font lacks as a box)."""

    def __init__(self, game: str, notify: Callable[[], None] = lambda: None, *,
                 interfaces: Optional[Sequence[str]] = None) -> None:
        self.game = game
        self.notify = notify
        self.interfaces = interfaces
        self._lock = threading.Lock()
        self._found: Dict[str, Found] = {}
        self._zc: Any = None
        self._browser: Any = None

    def start(self) -> "Browser":
        """Start looking (:class:`~gamelib.errors.SetupError` if zeroconf is missing; ``OSError`` if this
        network has no multicast)."""
        zc = _zeroconf()
        self._zc = zc.Zeroconf(interfaces=_interfaces(zc, self.interfaces), ip_version=zc.IPVersion.V4Only)
        self._browser = zc.ServiceBrowser(self._zc, p.SERVICE_TYPE, handlers=[self._changed])
        return self

    def found(self) -> List[Found]:
        """The games found now, by name."""
        with self._lock:
            return sorted(self._found.values(), key=lambda f: (f.name.lower(), f.instance))

    def _changed(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        zc = _zeroconf()
        if state_change is zc.ServiceStateChange.Removed:
            with self._lock:
                gone = self._found.pop(name, None)
            if gone is not None:
                self.notify()
            return
        info = zeroconf.get_service_info(service_type, name, timeout=RESOLVE_MS)
        if info is None:
            return
        props = {k.decode("utf-8", "replace"): (v or b"").decode("utf-8", "replace")
                 for k, v in (info.properties or {}).items()}
        addresses = info.parsed_addresses(zc.IPVersion.V4Only)
        if props.get("game") != self.game or not addresses or not info.port:
            return
        player = p.outside_name(props.get("name", ""), p.outside_name(name.split(".")[0]))   # anyone may advertise
        found = Found(player, addresses[0], int(info.port), name, props.get("v", "?")[:8])
        with self._lock:
            if name not in self._found and len(self._found) >= MAX_FOUND:
                return
            self._found[name] = found
        self.notify()

    def close(self) -> None:
        browser, zc = self._browser, self._zc
        self._browser = self._zc = None
        try:
            if browser is not None:
                browser.cancel()
        finally:
            if zc is not None:
                close_zeroconf(zc)

    def __enter__(self) -> "Browser":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
