"""Scripted menu sessions on the mock backend (fake clock: no test sleeps), exact frames."""
import json
import logging
import sys

import pytest
from frames import turned
from scripted import ROUND_SETTLE, moves

from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK, BLUE, CYAN, GREEN, ORANGE, RED, WHITE, YELLOW
from gamelib.errors import ConfigError, QuitRequested
from gamelib.games import Entry, Game
from gamelib.icons import ERROR_ICON, POWER_ICON, dimmed, picture
from gamelib.launcher.menu import no_games, POWEROFF, QUIT, Launcher, LauncherOptions
from gamelib.launcher.settings import Settings, SettingsFile
from gamelib.palette import DEFAULT, GREEN_PINK, PALETTES, PURPLE_YELLOW
from gamelib.scroll import Scrolling
from gamelib.palette import palette as default_palette
from sensehat_c4 import game as c4
from sensehat_c4.match import render
from sensehat_c4.match.chooser import choice_frame
from sensehat_c4.rules import Board

COLOURS = {"R": RED, "G": GREEN, "Y": YELLOW, "W": WHITE, "B": BLUE, "C": CYAN, "O": ORANGE}
LETTERS = {v: k for k, v in COLOURS.items()}
LETTERS.update({dimmed([v])[0]: k.lower() for k, v in COLOURS.items()})
LETTERS[BLACK] = "."


def letters(frame):
    """A frame as eight lines of letters (upper case: full colour, lower case: dimmed)."""
    return "\n".join("".join(LETTERS[tuple(frame[y * 8 + x])] for x in range(8)) for y in range(8))


def pic(text):
    return picture(text.split(), COLOURS, (0, 0, 0))


ICON_A = pic("GGGGGGGG G......G G.G..G.G G......G G.G..G.G G..GG..G G......G GGGGGGGG")
ICON_B = pic("YYYYYYYY Y......Y Y......Y Y.YYYY.Y Y.Y..Y.Y Y.YYYY.Y Y......Y YYYYYYYY")
ICON_C = pic("WWWWWWWW W......W W.WWWW.W W.W....W W.W....W W.WWWW.W W......W WWWWWWWW")
PLAYING = pic("........ ........ ..RRRR.. ..R..R.. ..R..R.. ..RRRR.. ........ ........")

LIGHT_HI = "\n".join([".C......", "........", ".C.C.CCC", ".C.C..C.", ".CCC..C.",
                      ".C.C..C.", ".C.C.CCC", "........"])
LIGHT_LO = "\n".join([".C......", "........", ".C....C.", ".C...C.C", ".C...C.C",
                      ".C...C.C", ".CCC..C.", "........"])
ROT_0 = "\n".join(["..C.....", "........", ".CC..CCC", ".C.C.C.C", ".CC..C.C", ".C.C.C.C", ".C.C.CCC", "........"])
ROT_1 = "\n".join(["..C.....", "........", ".CC...C.", ".C.C.CC.", ".CC...C.", ".C.C..C.", ".C.C.CCC", "........"])
QUIT_F = "\n".join(["...O....", "........", "....O...", "...O.O..", "...O.O..", "...OO...", "....OO..", "........"])
COLOURS_F = "\n".join(["....C...", "........", ".BBBBBB.", ".BBBBBB.", ".BBYBBB.", ".BRYRBB.", ".YRRYRY.",
                       "........"])
SURE = "\n".join(["........", "........", ".RR..RR.", ".R.R...R", ".RR...R.", ".R......", ".R....R.", "........"])


class FakeGame:
    """A game that shows :data:`PLAYING`, waits for a middle press, then spends ``linger`` seconds
    (as an end animation would) before returning; ``fail`` makes its next runs raise."""

    def __init__(self, name="A", icon=ICON_A, linger=0.0, fail=0):
        self.name, self.icon, self.linger, self.fail = name, icon, linger, fail
        self.runs = 0

    def play(self, backend):
        self.runs += 1
        backend.screen.show(PLAYING)
        while True:
            event = backend.stick.wait_event()
            if event.direction.value == "middle" and event.action.value == "pressed":
                break
        backend.advance(self.linger)
        if self.fail:
            self.fail -= 1
            raise RuntimeError("boom")


def entry(game, key=None):
    return Entry(key or game.name.lower(), game=Game(game.name, game.icon, game.play))


def three():
    return [entry(FakeGame("A", ICON_A)), entry(FakeGame("B", ICON_B)), entry(FakeGame("C", ICON_C))]


def quit_menu(mock):
    """Script: open the system menu (up held 2.1 s) and choose quit (two to the right)."""
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")


def shown(mock):
    return [letters(f) for _, f in mock.frames]


def language_steps(text, place, count=3):
    """The language item's first ``count`` frames (3: the item while the stick rests 0.2 s on it): ``text``
    (its name) scrolling in from the right one column each 0.08 s, the place dot at ``place``."""
    steps = Scrolling(text, CYAN, (0, 0, 0), marks={1 + place: CYAN})
    return [letters(steps[i][0]) for i in range(count)]


NO_IDLE = LauncherOptions(dim_after=0, blank_after=0)


def test_browse_with_wrap_around_then_quit():
    mock = MockBackend()
    mock.tap("right", "right", "right", "left", "left")
    quit_menu(mock)
    assert Launcher(mock, three(), NO_IDLE).run() == QUIT
    a, b, c = (letters(i) for i in (ICON_A, ICON_B, ICON_C))
    assert shown(mock) == [a, b, c, a, c, b, LIGHT_HI, ROT_0, QUIT_F]
    assert mock.pending == 1                                    # only the quit press's release is left


def test_held_right_steps_at_a_steady_pace_like_the_game():
    mock = MockBackend()
    mock.hold("right", 0.6)             # press, then held at 0.25, 0.30 ... 0.55 s
    quit_menu(mock)
    Launcher(mock, three(), NO_IDLE).run()
    a, b, c = (letters(i) for i in (ICON_A, ICON_B, ICON_C))
    assert shown(mock)[:5] == [a, b, c, a, b]    # press; held acted on at 0.25, 0.40, 0.55 s only
    assert shown(mock)[5] == LIGHT_HI


def test_a_game_plays_on_the_launchers_backend_and_the_menu_comes_back_on_it():
    seen = []

    class Spy(FakeGame):
        def play(self, backend):
            seen.append(backend)
            super().play(backend)

    mock = MockBackend()
    mock.tap("right", "middle")                                 # B, launch
    mock.tap("middle")                                          # B's game ends
    quit_menu(mock)
    Launcher(mock, [entry(FakeGame()), entry(Spy("B", ICON_B))], NO_IDLE).run()
    assert seen == [mock]
    b = letters(ICON_B)
    assert shown(mock)[:6] == [letters(ICON_A), b, letters([BLACK] * 64), letters(PLAYING), b, LIGHT_HI]


def test_events_typed_during_a_game_are_discarded():
    mock = MockBackend()
    game = FakeGame(linger=2.0)
    mock.tap("middle")                                          # launch A
    end = mock.tap("middle") - 0.05                             # A's "middle": it lingers 2 s
    mock.tap("right", "right", at=end + 0.5)                    # typed during those 2 s
    mock.wait_until(end + 3.0)
    quit_menu(mock)
    Launcher(mock, [entry(game), entry(FakeGame("B", ICON_B))], NO_IDLE).run()
    a = letters(ICON_A)
    assert shown(mock)[:4] == [a, letters([BLACK] * 64), letters(PLAYING), a]
    back = [t for t, f in mock.frames if letters(f) == a][1]
    assert back == pytest.approx(end + 2.0)                     # the menu came back when the game returned
    assert shown(mock)[4] == LIGHT_HI                           # the two rights never moved the menu


def test_a_game_that_raises_shows_the_error_icon_and_logs_the_traceback(caplog):
    mock = MockBackend()
    game = FakeGame(fail=1)
    mock.tap("middle", "middle")                                # launch; the game's middle -> it raises
    mock.tap("right", "left")                                   # browse away and back: still the error icon
    mock.tap("middle", "middle")                                # launch again: this time it returns
    quit_menu(mock)
    with caplog.at_level(logging.ERROR, logger="gamelib"):
        assert Launcher(mock, [entry(game), entry(FakeGame("B", ICON_B))], NO_IDLE).run() == QUIT
    a, b, err, play = letters(ICON_A), letters(ICON_B), letters(ERROR_ICON(default_palette())), letters(PLAYING)
    black = letters([BLACK] * 64)
    assert shown(mock)[:9] == [a, black, play, err, b, err, black, play, a]
    assert game.runs == 2
    [record] = caplog.records
    assert record.getMessage() == "game 'A' raised; back to the menu"
    assert record.exc_info[0] is RuntimeError and str(record.exc_info[1]) == "boom"


def test_quit_requested_inside_a_game_ends_the_launcher():
    class Quitter:
        name, icon = "Q", ICON_A

        def play(self, backend):
            raise QuitRequested()

    mock = MockBackend()
    mock.tap("middle")
    with pytest.raises(QuitRequested):
        Launcher(mock, [entry(Quitter())], NO_IDLE).run()


def test_a_game_that_failed_to_load_shows_the_error_icon_and_cannot_start():
    mock = MockBackend()
    mock.tap("middle", "down")                                  # on the broken entry: nothing happens
    mock.tap("right", "middle", "middle")                       # A, launch, A ends
    quit_menu(mock)
    game = FakeGame()
    broken = Entry("broken", error="ImportError: No module named 'nothing'")
    Launcher(mock, [broken, entry(game)], NO_IDLE).run()
    assert shown(mock)[:6] == [letters(ERROR_ICON(default_palette())), letters(ICON_A), letters([BLACK] * 64), letters(PLAYING),
                               letters(ICON_A), LIGHT_HI]
    assert game.runs == 1


def test_no_games_installed_shows_a_question_mark():
    mock = MockBackend()
    mock.tap("middle", "right")
    quit_menu(mock)
    Launcher(mock, [], NO_IDLE).run()
    assert shown(mock)[0] == letters(no_games(default_palette())) == "\n".join(
        ["........", "........", "...WW...", ".....W..", "....W...", "........", "....W...", "........"])
    assert shown(mock)[1] == LIGHT_HI


# -- idle ---------------------------------------------------------------------------------

def test_idle_dims_then_blanks_and_the_waking_event_does_nothing_else():
    mock = MockBackend()
    options = LauncherOptions(dim_after=60, blank_after=300)
    for when, direction in ((10.0, "right"),                    # B; the idle time counts from here
                            (1000.0, "right"),                  # only wakes it (the menu stays on B)
                            (1001.0, "right"),                  # now moves to C
                            (1062.0, "left")):                  # dimmed again by then: only wakes it
        mock.event(direction, "pressed", at=when)
    quit_menu(mock)
    Launcher(mock, three(), options).run()
    b, c = ICON_B, ICON_C
    assert [(t, letters(f)) for t, f in list(mock.frames)[:8]] == [
        (0.0, letters(ICON_A)),
        (10.0, letters(b)),
        (70.0, letters(dimmed(b))),                             # 60 s after the last event
        (310.0, letters([BLACK] * 64)),                         # 300 s after it
        (1000.0, letters(b)),                                   # woken: the same game, full colour
        (1001.0, letters(c)),
        (1061.0, letters(dimmed(c))),
        (1062.0, letters(c)),                                   # the left only woke it
    ]
    assert letters(mock.frames[8][1]) == LIGHT_HI


def test_waiting_while_blank_has_no_deadline():
    calls = []
    mock = MockBackend()
    read = mock.stick._read

    def recording(timeout):
        calls.append(timeout)
        return read(timeout)

    mock.stick._read = recording
    mock.tap("left", at=5000.0)
    quit_menu(mock)
    Launcher(mock, three(), LauncherOptions(dim_after=60, blank_after=120)).run()
    assert calls[:3] == [pytest.approx(60), pytest.approx(60), None]   # dim, blank, then block


def test_a_press_that_wakes_the_menu_does_not_start_the_system_menu_hold():
    mock = MockBackend()
    mock.hold("up", 2.5, at=100.0)                              # wakes the dimmed menu, then held
    mock.tap("middle")                                          # launches A: the hold opened nothing
    mock.tap("middle")
    quit_menu(mock)
    game = FakeGame()
    Launcher(mock, [entry(game)], LauncherOptions(dim_after=50, blank_after=0)).run()
    assert game.runs == 1


# -- the system menu ------------------------------------------------------------------------

def test_short_up_does_nothing_and_a_two_second_hold_opens_the_system_menu():
    mock = MockBackend()
    mock.tap("up", "up")
    mock.hold("up", 1.9)
    press = mock.hold("up", 2.1) - 2.1
    mock.tap("up")                                              # back to the games
    quit_menu(mock)
    Launcher(mock, three(), NO_IDLE).run()
    assert shown(mock)[:3] == [letters(ICON_A), LIGHT_HI, letters(ICON_A)]
    assert mock.frames[1][0] == pytest.approx(press + 2.0)      # counted from the press


def test_brightness_and_rotation_apply_at_once_and_are_saved(tmp_path):
    store = SettingsFile(tmp_path / "gamelib" / "settings.json")
    mock = MockBackend()
    mock.hold("up", 2.1)
    mock.tap("middle")                                          # brightness: low
    mock.tap("right", "middle")                                 # rotation: 90; the stick turns too:
    mock.tap("right")                                           # physical right is up: back to the games
    mock.hold("right", 2.1)                                     # system menu
    mock.tap("down", "down", "middle")                          # physical down is right: quit
    Launcher(mock, three(), NO_IDLE, store=store).run()
    assert mock.low_light_log == [True]
    assert mock.screen.rotation == 90
    assert store.load() == Settings(low_light=True, rotation=90)
    assert shown(mock)[:4] == [letters(ICON_A), LIGHT_HI, LIGHT_LO, ROT_0]
    quarter = [letters(turned(pic(f.replace("\n", " ")), 90)) for f in (ROT_1, letters(ICON_A))]
    assert shown(mock)[4:6] == quarter                          # drawn turned a quarter clockwise


def test_saved_settings_apply_at_start_and_overrides_are_not_saved(tmp_path):
    store = SettingsFile(tmp_path / "settings.json")
    store.save(Settings(low_light=False, rotation=90))
    mock = MockBackend()                                        # turned 180 degrees: physical down is up
    mock.hold("down", 2.1)
    mock.tap("middle")                                          # brightness: low (saved)
    mock.tap("left", "left", "middle")                          # quit
    saved = store.load()
    Launcher(mock, three(), NO_IDLE, settings=Settings(rotation=180), saved=saved, store=store).run()
    assert mock.screen.rotation == 180                                 # the command line's rotation for this run
    assert store.load() == Settings(low_light=True, rotation=90)


def test_a_game_that_changes_rotation_or_light_is_put_back():
    class Turner(FakeGame):
        def play(self, backend):
            backend.screen.rotation, backend.screen.low_light = 270, True
            super().play(backend)

    mock = MockBackend()
    mock.tap("middle", "middle")
    quit_menu(mock)
    Launcher(mock, [entry(Turner())], NO_IDLE).run()
    assert mock.screen.rotation == 0 and mock.screen.low_light is False
    assert mock.frames[3][1] == ICON_A


def test_power_off_asks_first_and_runs_the_command():
    ran = []
    mock = MockBackend()
    mock.hold("up", 2.1)
    mock.tap("left", "left", "left", "middle")                  # wraps to the language, the colours, then power off; asks
    mock.tap("left")                                            # anything else: no
    mock.tap("middle")                                          # asks again
    mock.wait_until(mock._cursor + 6.0)                         # no answer: gives up after 5 s
    mock.tap("middle", "middle")                                # asks, yes
    options = LauncherOptions(dim_after=0, blank_after=0, allow_poweroff=True, poweroff_command=("off", "now"))
    result = Launcher(mock, three(), options, run=lambda cmd: ran.append(tuple(cmd)) or 0).run()
    assert result == POWEROFF and ran == [("off", "now")]
    power = POWER_ICON(default_palette())[:4] + (RED,) + POWER_ICON(default_palette())[5:]
    assert shown(mock)[1:12] == [LIGHT_HI, *language_steps("auto", 5), COLOURS_F.replace("....C...", ".....C..", 1),
                                 letters(power), SURE, letters(power), SURE, letters(power), SURE]
    gave_up = mock.frames[10][0] - mock.frames[9][0]
    assert gave_up == pytest.approx(5.0)


def test_a_failed_power_off_shows_the_error_icon(caplog):
    mock = MockBackend()
    mock.hold("up", 2.1)
    mock.tap("left", "left", "left", "middle", "middle")
    mock.tap("left", "middle")                                  # quit
    options = LauncherOptions(dim_after=0, blank_after=0, allow_poweroff=True)
    with caplog.at_level(logging.ERROR, logger="gamelib"):
        assert Launcher(mock, three(), options, run=lambda cmd: 1).run() == QUIT
    failed = ERROR_ICON(default_palette())[:4] + (RED,) + ERROR_ICON(default_palette())[5:]
    assert shown(mock)[8] == letters(failed)
    assert [r.getMessage() for r in caplog.records] == [
        "systemctl poweroff failed (exit status 1); see docs/guide/autostart.md, 'Shutting down from the menu'"]


def test_without_allow_poweroff_the_system_menu_has_five_entries():
    mock = MockBackend()
    mock.hold("up", 2.1)
    mock.tap("left", "left", "left", "middle")                  # wraps to the language, the colours, then quit
    assert Launcher(mock, three(), NO_IDLE).run() == QUIT
    assert shown(mock)[1:] == [LIGHT_HI, *language_steps("auto", 4), COLOURS_F, QUIT_F]


def test_the_colours_item_shows_each_palette_and_applies_and_saves_it(tmp_path):
    store = SettingsFile(tmp_path / "settings.json")
    mock = MockBackend()
    mock.hold("up", 2.1)
    mock.tap("left", "left", "middle", "middle")                # the colours: the next palette, twice
    mock.tap("right", "right", "right", "right", "middle")      # quit
    assert Launcher(mock, three(), NO_IDLE, store=store).run() == QUIT
    assert list(PALETTES)[:3] == [DEFAULT, PURPLE_YELLOW, GREEN_PINK]     # the table's first three, in its order
    assert [letters(f) for _, f in list(mock.frames)[1:6]] == [LIGHT_HI, *language_steps("auto", 4), COLOURS_F]
    purple, yellow, green = PALETTES[PURPLE_YELLOW].first, PALETTES[PURPLE_YELLOW].second, PALETTES[PURPLE_YELLOW].field
    cyan, black = PALETTES[DEFAULT].menu, PALETTES[DEFAULT].background
    assert mock.frames[6][1] == picture("....C... ........ .GGGGGG. .GGGGGG. .GGYGGG. .GPYPGG. .YPPYPY. ........".split(),
                                        {"C": cyan, "G": green, "Y": yellow, "P": purple, ".": black}, (0, 0, 0))
    assert mock.frames[7][1][16 + 1] == PALETTES[GREEN_PINK].field
    assert mock.palette.name == GREEN_PINK                           # the LEDs' setting, which games and the web view read
    assert store.load() == Settings(palette=GREEN_PINK)
    assert json.loads(store.path.read_text()) == {"low_light": False, "palette": GREEN_PINK, "rotation": 0}
    again = MockBackend()
    again.hold("up", 2.1)
    again.tap("left", "left", "left", "middle")                 # the language, the colours, then quit
    assert Launcher(again, three(), NO_IDLE, settings=store.load()).run() == QUIT
    assert again.palette.name == GREEN_PINK                          # the saved setting applies at start
    assert [s.caption for _, s in again.statuses if s.details.get("item", "").startswith("colours")] == [
        "colours: green-pink (←/→ browse, Enter changes, ↑ back)"]


FR_F = "\n".join([".....C..", "........", "CCC.CC..", "C...C.C.", "CC..CC..", "C...C.C.", "C...C.C.", "........"])
"""The language item (fifth: its place dot) with "Français" scrolling by: its F and R in full."""
CA_F = "\n".join([".....C..", "........", "..CC..C.", ".C...C.C", ".C...CCC", "..CC.C.C", "..C..C.C", "........"])
"""... then its Ç (the cedilla on the bottom row) and A."""


def test_the_language_item_scrolls_each_languages_own_name_and_applies_and_saves_it(tmp_path):
    store = SettingsFile(tmp_path / "settings.json")
    mock = MockBackend()
    mock.hold("up", 2.1)
    from gamelib import i18n

    spoken = i18n.languages()                                   # en, fr, id ... (auto first, then these in order)
    between = spoken[1:spoken.index("fr")]                      # the languages between English and French
    mock.tap("left", "middle", *["middle"] * (1 + len(between)))   # the language (auto), then English, ..., French
    mock.wait_until(mock._cursor + 5.0)                         # its name scrolls by, and again
    at = 2.9 + 0.2 * len(between)                               # French chosen
    mock.tap("right", "right", "right", "middle")               # wraps to brightness, rotation, quit
    assert Launcher(mock, three(), NO_IDLE, store=store).run() == QUIT
    assert [letters(f) for _, f in list(mock.frames)[1:8]] == [LIGHT_HI, *language_steps("auto", 4),
                                                               *language_steps("English", 4)]
    french = [letters(f) for t, f in mock.frames if at <= t < at + 5.25]   # from French's middle to the next press
    assert len(french) == 66                                    # a step each 0.08 s for 5.25 s
    steps = Scrolling("Français", CYAN, (0, 0, 0), marks={5: CYAN})
    assert len(steps) == 40                                     # 32 columns of text, and 8 to leave
    assert french == [letters(steps[i % 40][0]) for i in range(66)]     # the name entering at the right, and again
    assert french[7] == FR_F and french[23] == CA_F
    assert french[39] == letters(picture([".....C.."] + ["........"] * 7, COLOURS, (0, 0, 0))) and french[40] == french[0]
    said = [(round(t, 2), s.caption) for t, s in mock.statuses][1:]
    assert said[:3] + said[3 + len(between):] == [
        (2.2, "brightness: high (←/→ browse, Enter switches, ↑ back)"),
        (2.5, "language: auto (←/→ browse, Enter changes, ↑ back)"),
        (2.7, "language: English (←/→ browse, Enter changes, ↑ back)"),
        (round(at, 2), "langue : Français (←/→ parcourir, Entrée changer, ↑ retour)"),   # at once, said once while
        (round(at + 5.25, 2), "luminosité : forte (←/→ parcourir, Entrée basculer, ↑ retour)"),   # it scrolls
        (round(at + 5.45, 2), "rotation : 0 (←/→ parcourir, Entrée tourner, ↑ retour)"),
        (round(at + 5.65, 2), "quitter (←/→ parcourir, Entrée quitter, ↑ retour)")]
    assert all(i18n.own_name(code) in caption for code, (_, caption) in zip(between, said[3:3 + len(between)]))
    assert store.load() == Settings(language="fr")
    assert json.loads(store.path.read_text()) == {"language": "fr", "low_light": False, "rotation": 0}
    again = MockBackend()
    again.hold("up", 2.1)
    after = spoken[spoken.index("fr") + 1:]                     # Indonesian (and any after French), then auto
    again.tap("left", *["middle"] * (len(after) + 1))           # (auto: the environment's, English)
    again.tap("right", "right", "right", "middle")
    assert Launcher(again, three(), NO_IDLE, settings=store.load(), store=store).run() == QUIT
    captions = [s.caption for _, s in again.statuses][:4 + len(after)]
    assert captions[:3] + captions[-1:] == [
        "A (←/→ parcourir, Entrée jouer, tiens ↑ 2 s : menu système)",        # the saved language at start
        "luminosité : forte (←/→ parcourir, Entrée basculer, ↑ retour)",
        "langue : Français (←/→ parcourir, Entrée changer, ↑ retour)",
        "language: auto (←/→ browse, Enter changes, ↑ back)"]
    assert "bahasa: Bahasa Indonesia (←/→ menggeser, Enter mengganti, ↑ kembali)" in captions[3:-1]
    assert [letters(f) for t, f in again.frames if round(t, 2) == 2.5] == language_steps("Français", 4, 1)
    assert json.loads(store.path.read_text()) == {"low_light": False, "rotation": 0}   # auto: left out


def test_a_game_started_from_the_menu_speaks_the_menus_language(capsys):
    mock = MockBackend()
    mock.tap("middle")                                          # launch Connect 4
    mock.tap("middle", "middle")                                # 2P, 7x6
    mock.tap("up", "up")                                        # abandon, confirm
    quit_menu(mock)
    Launcher(mock, [c4_entry()], NO_IDLE, settings=Settings(language="id")).run()
    assert [s.caption for _, s in mock.statuses][1:5] == [
        "2 pemain (←/→ menggeser, Enter memilih)",
        "ukuran papan: 7x6 (←/→ menggeser, Enter memilih, ↑ kembali)",
        "giliran pemain 1 (merah): ←/→ memilih, Enter menjatuhkan, ↑ menghentikan",
        "hentikan pertandingan? ↑ lagi: ya, tombol lain: lanjut main"]
    assert capsys.readouterr().out == "pertandingan tidak tercatat: dihentikan saat 0-0\n"   # left before a move


def test_bad_options():
    with pytest.raises(ConfigError, match="^dim-after must be 0"):
        LauncherOptions(dim_after=-1)


# -- Connect 4 from the menu ----------------------------------------------------------------

def c4_entry():
    return Entry("connect4", game=c4.GAME)


def test_connect4_abandoned_returns_to_the_menu():
    mock = MockBackend()
    mock.tap("middle")                                          # launch Connect 4
    mock.tap("middle", "middle")                                # 2P, 7x6
    mock.tap("up", "up")                                        # abandon, confirm
    quit_menu(mock)
    Launcher(mock, [c4_entry()], NO_IDLE).run()
    start = render.board_frame(Board(), render.Palette(), cursor=3)
    frames = [f for _, f in mock.frames]
    assert frames[0] == c4.ICON(default_palette())
    assert frames[2] == tuple(choice_frame(0, default_palette()))
    assert tuple(start) in frames
    menu_again = max(i for i, f in enumerate(frames) if f == c4.ICON(default_palette()))
    assert frames[menu_again - 1] == (BLACK,) * 64 and letters(frames[menu_again + 1]) == LIGHT_HI


def test_connect4_chooser_up_goes_back_to_the_menu():
    mock = MockBackend()
    mock.tap("middle", "up")
    quit_menu(mock)
    Launcher(mock, [c4_entry()], NO_IDLE).run()
    assert [f for _, f in mock.frames][:5] == [c4.ICON(default_palette()), (BLACK,) * 64, tuple(choice_frame(0, default_palette())), (BLACK,) * 64,
                                               c4.ICON(default_palette())]


def test_connect4_prints_each_launchs_result_numbered_as_the_records_and_the_chooser_starts_at_2p(capsys):
    mock = MockBackend()
    for _ in range(2):
        mock.tap("middle", "middle", "middle", "down")          # launch, 2P, 7x6, a move
        mock.tap("up", "up", at=mock._cursor + 1.0)             # abandon
    mock.tap("middle", "middle", "middle", "up", "up")          # launch, 2P, 7x6, abandon before a move
    mock.tap("middle", "up")                                    # launch, and back from the chooser: no match
    quit_menu(mock)
    Launcher(mock, [c4_entry()], NO_IDLE).run()
    assert capsys.readouterr().out == ("match 1: abandoned at 0-0\nmatch 2: abandoned at 0-0\n"
                                       "match not recorded: abandoned at 0-0\n")   # the records' numbers
    assert [f for _, f in mock.frames].count(tuple(choice_frame(0, default_palette()))) == 4   # each launch's chooser starts at 2P


def test_connect4_finished_match_returns_to_the_menu(capsys):
    mock = MockBackend()
    mock.tap("middle", "middle", "middle")                      # launch, 2P, 7x6
    moves(mock, "4545454")                                      # red wins round 1
    mock.wait_until(mock._cursor + ROUND_SETTLE)
    moves(mock, "14142424")                                     # and round 2 (yellow started)
    mock.wait_until(mock._cursor + 6.0)
    quit_menu(mock)
    Launcher(mock, [c4_entry()], NO_IDLE).run()
    frames = [f for _, f in mock.frames]
    fill = frames.index((RED,) * 64)                            # red takes the match
    assert frames[fill + 1:fill + 3] == [(BLACK,) * 64, c4.ICON(default_palette())]
    assert capsys.readouterr().out == "match 1: player 1 wins 2-0\n"   # as sensehat-c4 prints it


def test_thousands_of_launches_run_in_constant_stack():
    depths = []

    class Quick:
        name, icon = "Q", ICON_A

        def play(self, backend):
            frame, depth = sys._getframe(), 0
            while frame is not None:
                frame, depth = frame.f_back, depth + 1
            depths.append(depth)

    mock = MockBackend(history=10)
    for _ in range(3000):
        mock.tap("middle", gap=0.1)
    quit_menu(mock)
    Launcher(mock, [entry(Quick())], LauncherOptions()).run()
    assert len(depths) == 3000 and len(set(depths)) == 1


def test_each_screen_is_said_in_words():
    mock = MockBackend()
    broken = Entry("broken", error="ImportError: No module named 'nothing'")
    mock.tap("right", "right")                                  # B, then the broken entry
    mock.hold("up", 2.1)
    mock.tap("middle", "right", "right", "right", "middle", "up", "left", "middle")
    options = LauncherOptions(dim_after=0, blank_after=0, allow_poweroff=True)
    assert Launcher(mock, three()[:2] + [broken], options, run=lambda command: 0).run() == QUIT
    assert [s.text for _, s in mock.statuses] == [
        "menu: A", "menu: B", "menu: broken (cannot be played)", "menu: brightness: high", "menu: brightness: low",
        "menu: rotation: 0", "menu: quit", "menu: shut down", "menu: shut down? down or middle: yes, up: no",
        "menu: shut down", "menu: quit"]
    games = "←/→ browse, Enter plays, hold ↑ 2 s: system menu"   # the terminal's line: its keys, no "middle"
    assert [s.caption for _, s in mock.statuses] == [
        f"A ({games})", f"B ({games})", f"broken (cannot be played) ({games})",
        "brightness: high (←/→ browse, Enter switches, ↑ back)", "brightness: low (←/→ browse, Enter switches, ↑ back)",
        "rotation: 0 (←/→ browse, Enter turns, ↑ back)", "quit (←/→ browse, Enter quits, ↑ back)",
        "shut down (←/→ browse, Enter shuts down, ↑ back)", "shut down? Enter: yes, ↑: no",
        "shut down (←/→ browse, Enter shuts down, ↑ back)", "quit (←/→ browse, Enter quits, ↑ back)"]
    assert mock.statuses[0][1].as_json() == {"phase": "menu", "text": "menu: A", "caption": f"A ({games})",
                                             "screen": "games", "item": "A", "idle": "awake",
                                             "entry": {"key": "a", "name": "A", "playable": True}}


def test_idle_is_said_too():
    mock = MockBackend()
    mock.wait_until(700.0)
    mock.tap("right")                                           # wakes it
    quit_menu(mock)
    Launcher(mock, three()).run()
    assert [s.text for _, s in mock.statuses][:4] == ["menu: A", "menu: A (dimmed)", "menu: A (LEDs off)", "menu: A"]
    assert mock.statuses[2][1].caption == "the LEDs are off: any key wakes them"


def test_another_sources_presses_do_nothing_in_the_menu():
    mock = MockBackend()
    mock.tap("right", "middle", source="phone:1")               # not the menu's stick
    mock.hold("up", 2.1)
    mock.tap("right", "right", "middle")
    assert Launcher(mock, three(), NO_IDLE).run() == QUIT
    assert shown(mock) == [letters(ICON_A), LIGHT_HI, ROT_0, QUIT_F]


def test_the_menus_keys_are_one_table_per_screen():
    from gamelib.backends.base import Action, Direction
    from gamelib.launcher.menu import Launcher, Screen

    def table(keys):
        by_method = {}
        for press, key in keys.items():
            by_method.setdefault(key.do.__name__, set()).add(press)
        return by_method

    steps = {(d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD)}
    choose = {(Direction.DOWN, Action.PRESSED), (Direction.MIDDLE, Action.PRESSED)}
    assert table(Launcher.KEYS) == {"_stepped": steps, "_launched": choose, "_up": {(Direction.UP, a) for a in Action}}
    assert table(Launcher.SYSTEM_KEYS) == {"_stepped": steps, "_chosen": choose, "_back": {(Direction.UP, Action.PRESSED)}}
    assert table(Launcher.CONFIRM_KEYS) == {"_confirmed": choose, "_cancelled": {
        (d, Action.PRESSED) for d in (Direction.UP, Direction.LEFT, Direction.RIGHT)}}
    launcher = Launcher(MockBackend(), [])
    for screen, keys in ((Screen.GAMES, Launcher.KEYS), (Screen.SYSTEM, Launcher.SYSTEM_KEYS),
                         (Screen.CONFIRM, Launcher.CONFIRM_KEYS)):
        launcher.screen = screen
        assert launcher.keys() is keys
