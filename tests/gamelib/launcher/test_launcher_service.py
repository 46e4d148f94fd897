"""install-service / uninstall-service with a fake root directory and recorded systemctl calls."""
import io
import os
import shutil
import subprocess

import pytest

from gamelib import app
from gamelib.launcher import cli
from gamelib.errors import ConfigError
from gamelib.launcher.service import POLKIT_RULE, SYSTEM_TEMPLATE, SYSTEM_UNIT, USER_TEMPLATE, Installer, quote, render

PY = "/home/pi/games venv/bin/python"


class Recorder:
    def __init__(self, status=0):
        self.calls, self.status = [], status

    def __call__(self, command):
        self.calls.append(list(command))
        return self.status


def installer(tmp_path, euid=0, status=0, **environ):
    return Installer(root=tmp_path, run=Recorder(status), euid=euid, environ=environ, python=PY,
                     out=io.StringIO(), user_exists=lambda name: name in ("pi", "games"),
                     account=lambda name: (f"/home/{name}", os.getuid(), os.getgid()))


def unit_lines(path):
    return [line for line in path.read_text().splitlines() if line and not line.startswith("#")]


def test_system_unit_is_written_for_this_python_and_started(tmp_path):
    inst = installer(tmp_path, SUDO_USER="pi")
    assert inst.install(user=None, user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=False,
                        argv=[]) == 0
    unit = tmp_path / SYSTEM_UNIT
    lines = unit_lines(unit)
    assert 'ExecStart="/home/pi/games venv/bin/python" -m gamelib --backend hat' in lines
    assert "User=pi" in lines and "SupplementaryGroups=video input" in lines
    template = unit_lines(SYSTEM_TEMPLATE)                       # nothing else changed
    assert [a for a in lines if not a.startswith(("ExecStart=", "User="))] == \
        [a for a in template if not a.startswith(("ExecStart=", "User="))]
    assert oct(unit.stat().st_mode & 0o777) == "0o644"
    assert ("ReadWritePaths=-/home/pi/.config/sense_hat -/home/pi/.config/gamelib "
            "-/home/pi/.local/share/sensehat-c4") in lines
    for made in ("home/pi", "home/pi/.config", "home/pi/.config/sense_hat", "home/pi/.config/gamelib",
                 "home/pi/.local", "home/pi/.local/share", "home/pi/.local/share/sensehat-c4"):
        info = (tmp_path / made).stat()                        # made for the user, writable by the unit
        assert (info.st_uid, info.st_gid, oct(info.st_mode & 0o777)) == (os.getuid(), os.getgid(), "0o755")
    assert inst.run.calls == [["systemctl", "daemon-reload"], ["systemctl", "enable", "sensehat-games.service"],
                              ["systemctl", "restart", "sensehat-games.service"]]   # a running unit takes the new one
    assert not (tmp_path / POLKIT_RULE).exists()
    assert inst.out.getvalue().splitlines()[-1] == (
        "started and enabled sensehat-games.service: systemctl status sensehat-games.service; "
        "its log: journalctl -u sensehat-games.service")


def test_allow_poweroff_adds_the_flag_and_a_polkit_rule_for_that_user_only(tmp_path):
    inst = installer(tmp_path)
    inst.install(user="games", user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=True, argv=[])
    assert 'ExecStart="/home/pi/games venv/bin/python" -m gamelib --backend hat --allow-poweroff' in \
        unit_lines(tmp_path / SYSTEM_UNIT)
    assert ("ReadWritePaths=-/home/games/.config/sense_hat -/home/games/.config/gamelib "
            "-/home/games/.local/share/sensehat-c4") in unit_lines(tmp_path / SYSTEM_UNIT)
    rule = (tmp_path / POLKIT_RULE).read_text()
    assert 'action.id == "org.freedesktop.login1.power-off" ||' in rule
    assert 'subject.user == "games"' in rule and "polkit.Result.YES" in rule
    inst.install(user="games", user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=False, argv=[])
    assert not (tmp_path / POLKIT_RULE).exists()                 # reinstalled without: the rule goes


def test_without_root_it_says_exactly_what_to_run(tmp_path, capsys):
    inst = installer(tmp_path, euid=1000)
    code = inst.install(user="pi", user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=True,
                        argv=["--allow-poweroff"])
    assert code == 1 and inst.run.calls == [] and not (tmp_path / "etc").exists()
    assert capsys.readouterr().err == (
        "gamelib: this changes /etc/systemd/system and needs root: run sudo '/home/pi/games venv/bin/python' "
        "-m gamelib install-service --user pi --allow-poweroff\n")
    assert inst.uninstall(user_unit=False, argv=[]) == 1
    assert capsys.readouterr().err == ("gamelib: this changes /etc/systemd/system and needs root: run "
                                       "sudo '/home/pi/games venv/bin/python' -m gamelib uninstall-service\n")


@pytest.mark.parametrize("user, environ, message", [
    (None, {}, "say which (unprivileged) user runs the launcher: --user NAME"),
    ("root", {}, "say which (unprivileged) user runs the launcher: --user NAME"),
    ("nobody-here", {}, "there is no user 'nobody-here' on this system"),
])
def test_bad_users_are_refused(tmp_path, user, environ, message):
    with pytest.raises(ConfigError) as info:
        installer(tmp_path, **environ).install(user=user, user_unit=False, launcher_args=[],
                                               allow_poweroff=False, argv=[])
    assert str(info.value) == message


def test_a_failing_systemctl_is_reported_and_the_unit_stays(tmp_path, capsys):
    inst = installer(tmp_path, status=1)
    assert inst.install(user="pi", user_unit=False, launcher_args=[], allow_poweroff=False, argv=[]) == 1
    assert (tmp_path / SYSTEM_UNIT).exists()
    assert capsys.readouterr().err == (f"gamelib: 'systemctl daemon-reload' failed (exit status 1); the unit file "
                                       f"is {tmp_path / SYSTEM_UNIT}\n")


def test_a_failing_systemctl_is_one_line_whatever_the_unit_path_holds(tmp_path, capsys):
    config = tmp_path / "conf\nig"
    inst = installer(tmp_path, status=5, XDG_CONFIG_HOME=str(config))
    assert inst.install(user=None, user_unit=True, launcher_args=[], allow_poweroff=False, argv=[]) == 1
    assert capsys.readouterr().err == (f"gamelib: 'systemctl --user daemon-reload' failed (exit status 5); "
                                       f"the unit file is {tmp_path}/conf\\nig/systemd/user/sensehat-games.service\n")


def test_uninstall_stops_and_removes_everything(tmp_path):
    inst = installer(tmp_path)
    inst.install(user="pi", user_unit=False, launcher_args=[], allow_poweroff=True, argv=[])
    inst.run.calls.clear()
    assert inst.uninstall(user_unit=False, argv=[]) == 0
    assert inst.run.calls == [["systemctl", "disable", "--now", "sensehat-games.service"],
                              ["systemctl", "daemon-reload"]]
    assert not (tmp_path / SYSTEM_UNIT).exists() and not (tmp_path / POLKIT_RULE).exists()
    inst.run.calls.clear()
    assert inst.uninstall(user_unit=False, argv=[]) == 0                     # again: nothing to do
    assert inst.run.calls == []
    assert inst.out.getvalue().splitlines()[-1] == f"nothing to remove: {tmp_path / SYSTEM_UNIT} does not exist"


def test_user_unit_goes_under_the_xdg_config_dir_without_root(tmp_path):
    inst = installer(tmp_path, euid=1000, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    assert inst.install(user=None, user_unit=True, launcher_args=["--backend", "auto"], allow_poweroff=False,
                        argv=[]) == 0
    unit = tmp_path / "cfg" / "systemd" / "user" / "sensehat-games.service"
    assert 'ExecStart="/home/pi/games venv/bin/python" -m gamelib --backend auto' in unit_lines(unit)
    assert not any(line.startswith("User=") for line in unit_lines(unit))
    assert "WantedBy=default.target" in unit_lines(USER_TEMPLATE)
    assert inst.run.calls == [["systemctl", "--user", "daemon-reload"],
                              ["systemctl", "--user", "enable", "sensehat-games.service"],
                              ["systemctl", "--user", "restart", "sensehat-games.service"]]
    inst.run.calls.clear()
    assert inst.uninstall(user_unit=True, argv=["--user-unit"]) == 0
    assert not unit.exists()
    assert inst.run.calls == [["systemctl", "--user", "disable", "--now", "sensehat-games.service"],
                              ["systemctl", "--user", "daemon-reload"]]


@pytest.mark.parametrize("arg, quoted", [
    ("/usr/bin/python3", "/usr/bin/python3"),
    ("/opt/my games/python", '"/opt/my games/python"'),
    ("100%", '"100%%"'),
    ('a"b\\c $x', '"a\\"b\\\\c $$x"'),
])
def test_exec_start_quoting(arg, quoted):
    assert quote(arg) == quoted


def test_cli_passes_launcher_options_through(tmp_path, monkeypatch, capsys):
    made = []

    def fake_install(self, **kwargs):
        made.append(kwargs)
        return 0

    monkeypatch.setattr(Installer, "install", fake_install)
    assert cli.main(["install-service", "--user", "pi", "--dim-after", "30", "--allow-poweroff"]) == 0
    assert made == [dict(user="pi", user_unit=False, launcher_args=["--backend", "hat", "--dim-after", "30"],
                         allow_poweroff=True, argv=["--user", "pi", "--dim-after", "30", "--allow-poweroff"],
                         web=None, web_port=None, lan=False)]
    assert cli.main(["install-service", "--user", "pi", "--web", "8080"]) == 0
    assert (made[-1]["web"], made[-1]["web_port"], made[-1]["lan"]) == ("8080", 8080, False)
    assert cli.main(["install-service", "--user", "pi", "--lan", "8080"]) == 0
    assert (made[-1]["web"], made[-1]["web_port"], made[-1]["lan"]) == ("8080", 8080, True)
    assert cli.main(["install-service", "--user", "pi", "--web", "[::]:8081"]) == 0
    assert (made[-1]["web"], made[-1]["web_port"]) == ("[::]:8081", 8081)
    with pytest.raises(SystemExit) as info:
        cli.main(["install-service", "--user", "pi", "--user-unit"])
    assert info.value.code == 2
    assert capsys.readouterr().err == ("gamelib install-service: error: argument --user-unit: not allowed with "
                                       "argument --user (see --help)\n")


def test_a_service_cannot_play_in_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(Installer, "install", lambda self, **kwargs: pytest.fail("installed"))
    with pytest.raises(SystemExit) as info:
        cli.main(["install-service", "--user", "pi", "--backend", "terminal"])
    assert info.value.code == 2
    assert capsys.readouterr() == ("", "gamelib install-service: error: argument --backend: a service has no "
                                   "terminal to play in: use hat (the default), emu or auto (see --help)\n")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed "
                    "(.ci/check-units installs it and checks the units in CI)")
def test_rendered_units_pass_systemd_analyze_verify(tmp_path):
    python = shutil.which("python3") or "/bin/sh"
    for template in (SYSTEM_TEMPLATE, USER_TEMPLATE):
        unit = tmp_path / "sensehat-games.service"
        unit.write_text(render(template.read_text(), [python, "-m", "gamelib"], user="root"))
        proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.parametrize("template", [SYSTEM_TEMPLATE, USER_TEMPLATE], ids=["system", "user"])
def test_the_units_do_not_restart_on_what_no_restart_fixes(template):
    """A bad option (exit 2) or a setup error (a group the user lacks: exit 78) ends the unit failed,
    with its one line in the journal, instead of five restarts repeating it."""
    lines = unit_lines(template)
    assert "Restart=on-failure" in lines
    assert f"RestartPreventExitStatus={app.EXIT_USAGE} {app.EXIT_SETUP}" in lines


def test_web_opens_the_system_unit_to_the_lan_and_to_that_port_only(tmp_path):
    inst = installer(tmp_path, SUDO_USER="pi")
    assert inst.install(user=None, user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=False,
                        argv=[], web="8080", web_port=8080) == 0
    lines = unit_lines(tmp_path / SYSTEM_UNIT)
    assert 'ExecStart="/home/pi/games venv/bin/python" -m gamelib --backend hat --web 8080' in lines
    template = unit_lines(SYSTEM_TEMPLATE)
    removed = [a for a in template if a not in lines and not a.startswith(("ExecStart=", "User="))]
    added = [a for a in lines if a not in template and not a.startswith(("ExecStart=", "User="))]
    assert removed == ["PrivateNetwork=yes", "RestrictAddressFamilies=AF_UNIX"]
    assert added == ["IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7",
                     "SocketBindAllow=tcp:8080", "SocketBindDeny=any",
                     "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]
    assert "IPAddressDeny=any" in lines and lines.index(added[0]) < lines.index("IPAddressDeny=any")
    inst.install(user=None, user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=False, argv=[])
    assert "PrivateNetwork=yes" in unit_lines(tmp_path / SYSTEM_UNIT)   # installed again without: no network


def test_lan_opens_the_system_unit_to_the_lan_its_mdns_and_that_port_only(tmp_path):
    inst = installer(tmp_path, SUDO_USER="pi")
    assert inst.install(user=None, user_unit=False, launcher_args=["--backend", "hat"], allow_poweroff=False,
                        argv=[], web="8080", web_port=8080, lan=True) == 0
    lines = unit_lines(tmp_path / SYSTEM_UNIT)
    assert 'ExecStart="/home/pi/games venv/bin/python" -m gamelib --backend hat --lan 8080' in lines
    template = unit_lines(SYSTEM_TEMPLATE)
    removed = [a for a in template if a not in lines and not a.startswith(("ExecStart=", "User="))]
    added = [a for a in lines if a not in template and not a.startswith(("ExecStart=", "User="))]
    assert removed == ["PrivateNetwork=yes", "RestrictAddressFamilies=AF_UNIX"]
    assert added == ["IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7 "
                     "224.0.0.251 ff02::fb",
                     "SocketBindAllow=tcp:8080", "SocketBindAllow=udp:5353", "SocketBindDeny=any",
                     "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK"]
    assert "IPAddressDeny=any" in lines and lines.index(added[0]) < lines.index("IPAddressDeny=any")


def test_web_and_lan_are_one_or_the_other(capsys, monkeypatch):
    monkeypatch.setattr(Installer, "install", lambda self, **kwargs: pytest.fail("installed"))
    with pytest.raises(SystemExit) as info:
        cli.main(["install-service", "--user", "pi", "--web", "8080", "--lan", "8080"])
    assert info.value.code == 2
    assert capsys.readouterr().err == ("gamelib install-service: error: argument --lan: not allowed with "
                                       "argument --web (see --help)\n")


def test_web_in_the_user_unit_allows_internet_sockets(tmp_path):
    inst = installer(tmp_path, euid=1000, XDG_CONFIG_HOME=str(tmp_path / "config"))
    inst.install(user=None, user_unit=True, launcher_args=["--backend", "hat"], allow_poweroff=False, argv=[],
                 web="8080", web_port=8080)
    lines = unit_lines(inst.user_unit_path())
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in lines
    assert [a for a in unit_lines(USER_TEMPLATE) if a not in lines] == [
        "ExecStart=/usr/bin/python3 -m gamelib", "RestrictAddressFamilies=AF_UNIX"]


@pytest.mark.parametrize("value, message", [
    ("0", "a service needs a fixed port (1-65535), e.g. 8080"),
    ("80000", "the port is a number from 0 to 65535 (not '80000')"),
    ("host:port", "the port is a number from 0 to 65535 (not 'port')"),
])
def test_a_service_needs_a_fixed_port(value, message, capsys, monkeypatch):
    monkeypatch.setattr(Installer, "install", lambda self, **kwargs: pytest.fail("installed"))
    with pytest.raises(SystemExit) as info:
        cli.main(["install-service", "--user", "pi", "--web", value])
    assert info.value.code == 2
    assert capsys.readouterr().err == f"gamelib install-service: error: argument --web: {message} (see --help)\n"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed "
                    "(.ci/check-units installs it and checks the units in CI)")
def test_rendered_web_units_pass_systemd_analyze_verify(tmp_path):
    python = shutil.which("python3") or "/bin/sh"
    for template in (SYSTEM_TEMPLATE, USER_TEMPLATE):
        unit = tmp_path / "sensehat-games.service"
        unit.write_text(render(template.read_text(), [python, "-m", "gamelib", "--web", "8080"], user="root", web=8080))
        proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stderr) == (0, "")
