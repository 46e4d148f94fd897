"""Writes the systemd units the Debian package installs (``debian/rules`` runs it when the package is built).

    python3 tools/package_units.py DIRECTORY

makes ``DIRECTORY/system/sensehat-games@.service`` and ``DIRECTORY/user/sensehat-games.service``
from the launcher's unit templates (:func:`gamelib.launcher.service.packaged_units`).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.launcher.service import packaged_units


def main(argv: list) -> int:
    if len(argv) != 1:
        print("usage: package_units.py DIRECTORY", file=sys.stderr)
        return 2
    for relative, text in packaged_units().items():
        path = Path(argv[0]) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o644)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
