"""``python -m gamelib`` is the ``gamelib`` command."""
import sys

from .cli import main

sys.exit(main())
