"""``--language`` (the game's commands and the launcher's) and the launcher's language setting.

A language is :data:`AUTO` (gettext's order from the environment: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``) or one of :func:`gamelib.i18n.languages`; :func:`speak` makes it the
process's.  Help strings are translated when a parser is built, so a command calls
:func:`speak_from_argv` on its arguments before it builds one (``--language fr --help`` is
French); the option's action speaks the value again when argparse reads it (an abbreviation,
``--lang fr``, too), and a value that is neither is the parser's one-line error (exit 2).
"""
from __future__ import annotations

import argparse
from typing import Any, Optional, Sequence, Union

from .i18n import _, choose, languages, one_of

AUTO = "auto"
"""The language of the environment (gettext's order)."""
OPTION = "--language"
SHORTEST = len("--lang")
"""The shortest abbreviation of :data:`OPTION` the commands' parsers take as it (``--lan`` is another option)."""


def check(text: str) -> str:
    """An argparse ``type``: :data:`AUTO` or a language the program speaks."""
    if text == AUTO or text in languages():
        return text
    raise argparse.ArgumentTypeError(_("must be {choices} (not {text})").format(
        choices=one_of([AUTO, *languages()]), text=repr(text)))


def speak(language: Optional[str]) -> None:
    """Speak ``language`` from now on (:data:`AUTO` or ``None``: the environment's)."""
    choose(None if language in (None, AUTO) else [str(language)])


def from_argv(argv: Sequence[str]) -> Optional[str]:
    """The last good value of ``--language`` in ``argv`` (before a ``--``), or ``None``: read before
    the parser is built, which reports a bad value itself."""
    found: Optional[str] = None
    args = list(argv)
    for index, arg in enumerate(args):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if len(name) < SHORTEST or not OPTION.startswith(name):
            continue
        if not equals:
            if index + 1 >= len(args):
                break
            value = args[index + 1]
        try:
            found = check(value)
        except argparse.ArgumentTypeError:
            continue
    return found


def speak_from_argv(argv: Sequence[str]) -> None:
    """Speak ``argv``'s ``--language`` if it names a good one (else leave the language as it is)."""
    found = from_argv(argv)
    if found is not None:
        speak(found)


class _Speak(argparse.Action):
    """Stores the language and speaks it at once (the messages after the arguments are read are in it)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Union[str, Sequence[Any], None], option_string: Optional[str] = None) -> None:
        setattr(namespace, self.dest, values)
        speak(str(values))


def add_argument(parser: argparse.ArgumentParser, *, saved: bool = False) -> None:
    """``--language LANG``, :data:`AUTO` by default; ``saved``: ``None`` by default, the launcher's saved
    setting (:attr:`gamelib.launcher.settings.Settings.language`)."""
    parser.add_argument(OPTION, type=check, action=_Speak, default=None if saved else AUTO, metavar="LANG",
                        help=_("the language of every word: {auto} (the environment's: the first of LANGUAGE, "
                               "LC_ALL, LC_MESSAGES and LANG that is set) or {languages} (default: {default})").format(
                                   auto=AUTO, languages=one_of(list(languages())),
                                   default=_("the saved setting, else auto") if saved else AUTO))
