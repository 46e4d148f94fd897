"""``gamelib install-service`` / ``uninstall-service``: the launcher as a systemd unit.

The unit files ship in ``gamelib/launcher/systemd/``; installing fills in ``ExecStart=``
(this Python environment: ``sys.executable -m gamelib`` and the launcher options
given) and, for the system unit, ``User=``.  The system unit goes to
``/etc/systemd/system`` and needs root: without it we print the exact ``sudo``
command and exit non-zero.  ``--allow-poweroff`` also writes a polkit rule that
lets that one user power the machine off (and nothing else).  The user unit
(``--user-unit``) goes to ``~/.config/systemd/user`` and needs no root.

Everything outside this process goes through ``root`` (a directory standing for
``/``) and a command runner, so tests use a temporary directory and record the
``systemctl`` calls.
"""
from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple

from ..app import report
from ..errors import ConfigError
from ..files import atomic_write, config_home
from ..i18n import _
from .system import CommandRunner, run_command

UNIT = "sensehat-games.service"
TEMPLATE_UNIT = "sensehat-games@.service"
"""The Debian package's system unit: a template whose instance names the user (``sensehat-games@pi.service``)."""
TEMPLATES = Path(__file__).with_name("systemd")
SYSTEM_TEMPLATE = TEMPLATES / "sensehat-games.service"
USER_TEMPLATE = TEMPLATES / "sensehat-games-user.service"
SYSTEM_UNIT = Path("etc/systemd/system") / UNIT
POLKIT_RULE = Path("etc/polkit-1/rules.d/50-sensehat-games.rules")
POLKIT_ACTIONS = ("org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions")

_PLAIN = re.compile(r"[A-Za-z0-9_./:=@+,-]+")


def quote(arg: str) -> str:
    """One ``ExecStart=`` argument, quoted and escaped as systemd reads it (``%`` and ``$`` too)."""
    escaped = arg.replace("%", "%%").replace("$", "$$")
    if _PLAIN.fullmatch(arg):
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


WRITABLE = (".config/sense_hat", ".config/gamelib", ".local/share/sensehat-c4")
"""What the launcher's user writes under their home: ``sense_hat``'s ``RTIMULib.ini``, our settings,
Connect 4's games database (``$XDG_DATA_HOME/sensehat-c4/games.db``)."""


LAN = "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"
"""Who may reach the web view when the unit serves one: this machine, link-local and the private ranges."""
MDNS = "224.0.0.251 ff02::fb"
"""mDNS's multicast groups (``--lan``: advertising the game and finding others')."""
WEB_FAMILIES = "AF_UNIX AF_INET AF_INET6"
LAN_FAMILIES = "AF_UNIX AF_INET AF_INET6 AF_NETLINK"
"""``--lan`` adds netlink: zeroconf lists the interfaces with ``getifaddrs()``, which asks the kernel by netlink."""


def render(template: str, command: Sequence[str], user: Optional[str] = None,
           home: Optional[str] = None, web: Optional[int] = None, lan: bool = False) -> str:
    """The unit text with ``ExecStart=`` set to ``command`` and (if given) ``User=`` to ``user``
    and ``ReadWritePaths=`` to the :data:`WRITABLE` directories under ``home``.

    With ``web`` (the port of ``--web``) the unit gets the network, and only what the web view
    needs: ``PrivateNetwork=`` goes, IPv4 and IPv6 sockets are allowed, and (in the system unit,
    whose ``IPAddressDeny=any`` stays) traffic only from and to the :data:`LAN` ranges, and a
    listening socket only on that TCP port.  With ``lan`` as well (``--lan``: a game between two Pis)
    also mDNS: its multicast groups (:data:`MDNS`) and UDP port 5353, and netlink sockets."""
    lines = []
    for line in template.splitlines():
        if line.startswith("ExecStart="):
            line = "ExecStart=" + " ".join(quote(arg) for arg in command)
        elif line.startswith("User=") and user is not None:
            line = f"User={user}"
        elif line.startswith("ReadWritePaths=") and home is not None:
            line = "ReadWritePaths=" + " ".join("-" + quote(os.path.join(home, d)) for d in WRITABLE)
        elif web is not None and line == "PrivateNetwork=yes":
            continue
        elif web is not None and line.startswith("RestrictAddressFamilies="):
            line = f"RestrictAddressFamilies={LAN_FAMILIES if lan else WEB_FAMILIES}"
        elif web is not None and line == "IPAddressDeny=any":
            if lan:
                lines += [f"# --lan {web}: the LAN only (everything else stays denied), its mDNS groups, and only",
                          "# that port and mDNS's to listen on",
                          f"IPAddressAllow={LAN} {MDNS}", line, f"SocketBindAllow=tcp:{web}", "SocketBindAllow=udp:5353",
                          "SocketBindDeny=any"]
            else:
                lines += [f"# --web {web}: the LAN only (everything else stays denied), and only that port to listen on",
                          f"IPAddressAllow={LAN}", line, f"SocketBindAllow=tcp:{web}", "SocketBindDeny=any"]
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


PACKAGED_COMMAND = ("/usr/bin/python3", "-m", "gamelib")
"""How the Debian package's units start the launcher (its modules are the system Python's)."""
PACKAGED_DOCUMENTATION = "man:gamelib(6) file:/usr/share/doc/sensehat-c4/docs/guide/autostart.md"
"""The Debian package's units' ``Documentation=`` (``systemctl help``): its man page and the guide's page, both in
the package (a unit ``install-service`` writes has none: a pip install has neither)."""
PACKAGED_HEADER = """# The Sense HAT games launcher, from the sensehat-c4 Debian package (installed, not enabled).
# {what}
# Rendered from gamelib/launcher/systemd/ by tools/package_units.py when the package is built;
# `gamelib install-service` writes its own unit instead (/etc/systemd/system/{unit}): use one of the two.
"""


SERVICE_BACKEND = "hat"
"""The backend a unit plays on unless ``install-service --backend`` says otherwise (a service is for a Pi's HAT)."""


def packaged_units() -> Dict[str, str]:
    """The units the Debian package installs, by their path under ``/lib/systemd``:

    * ``system/sensehat-games@.service``: the system unit as a template whose instance is the user
      (``sudo systemctl enable --now sensehat-games@pi``): ``User=%i``, the :data:`WRITABLE` folders
      under ``/home/%i``, made as that user before the launcher starts (``install-service`` makes them
      when it installs; here nothing runs at install time);
    * ``user/sensehat-games.service``: the user unit (``systemctl --user enable --now sensehat-games``).

    Both name their documentation (:data:`PACKAGED_DOCUMENTATION`).
    """
    system = render(_body(SYSTEM_TEMPLATE.read_text()), [*PACKAGED_COMMAND, "--backend", SERVICE_BACKEND])
    folders = " ".join(f"/home/%i/{d}" for d in WRITABLE)
    lines = []
    for line in system.splitlines():
        if line.startswith("User="):
            line = "User=%i"
        elif line.startswith("ReadWritePaths="):
            line = "ReadWritePaths=" + " ".join(f"-/home/%i/{d}" for d in WRITABLE)
        elif line.startswith("# install-service puts the user's home here"):
            line = "# ExecStartPre= above makes the three directories, owned by the user."
        elif line.startswith("ExecStart="):
            lines += ["# the folders the launcher writes, made by the user (+: outside the sandbox below)",
                      f"ExecStartPre=+runuser -u %i -- mkdir -p {folders}"]
        lines.append(line)
    system_text = PACKAGED_HEADER.format(
        what="A template: the instance is the user it runs as: sudo systemctl enable --now sensehat-games@pi",
        unit=UNIT) + _documented("\n".join(lines) + "\n")
    user_text = PACKAGED_HEADER.format(
        what="A user unit: systemctl --user enable --now sensehat-games (the user needs the video and input groups)",
        unit=UNIT) + _documented(render(_body(USER_TEMPLATE.read_text()), list(PACKAGED_COMMAND)))
    return {f"system/{TEMPLATE_UNIT}": system_text, f"user/{UNIT}": user_text}


def _documented(unit: str) -> str:
    """``unit`` with ``Documentation=`` after its ``Description=``."""
    return re.sub(r"^(Description=.*\n)", lambda found: f"{found.group(1)}Documentation={PACKAGED_DOCUMENTATION}\n",
                  unit, count=1, flags=re.M)


def _body(template: str) -> str:
    """A unit template without its opening comment (which says how install-service fills it in)."""
    lines = template.splitlines()
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines) + "\n"


def polkit_rule(user: str) -> str:
    """A polkit rule letting ``user`` (and no one else) power off through logind."""
    actions = " ||\n        ".join(f'action.id == "{a}"' for a in POLKIT_ACTIONS)
    return ("// Written by `gamelib install-service --allow-poweroff`: lets the games launcher's user\n"
            "// shut the machine down from the system menu.  Removed by `gamelib uninstall-service`.\n"
            "polkit.addRule(function(action, subject) {\n"
            f"    if (({actions}) &&\n"
            f"        subject.user == {json.dumps(user)}) {{\n"
            "        return polkit.Result.YES;\n"
            "    }\n"
            "});\n")


def _current_user() -> str:
    return pwd.getpwuid(os.getuid()).pw_name


def known_user(name: str) -> bool:
    """True if the system has a user called ``name``."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def lookup_account(name: str) -> Tuple[str, int, int]:
    """``(home, uid, gid)`` of the user called ``name``."""
    entry = pwd.getpwnam(name)
    return entry.pw_dir, entry.pw_uid, entry.pw_gid


@dataclass
class Installer:
    """Installs and removes the units; every outside effect is injectable for tests."""

    root: Path = Path("/")
    run: CommandRunner = run_command
    euid: int = field(default_factory=os.geteuid)
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    python: str = sys.executable
    out: TextIO = field(default_factory=lambda: sys.stdout)
    user_exists: Callable[[str], bool] = known_user
    account: Callable[[str], Tuple[str, int, int]] = lookup_account
    prog: str = "gamelib"

    # -- paths ------------------------------------------------------------------

    def user_unit_path(self) -> Path:
        return config_home(self.environ) / "systemd" / "user" / UNIT

    def _system(self, relative: Path) -> Path:
        return self.root / relative

    # -- install ------------------------------------------------------------------

    def install(self, *, user: Optional[str], user_unit: bool, launcher_args: Sequence[str],
                allow_poweroff: bool, argv: Sequence[str], web: Optional[str] = None, web_port: Optional[int] = None,
                lan: bool = False) -> int:
        """Write the unit (and the polkit rule if asked), then reload, enable and start it.  ``web``: the
        launcher's ``--web [HOST:]PORT`` (``web_port`` its port), which opens the unit to the LAN; ``lan``:
        it is ``--lan`` instead (a game between two Pis: mDNS too)."""
        command = [self.python, "-m", "gamelib", *launcher_args] + ([("--lan" if lan else "--web"), web] if web else []) + \
            (["--allow-poweroff"] if allow_poweroff else [])
        if user_unit:
            path = self.user_unit_path()
            _write(path, render(USER_TEMPLATE.read_text(), command, web=web_port, lan=lan))
            self._say(_("wrote {path}").format(path=path))
            if not all(self._systemctl(["--user", *command], path) for command in _START):
                return 1
            self._say(_("started and enabled {unit} for {user}: systemctl --user status {unit}; "
                        "to start it at boot without logging in: sudo loginctl enable-linger {user}").format(
                            unit=UNIT, user=_current_user()))
            return 0
        name = user or self.environ.get("SUDO_USER") or (None if self.euid == 0 else _current_user())
        if not name or name == "root":
            raise ConfigError(_("say which (unprivileged) user runs the launcher: --user NAME"))
        if not self.user_exists(name):
            raise ConfigError(_("there is no user {name} on this system").format(name=repr(name)))
        if self.euid != 0:
            return self._needs_root(["install-service", "--user", name, *argv])
        home, uid, gid = self.account(name)
        for directory in WRITABLE:
            self._make_dirs(Path(home) / directory, uid, gid)
        path = self._system(SYSTEM_UNIT)
        _write(path, render(SYSTEM_TEMPLATE.read_text(), command, user=name, home=home, web=web_port, lan=lan))
        self._say(_("wrote {path} (runs as {user}: {command})").format(path=path, user=name, command=" ".join(command)))
        rule = self._system(POLKIT_RULE)
        if allow_poweroff:
            _write(rule, polkit_rule(name))
            self._say(_("wrote {path} (lets {user} power off the machine)").format(path=rule, user=name))
        elif rule.exists():
            rule.unlink()
            self._say(_("removed {path} (no --allow-poweroff)").format(path=rule))
        if not all(self._systemctl(command, path) for command in _START):
            return 1
        self._say(_("started and enabled {unit}: systemctl status {unit}; its log: journalctl -u {unit}").format(unit=UNIT))
        return 0

    def uninstall(self, *, user_unit: bool, argv: Sequence[str]) -> int:
        """Stop and disable the unit, remove its files, reload."""
        if user_unit:
            paths = [self.user_unit_path()]
            scope = ["--user"]
        else:
            if self.euid != 0:
                return self._needs_root(["uninstall-service", *argv])
            paths = [self._system(SYSTEM_UNIT), self._system(POLKIT_RULE)]
            scope = []
        if not paths[0].exists():
            self._say(_("nothing to remove: {path} does not exist").format(path=paths[0]))
            return 0
        ok = self._systemctl([*scope, "disable", "--now", UNIT], paths[0])
        for path in paths:
            if path.exists():
                path.unlink()
                self._say(_("removed {path}").format(path=path))
        return 0 if self._systemctl([*scope, "daemon-reload"], paths[0]) and ok else 1

    # -- helpers --------------------------------------------------------------------

    def _make_dirs(self, directory: Path, uid: int, gid: int) -> None:
        """Create ``directory`` and its missing parents (under :attr:`root`), owned by the user."""
        missing = []
        path = self._system(directory.relative_to(directory.anchor))
        while not path.exists():
            missing.append(path)
            path = path.parent
        for path in reversed(missing):
            path.mkdir(mode=0o755)
            os.chown(path, uid, gid)
            self._say(_("made {path} (for {owner})").format(path=path, owner=f"{uid}:{gid}"))

    def _needs_root(self, args: Sequence[str]) -> int:
        command = " ".join(shlex.quote(a) for a in ["sudo", self.python, "-m", "gamelib", *args])
        report(self.prog, _("this changes /etc/systemd/system and needs root: run {command}").format(command=command))
        return 1

    def _systemctl(self, args: List[str], unit_path: Path) -> bool:
        command = ["systemctl", *args]
        status = self.run(command)
        if status != 0:
            report(self.prog, _("'{command}' failed (exit status {status}); the unit file is {path}").format(
                command=" ".join(command), status=status, path=unit_path))
        return status == 0

    def _say(self, message: str) -> None:
        print(message, file=self.out)


_START = (["daemon-reload"], ["enable", UNIT], ["restart", UNIT])
"""After writing the unit: reload, enable, and (re)start it, so a unit already running takes the new options."""


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by all (systemd and polkit read it)."""
    atomic_write(path, text, mode=0o644)
