"""``sensehat-c4 doctor``: each failure made real, the verdict, the words, the output.

The HAT's failures are made real in a fake kernel (``fake_kernel.py``): a forked child in a
mount namespace of its own, with ``/sys/class``, ``/dev`` and ``/etc/group`` as a Pi with a Sense
HAT shows them (or without the framebuffer, the joystick, a device node), running as ``nobody``
with the groups a case gives it, where the command runs in full: the real checks on the real
files, the real refusal of the gamma ioctl by a file that is no framebuffer, a real damaged
SQLite file.  Where the gamma ioctl must be answered, ``boot_site/fake_hat_ioctl.py`` answers it
as the ``rpisense-fb`` driver does.  The service's states come from a ``systemctl`` the test
gives :class:`~gamelib.doctor.System`, its output as systemd writes it (a failing unit is made
real in ``test_deb``, on a booted Debian).  A port is taken by a real socket on loopback.
"""
from __future__ import annotations

import grp
import importlib
import json
import os
import re
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from as_nobody import NOBODY, in_child
from fake_kernel import DATABASE, Kernel, in_fake_kernel, usable
from records_damage import damage, games_file
from records_data import record_match, ticking

from gamelib import doctor as gdoctor
from gamelib.doctor import Status, System
from gamelib.install import Install, Kind
from sensehat_c4 import commands
from sensehat_c4.commands import checks as cdoctor
from sensehat_c4.engine import book12, native
from sensehat_c4.records import Recorder, Records

TESTS = Path(__file__).resolve().parents[1] / "helpers"
ROOT = TESTS.parents[1]
SITE = TESTS / "doctor_site"          # a stand-in sense_hat (the real one needs RTIMU, built on a Pi)
BOOT_SITE = TESTS / "boot_site"       # fake_hat_ioctl: the rpisense-fb driver's gamma answers

needs_namespace = pytest.mark.skipif(usable() is not None, reason=f"the fake kernel {usable()}")


def warm_up():
    """Import everything the command imports (in the parent: ``nobody`` may not read the standard library)."""
    importlib.import_module("sensehat_c4.commands.doctor")    # the table imports a command's module when it runs
    cdoctor.examine(System())


def doctor_in(kernel: Kernel, *args: str, groups=("video", "input"), ioctl: bool = True, sense_hat: bool = True,
              scratch: Optional[Path] = None) -> Tuple[int, str, str]:
    """``sensehat-c4 doctor ARGS`` in the fake kernel as ``nobody`` with ``groups``: exit code, out, err."""
    def action():
        if sense_hat:
            sys.path.insert(0, str(SITE))
        else:
            sys.modules["sense_hat"] = None  # type: ignore[assignment]   # not installed
        if ioctl:
            sys.path.insert(0, str(BOOT_SITE))
            import fake_hat_ioctl  # noqa: F401 (wraps fcntl.ioctl in this child only)
        os.environ["SENSEHAT_C4_DB"] = DATABASE
        return commands.main(["doctor", *args])

    return in_fake_kernel(kernel, action, groups=groups, preload=warm_up, scratch=scratch)


def checks(out: str) -> Dict[str, dict]:
    report = json.loads(out)
    return {c["check"]: c for c in report["checks"] if c["check"] != "service"}


def line(check: dict, utf8: bool = True) -> str:
    """A JSON check as its text line."""
    mark = gdoctor.MARKS[Status(check["status"])][0 if utf8 else 1]
    fix = f"; fix: {check['fix']}" if check["fix"] and check["status"] == "fail" else ""
    return f"{mark} {check['label']}: {check['detail']}{fix}"


# -- the HAT, made real in the fake kernel ---------------------------------------------------------


@needs_namespace
def test_a_pi_whose_hat_works_exits_0_and_says_which_driver():
    code, out, err = doctor_in(Kernel(), "--backend", "hat", "--json")
    found = checks(out)
    assert (code, err) == (0, "")
    assert json.loads(out)["works"] is True and json.loads(out)["backend"] == {"asked": "hat", "from": "--backend",
                                                                              "chosen": "hat"}
    assert line(found["sense_hat"]) == f"✓ sense_hat library: 2.6.0 ({SITE / 'sense_hat'})"
    assert line(found["leds"]) == "✓ LEDs: /dev/fb1 (RPi-Sense FB), writable"
    assert line(found["stick"]) == "✓ joystick: /dev/input/event0 (Raspberry Pi Sense HAT Joystick), readable"
    assert line(found["driver"]) == "✓ display driver: gamma ioctls answered (rpisense-fb): low light in the driver"
    # nobody is not in i2c: a fault, with its fix, that play does not need
    assert line(found["i2c"]) == ("✗ I2C: /dev/i2c-1 cannot be opened by nobody (root:i2c rw-rw----); "
                                  "fix: sudo usermod -aG i2c nobody, then log in again")
    assert [c for c in found.values() if c["needed"]] == [found[n] for n in ("python", "sense_hat", "leds", "stick",
                                                                             "play")]
    assert line(found["play"]) == "✓ way to play: the Sense HAT (--backend)"


@needs_namespace
def test_the_text_report_one_line_each():
    code, out, err = doctor_in(Kernel(), "--backend", "hat")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert [text.split(":")[0] for text in lines] == [
        "✓ Python", "✓ sense_hat library", "✓ LEDs", "✓ joystick", "✓ display driver", "✗ I2C", "– emulator",
        "– terminal", "✓ solver core", "✓ opening books", "✓ games database", lines[11].split(":")[0],
        lines[12].split(":")[0], lines[13].split(":")[0], "✓ zeroconf", "✓ way to play"]
    assert [text.split(":")[0][2:] for text in lines[11:14]] == ["service", "web port", "mDNS port"]  # (the machine's)
    assert lines[2] == "✓ LEDs: /dev/fb1 (RPi-Sense FB), writable"
    assert lines[-1] == "✓ way to play: the Sense HAT (--backend)"
    assert lines[6].startswith("– emulator: library ") and "; fix:" not in lines[6]   # not needed: no fix shown


@needs_namespace
def test_no_framebuffer():
    code, out, _ = doctor_in(Kernel(leds=False), "--backend", "hat", "--json")
    found = checks(out)
    assert code == 1
    assert line(found["leds"]) == (
        "✗ LEDs: the kernel shows no 'RPi-Sense FB' framebuffer (no Sense HAT, or its driver is not loaded); "
        "fix: check the HAT is seated (the rainbow at power-on goes off once the driver has it); if it stays lit, "
        "add dtoverlay=rpi-sense to /boot/firmware/config.txt and reboot")
    assert line(found["driver"]) == "– display driver: not checked: no LEDs to ask"
    assert line(found["play"]) == "✗ way to play: the Sense HAT (--backend) does not work here: see the lines marked above"


@needs_namespace
def test_no_framebuffer_and_auto_finds_nothing_to_play_on():
    code, out, _ = doctor_in(Kernel(leds=False, stick=False), "--json")
    found = checks(out)
    assert code == 1 and json.loads(out)["backend"] == {"asked": "auto", "from": "default", "chosen": None}
    assert found["leds"]["status"] == "skip"   # not there, and auto did not need it
    assert (found["play"]["detail"], found["play"]["fix"]) == (
        "nothing to play on (auto-detected): no Sense HAT found, the emulator is not running and this is not a "
        "terminal",
        "run it in a terminal, start sense_emu_gui on a desktop, or on a Pi check the HAT and that this user is in "
        "the 'video' and 'input' groups")
    code, out, _ = doctor_in(Kernel(leds=False, stick=False))
    assert code == 1 and out.splitlines()[-1] == (
        "✗ way to play: nothing to play on (auto-detected): no Sense HAT found, the emulator is not running and "
        "this is not a terminal; fix: run it in a terminal, start sense_emu_gui on a desktop, or on a Pi check the "
        "HAT and that this user is in the 'video' and 'input' groups")


@needs_namespace
def test_auto_takes_the_hat_when_the_kernel_shows_it_even_if_the_group_is_missing():
    code, out, _ = doctor_in(Kernel(), "--json", groups=("input",))
    assert code == 1 and json.loads(out)["backend"]["chosen"] == "hat"


@needs_namespace
def test_a_device_node_missing():
    code, out, _ = doctor_in(Kernel(leds_node=False), "--backend", "hat", "--json")
    assert code == 1
    assert line(checks(out)["leds"]) == ("✗ LEDs: the kernel shows fb1 (RPi-Sense FB) but there is no /dev/fb1; "
                                         "fix: reboot (udev did not make the device node)")


@needs_namespace
def test_wrong_group_for_the_leds():
    code, out, _ = doctor_in(Kernel(), "--backend", "hat", "--json", groups=("input",))
    found = checks(out)
    assert code == 1
    assert line(found["leds"]) == ("✗ LEDs: /dev/fb1 (RPi-Sense FB) cannot be written by nobody "
                                   "(root:video rw-rw----); fix: sudo usermod -aG video nobody, then log in again")
    assert line(found["driver"]).startswith("– display driver: not checked: /dev/fb1 (RPi-Sense FB) cannot be written")


@needs_namespace
def test_added_to_the_group_but_not_logged_in_again():
    code, out, _ = doctor_in(Kernel(members={"input": ("nobody",)}), "--backend", "hat", "--json", groups=("video",))
    assert code == 1
    assert line(checks(out)["stick"]) == (
        "✗ joystick: /dev/input/event0 (Raspberry Pi Sense HAT Joystick) cannot be read by nobody "
        "(root:input rw-rw----); fix: nobody was added to the 'input' group after this login began: log in again (or reboot)")


@needs_namespace
def test_no_joystick():
    code, out, _ = doctor_in(Kernel(stick=False), "--backend", "hat", "--json")
    assert code == 1
    assert line(checks(out)["stick"]) == (
        "✗ joystick: the kernel shows no 'Raspberry Pi Sense HAT Joystick' input device: sense_hat says "
        "'unable to locate SenseHAT joystick device'; fix: check the HAT is seated; if the LEDs work, update the "
        "kernel (sudo apt full-upgrade) and reboot")


@needs_namespace
def test_gamma_refused_means_low_light_in_software_and_still_works():
    code, out, _ = doctor_in(Kernel(), "--backend", "hat", "--json", ioctl=False)
    assert code == 0
    assert line(checks(out)["driver"]) == ("✓ display driver: gamma ioctls refused (Inappropriate ioctl for device): "
                                           "low light in software")


@needs_namespace
def test_sense_hat_not_installed():
    code, out, _ = doctor_in(Kernel(), "--backend", "hat", "--json", sense_hat=False)
    assert code == 1
    assert checks(out)["sense_hat"]["status"] == "fail" and checks(out)["sense_hat"]["detail"] == "not installed"
    assert checks(out)["sense_hat"]["fix"] == gdoctor.sense_hat_fix(System())   # as this install needs it (below)


@needs_namespace
@pytest.mark.parametrize("mode, seed", [("zero", 5), ("copy", 14), ("zero", 1)])
def test_a_damaged_database(tmp_path, mode, seed):
    """Pages damaged (seeded, ``records_damage.py``) so that SQLite's quick_check finds one problem, finds two,
    or cannot even read the schema (the seeds pinned for the file's pages as schema version 4 lays them out); what it says is asked of SQLite directly."""
    good = games_file(tmp_path / "good.db", 40)
    damaged = tmp_path / "damaged.db"
    damage(good, damaged, mode, seed)
    try:
        findings = [str(row[0]) for row in sqlite3.connect(f"file:{damaged}?mode=ro", uri=True).execute(
            "PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        findings, error = [], str(exc)
    problems = [text for found in findings for text in found.splitlines() if not text.startswith("***")]
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    code, out, _ = doctor_in(Kernel(database=damaged), "--backend", "hat", "--json", scratch=scratch)
    assert code == 0   # play does not need the records: the next game sets the file aside
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        assert (mode, seed, len(problems)) in (("zero", 5, 1), ("copy", 14, 2))
        assert line(checks(out)["records"]) == (
            f"✗ games database: {DATABASE}: quick_check: {problems[0]}{more}; fix: the next game moves it aside "
            "(games.db.corrupt-TIME) and starts a new one; 'sensehat-c4 history' shows what can still be read")
    else:
        assert (mode, seed) == ("zero", 1)
        assert line(checks(out)["records"]) == (
            f"✗ games database: cannot read {DATABASE}: {error}; fix: name another file with --db or "
            "$SENSEHAT_C4_DB, or move this one aside")


@needs_namespace
def test_a_sound_database(tmp_path):
    good = games_file(tmp_path / "good.db", 3)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    code, out, _ = doctor_in(Kernel(database=good), "--backend", "hat", "--json", scratch=scratch)
    assert code == 0
    assert line(checks(out)["records"]) == f"✓ games database: {DATABASE}: 3 matches, writable, quick_check ok"


# -- the games database as the game writes it, as its owner (root writes whatever the modes say) ----

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run a child as nobody")
NOBODY_GROUP = grp.getgrgid(NOBODY).gr_name


@pytest.fixture
def nobodys():
    """A folder ``nobody`` owns, in a directory everyone may enter (``tmp_path`` lies under a root-only one)."""
    top = Path(tempfile.mkdtemp())
    os.chmod(top, 0o755)
    folder = top / "c4"
    folder.mkdir()
    os.chown(folder, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(top)


def beside(folder: Path) -> List[Tuple[str, str]]:
    """The files in ``folder``: name and mode (``-r--r--r--``)."""
    return sorted((p.name, oct(p.stat().st_mode & 0o777)) for p in folder.iterdir())


def play_records(db: Path) -> Optional[str]:
    """As ``nobody``: a match recorded as the match loop records it; why recording stopped (``None``: it did not)."""
    def play():
        recorder = Recorder(db, clock=ticking())
        record_match(recorder, ["1212121"])
        recorder.close()
        return recorder.failed
    return in_child(play)[0]


def doctor_as_nobody(db: Path, *args: str) -> Tuple[int, str, str]:
    """``sensehat-c4 doctor --backend terminal --db DB ARGS`` as ``nobody``: exit code, out, err."""
    warm_up()
    return in_child(lambda: commands.main(["doctor", "--backend", "terminal", "--db", str(db), *args]))


def records_line(db: Path) -> str:
    return line(checks(doctor_as_nobody(db, "--json")[1])["records"])


def run_fix(fix: str) -> None:
    """Each command of a fix (``sudo chown ...``, then ``chmod u+w ...``) as the fix says: ``sudo`` as root,
    the rest as ``nobody``."""
    for command in fix.split(", then "):
        argv = shlex.split(command)
        if argv[0] == "sudo":
            subprocess.run(argv[1:], check=True)
        else:
            assert in_child(lambda: subprocess.run(argv, check=False).returncode)[0] == 0


@as_root
@pytest.mark.parametrize("reader", [["doctor", "--backend", "terminal"], ["history"], ["stats"]], ids=lambda r: r[0])
def test_a_read_only_database_read_then_made_writable_records_the_next_game(nobodys, reader):
    """The issue's sequence: ``games.db`` 444, doctor (or history, stats), ``chmod 644 games.db``, a game: it records.
    Reading used to leave ``games.db-wal`` and ``games.db-shm`` of mode 444 beside it, and the game then said
    'attempt to write a readonly database'."""
    db = nobodys / "games.db"
    assert play_records(db) is None
    os.chmod(db, 0o444)
    warm_up()
    importlib.import_module(f"sensehat_c4.commands.{reader[0]}")
    code, out, err = in_child(lambda: commands.main([*reader, "--db", str(db)]))
    assert (code, err) == (1 if reader[0] == "doctor" else 0, "")
    assert beside(nobodys) == [("games.db", "0o444")]             # nothing left beside it
    assert records_line(db) == (f"✗ games database: {db}: 1 matches, quick_check ok, but nobody cannot write {db} "
                                f"(nobody:{NOBODY_GROUP} r--r--r--); fix: chmod u+w {db}")
    assert beside(nobodys) == [("games.db", "0o444")]
    os.chmod(db, 0o644)
    assert records_line(db) == f"✓ games database: {db}: 1 matches, writable, quick_check ok"
    assert play_records(db) is None
    with Records(db) as stored:
        assert len(stored.matches()) == 2


@as_root
def test_side_files_an_earlier_reader_left_read_only_are_named_with_the_fix_that_works(nobodys):
    """A database of 644 beside a ``-wal`` and ``-shm`` of 444 (as ``history`` of an earlier version left them):
    doctor names both, its fix run as it is written lets the game record."""
    db = nobodys / "games.db"
    assert play_records(db) is None
    os.chmod(db, 0o444)
    def old_read():   # what the reader did: mode=ro, whatever the file's mode
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        conn.execute("SELECT COUNT(*) FROM matches").fetchone()
        conn.close()
    in_child(old_read)
    os.chmod(db, 0o644)
    assert beside(nobodys) == [("games.db", "0o644"), ("games.db-shm", "0o444"), ("games.db-wal", "0o444")]
    found = checks(doctor_as_nobody(db, "--json")[1])["records"]
    # SQLite gives an empty -wal the database's mode when it opens it; the -shm keeps its own
    assert beside(nobodys) == [("games.db", "0o644"), ("games.db-shm", "0o444"), ("games.db-wal", "0o644")]
    assert line(found) == (f"✗ games database: {db}: 1 matches, quick_check ok, but nobody cannot write {db}-shm "
                           f"(nobody:{NOBODY_GROUP} r--r--r--); fix: chmod u+w {db}-shm")
    assert play_records(db) == "attempt to write a readonly database"   # what the game says before the fix
    run_fix(found["fix"])
    assert play_records(db) is None
    assert records_line(db) == f"✓ games database: {db}: 2 matches, writable, quick_check ok"


@as_root
def test_a_folder_of_the_user_without_its_write_bit_gets_chmod(nobodys):
    db = nobodys / "games.db"
    os.chmod(nobodys, 0o555)
    found = checks(doctor_as_nobody(db, "--json")[1])["records"]
    assert line(found) == (f"✗ games database: {db} cannot be made: nobody cannot write {nobodys} "
                           f"(nobody:{NOBODY_GROUP} r-xr-xr-x); fix: chmod u+w {nobodys}")
    run_fix(found["fix"])
    assert play_records(db) is None
    os.chmod(nobodys, 0o555)
    found = checks(doctor_as_nobody(db, "--json")[1])["records"]
    assert line(found) == (f"✗ games database: {db}: 1 matches, quick_check ok, but nobody cannot write {nobodys} "
                           f"(nobody:{NOBODY_GROUP} r-xr-xr-x); fix: chmod u+w {nobodys}")
    run_fix(found["fix"])
    assert play_records(db) is None


@as_root
def test_a_database_another_user_owns_gets_chown_and_then_chmod_if_it_needs_it(nobodys):
    db = nobodys / "games.db"
    assert play_records(db) is None
    for matches, mode, shown, fix in ((1, 0o644, "rw-r--r--", f"sudo chown nobody {db}"),
                                      (2, 0o444, "r--r--r--", f"sudo chown nobody {db}, then chmod u+w {db}")):
        os.chown(db, 0, 0)
        os.chmod(db, mode)
        found = checks(doctor_as_nobody(db, "--json")[1])["records"]
        assert line(found) == (f"✗ games database: {db}: {matches} matches, quick_check ok, but nobody cannot write "
                               f"{db} (root:root {shown}); fix: {fix}")
        assert beside(nobodys) == [("games.db", oct(mode))]
        run_fix(found["fix"])
        assert play_records(db) is None


def test_a_database_a_game_is_writing_is_writable(tmp_path, monkeypatch):
    db = tmp_path / "games.db"
    record_match(Recorder(db, clock=ticking()), ["1212121"])
    monkeypatch.setattr(cdoctor, "WRITE_BUSY_SECONDS", 0.05)
    game = sqlite3.connect(db, isolation_level=None)
    game.execute("BEGIN IMMEDIATE")   # a move being written
    try:
        busy = cdoctor.check_records(System(), db)
    finally:
        game.execute("ROLLBACK")
        game.close()
    assert busy.line() == f"✓ games database: {db}: 1 matches, quick_check ok; another program is writing it now (a game?)"
    assert cdoctor.check_records(System(), db).line() == f"✓ games database: {db}: 1 matches, writable, quick_check ok"


# -- the checks with their OS boundary given ------------------------------------------------------


class Machine(System):
    """A machine the test describes: what ``systemctl`` answers, the programs on the PATH."""

    def __init__(self, units: Optional[Dict[Tuple[str, bool], str]] = None, programs=("systemctl",),
                 answering: bool = True, terminal: bool = False) -> None:
        super().__init__({"PATH": "/usr/bin"})
        self.units = units or {}
        self.programs = programs
        self.answering = answering
        self.asked: List[List[str]] = []
        self.is_terminal = terminal

    def which(self, program):
        return f"/usr/bin/{program}" if program in self.programs else None

    def systemctl(self, args):
        self.asked.append(list(args))
        if not self.answering:
            return 1, "System has not been booted with systemd as init system (PID 1). Can't operate.\n"
        user = args[0] == "--user"
        unit = args[2 if user else 1]
        shown = self.units.get((unit, user), "LoadState=not-found\nUnitFileState=\nActiveState=inactive\n"
                                             "SubState=dead\nResult=success\nExecMainStatus=0\n")
        return 0, shown

    def terminal(self):
        return self.is_terminal

    def user(self):
        return "pi"


UNITS = [("sensehat-games.service", False), ("sensehat-games@pi.service", False), ("sensehat-games.service", True)]


def show(state: str) -> str:
    """``systemctl show --property=...`` as systemd writes it, from ``ActiveState/SubState/UnitFileState/Result/status``."""
    active, sub, enabled, result, status = state.split("/")
    return (f"LoadState=loaded\nUnitFileState={enabled}\nActiveState={active}\nSubState={sub}\nResult={result}\n"
            f"ExecMainStatus={status}\n")


@pytest.mark.parametrize("state, expected", [
    ("active/running/enabled/success/0", "✓ service: sensehat-games@pi.service: enabled, active (running)"),
    ("inactive/dead/disabled/success/0", "– service: sensehat-games@pi.service: disabled, inactive (dead)"),
    ("inactive/dead/disabled/success/143", "– service: sensehat-games@pi.service: disabled, inactive (dead); "
                                            "last exit 143 (success)"),
    ("failed/failed/enabled/exit-code/78", "✗ service: sensehat-games@pi.service: enabled, failed; last exit 78 "
                                            "(exit-code); fix: journalctl -u sensehat-games@pi.service says why; "
                                            "then sudo systemctl restart sensehat-games@pi.service"),
    ("activating/auto-restart/enabled/exit-code/1", "✗ service: sensehat-games@pi.service: enabled, activating "
                                                    "(auto-restart); last exit 1 (exit-code); fix: journalctl -u "
                                                    "sensehat-games@pi.service says why; then sudo systemctl restart "
                                                    "sensehat-games@pi.service"),
])
def test_the_service_unit_states(state, expected):
    machine = Machine({("sensehat-games@pi.service", False): show(state)})
    found = gdoctor.check_service(machine, UNITS)
    assert [c.line() for c in found] == [expected]
    if expected.startswith("–"):
        assert found[0].fix == "to start the games at boot: sudo systemctl enable --now sensehat-games@pi.service"
    assert machine.asked[1] == ["show", "sensehat-games@pi.service",
                                "--property=LoadState,UnitFileState,ActiveState,SubState,Result,ExecMainStatus"]


def test_a_failing_user_unit_says_journalctl_user():
    machine = Machine({("sensehat-games.service", True): show("failed/failed/enabled/exit-code/78")})
    assert [c.line() for c in gdoctor.check_service(machine, UNITS)] == [
        "✗ service: sensehat-games.service: enabled, failed; last exit 78 (exit-code); fix: journalctl --user -u "
        "sensehat-games.service says why; then systemctl --user restart sensehat-games.service"]


def test_no_unit_installed_no_systemd_no_systemctl():
    none = gdoctor.check_service(Machine(), UNITS)
    assert [c.line() for c in none] == ["– service: no unit installed (optional)"]
    assert none[0].as_json()["fix"] == "to start the games at boot: sudo gamelib install-service --user pi"
    assert [c.line() for c in gdoctor.check_service(Machine(answering=False), UNITS)] == [
        "– service: not checked: systemd does not answer (not booted with it?)"]
    assert [c.line() for c in gdoctor.check_service(Machine(programs=()), UNITS)] == [
        "– service: not checked: no systemctl here"]


def test_a_port_taken_by_a_real_socket():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        taken = gdoctor.check_port(System(), "web_port", socket.SOCK_STREAM, port, "port.used.fix")
    free = gdoctor.check_port(System(), "web_port", socket.SOCK_STREAM, port, "port.used.fix")
    assert taken.line() == (f"✗ web port: TCP {port} is taken: Address already in use; fix: another program (or a "
                            "launcher's unit started with --web) serves there: stop it, or choose another port: --web PORT")
    assert free.line() == f"✓ web port: TCP {port} is free"


def test_the_native_core_loaded_forced_off_refused_and_missing(monkeypatch, tmp_path):
    if not native.LIBRARY.exists():
        pytest.skip("the native core is not built here")
    digest = native.LIBRARY.with_name("_c4core.so.sha256").read_text().split()[0]
    assert cdoctor.check_core({}).line() == (f"✓ solver core: native ({native.LIBRARY}; sha256 {digest[:12]}... "
                                             "matches _c4core.so.sha256)")
    assert cdoctor.check_core({}).status is Status.OK
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert cdoctor.check_core({}).line() == "✓ solver core: python ($SENSEHAT_C4_PURE_PYTHON is set)"
    monkeypatch.delenv(native.PURE_ENV)
    damaged = tmp_path / "_c4core.so"
    data = bytearray(native.LIBRARY.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    (tmp_path / "_c4core.so.sha256").write_text(f"{digest}  _c4core.so\n")
    check = cdoctor.check_core({native.LIBRARY_ENV: str(damaged)})
    assert check.line() == (f"✗ solver core: python: cannot load {damaged}: it does not match _c4core.so.sha256 "
                            "(damaged?); fix: install sensehat-c4 again (it builds the library and its checksum)")
    monkeypatch.setattr(native, "LIBRARY", tmp_path / "none" / "_c4core.so")
    missing = cdoctor.check_core({})
    assert (missing.status, missing.absent) == (Status.FAIL, True)   # not built: reported, never needed


def test_the_books():
    check = cdoctor.check_books(System())
    assert check.status is Status.OK
    assert re.fullmatch(r"7x6 up to 8 stones \(113934 positions\), 4 other sizes; 12-ply book: .+", check.detail)


def test_a_12_ply_book_that_is_not_one(monkeypatch, tmp_path):
    junk = tmp_path / "book.dat"
    junk.write_bytes(b"\1\2\3")
    monkeypatch.setenv("SENSEHAT_C4_BOOK12", str(junk))
    assert cdoctor.check_books(System()).line() == (
        f"✗ opening books: 7x6 up to 8 stones (113934 positions), 4 other sizes; 12-ply book: {junk} cannot be "
        f"used: its size, 3, is not a multiple of {book12.RECORD}; fix: unset $SENSEHAT_C4_BOOK12 or point it at "
        "book_12ply_distances.dat")


def test_a_database_not_made_yet_and_one_another_program_made(tmp_path):
    path = tmp_path / "new" / "games.db"
    assert cdoctor.check_records(System(), path).line() == (
        f"✓ games database: {path} not made yet (the first game makes it; {tmp_path} is writable)")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    assert cdoctor.check_records(System(), other).line() == (
        f"✗ games database: {other} is not a sensehat-c4 games database: another program's database (tables: t; "
        "user_version 0); fix: name another file with --db or $SENSEHAT_C4_DB, or move this one aside")


@pytest.mark.parametrize("terminal, emulator, chosen", [
    (True, None, "terminal"), (False, 4242, "emu"), (True, 4242, "emu"), (False, None, None)])
def test_auto_chooses_as_the_backends_do(monkeypatch, terminal, emulator, chosen):
    machine = Machine(terminal=terminal)
    monkeypatch.setattr(machine, "emulator_pid", lambda: emulator)
    monkeypatch.setattr(machine, "glob", lambda pattern: [])
    monkeypatch.delenv("GAMELIB_BACKEND", raising=False)
    monkeypatch.delenv("SENSEHAT_C4_BACKEND", raising=False)
    report = cdoctor.examine(machine)
    assert (report.chosen, report.works) == (chosen, chosen is not None)


def test_an_unknown_backend_in_the_environment(monkeypatch):
    monkeypatch.setenv("GAMELIB_BACKEND", "nosuch")
    report = cdoctor.examine(Machine())
    assert not report.works
    assert report.checks[-1].line() == ("✗ way to play: nosuch (from $GAMELIB_BACKEND) is not a backend; fix: use one "
                                        "of: hat, emu, terminal")


def test_an_output_that_cannot_take_the_marks_gets_ascii_and_escapes(tmp_path):
    """``PYTHONIOENCODING=ascii``: ``ok``, ``XX``, ``--``, and a database path in another script escaped."""
    path = tmp_path / "spiel-ü" / "games.db"
    done = subprocess.run([sys.executable, "-m", "sensehat_c4", "doctor", "--backend", "terminal", "--db", str(path)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONIOENCODING": "ascii"},
                          stdin=subprocess.DEVNULL, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert (done.returncode, done.stderr) == (1, "")
    assert {line[:3] for line in lines} <= {"ok ", "XX ", "-- "} and lines[-1].startswith("XX way to play: ")
    escaped = str(path).replace("ü", "\\xfc")
    assert f"ok games database: {escaped} not made yet (the first game makes it; {tmp_path} is writable)" in lines


def test_outside_utf8_the_marks_are_ascii(tmp_path):
    check = gdoctor.fail("leds", "x", "y")
    assert (check.line(utf8=False), gdoctor.ok("leds", "z").line(utf8=False),
            gdoctor.skip("leds", "w").line(utf8=False)) == ("XX LEDs: x; fix: y", "ok LEDs: z", "-- LEDs: w")


def test_every_word_is_in_one_table_and_every_word_of_the_table_is_said():
    for module, table in ((ROOT / "gamelib" / "doctor.py", gdoctor.WORDS), (ROOT / "sensehat_c4" / "commands" / "checks.py",
                                                                              cdoctor.WORDS)):
        text = module.read_text()
        said = set(re.findall(r'say\(f?"([\w.{}-]+)"', text))
        fixed = {key for key in said if "{" not in key}
        assert fixed <= set(table), f"{module.name} says words its table lacks: {fixed - set(table)}"
        literals = set(re.findall(r'f?"([\w.{}-]+)"', text))
        patterns = [re.compile(re.sub(r"\{[^}]*\}", r"[\\w.-]+", key.replace(".", r"\.")) + "$") for key in literals]
        unused = [key for key in table if not key.startswith("label.") and not any(p.match(key) for p in patterns)]
        assert unused == [], f"{module.name}'s table has words nothing says"


# -- fixes that fit the install; the HAT's library where there is no HAT -------------------------------


class Installed(Machine):
    """A machine without a HAT whose program was installed as ``found`` says, lacking ``missing`` modules
    (``RTIMU``: ``sense_hat`` is there but cannot be imported), the system's Python having ``sense_hat`` if
    ``system_has``."""

    def __init__(self, found: Install, missing=("sense_hat", "sense_emu", "zeroconf"), *, system_has: bool = False,
                 terminal: bool = True, hat: bool = False) -> None:
        super().__init__(terminal=terminal)
        self.found = found
        self.missing = missing
        self.has = system_has
        self.hat = hat

    def install(self):
        return self.found

    def module(self, name):
        if name in self.missing:
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        if name == "sense_hat" and "RTIMU" in self.missing:
            raise ModuleNotFoundError("No module named 'RTIMU'", name="RTIMU")
        return super().module(name)

    def system_has(self, module):
        return "/usr/lib/python3/dist-packages" if self.has else None

    def glob(self, pattern):   # the HAT's framebuffer shown by the kernel (its node missing), or nothing
        return ["/sys/class/graphics/fb1"] if self.hat and pattern == "/sys/class/graphics/fb*" else []

    def read_name(self, path):
        return "RPi-Sense FB" if path == "/sys/class/graphics/fb1/name" else None

    def emulator_pid(self):
        return None


PIPX = Path("/home/pi/.local/pipx/venvs/sensehat-c4")
VENV = Path("/home/pi/sensehat-c4/.venv")
INSTALLS = {
    "deb": Install(Kind.DEBIAN, Path("/usr")),
    "system": Install(Kind.SYSTEM, Path("/usr")),
    "pipx": Install(Kind.PIPX, PIPX, True, "/home/pi/sensehat-c4"),
    "pipx-alone": Install(Kind.PIPX, PIPX, False, "/home/pi/sensehat-c4"),
    "venv": Install(Kind.VENV, VENV, True),
    "venv-alone": Install(Kind.VENV, VENV, False),
}
APT = {"sense_hat": "sudo apt install python3-sense-hat",
       "emulator": "sudo apt install python3-sense-emu sense-emu-tools",
       "zeroconf": "sudo apt install python3-zeroconf (for the game between two Pis)",
       "book": "not installed (optional; Debian has no package of it: $SENSEHAT_C4_BOOK12 can name a copy of "
               "book_12ply_distances.dat)",
       "play": "run it in a terminal, or sudo apt install python3-sense-emu sense-emu-tools and start "
               "sense_emu_gui, or on a Pi check the HAT and the 'video' and 'input' groups"}
PIPX_FIXES = {"emulator": "pipx inject sensehat-c4 sense-emu",
              "zeroconf": "pipx inject sensehat-c4 zeroconf (for the game between two Pis)",
              "book": "not installed (optional: pipx inject sensehat-c4 bitbully-databases, Python 3.10+)",
              "play": "run it in a terminal, or pipx inject sensehat-c4 sense-emu and start sense_emu_gui, or on a Pi "
                      "check the HAT and the 'video' and 'input' groups"}
VENV_FIXES = {"emulator": f"{VENV}/bin/pip install sense-emu",
              "zeroconf": f"{VENV}/bin/pip install zeroconf (for the game between two Pis)",
              "book": f"not installed (optional: {VENV}/bin/pip install bitbully-databases, Python 3.10+)",
              "play": f"run it in a terminal, or {VENV}/bin/pip install sense-emu and start sense_emu_gui, or on a Pi "
                      "check the HAT and the 'video' and 'input' groups"}
FIXES = {
    "deb": APT,
    "system": APT,
    "pipx": {"sense_hat": "sudo apt install python3-sense-hat", **PIPX_FIXES},
    "pipx-alone": {"sense_hat": "sudo apt install python3-sense-hat, then pipx install --force --system-site-packages "
                                "/home/pi/sensehat-c4 (this venv does not see the system's packages)", **PIPX_FIXES},
    "venv": {"sense_hat": "sudo apt install python3-sense-hat", **VENV_FIXES},
    "venv-alone": {"sense_hat": f"sudo apt install python3-sense-hat, then python3 -m venv --system-site-packages {VENV} "
                                "(this venv does not see the system's packages)", **VENV_FIXES},
}


@pytest.mark.parametrize("kind", INSTALLS)
def test_each_fix_that_installs_something_fits_how_the_game_was_installed(monkeypatch, tmp_path, kind):
    """A .deb's user is never told to pip install into the system's Python, a venv's gets its own pip, pipx's
    ``pipx inject``; ``sense_hat`` (which needs Raspberry Pi OS's RTIMU) comes from apt, and a venv that cannot
    see it is made to."""
    monkeypatch.delenv("GAMELIB_BACKEND", raising=False)
    monkeypatch.delenv("SENSEHAT_C4_BACKEND", raising=False)
    monkeypatch.delenv("SENSEHAT_C4_BOOK12", raising=False)
    monkeypatch.setattr(cdoctor, "book12_path", lambda: None)
    report = cdoctor.examine(Installed(INSTALLS[kind], terminal=False), db=tmp_path / "games.db")
    found = {check.name: check for check in report.checks}
    assert {name: found[name].fix for name in ("sense_hat", "emulator", "zeroconf", "play")} == {
        name: FIXES[kind][name] for name in ("sense_hat", "emulator", "zeroconf", "play")}
    assert found["book"].detail.endswith("; 12-ply book: " + FIXES[kind]["book"])
    assert found["play"].line() == ("✗ way to play: nothing to play on (auto-detected): no Sense HAT found, the "
                                    f"emulator is not installed and this is not a terminal; fix: {FIXES[kind]['play']}")


def test_a_venv_that_does_not_see_the_systems_sense_hat_is_made_to():
    for kind, command in (("venv-alone", f"python3 -m venv --system-site-packages {VENV}"),
                          ("pipx-alone", "pipx install --force --system-site-packages /home/pi/sensehat-c4")):
        assert gdoctor.check_sense_hat(Installed(INSTALLS[kind], system_has=True)).fix == (
            f"{command} (the system has sense_hat, and this venv does not see the system's packages)")


@pytest.mark.parametrize("missing, detail", [(("sense_hat",), "not installed"),
                                             (("RTIMU",), "cannot be imported: No module named 'RTIMU'")])
def test_without_a_hat_its_library_is_not_needed_and_says_what_needs_it(monkeypatch, tmp_path, missing, detail):
    monkeypatch.delenv("GAMELIB_BACKEND", raising=False)
    monkeypatch.delenv("SENSEHAT_C4_BACKEND", raising=False)
    deb = INSTALLS["deb"]
    report = cdoctor.examine(Installed(deb, missing), db=tmp_path / "games.db")
    found = {check.name: check for check in report.checks}
    assert (report.chosen, report.works) == ("terminal", True)
    assert found["sense_hat"].line() == f"– sense_hat library: {detail} (only the Sense HAT needs it, not this terminal)"
    assert found["sense_hat"].as_json() == {
        "check": "sense_hat", "label": "sense_hat library", "status": "skip", "needed": False,
        "detail": f"{detail} (only the Sense HAT needs it, not this terminal)",
        "fix": "sudo apt install python3-sense-hat"}
    nothing = cdoctor.examine(Installed(deb, missing, terminal=False), db=tmp_path / "games.db")
    assert nothing.chosen is None and [c.line() for c in nothing.checks if c.name == "sense_hat"] == [
        f"– sense_hat library: {detail} (only the Sense HAT needs it, and none was found)"]
    # a HAT the kernel shows needs its library, whichever way to play is asked for
    for backend in (None, "terminal"):
        with_hat = cdoctor.examine(Installed(deb, missing, hat=True), backend=backend, db=tmp_path / "games.db")
        assert [c.line() for c in with_hat.checks if c.name == "sense_hat"] == [
            f"✗ sense_hat library: {detail}; fix: sudo apt install python3-sense-hat"]

class WithoutLibraries(System):
    """A machine where sense_hat cannot be imported (``RTIMU``, which it needs, is missing) and neither sense_emu nor
    zeroconf is installed."""

    def module(self, name):
        if name == "sense_hat":
            raise ModuleNotFoundError("No module named 'RTIMU'", name="RTIMU")
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    def which(self, program):
        return None

    def system_has(self, module):
        return None


@pytest.mark.parametrize("language, missing, broken", [
    ("en", "not installed", "cannot be imported: No module named 'RTIMU'"),
    ("fr", "pas installée", "ne peut pas être importée : No module named 'RTIMU'"),      # la bibliothèque
    ("id", "tidak terpasang", "tidak bisa diimpor: No module named 'RTIMU'"),
])
def test_a_library_not_installed_or_not_importable_is_said_of_a_library(language, missing, broken):
    """One English text said of a library is looked up in that context (msgctxt ``a library``): French agrees it
    with ``la bibliothèque``."""
    from gamelib import i18n

    i18n.choose([language])
    try:
        sense_hat = gdoctor.check_sense_hat(WithoutLibraries())
        emulator, _found = gdoctor.find_emulator(WithoutLibraries())
        zeroconf = gdoctor.check_zeroconf(WithoutLibraries())
        library = gdoctor.WORDS["emulator.parts"]
    finally:
        i18n.choose(None)
    assert (sense_hat.detail, zeroconf.detail) == (broken, missing)
    assert emulator.detail.startswith(i18n.CATALOGUE.translations([language]).gettext(library).split("{library}")[0]
                                      + missing)
