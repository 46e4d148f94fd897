"""Two network namespaces on a veth pair, their addresses and the delaying relay (root)."""
import os
import subprocess
from pathlib import Path

HOST_IP, GUEST_IP = "10.213.7.1", "10.213.7.2"
PORT = 8080
RELAY = Path(__file__).with_name("delay_relay.py")


class Link:
    """Two namespaces and the veth pair between them."""

    def __init__(self) -> None:
        tag = f"{os.getpid() % 100000}"
        self.host, self.guest = f"c4h{tag}", f"c4g{tag}"
        self.host_dev, self.guest_dev = f"c4h{tag}v", f"c4g{tag}v"
        self.rules = []

    def up(self) -> "Link":
        for ns in (self.host, self.guest):
            run("ip", "netns", "add", ns)
        run("ip", "link", "add", self.host_dev, "type", "veth", "peer", "name", self.guest_dev)
        for ns, dev, ip in ((self.host, self.host_dev, HOST_IP), (self.guest, self.guest_dev, GUEST_IP)):
            run("ip", "link", "set", dev, "netns", ns)
            run("ip", "-n", ns, "addr", "add", f"{ip}/24", "dev", dev)
            run("ip", "-n", ns, "link", "set", dev, "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")
        return self

    def down(self) -> None:
        for ns in (self.host, self.guest):
            run("ip", "netns", "del", ns, check=False)

    def prefix(self, ns):
        return ["ip", "netns", "exec", ns]

    def netem(self) -> bool:
        """200 ms each way with ``tc netem``; False if this kernel has no netem."""
        done = run("tc", "-n", self.host, "qdisc", "add", "dev", self.host_dev, "root", "netem", "delay", "200ms",
                   check=False)
        if done.returncode != 0:
            return False
        run("tc", "-n", self.guest, "qdisc", "add", "dev", self.guest_dev, "root", "netem", "delay", "200ms")
        return True

    def nft(self, *script: str) -> None:
        """nftables rules in the guest's namespace, on its veth only."""
        run("ip", "netns", "exec", self.guest, "nft", "-f", "-", check=False)
        done = subprocess.run(self.prefix(self.guest) + ["nft", "-f", "-"], input="\n".join(script), text=True,
                              capture_output=True, timeout=30)
        assert done.returncode == 0, done.stderr

    def faults(self, kind: str) -> None:
        """``loss``: 10% of packets dropped each way; ``cut``: every packet; ``none``: no rule."""
        self.nft("flush ruleset")
        if kind == "none":
            return
        match = "numgen random mod 10 < 1 " if kind == "loss" else ""
        self.nft("table inet c4faults {",
                 f"  chain in {{ type filter hook input priority 0; iifname \"{self.guest_dev}\" {match}drop; }}",
                 f"  chain out {{ type filter hook output priority 0; oifname \"{self.guest_dev}\" {match}drop; }}",
                 "}")


def run(*command, check=True):
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=check)
