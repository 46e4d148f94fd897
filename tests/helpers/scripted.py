"""Scripted play on the mock: moves steered as a person steers them, thinkers on its fake clock, the
command line in this process, known draws."""
import time

from gamelib.backends.mock import MockBackend
from sensehat_c4 import cli
from sensehat_c4.match.players import Player

MOVE_SETTLE = 0.5          # longer than any fall (8 rows x 30 ms)
ROUND_SETTLE = 4.0         # longer than blink (1.5 s) + score (1.5 s)
MATCH_SETTLE = 6.0         # ... + the winner's colour (1.5 s)


def moves(mock: MockBackend, text: str, settle: float = MOVE_SETTLE) -> None:
    """Script a sequence of moves (1-based columns) as a player steers the cursor from the centre."""
    for char in text:
        column = int(char) - 1
        steps = column - 3
        mock.tap(*(["right"] * steps if steps > 0 else ["left"] * -steps), "down")
        mock.wait_until(mock._cursor + settle)


class ClockThinker(Player):
    """Answers ``column`` once the backend's fake clock reaches start + ``delay``."""

    made = []

    def __init__(self, backend, column, delay):
        self.backend, self.column, self.delay = backend, column, delay
        self.cancelled = False
        self.boards = []
        ClockThinker.made.append(self)

    def start(self, board):
        self.boards.append(board.notation())
        self.ready_at = self.backend.now() + self.delay

    def poll(self):
        return self.column if self.backend.now() >= self.ready_at else None

    def cancel(self):
        self.cancelled = True


def factory(backend, column=0, delay=0.3):
    ClockThinker.made = []
    return lambda computer, seed: ClockThinker(backend, column, delay)


def answering(backend, columns, delay=0.3):
    """A thinker factory whose players answer ``columns`` in turn (one each turn), ``delay`` after they start."""
    answers = iter(columns)

    class Next(ClockThinker):
        def start(self, board):
            super().start(board)
            self.column = next(answers)

    return lambda computer, seed: Next(backend, None, delay)


def answer(thinker, within=10.0):
    """Poll like the controller until the thinker answers (a real wait: the search is real)."""
    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        column = thinker.poll()
        if column is not None:
            return column
        time.sleep(0.01)
    raise AssertionError("no answer")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


DRAW_6X5 = "214221143225544435611665653336"


DRAW_8X6 = "424341227428428623413187831168866733156655555777"
