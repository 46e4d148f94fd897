"""``python -m gamelib`` is the ``gamelib`` command."""
import sys

from .launcher.cli import main

sys.exit(main())
