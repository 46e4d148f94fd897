"""Hostile games on the LAN, for the tests: ``python lan_advertiser.py ADDRESS NAME...`` advertises one game of
``connect4`` per NAME over mDNS (python-zeroconf, on ADDRESS only: run it in a network namespace the test made),
each NAME as its TXT ``name`` exactly as given (escape sequences, characters no font has, hundreds of
characters), all pointing at a fake host (:mod:`lan_fakehost`) on ADDRESS that answers every guest with
``asking``, then ``end`` (the host quit).  It prints ``ready PORT`` once everything is up, and stops when its
standard input closes."""
from __future__ import annotations

import socket
import sys
import threading

import zeroconf as zc
from lan_fakehost import FakeHost

from gamelib.lan import protocol as p


def serve(fake: FakeHost) -> None:
    while True:
        try:
            link = fake.link(timeout=3600)
        except OSError:
            return
        link.send({"type": "asking"})
        link.end("quit", "gone")


def main(address: str, names: list) -> None:
    with FakeHost(address, in_namespace=True) as fake:
        threading.Thread(target=serve, args=(fake,), daemon=True).start()
        conf = zc.Zeroconf(interfaces=[address], ip_version=zc.IPVersion.V4Only)
        infos = [zc.ServiceInfo(p.SERVICE_TYPE, f"hostile {i}.{p.SERVICE_TYPE}", addresses=[socket.inet_aton(address)],
                                port=fake.port, properties={"v": "1", "game": "connect4", "name": name, "path": p.PATH},
                                server=f"hostile{i}.local.") for i, name in enumerate(names)]
        try:
            for info in infos:
                conf.register_service(info)
            print(f"ready {fake.port}", flush=True)
            sys.stdin.read()
        finally:
            conf.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
