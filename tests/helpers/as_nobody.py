"""Running part of a test as another user: a forked child that drops root (``nobody``, no groups)."""
from __future__ import annotations

import io
import os
import pickle
import sys
from typing import Any, Callable, Tuple

NOBODY = 65534


def in_child(action: Callable[[], Any], user: int = NOBODY) -> Tuple[Any, str, str]:
    """``action()`` in a forked child running as ``user`` with no groups (when we are root; else as
    ourselves), its stdout and stderr captured: ``(what it returned, or its SystemExit's code, or
    "ExceptionType: message"; out; err)``.  What the child imports after dropping root must be loaded
    before: the standard library may lie where the user cannot read (under ``/root``)."""
    import encodings.unicode_escape  # noqa: F401 (gamelib.app.one_line's codec)

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(user)
                os.setuid(user)
            sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
            try:
                result = action()
            except SystemExit as exit_:
                result = exit_.code
            except BaseException as exc:  # noqa: BLE001 (reported to the parent)
                result = f"{type(exc).__name__}: {exc}"
            os.write(write, pickle.dumps((result, sys.stdout.getvalue(), sys.stderr.getvalue())))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)
