"""A game between two Pis on the LAN: one offers it (the host), the other joins (the guest).

Built on the web server (:mod:`gamelib.web`): the host's game is offered on the port of
``--web`` (the LAN protocol is one more route, ``GET /api/lan``, switched to lines of JSON:
:mod:`.protocol`, docs/API.md) and advertised by mDNS (:mod:`.discovery`).  The host owns
the game: its frames and words go to the guest, whose LEDs show them; the guest's stick
presses come back as the backend's events from the guest's source, which the game gives
its seat (Connect 4: a :class:`~sensehat_c4.match.players.Person` of kind ``remote``).  Nothing here
knows a game's rules.

- :mod:`.protocol`   the version, the messages and their checks (pure)
- :mod:`.host`       :class:`~.host.LanHost`: requests, consent, the session, its link, drops
- :mod:`.guest`      :class:`~.guest.GuestLink`: the guest's link, kept up across drops
- :mod:`.discovery`  advertising and browsing with python-zeroconf
- :mod:`.screens`    what the LEDs show around the game, and its words
- :mod:`.flows`      the host's lobby, the guest's list and visit, as loops on a backend
- :func:`offering`   all of it for the host, around a game
"""
from __future__ import annotations

import contextlib
import ipaddress
import logging
from typing import TYPE_CHECKING, Callable, Iterator, List, Optional, Tuple

from .. import web
from ..i18n import _
from ..web.address import Address, lan_addresses

if TYPE_CHECKING:
    from ..backends.base import Backend
    from ..web.limits import Limits
    from .host import LanHost

log = logging.getLogger("gamelib.lan")

DEFAULT_PORT = 8080
"""Where ``--lan`` and ``--join HOST`` go when no port is given (the web view's usual port)."""

__all__ = ["DEFAULT_PORT", "offering"]


def _advertised(address: Address, port: int) -> Tuple[List[str], str]:
    """The IPv4 addresses to advertise (the one listened on, or every LAN address of this machine), and
    why there are none (``""`` when there are)."""
    come = _("the guest can come with --join ADDRESS:{port}").format(port=port)
    if address.host is not None:
        try:
            ip = ipaddress.IPv4Address(address.host)
        except ValueError:
            return [], _("it listens on {host} only, and mDNS here advertises IPv4 addresses ({come})").format(
                host=address.host, come=come)
        if ip.is_loopback:   # another Pi cannot come to this machine's loopback
            return [], _("it listens on {ip} only, which no other machine reaches (--join {ip}:{port} here; "
                         "--lan {port} listens on every address)").format(ip=ip, port=port)
        return [str(ip)], ""
    found = [a for a in lan_addresses() if not ipaddress.IPv4Address(a).is_loopback]
    return found, "" if found else _("this machine has no LAN address ({come})").format(come=come)


@contextlib.contextmanager
def offering(backend: "Backend", name: str, game: str, *, address: Optional[Address] = None,
             notice: Callable[[str], None] = lambda message: None, limits: Optional["Limits"] = None,
             advertise: bool = True) -> Iterator["LanHost"]:
    """Offer ``game`` with ``name`` as the host's player for the ``with`` block: on the web server
    already serving ``backend`` (``--web``, the launcher's ``--lan``), else on one started at
    ``address`` (default: every address, :data:`DEFAULT_PORT`); advertised by mDNS on the
    address listened on (every LAN address for ``PORT`` alone).  At the end the guest is told
    the host quit, and the server (if started here) stops."""
    # start-up: sensehat-c4 --version reads DEFAULT_PORT here; the host loads asyncio, the discovery mDNS's sockets
    from . import discovery, host  # noqa: PLC0415

    with contextlib.ExitStack() as stack:
        server = web.running(backend)
        if server is None:
            where = address or Address(None, DEFAULT_PORT)
            server = stack.enter_context(web.serving(backend, where, notice, limits=limits, seats=False))
            assert server is not None
        where = server.address
        lan = host.LanHost(backend, name, game, server.limits if limits is None else limits)
        served = server

        def detach() -> None:
            served.lan = None
            served.console.note(served.note())

        stack.enter_context(web.lan_game(backend))   # no phone seat: the pairing gesture is not listened for
        server.lan = lan                             # (before the note: the terminal's key help drawn with it)
        server.console.note(server.note())
        stack.callback(detach)
        stack.callback(lan.close)
        if advertise:
            found, why = _advertised(where, server.port)
            if found:
                interfaces = found if where.host is not None else None
                stack.enter_context(discovery.Advertiser(name, game, server.port, found, interfaces=interfaces))
            else:
                log.warning(_("not advertised on the LAN: {why}").format(why=why))
        notice(_("offering {game} over the LAN on port {port} as {name}").format(game=game, port=server.port, name=name))
        yield lan
