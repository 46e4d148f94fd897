"""``records/access.py``: whether this process may write the games at a path, asked before anything opens
it (a directory, a FIFO, a device, a folder or file it may not write, one that refuses the open itself, a
missing folder made or refused), and the operating system's reasons in the player's words; each reason as
values (its code and fields), the recorder's too, and docs/API.md naming them all."""
from __future__ import annotations

import errno
import os
import re
import shutil
import sqlite3
import string
import tempfile
from pathlib import Path

import pytest
from as_nobody import in_child

from gamelib import i18n
from sensehat_c4.records import NoFolder, Reason, Recorder, Unwritable, missing_folder, writable
from sensehat_c4.records.access import OS_WORDS, REASONS, os_reason
from sensehat_c4.records import files

ROOT = os.geteuid() == 0


def refused(path: Path, **options) -> str:
    with pytest.raises(Unwritable) as caught:
        writable(path, **options)
    return str(caught.value)


def refused_for(path: Path, **options):
    """Why ``path`` is refused, as values (``None``: in words only)."""
    with pytest.raises(Unwritable) as caught:
        writable(path, **options)
    return caught.value.reason


def test_a_directory_a_fifo_and_a_device_are_refused_by_name(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    (tmp_path / "link.db").symlink_to(folder)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)   # opening it would wait for a writer for ever
    assert refused(folder) == "adir is a directory"
    assert refused(tmp_path / "link.db") == "link.db is a directory"
    assert refused(fifo) == "fifo is not a regular file"
    assert refused(Path("/dev/null")) == "null is not a regular file"
    assert refused(Path(".")) == refused(Path("")) == ". is a directory"   # no name of its own: the path


def test_a_file_or_its_place_that_can_be_written_is_the_file_itself(tmp_path):
    (tmp_path / "games.db").write_bytes(b"")
    (tmp_path / "link.db").symlink_to(tmp_path / "games.db")
    assert writable(tmp_path / "games.db") == tmp_path / "games.db"
    assert writable(tmp_path / "link.db") == tmp_path / "games.db"
    assert writable(tmp_path / "new.db") == tmp_path / "new.db" and not (tmp_path / "new.db").exists()


def test_a_missing_folder_is_made_or_refused_and_then_nothing_is_made(tmp_path):
    named = tmp_path / "nonexistent" / "dir" / "games.db"
    assert missing_folder(named) == tmp_path / "nonexistent" / "dir"
    with pytest.raises(NoFolder) as caught:
        writable(named, make_folders=False)
    assert str(caught.value) == f"the folder {named.parent} does not exist" and caught.value.folder == named.parent
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "dangling.db").symlink_to(named)      # a link to a file in a missing folder: the target's
    assert missing_folder(tmp_path / "dangling.db") == named.parent
    assert writable(named) == named and named.parent.is_dir() and not named.exists()
    assert missing_folder(named) is None
    (tmp_path / "afile").write_bytes(b"")
    assert missing_folder(tmp_path / "afile" / "games.db") == tmp_path / "afile"   # a file where the folder is
    assert refused(tmp_path / "afile" / "games.db") == "File exists"


def test_a_name_too_long_is_the_system_s_reason_not_a_missing_folder(tmp_path):
    path = tmp_path / ("a" * 300) / "games.db"
    assert missing_folder(path) is None
    assert refused(path, make_folders=False) == "File name too long"
    assert refused(path) == "File name too long"


@pytest.fixture
def shared():
    """A directory everyone may enter (``tmp_path`` lies under a root-only one)."""
    folder = Path(tempfile.mkdtemp())
    os.chmod(folder, 0o755)
    yield folder
    os.chmod(folder, 0o755)
    shutil.rmtree(folder)


@pytest.mark.skipif(not ROOT, reason="needs root, to run a child as nobody")
def test_what_another_user_may_not_write(shared, tmp_path):
    (tmp_path / "games.db").write_bytes(b"")          # in a directory only root may enter
    writable_folder = shared / "open"
    writable_folder.mkdir(mode=0o777)
    os.chmod(writable_folder, 0o777)
    locked = writable_folder / "locked.db"             # a file nobody else may write, in a folder they may
    locked.write_bytes(b"")
    os.chmod(locked, 0o644)
    closed = shared / "closed"                         # a folder nobody else may write in
    closed.mkdir()
    denied = Reason("EACCES")
    for path, why, values in ((tmp_path / "games.db", "Permission denied", denied),
                              (tmp_path / "new" / "games.db", "Permission denied", denied),
                              (locked, f"{locked} is read-only", Reason("read-only", {"place": str(locked)})),
                              (closed / "games.db", f"{closed} is read-only", Reason("read-only", {"place": str(closed)}))):
        assert in_child(lambda: (refused(path), refused_for(path))) == ((why, values), "", "")


@pytest.mark.skipif(not ROOT or not Path("/sys/kernel/notes").is_file(),
                    reason="a file whose open for writing is refused though access() allows it (root, sysfs)")
def test_a_file_whose_open_is_refused_is_refused_though_access_allows_it():
    assert os.access("/sys/kernel/notes", os.W_OK)
    assert refused(Path("/sys/kernel/notes")) == "Permission denied"


def test_the_system_s_reasons_are_the_catalogue_s_words_in_the_player_s_language(tmp_path):
    def error(number):
        return OSError(number, os.strerror(number), "/some/path")

    for number, words in OS_WORDS.items():       # English: what the system says (glibc's words)
        assert os_reason(error(number)) == words == os.strerror(number)
    assert os_reason(error(errno.ECHILD)) == "No child processes"        # another: the system's own words
    (tmp_path / "adir").mkdir()
    i18n.choose(["fr"])
    try:
        assert os_reason(error(errno.EACCES)) == "Permission refusée"
        assert os_reason(error(errno.ENAMETOOLONG)) == "Nom de fichier trop long"
        assert refused(tmp_path / "adir") == "adir est un dossier"
        assert refused(tmp_path / ("a" * 300) / "games.db") == "Nom de fichier trop long"
    finally:
        i18n.choose(None)


def test_each_refusal_keeps_its_reason_as_a_code_and_its_fields(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "afile").write_bytes(b"")
    named = tmp_path / "nonexistent" / "games.db"
    assert refused_for(folder) == Reason("directory", {"name": "adir"})
    assert refused_for(tmp_path / "fifo") == Reason("not-regular", {"name": "fifo"})
    assert refused_for(named, make_folders=False) == Reason("no-folder", {"folder": str(named.parent)})
    assert refused_for(tmp_path / "afile" / "games.db") == Reason("EEXIST", {})
    assert refused_for(tmp_path / ("a" * 300) / "games.db") == Reason("ENAMETOOLONG")
    other = Unwritable.system(OSError(errno.ECHILD, os.strerror(errno.ECHILD), "/x"))   # no words of ours: no code
    assert (str(other), other.reason) == ("No child processes", None)
    assert Unwritable.because("read-only", place="/srv/games").reason.as_json() == {"reason": "read-only",
                                                                                     "place": "/srv/games"}


def test_a_reason_is_only_a_code_of_the_table_with_the_fields_its_message_names():
    assert {code for number, code in errno.errorcode.items() if number in OS_WORDS} | {
        "directory", "not-regular", "read-only", "no-folder"} == set(REASONS)
    for code, fields in (("nope", {}), ("directory", {}), ("directory", {"place": "x"}), ("EACCES", {"name": "x"}),
                         ("ECHILD", {})):
        with pytest.raises(ValueError):
            Reason(code, fields)


def test_the_recorder_s_reason_is_what_its_words_say_as_values(tmp_path):
    denied = OSError(errno.EACCES, os.strerror(errno.EACCES), "/x")
    locked = sqlite3.OperationalError("database is locked")
    assert (files.why(denied), files.reason(denied)) == ("Permission denied", Reason("EACCES"))
    assert (files.why(locked), files.reason(locked)) == ("database is locked", None)     # SQLite's words: no code
    assert files.reason(NoFolder(tmp_path)) == Reason("no-folder", {"folder": str(tmp_path)})
    (tmp_path / "adir").mkdir()
    recorder = Recorder(tmp_path / "adir")
    assert not recorder.open()
    recorder.close()
    assert (recorder.failed, recorder.failed_reason) == ("adir is a directory", Reason("directory", {"name": "adir"}))


def test_the_api_s_status_table_names_every_reason_and_its_fields():
    """docs/API.md's ``unrecorded`` row, read against the table: every code, and every field its message names."""
    api = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    row = next(line for line in api.splitlines() if line.strip().startswith("| `unrecorded` |"))
    named = set(re.findall(r"`([^`]+)`", row))
    fields = {name for message in REASONS.values() for _text, name, _spec, _conv in string.Formatter().parse(message)
              if name}
    assert set(REASONS) | fields | {"why", "reason"} <= named
