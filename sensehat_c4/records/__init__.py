"""Every game kept in SQLite, move by move: the schema, the writer the match loop calls, and the reader.

The file is ``$XDG_DATA_HOME/sensehat-c4/games.db`` (``~/.local/share/...`` when the
variable is unset), or ``$SENSEHAT_C4_DB``, or ``--db PATH``.  One table holds the
matches (who played each side, colours, board size, backend, who starts the rounds and
how many wins take the match, how the match ended), another the rounds (the moves in
solver notation, who started, the result and the winning cells, start and end times).
Seats are the match's player 1 and player 2; ``starter`` says which of them made the
round's first move.  A third (since version 4) holds the days' puzzles played: a row a date, its
tries and the date it was first solved on (:meth:`Recorder.puzzle_tried`, :meth:`Records.puzzles`,
:func:`streak`).

:class:`Recorder` writes (:mod:`.writer`).  It commits each move as it is played (WAL,
``synchronous=FULL``, so a committed move survives kill -9 and a power cut), and never stops
play: a lock another process holds makes it keep the move for the next write; if the file is
read-only, a directory, on a full disk, from a newer version or another program's, it
logs one line and records nothing more in this process (as for a file that is not
SQLite at all: somebody's text, which a mistyped ``--db`` or a symlink may name: it
is never touched); a damaged games database is renamed ``games.db.corrupt-<time>``
and a new one started.  A match left ``playing`` by a process
that is gone (:class:`Owner`, :mod:`.owner`) was interrupted: :meth:`Recorder.interrupted` finds it for
the game to resume.  :class:`Records` reads (:mod:`.reader`), for the ``history``, ``stats``, ``replay`` and
``review`` commands, leaving nothing beside the file that the game cannot write (no ``-wal`` or
``-shm`` of a read-only file's mode, or another user's): each row is checked as it is read (:mod:`.rows`), a row that makes
no sense is skipped and reported in one line (:attr:`Records.notes`), and what cannot be
read at all raises :class:`RecordsError`.

The file is ours when ``PRAGMA application_id`` is :data:`APPLICATION_ID` (or, as the
first version left it, 0 with our two tables: :mod:`.files`); its schema's version is ``PRAGMA
user_version``, and :data:`MIGRATIONS` brings any older file up to :data:`SCHEMA_VERSION`
step by step, in one transaction (:mod:`.migrations`).

This package's modules, each one job: :mod:`.schema` (the application id, each table's columns as its
row's dataclass, and the SQL built from them),
:mod:`.migrations`, :mod:`.files` (where the file is, opening and identifying it, SQLite's
errors), :mod:`.access` (whether this process may write the file at a path, asked before play;
the operating system's reasons in words), :mod:`.owner`, :mod:`.rows` (the typed rows and their checks), :mod:`.reader`,
:mod:`.recording` (:class:`MatchRecorder`, what a match records, as a protocol) and
:mod:`.writer`.  What the rest of the game uses is imported from here.
"""
from .access import NoFolder, Reason, Unwritable, missing_folder, writable
from .files import BUSY_SECONDS, DB_ENV, NotRecorded, RecordsError, default_path
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .owner import Owner
from .reader import Records, load_round
from .recording import NO_FACTS, MatchRecorder
from gamelib.colours import hex_colour

from .rows import MatchRecord, MatchStatus, PuzzleRecord, RoundRecord, RoundResult, Side, round_end, streak, timestamp
from .schema import APPLICATION_ID, MAX_ID, RoundFacts
from .writer import MOVE_BUSY_SECONDS, Recorder

__all__ = ["APPLICATION_ID", "BUSY_SECONDS", "DB_ENV", "MAX_ID", "MIGRATIONS", "MOVE_BUSY_SECONDS", "SCHEMA_VERSION",
           "MatchRecord", "MatchRecorder", "MatchStatus", "NO_FACTS", "NoFolder", "NotRecorded", "Owner", "PuzzleRecord", "Reason", "Recorder", "Records", "RecordsError",
           "RoundFacts", "RoundRecord", "RoundResult", "Side", "Unwritable", "default_path", "hex_colour", "load_round", "missing_folder", "round_end", "streak",
           "timestamp", "writable"]
