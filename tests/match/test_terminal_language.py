"""The game in another language, in a terminal: the whole program in a pseudo-terminal with only
``LANGUAGE`` saying the language (gettext's order, no ``--language``): the lines under the board are in
it, and the words that scroll on the LEDs (the rules, from the opponent chooser's ``?``) too."""
import pytest
from pty_terminal import TRUECOLOR, hex_colours, history, start

from gamelib.colours import BLACK
from gamelib.scroll import Scrolling
from gamelib.palette import palette as default_palette
from sensehat_c4.match.chooser import CHOICES, RULES_INDEX, choice_frame

COLUMNS, LINES = 120, 16

SPOKEN = {
    "fr": ("flèches et Entrée (ou espace) pour jouer, q pour quitter",
           "2 joueurs (←/→ parcourir, Entrée choisir)",
           "règles (←/→ parcourir, Entrée choisir)",
           "les règles défilent : n'importe quelle touche les arrête",
           "Aligne quatre pions pour gagner : à l'horizontale, à la verticale ou en diagonale.  Gauche/droite : "
           "bouger.  Bas ou centre : lâcher.  Haut : partir."),
    "id": ("panah dan Enter (atau spasi) untuk main, q keluar",
           "2 pemain (←/→ menggeser, Enter memilih)",
           "aturan (←/→ menggeser, Enter memilih)",
           "aturan sedang berjalan: tombol apa saja menghentikannya",
           "Empat sejajar menang: mendatar, tegak atau miring.  Kiri/kanan: geser.  Bawah atau tengah: jatuhkan.  "
           "Atas: keluar."),
}
"""Each language's key help, the opponent chooser's first and last (``?``) entries, the rules' line, and
the rules the LEDs scroll."""


@pytest.mark.parametrize("language", sorted(SPOKEN))
def test_language_from_the_environment_in_the_terminal_and_on_the_leds(sandbox, language):
    keys, first, rules_entry, rules_line, rules = SPOKEN[language]
    program = start(sandbox, "--backend", "terminal", env={**TRUECOLOR, "LANGUAGE": language},
                    columns=COLUMNS, lines=LINES)
    line = lambda row: lambda p: p.screen.display[row].strip()   # noqa: E731 (the lines under the board)
    try:
        program.wait_for(lambda p: line(13)(p) == first, what=f"the opponent chooser's {first!r}")
        assert line(12)(program) == keys
        program.press("left")                                         # wraps to ?, the rules
        program.wait_for(lambda p: line(13)(p) == rules_entry, what=f"the chooser's {rules_entry!r}")
        program.press("enter")
        program.wait_for(lambda p: line(13)(p) == rules_line, what=f"the rules' line {rules_line!r}")
        program.pump(2.0)                                             # some 25 steps of the scroll
        program.press("q")
        program.finish()
    finally:
        program.close()
    shown = history(program.output, COLUMNS, LINES)
    after = shown[shown.index(hex_colours(choice_frame(RULES_INDEX, default_palette()))) + 1:]
    if after[:1] == [hex_colours([BLACK] * 64)]:
        after = after[1:]                                             # the dark LEDs the scroll starts from
    steps = [hex_colours(step) for step, _ in Scrolling(rules, CHOICES[RULES_INDEX][2](default_palette()), (0, 0, 0))[:40]]
    places = [steps.index(board) if board in steps else None for board in after[:10]]
    assert None not in places and places == sorted(places) and len(set(places)) == 10, places   # the rules, in order
