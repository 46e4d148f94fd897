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

import importlib
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from fake_kernel import DATABASE, Kernel, in_fake_kernel, usable
from records_damage import damage, games_file

from gamelib import doctor as gdoctor
from gamelib.doctor import Status, System
from sensehat_c4 import commands
from sensehat_c4.commands import checks as cdoctor
from sensehat_c4.engine import book12, native

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
    assert line(found["play"]) == (
        "✗ way to play: nothing to play on (auto-detected): no Sense HAT found, the emulator is not running and "
        "this is not a terminal: run it in a terminal, start sense_emu_gui on a desktop, or on a Pi check the HAT "
        "and that this user is in the 'video' and 'input' groups")


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
        "(root:input rw-rw----); fix: nobody is in the 'input' group since this login began: log in again (or reboot)")


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
    assert checks(out)["sense_hat"]["fix"].startswith("sudo apt install sense-hat")


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
    check = cdoctor.check_books()
    assert check.status is Status.OK
    assert re.fullmatch(r"7x6 up to 8 stones \(113934 positions\), 4 other sizes; 12-ply book: .+", check.detail)


def test_a_12_ply_book_that_is_not_one(monkeypatch, tmp_path):
    junk = tmp_path / "book.dat"
    junk.write_bytes(b"\1\2\3")
    monkeypatch.setenv("SENSEHAT_C4_BOOK12", str(junk))
    assert cdoctor.check_books().line() == (
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

    def in_venv(self):
        return False


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
