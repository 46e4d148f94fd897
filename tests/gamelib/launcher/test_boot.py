"""The launcher booted for real: Debian 12 under ``systemd-nspawn``, the unit that ``install-service`` writes.

One machine for the whole module (see ``boot_machine.py``): a Debian tree made
by ``mmdebstrap`` (cached), the fake Sense HAT bound in, the project's wheel (built
from this checkout) and ``sense-hat`` from PyPI installed with pip in a
``--system-site-packages`` venv of the user ``pi``, then, as root, ``gamelib
install-service --user pi``.  The tests then read the LEDs from the framebuffer
file, push the stick through the FIFO and look at systemd and the journal.  They
run in order and each leaves the launcher showing its menu (or says otherwise).

Needs root, ``mmdebstrap``, ``systemd-nspawn`` (``systemd-container``) and
``nsenter``: ``.ci/install-boot-deps`` installs them.  Where they are missing the
module is skipped, saying why; under CI (``CI`` set) it fails instead.

To check something else inside the machine, use ``machine.run([...], user=USER)``
and ``machine.read_file(path)`` (e.g. a file the game writes under ``/home/pi``);
``play(machine, "4352")`` drops tokens in a game that shows its board.
"""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from boot_machine import SITE_DIR, FakeHat, Machine, chroot, group_id, overlay, rootfs_tree, unmount, \
    wait_for, what_is_missing
from ci_needs import require
from frames import turned

from gamelib.backends.mock import MockBackend
from gamelib.backends.senselib import pack_frame, soft_dimmed
from gamelib.games import discover
from gamelib.launcher.menu import Launcher, Screen
from gamelib.launcher.service import UNIT
from gamelib.launcher.settings import Settings
from gamelib.palette import palette as default_palette
from sensehat_c4.match import render
from sensehat_c4.match.chooser import choice_frame, size_frame
from sensehat_c4.match.controller import start_column
from sensehat_c4.rules import Board, Size

pytestmark = pytest.mark.slow  # the fast tier (-m "not slow") leaves these out

REPO = Path(__file__).resolve().parents[3]
SENSE_HAT = "sense-hat==2.6.0"
DEPENDENCIES = ("h11>=0.16,<1", "zeroconf>=0.131,<1", "ifaddr>=0.1.7")
"""The project's dependencies (the web view's HTTP parser; mDNS for the game between two Pis, and its
interface lister), for Debian 12's Python 3.11."""
USER, OUTSIDER = "pi", "outsider"
VENV = "games"
WHEELS = "/opt/c4-wheels"
SITE = "/opt/c4-site"
SETTINGS = f"/home/{USER}/.config/gamelib/settings.json"
DATABASE = f"/home/{USER}/.local/share/sensehat-c4/games.db"
LAUNCHER_OPTIONS = ("--dim-after", "0", "--blank-after", "0")  # the menu stays lit however slow the machine
START_TIMEOUT = 90.0
STEP_TIMEOUT = 30.0


# -- what the LEDs should show --------------------------------------------------------------------

def menu_frame(*, rotation: int = 0, screen: Screen = Screen.GAMES, system_index: int = 0,
               settings: Settings = Settings()) -> bytes:
    """The framebuffer's bytes for the launcher's frame in that state (its own :meth:`Launcher.frame`)."""
    launcher = Launcher(MockBackend(), discover(), settings=settings)
    launcher.screen, launcher.system_index = screen, system_index
    return pack_frame(list(turned(launcher.frame(), rotation)))


def chooser_frame(index: int) -> bytes:
    return pack_frame(choice_frame(index, default_palette()))


def board_frame(moves: str, cursor: Optional[int] = None) -> bytes:
    """A Connect 4 position (solver notation, ``"43"``), the cursor of the player to move over ``cursor``
    (0-based; where each turn starts if not given)."""
    board = Board.from_moves(moves)
    return pack_frame(render.board_frame(board, render.Palette(),
                                         cursor=start_column(board) if cursor is None else cursor))


DARK = bytes(128)


def physical(direction: str, rotation: int) -> str:
    """How to push the stick for ``direction`` as the player sees it when the picture is turned ``rotation``."""
    for candidate in ("up", "right", "down", "left"):
        mock = MockBackend(rotation=rotation)
        mock.event(candidate)
        if mock.stick.wait_event(0).direction.value == direction:
            return candidate
    raise ValueError(direction)


# -- the machine ----------------------------------------------------------------------------------

def build_wheels(directory: Path) -> None:
    """The project's wheel, built from a copy of this checkout, and the ``sense-hat`` wheel from PyPI."""
    source = directory / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".pytest_cache"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "wheel", "--no-deps", "--wheel-dir", str(directory / "wheels"), str(source)], check=True)
    for requirement in (SENSE_HAT, *DEPENDENCIES):
        subprocess.run([*pip, "download", "--no-deps", "--dest", str(directory / "wheels"), requirement], check=True)
    shutil.rmtree(source)


def prepare(root: Path, wheels: Path) -> None:
    """What a Raspberry Pi OS image has and Debian has not, and the test's files, in the tree before it boots."""
    chroot(root, f"groupadd --system input; groupadd --system i2c; "
                 f"useradd --create-home --shell /bin/bash {USER}; "
                 f"useradd --create-home --shell /bin/bash --groups input {OUTSIDER}")
    shutil.copy(SITE_DIR / "RTIMU.py", root / "usr/lib/python3/dist-packages/RTIMU.py")  # python3-rtimulib's place
    shutil.copytree(wheels, root / WHEELS.lstrip("/"))
    (root / SITE.lstrip("/")).mkdir(parents=True)
    for name in ("fake_hat_ioctl.py", "fake_hat_ioctl.pth"):
        shutil.copy(SITE_DIR / name, root / SITE.lstrip("/") / name)


def install_venv(machine: Machine, user: str) -> str:
    """As ``user``: a ``--system-site-packages`` venv with the project (``[hat]`` extra); its ``bin``."""
    venv = f"/home/{user}/{VENV}"
    machine.run(["python3", "-m", "venv", "--system-site-packages", venv], user=user)
    machine.run([f"{venv}/bin/pip", "install", "--quiet", "--no-index", "--find-links", WHEELS,
                 "sensehat-c4[hat]"], user=user)
    site = machine.run([f"{venv}/bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                       user=user).stdout.strip()
    machine.run(["cp", f"{SITE}/fake_hat_ioctl.py", f"{SITE}/fake_hat_ioctl.pth", site], user=user)
    return f"{venv}/bin"


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    require(what_is_missing(), "cannot boot a container here, missing", ".ci/install-boot-deps")
    work = tmp_path_factory.mktemp("boot")
    build_wheels(work)
    root = overlay(rootfs_tree(work), work)
    hat = None
    booted = None
    try:
        prepare(root, work / "wheels")
        hat = FakeHat(work / "hat", {g: group_id(root, g) for g in ("video", "input", "i2c")})
        booted = Machine(root, hat, work / "nspawn.log")
        booted.boot()
        bin_dir = install_venv(booted, USER)
        booted.run([f"{bin_dir}/gamelib", "install-service", "--user", USER, *LAUNCHER_OPTIONS])
        yield booted
    finally:
        if booted is not None:
            booted.poweroff()
        if hat is not None:
            hat.close()
        unmount(root)


def service_active(machine: Machine) -> bool:
    return machine.run(["systemctl", "is-active", UNIT], check=False).stdout.strip() == "active"


@pytest.fixture(autouse=True)
def journal_mark(machine):
    """Where the journal stood when this test began (waits give up early on a traceback after it)."""
    machine.mark = machine.journal_cursor()


def traceback_in_journal(machine: Machine):
    def probe():
        log = machine.journal("--unit", UNIT, f"--after-cursor={machine.mark}")
        return "a traceback in the journal:\n" + log if "Traceback" in log else None
    return probe


def wait_frame(machine: Machine, expected: bytes, what: str, timeout: float = STEP_TIMEOUT) -> None:
    """Wait until the LEDs show ``expected``; on failure say what they show and what the unit logged."""
    try:
        wait_for(what, lambda: machine.hat.frame() == expected, timeout, interval=0.05,
                 fail=traceback_in_journal(machine))
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nthe framebuffer: {machine.hat.frame().hex()}\nwanted:          "
                             f"{expected.hex()}\nthe unit's log:\n{machine.journal('--unit', UNIT)}") from None


def restart(machine: Machine) -> None:
    machine.run(["systemctl", "reset-failed", UNIT], check=False)  # manual restarts count towards StartLimitBurst
    machine.run(["systemctl", "restart", UNIT])


# -- the checks -------------------------------------------------------------------------------------

def test_the_unit_is_active_and_runs_as_the_user_with_the_hat_groups(machine):
    wait_for("the unit to be active", lambda: service_active(machine), START_TIMEOUT)
    pid = machine.unit_property(UNIT, "MainPID")
    status = dict(line.split(":\t", 1) for line in machine.read_file(f"/proc/{pid}/status").decode().splitlines()
                  if ":\t" in line)
    uid = machine.run(["id", "-u", USER]).stdout.strip()
    assert status["Uid"].split() == [uid] * 4
    groups = set(status["Groups"].split())
    assert {machine.run(["getent", "group", g]).stdout.split(":")[2] for g in ("video", "input")} <= groups
    assert machine.unit_property(UNIT, "UnitFileState") == "enabled"


def test_the_menu_is_drawn(machine):
    wait_frame(machine, menu_frame(), "the launcher's menu on the LEDs", START_TIMEOUT)


def test_a_stick_press_reaches_the_launcher(machine):
    wait_frame(machine, menu_frame(), "the menu")
    machine.hat.tap("middle")  # start Connect 4: it asks for the opponent
    wait_frame(machine, chooser_frame(0), "the opponent chooser (2P)")
    machine.hat.tap("right")
    wait_frame(machine, chooser_frame(1), "level 1 in the chooser")
    machine.hat.tap("up")  # back out: the menu comes back
    wait_frame(machine, menu_frame(), "the menu after backing out")


def play(machine: Machine, moves: str) -> None:
    """In a game of Connect 4 that shows its empty board: drop tokens in the columns ``moves`` names
    (1-based, as ``"43"``), stepping the cursor there and waiting until each token has landed."""
    for done in range(len(moves)):
        column, start = int(moves[done]) - 1, start_column(Board.from_moves(moves[:done]))
        for _ in range(abs(column - start)):
            machine.hat.tap("right" if column > start else "left")
        wait_frame(machine, board_frame(moves[:done], column), f"the cursor over column {column + 1}")
        machine.hat.tap("down")
        wait_frame(machine, board_frame(moves[:done + 1]), f"the board after {moves[:done + 1]}")


def test_a_game_is_played_under_systemd(machine):
    wait_frame(machine, menu_frame(), "the menu")
    machine.hat.tap("middle")
    wait_frame(machine, chooser_frame(0), "the opponent chooser (2P)")
    machine.hat.tap("middle")  # two players
    wait_frame(machine, pack_frame(size_frame(Size(), default_palette())), "the size chooser (7x6)")
    machine.hat.tap("middle")  # the classic board
    wait_frame(machine, board_frame(""), "the empty board")
    play(machine, "4352")
    machine.hat.tap("up")  # abandon? (the cursor row blinks)
    machine.hat.tap("up")  # yes
    wait_frame(machine, menu_frame(), "the menu after abandoning")
    # the launcher keeps the size chosen, under ProtectHome=read-only too
    saved = wait_for("the settings file", lambda: machine.exists(SETTINGS) and machine.read_file(SETTINGS),
                     STEP_TIMEOUT)
    assert json.loads(saved) == {"low_light": False, "rotation": 0, "games": {"connect4": {"board": "7x6"}}}
    # the game is in the database the user's own sensehat-c4 reads, written under ProtectHome=read-only
    stored = json.loads(machine.run([f"/home/{USER}/{VENV}/bin/sensehat-c4", "history", "--json"],
                                    user=USER).stdout)
    assert [(m["status"], m["backend"], m["board"], m["players"]["1"]["level"], m["players"]["2"]["level"],
             [(r["number"], r["starter"], r["moves"], r["result"]) for r in m["rounds"]]) for m in stored] == [
        ("abandoned", "hat", [7, 6], None, None, [(1, 1, "4352", "abandoned")])]
    assert machine.run(["stat", "--format=%U", DATABASE]).stdout.strip() == USER


def hold_up_for_the_system_menu(machine: Machine, rotation: int = 0) -> None:
    """Hold up as the kernel reports it (``held`` every 50 ms) until the system menu shows, then let go."""
    wanted = menu_frame(rotation=rotation, screen=Screen.SYSTEM)
    up = physical("up", rotation)
    machine.hat.event(up, "pressed")
    try:
        def held():
            machine.hat.event(up, "held")
            return machine.hat.frame() == wanted
        wait_for("the system menu after holding up", held, STEP_TIMEOUT, interval=0.05,
                 fail=traceback_in_journal(machine))
    finally:
        machine.hat.event(up, "released")


def test_a_setting_is_saved_under_protect_home(machine):
    assert machine.unit_property(UNIT, "ProtectHome") == "read-only"
    wait_frame(machine, menu_frame(), "the menu")
    hold_up_for_the_system_menu(machine)
    machine.hat.tap("right")
    wait_frame(machine, menu_frame(screen=Screen.SYSTEM, system_index=1), "R0 in the system menu")
    machine.hat.tap("middle")  # a quarter turn
    turned_90 = Settings(rotation=90)
    wait_frame(machine, menu_frame(rotation=90, screen=Screen.SYSTEM, system_index=1, settings=turned_90),
               "R1, turned a quarter")
    saved = wait_for("the settings file", lambda: machine.exists(SETTINGS) and machine.read_file(SETTINGS),
                     STEP_TIMEOUT)
    kept = json.loads(saved)
    kept.pop("games", None)  # what the game above asked the launcher to keep
    assert kept == {"low_light": False, "rotation": 90}
    owner = machine.run(["stat", "--format=%U", SETTINGS]).stdout.strip()
    assert owner == USER
    machine.hat.tap(physical("up", 90))  # the stick turns with the picture
    wait_frame(machine, menu_frame(rotation=90), "the menu, turned a quarter")


def test_stop_clears_the_leds(machine):
    wait_frame(machine, menu_frame(rotation=90), "the menu (turned by the test before)")
    machine.run(["systemctl", "stop", UNIT])
    assert machine.hat.frame() == DARK
    assert machine.unit_property(UNIT, "Result") == "success"  # exit 143 after SIGTERM is a clean stop
    assert machine.run(["systemctl", "is-active", UNIT], check=False).stdout.strip() == "inactive"


def test_the_journal_holds_no_traceback(machine):
    log = machine.journal("--unit", UNIT)
    assert "gamelib: INFO: starting Connect 4" in log.splitlines()  # the journal is read: the launch is in it
    assert "Traceback" not in log


def test_after_a_second_boot_the_service_starts_by_itself(machine):
    machine.poweroff()
    machine.hat.fb.write_bytes(DARK)
    machine.boot()
    machine.mark = machine.journal_cursor()
    wait_for("the unit to be active after the reboot", lambda: service_active(machine), START_TIMEOUT)
    wait_frame(machine, menu_frame(rotation=90), "the menu, with the saved rotation", START_TIMEOUT)
    assert "Traceback" not in machine.journal("--unit", UNIT)


BROKEN_SETTINGS = [
    pytest.param(b"{not json", id="not-json"),
    pytest.param(b'{"rotation": 90.0}', id="rotation-float"),  # passed the check, then range(90.0 // 90)
    pytest.param(b"[" * 100_000, id="deep-nesting"),  # RecursionError in the JSON decoder
]


@pytest.mark.parametrize("content", BROKEN_SETTINGS)
def test_a_broken_settings_file_does_not_stop_the_unit(machine, content):
    machine.run(["systemctl", "stop", UNIT])
    machine.write_file(SETTINGS, content, owner=USER)
    restart(machine)
    invocation = machine.unit_property(UNIT, "InvocationID")
    wait_frame(machine, menu_frame(), "the menu with the default settings", START_TIMEOUT)
    assert service_active(machine)
    assert machine.read_file(SETTINGS + ".corrupt") == content
    assert json.loads(machine.read_file(SETTINGS)) == {"low_light": False, "rotation": 0}
    log = machine.journal(f"_SYSTEMD_INVOCATION_ID={invocation}")
    assert f"kept it as {SETTINGS}.corrupt" in log and "Traceback" not in log


DRIVER_DROP_IN = f"/etc/systemd/system/{UNIT}.d/driver.conf"


def test_brightness_low_boots_on_the_driver_that_refuses_gamma(machine):
    """The kiosk's saved "brightness: low" on Bookworm's newer display driver, which answers the gamma
    ioctls with ENOTTY (``FAKE_HAT_GAMMA=refused``): the menu comes up dimmed in software, and the
    journal says so in one line."""
    machine.run(["systemctl", "stop", UNIT])
    machine.run(["mkdir", "-p", DRIVER_DROP_IN.rsplit("/", 1)[0]])
    machine.write_file(DRIVER_DROP_IN, b"[Service]\nEnvironment=FAKE_HAT_GAMMA=refused\n")
    machine.write_file(SETTINGS, b'{"low_light": true, "rotation": 0}', owner=USER)
    try:
        machine.run(["systemctl", "daemon-reload"])
        restart(machine)
        invocation = machine.unit_property(UNIT, "InvocationID")
        low = Settings(low_light=True)
        wait_frame(machine, pack_frame(soft_dimmed(list(turned(Launcher(MockBackend(), discover(), settings=low)
                                                               .frame(), 0)))),
                   "the menu dimmed in software", START_TIMEOUT)
        log = machine.journal(f"_SYSTEMD_INVOCATION_ID={invocation}")
        assert [line for line in log.splitlines() if "low light" in line] == [
            "gamelib: WARNING: low light: dimmed in software (the LED driver refuses the gamma ioctls: "
            "Inappropriate ioctl for device)"]
        assert "Traceback" not in log
    finally:
        machine.run(["rm", "-f", DRIVER_DROP_IN])
        machine.write_file(SETTINGS, b'{"low_light": false, "rotation": 0}', owner=USER)
        machine.run(["systemctl", "daemon-reload"])
        restart(machine)
    wait_frame(machine, menu_frame(), "the menu at full brightness", START_TIMEOUT)


@pytest.fixture(scope="module")
def outsider_log(machine):
    """The journal of ``gamelib install-service --user-unit`` run by a user in ``input`` but not in ``video``.

    The user unit (``systemctl --user``, started at boot by lingering) has no ``SupplementaryGroups=``:
    it is the way a user outside ``video`` ends up running the launcher under systemd.
    Returns the unit's state and its messages once its first run is over."""
    machine.run(["systemctl", "stop", UNIT])
    bin_dir = install_venv(machine, OUTSIDER)
    uid = machine.run(["id", "-u", OUTSIDER]).stdout.strip()
    env = {"XDG_RUNTIME_DIR": f"/run/user/{uid}"}
    machine.run(["loginctl", "enable-linger", OUTSIDER])
    try:
        wait_for(f"{OUTSIDER}'s systemd", lambda: machine.exists(f"/run/user/{uid}/systemd/private"), START_TIMEOUT)
        machine.run([f"{bin_dir}/gamelib", "install-service", "--user-unit", "--backend", "hat",
                     *LAUNCHER_OPTIONS], user=OUTSIDER, env=env)

        def state():
            shown = machine.run(["systemctl", "--user", "show", UNIT,
                                 "--property=ExecMainStatus,ActiveState,SubState,NRestarts,Result"],
                                user=OUTSIDER, env=env).stdout
            return dict(line.split("=", 1) for line in shown.splitlines())

        def first_run_over():
            now = state()
            return now["ExecMainStatus"] != "0" and now["ActiveState"] != "active"
        wait_for("the user unit's first run to end", first_run_over, START_TIMEOUT)
        yield state(), machine.journal(f"_SYSTEMD_USER_UNIT={UNIT}", f"_UID={uid}")
    finally:
        machine.run(["systemctl", "--user", "disable", "--now", UNIT], user=OUTSIDER, env=env, check=False)
        machine.run(["loginctl", "disable-linger", OUTSIDER], check=False)


def test_a_user_outside_video_gets_one_line_naming_the_group(outsider_log):
    _, log = outsider_log
    assert "Traceback" not in log
    said = [line for line in log.splitlines() if line.startswith("gamelib:")]
    assert said == ["gamelib: the Sense HAT LEDs (/dev/fb1) cannot be opened: permission denied; user outsider "
                    "needs the 'video' group: run 'sudo usermod -aG video outsider', then log in again"]


def test_a_user_outside_video_is_not_restarted(outsider_log):
    """The unit ends failed after its one start (exit 78, which ``RestartPreventExitStatus=`` names):
    not ``activating (auto-restart)`` on its way to repeating the line five times."""
    state, _ = outsider_log
    assert state == {"ExecMainStatus": "78", "ActiveState": "failed", "SubState": "failed", "NRestarts": "0",
                     "Result": "exit-code"}


# -- the web view ------------------------------------------------------------------------------------

def free_port() -> int:
    """A TCP port free on this machine's loopback (the container shares the host's network)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_web_unit_serves_the_page_to_the_host(machine):
    """``install-service --web``: the unit gets the network from the LAN only, and the page answers the host."""
    from web_client import Events, call

    closed_port = free_port()
    with pytest.raises(OSError):           # the unit as installed so far has no network: nothing listens
        call(closed_port, "GET", "/")
    port = free_port()
    bin_dir = f"/home/{USER}/{VENV}/bin"
    machine.run([f"{bin_dir}/gamelib", "install-service", "--user", USER, *LAUNCHER_OPTIONS,
                 "--web", f"127.0.0.1:{port}"])
    try:
        wait_for("the unit to be active", lambda: service_active(machine), START_TIMEOUT)
        shown = {name: machine.unit_property(UNIT, name) for name in
                 ("PrivateNetwork", "IPAddressAllow", "IPAddressDeny", "RestrictAddressFamilies")}
        assert shown["PrivateNetwork"] == "no" and set(shown["IPAddressDeny"].split()) == {"0.0.0.0/0", "::/0"}
        assert {"127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"} <= \
            set(shown["IPAddressAllow"].split())
        assert set(shown["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
        wait_frame(machine, menu_frame(), "the menu", START_TIMEOUT)
        wait_for("the page", lambda: _answers(port), START_TIMEOUT)
        page = call(port, "GET", "/")
        assert page.status == 200 and b'<canvas id="leds"' in page.body
        state = call(port, "GET", "/api/state").json()
        assert state["status"]["phase"] == "menu" and state["status"]["item"] == "Connect 4"
        launcher = Launcher(MockBackend(), discover())
        assert state["pixels"] == [list(p) for p in launcher.frame()]
        with Events(port) as events:
            events.until(lambda kind, data: kind == "frame")
            machine.hat.tap("middle")                                    # the stick at the HAT ...
            events.until(lambda kind, data: kind == "frame" and data["pixels"] == [list(p) for p in choice_frame(0, default_palette())])
            machine.hat.tap("up")                                        # ... seen on the page
            wait_frame(machine, menu_frame(), "the menu after backing out")
        assert "Traceback" not in machine.journal("--unit", UNIT, f"--after-cursor={machine.mark}")
    finally:
        machine.run([f"{bin_dir}/gamelib", "install-service", "--user", USER, *LAUNCHER_OPTIONS], check=False)


def _answers(port: int) -> bool:
    from web_client import call

    try:
        return call(port, "GET", "/api/state").status == 200
    except OSError:
        return False
