"""The launcher: a menu of games on the 8x8 LEDs, as one loop over events with explicit state.

Screens: ``GAMES`` (each game's icon; left/right browse with wrap-around, middle
or down launches, up held for :attr:`LauncherOptions.hold` seconds opens the
system menu), ``SYSTEM`` (brightness, rotation, quit, power off when
allowed, the palette: a small board in its colours, middle or down for the next, and the language: its name in
itself scrolling by, middle or down for the next; up goes back) and ``CONFIRM`` (power off? middle or down confirms).
Orthogonal to the screen, the idle level: ``AWAKE``, ``DIM`` (colours scaled
down) and ``BLANK`` (LEDs off).  The event that wakes the menu does nothing else.

The :class:`Launcher` is a :class:`gamelib.keys.Screen` run by :func:`gamelib.keys.run`: its keys
are one table a screen (:attr:`Launcher.KEYS` for the games, ``SYSTEM_KEYS``, ``CONFIRM_KEYS``).
The loop waits on the backend with a timeout taken from the next deadline
(dimming, blanking, the power-off question running out); when the LEDs are
blank there is no deadline and it blocks until the stick moves (while the language item is shown its
name scrolls, one step a deadline).  Nothing
recurses: a game runs inside one call and the loop goes on when it returns.
Each screen is said in words too (:meth:`Launcher.words`: the game's name, the
system menu's item), for a mirror.
"""
from __future__ import annotations

import enum
import logging
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Set

from ..backends.base import STICK, Action, Backend, Direction, StickEvent
from ..colours import RGB
from ..errors import ConfigError, OutputError, QuitRequested
from ..font import centred_text
from ..games import Choices, Entry
from ..keys import Keys, bind, run as run_screen
from ..keys import Screen as KeyedScreen
from ..icons import ERROR_ICON, POWER_ICON, Icon, Picture, dimmed
from ..matrix import PIXELS
from ..i18n import _, languages, own_name
from ..language import AUTO, speak
from ..palette import PALETTES, Palette, palette
from ..scroll import Scrolling
from ..status import ENTER, LEFT_RIGHT, UP, Status
from ..stepper import REPEAT, Stepper
from .settings import Settings, SettingsFile
from .system import CommandRunner, run_command

log = logging.getLogger("gamelib")

POWEROFF_COMMAND = ("systemctl", "poweroff")
QUIT = "quit"
POWEROFF = "poweroff"


def no_games(palette: Palette) -> Picture:
    """Shown when no game is installed: ``?``."""
    return tuple(centred_text("?", palette.text, palette.background))


PALETTE_PICTURE = Icon((
    "........",
    "........",
    ".FFFFFF.",
    ".FFFFFF.",
    ".FF2FFF.",
    ".F121FF.",
    ".211212.",
    "........",
), lambda p: {"F": p.field, "1": p.first, "2": p.second})
"""The system menu's palette item: a small board in the palette chosen (F the field, 1 and 2 the players)."""

@dataclass(frozen=True)
class LauncherOptions:
    """How the launcher behaves (all times in seconds)."""

    dim_after: float = 120.0
    """Idle time before the menu dims (0: never)."""
    blank_after: float = 600.0
    """Idle time before the LEDs go off (0: never)."""
    allow_poweroff: bool = False
    """Offer "shut down" in the system menu."""
    poweroff_command: Sequence[str] = POWEROFF_COMMAND
    hold: float = 2.0
    """How long up is held (from the press) to open the system menu."""
    repeat: float = REPEAT
    """Least time between steps while left/right is held (the stick sends ``held`` every 50 ms)."""
    confirm_timeout: float = 5.0
    """The power-off question gives up after this long."""

    def __post_init__(self) -> None:
        for name in ("dim_after", "blank_after"):
            if getattr(self, name) < 0:
                raise ConfigError(_("{option} must be 0 (never) or more seconds").format(option=name.replace('_', '-')))


class Screen(enum.Enum):
    GAMES = "games"
    SYSTEM = "system"
    CONFIRM = "confirm"


class Idle(enum.Enum):
    AWAKE = "awake"
    DIM = "dim"
    BLANK = "blank"


LIGHT, ROTATION, PALETTE, LANGUAGE = "light", "rotation", "palette", "language"


def language_name(language: str) -> str:
    """How the language item names ``language``: its name in itself, or auto in the words of the moment."""
    return _("auto") if language == AUTO else own_name(language)


class Launcher(KeyedScreen):
    """The state machine behind the menu.  Call :meth:`run` once; it returns :data:`QUIT` or :data:`POWEROFF`.

    ``settings`` are the values in force for this run (the saved ones with any
    command-line overrides); ``saved`` is what the settings file holds.  A change
    made in the system menu applies to both and is written to ``store``.
    """

    def __init__(self, backend: Backend, entries: Sequence[Entry], options: Optional[LauncherOptions] = None,
                 *, settings: Optional[Settings] = None, saved: Optional[Settings] = None,
                 store: Optional[SettingsFile] = None, run: CommandRunner = run_command) -> None:
        self.backend = backend
        self.entries = list(entries)
        self.options = options or LauncherOptions()
        self.settings = settings or Settings()
        self.saved = saved or self.settings
        self.store = store
        self.run_command = run
        self.screen = Screen.GAMES
        self.idle = Idle.AWAKE
        self.index = 0
        self.failed: Set[str] = set()
        """Keys of the games whose last run raised (they show the error icon)."""
        self.system_items: List[str] = [LIGHT, ROTATION, QUIT] + ([POWEROFF] if self.options.allow_poweroff else []) \
            + [PALETTE, LANGUAGE]
        self.system_index = 0
        self.poweroff_failed = False
        self.result: Optional[str] = None
        self._last_input = backend.now()
        self._up_since: Optional[float] = None
        self._stepper = Stepper(self.options.repeat)
        self._confirm_until = 0.0
        self._scrolling: Optional[Scrolling] = None
        """The language item's name scrolling by (while that item is shown and the LEDs are on)."""
        self._scroll_text = ""
        self._scroll_step = 0
        self._scroll_due = 0.0
        self._after_game = False
        """Back from a game and the stick not moved since."""
        self._items: Dict[str, Callable[[], None]] = {
            LIGHT: self._toggle_light, ROTATION: self._turn, QUIT: self._quit, POWEROFF: self._ask_power_off,
            PALETTE: self._next_palette, LANGUAGE: self._next_language}
        """What choosing each system menu item does."""

    # -- the loop -------------------------------------------------------------

    def run(self) -> str:
        """Show the menu and react to the stick until the player quits (or powers off)."""
        self._apply_settings()
        self._show()
        run_screen(self.backend, self)
        assert self.result is not None  # done: quit or powered off
        return self.result

    def deadline(self) -> Optional[float]:
        o = self.options
        candidates = []
        if self.screen is Screen.CONFIRM:
            candidates.append(self._confirm_until)
        if self.idle is Idle.AWAKE and o.dim_after > 0:
            candidates.append(self._last_input + o.dim_after)
        if self.idle is not Idle.BLANK and o.blank_after > 0:
            candidates.append(self._last_input + o.blank_after)
        if self._scrolling is not None:
            candidates.append(self._scroll_due)
        return min(candidates) if candidates else None

    def due(self) -> None:
        o = self.options
        now = self.backend.now()
        if self.screen is Screen.CONFIRM and now >= self._confirm_until:
            self.screen = Screen.SYSTEM
        elif self.idle is not Idle.BLANK and o.blank_after > 0 and now >= self._last_input + o.blank_after:
            self.idle = Idle.BLANK
        elif self.idle is Idle.AWAKE and o.dim_after > 0 and now >= self._last_input + o.dim_after:
            self.idle = Idle.DIM
        elif self._scrolling is not None and now >= self._scroll_due:
            self._scroll_step = (self._scroll_step + 1) % len(self._scrolling)
            self._scroll_due += self._scrolling.speed
            self._show_frame()  # the words stay the same: said once, not each step
            return
        self._show()

    def heeds(self, event: StickEvent) -> bool:
        """Every event of the backend's own stick is input (it puts off dimming); the one that wakes the
        menu does nothing else."""
        if event.source != STICK:
            return False  # the menu is the backend's own stick's (a phone's press could reach the power-off)
        self._last_input = event.timestamp
        self._after_game = False
        if self.idle is not Idle.AWAKE:
            self.idle = Idle.AWAKE  # waking is all this event does
            self._up_since = None
            self._show()
            return False
        return True

    def keys(self) -> Keys:
        """The key table of the screen shown (:attr:`KEYS`, :attr:`SYSTEM_KEYS`, :attr:`CONFIRM_KEYS`)."""
        return {Screen.GAMES: self.KEYS, Screen.SYSTEM: self.SYSTEM_KEYS, Screen.CONFIRM: self.CONFIRM_KEYS}[self.screen]

    # -- what the keys do ---------------------------------------------------------

    def _stepped(self, event: StickEvent) -> None:
        step = self._stepper.step(event)
        if step:
            self._step(step)

    def _launched(self, event: StickEvent) -> None:
        self._launch()

    def _chosen(self, event: StickEvent) -> None:
        self._choose_item()

    def _back(self, event: StickEvent) -> None:
        self._open(Screen.GAMES)

    def _cancelled(self, event: StickEvent) -> None:
        self._open(Screen.SYSTEM)

    def _confirmed(self, event: StickEvent) -> None:
        self._power_off()

    def _up(self, event: StickEvent) -> None:
        self._hold_up(event)

    _STEPS = tuple((d, a) for d in (Direction.LEFT, Direction.RIGHT) for a in (Action.PRESSED, Action.HELD))
    _CHOOSE = ((Direction.DOWN, Action.PRESSED), (Direction.MIDDLE, Action.PRESSED))
    KEYS = {**bind(_stepped, *_STEPS), **bind(_launched, *_CHOOSE),
            **bind(_up, *((Direction.UP, a) for a in Action))}
    """The games' keys: left/right browse, down or middle launches, up held opens the system menu."""
    SYSTEM_KEYS = {**bind(_stepped, *_STEPS), **bind(_chosen, *_CHOOSE),
                   **bind(_back, (Direction.UP, Action.PRESSED))}
    """The system menu's keys: left/right browse, down or middle chooses the item, up goes back."""
    CONFIRM_KEYS = {**bind(_confirmed, *_CHOOSE),
                    **bind(_cancelled, *((d, Action.PRESSED) for d in (Direction.UP, Direction.LEFT, Direction.RIGHT)))}
    """The power-off question's keys: down or middle confirms, up, left or right cancels."""

    def _step(self, step: int) -> None:
        if self.screen is Screen.SYSTEM:
            self.system_index = (self.system_index + step) % len(self.system_items)
        elif self.entries:
            self.index = (self.index + step) % len(self.entries)
        else:
            return
        self._show()

    # -- the games menu ---------------------------------------------------------

    def _hold_up(self, event: StickEvent) -> None:
        """Up held for :attr:`LauncherOptions.hold` seconds (from the press) opens the system menu."""
        if event.action is Action.PRESSED:
            self._up_since = event.timestamp
        elif event.action is Action.RELEASED:
            self._up_since = None
        elif self._up_since is not None and event.timestamp - self._up_since >= self.options.hold - 1e-6:
            self._up_since = None
            self._open(Screen.SYSTEM)

    def _launch(self) -> None:
        if not self.entries:
            return
        entry = self.entries[self.index]
        if entry.game is None:
            return  # cannot be played: the error icon stays, the reason is in the log
        log.info(_("starting {game}").format(game=entry.name))
        self.backend.screen.clear()
        remembered = self.saved.games.get(entry.key, {})
        choices = Choices(remembered, names=self.settings.names)
        try:
            entry.game.run(self.backend, choices)
        except (QuitRequested, OutputError):  # not the game's fault: the launcher's output has gone too
            raise
        except Exception:  # a game's bug must not stop the launcher
            log.error(_("game {game} raised; back to the menu").format(game=repr(entry.name)), exc_info=True)
            self.failed.add(entry.key)
        else:
            self.failed.discard(entry.key)
        if choices.values != remembered:
            self._remember(entry.key, choices.values)
        self._take_back()

    def _remember(self, key: str, values: Dict[str, str]) -> None:
        """Keep a game's choices in the settings (and the file)."""
        games = {**self.saved.games, key: values}
        self.settings = replace(self.settings, games=games)
        self.saved = replace(self.saved, games=games)
        if self.store is not None:
            self.store.save(self.saved)

    def _take_back(self) -> None:
        """After a game: drop what was typed meanwhile, empty the seats phones took for it, restore
        our settings, show the menu."""
        self.backend.stick.discard_events()
        self.backend.seats.clear()
        self._apply_settings()
        self._last_input = self.backend.now()
        self._up_since = None
        self._after_game = True
        self._show()

    # -- the system menu ----------------------------------------------------------

    def _open(self, screen: Screen) -> None:
        if screen is Screen.SYSTEM and self.screen is Screen.GAMES:
            self.system_index = 0
        self.screen = screen
        self._show()

    def _choose_item(self) -> None:
        self._items[self.system_items[self.system_index]]()

    def _toggle_light(self) -> None:
        self._change(low_light=not self.settings.low_light)

    def _turn(self) -> None:
        self._change(rotation=(self.settings.rotation + 90) % 360)

    def _next_palette(self) -> None:
        names = list(PALETTES)
        now = names.index(self.settings.palette) if self.settings.palette in names else -1
        self._change(palette=names[(now + 1) % len(names)])

    def _next_language(self) -> None:
        choices = [AUTO, *languages()]
        now = choices.index(self.settings.language) if self.settings.language in choices else 0
        self._change(language=choices[(now + 1) % len(choices)])

    def _quit(self) -> None:
        self.result = QUIT
        self.done = True

    def _ask_power_off(self) -> None:
        self._confirm_until = self._last_input + self.options.confirm_timeout
        self._open(Screen.CONFIRM)

    def _power_off(self) -> None:
        command = self.options.poweroff_command
        log.info(_("shutting down: {command}").format(command=" ".join(command)))
        status = self.run_command(command)
        if status == 0:
            self.result = POWEROFF
            self.done = True
            return
        log.error(_("{command} failed (exit status {status}); see docs/guide/autostart.md, 'Shutting down from the menu'")
                  .format(command=" ".join(command), status=status))
        self.poweroff_failed = True
        self._open(Screen.SYSTEM)

    def _change(self, **changes: object) -> None:
        self.settings = replace(self.settings, **changes)  # type: ignore[arg-type]
        self.saved = replace(self.saved, **changes)  # type: ignore[arg-type]
        self._apply_settings()
        if self.store is not None:
            self.store.save(self.saved)
        self._show()

    def _apply_settings(self) -> None:
        if self.backend.screen.rotation != self.settings.rotation:
            self.backend.screen.rotation = self.settings.rotation
        if self.backend.screen.low_light != self.settings.low_light:
            self.backend.screen.low_light = self.settings.low_light
        self.backend.palette = palette(self.settings.palette)   # the context every screen draws with
        speak(self.settings.language)

    # -- what the LEDs show ---------------------------------------------------------

    def frame(self) -> Picture:
        """The current screen at full brightness."""
        if self.screen is Screen.CONFIRM:
            return tuple(centred_text("P?", self.backend.palette.error, self.backend.palette.background))
        if self.screen is Screen.SYSTEM:
            return self._system_frame()
        if not self.entries:
            return no_games(self.backend.palette)
        entry = self.entries[self.index]
        if entry.game is None or entry.key in self.failed:
            return ERROR_ICON(self.backend.palette)
        return entry.game.drawn(self.backend.palette)

    def _system_frame(self) -> Picture:
        item = self.system_items[self.system_index]
        shown: Palette = self.backend.palette
        colour: RGB = shown.menu
        if item == LIGHT:
            pixels = centred_text("LO" if self.settings.low_light else "HI", colour, shown.background)
        elif item == ROTATION:
            pixels = centred_text(f"R{self.settings.rotation // 90}", colour, shown.background)
        elif item == PALETTE:
            pixels = list(PALETTE_PICTURE(shown))
        elif item == LANGUAGE:
            scrolling = self._scrolling or Scrolling(language_name(self.settings.language), colour, shown.background)
            pixels = scrolling.pixels(self._scroll_step if self._scrolling is not None else 0)
        elif item == QUIT:
            colour = shown.warning
            pixels = centred_text("Q", colour, shown.background)
        else:
            colour = shown.error
            pixels = list((ERROR_ICON if self.poweroff_failed else POWER_ICON)(shown))
        pixels[1 + self.system_index] = colour  # where in the list we are
        return tuple(pixels)

    def words(self) -> Status:
        """The current screen in words (phase ``menu``): the game's name, or the system menu's item;
        the caption names the keys (the terminal shows it under the board)."""
        keys = {"left_right": LEFT_RIGHT, "enter": ENTER, "up": UP, "hold": f"{self.options.hold:g}"}
        if self.screen is Screen.CONFIRM:
            item = _("shut down? down or middle: yes, up: no")
            caption = _("shut down? {enter}: yes, {up}: no").format(**keys)
        elif self.screen is Screen.SYSTEM:
            chosen = self.system_items[self.system_index]
            item = {LIGHT: _("brightness: low") if self.settings.low_light else _("brightness: high"),
                    ROTATION: _("rotation: {degrees}").format(degrees=self.settings.rotation), QUIT: _("quit"),
                    PALETTE: _("colours: {name}").format(name=self.settings.palette),
                    LANGUAGE: _("language: {name}").format(name=language_name(self.settings.language)),
                    POWEROFF: _("shut down (it failed last time)") if self.poweroff_failed else _("shut down")
                    }[chosen]
            caption = {LIGHT: _("{item} ({left_right} browse, {enter} switches, {up} back)"),
                       ROTATION: _("{item} ({left_right} browse, {enter} turns, {up} back)"),
                       QUIT: _("{item} ({left_right} browse, {enter} quits, {up} back)"),
                       PALETTE: _("{item} ({left_right} browse, {enter} changes, {up} back)"),
                       LANGUAGE: _("{item} ({left_right} browse, {enter} changes, {up} back)"),
                       POWEROFF: _("{item} ({left_right} browse, {enter} shuts down, {up} back)"),
                       }[chosen].format(item=item, **keys)
        elif not self.entries:
            item = _("no games are installed")
            caption = _("{item} (hold {up} {hold} s: system menu)").format(item=item, **keys)
        else:
            entry = self.entries[self.index]
            item = (_("{game} (cannot be played)").format(game=entry.name)
                    if entry.game is None or entry.key in self.failed else entry.name)
            caption = _("{item} ({left_right} browse, {enter} plays, hold {up} {hold} s: system menu)").format(
                item=item, **keys)
        text = {Idle.AWAKE: _("menu: {item}"), Idle.DIM: _("menu: {item} (dimmed)"),
                Idle.BLANK: _("menu: {item} (LEDs off)")}[self.idle].format(item=item)
        if self.idle is Idle.BLANK:
            caption = _("the LEDs are off: any key wakes them")
        return Status("menu", text, caption, {"screen": self.screen.value, "item": item, "idle": self.idle.value,
                                              **self._values()})

    def _values(self) -> Dict[str, Any]:
        """The item shown as values (a page says them in its own language): ``entry`` (the game's ``key``, ``name``
        as the game gives it, and whether it is ``playable``; ``None`` when no game is installed) on the games'
        screen; ``setting`` (``light``, ``rotation``, ``palette``, ``language``, ``quit``, ``poweroff``) and
        ``low_light``, ``rotation``, ``palette``, ``language`` (a code or ``auto``), ``poweroff_failed`` on the
        system menu's."""
        if self.screen is Screen.GAMES:
            if not self.entries:
                return {"entry": None}
            entry = self.entries[self.index]
            return {"entry": {"key": entry.key, "name": entry.game.name if entry.game is not None else entry.key,
                              "playable": entry.game is not None and entry.key not in self.failed}}
        if self.screen is Screen.SYSTEM:
            return {"setting": self.system_items[self.system_index], "low_light": self.settings.low_light,
                    "rotation": self.settings.rotation, "palette": self.settings.palette,
                    "language": self.settings.language, "poweroff_failed": self.poweroff_failed}
        return {}

    def _scroll(self) -> None:
        """Start the language item's name scrolling from its first step when that item comes up (or its
        language changes, or the LEDs come back on); stop it when the item goes or the LEDs go off."""
        shown = (self.screen is Screen.SYSTEM and self.system_items[self.system_index] == LANGUAGE
                 and self.idle is not Idle.BLANK)
        text = language_name(self.settings.language) if shown else None
        if text is None:
            self._scrolling = None
        elif self._scrolling is None or self._scroll_text != text:
            self._scrolling, self._scroll_text = Scrolling(text, self.backend.palette.menu,
                                                                 self.backend.palette.background), text
            self._scroll_step = 0
            self._scroll_due = self.backend.now() + self._scrolling.speed

    def _show(self) -> None:
        self._scroll()
        self._show_frame()
        words = self.words()
        # just back from a game: no caption, so the terminal keeps the game's last line (its match's
        # result) under the board until the stick moves
        self.backend.screen.say(replace(words, caption=None) if self._after_game else words)

    def _show_frame(self) -> None:
        if self.idle is Idle.BLANK:
            self.backend.screen.show([self.backend.palette.background] * PIXELS)
        elif self.idle is Idle.DIM:
            self.backend.screen.show(dimmed(self.frame()))
        else:
            self.backend.screen.show(self.frame())

