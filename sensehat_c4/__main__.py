"""``python -m sensehat_c4`` is the ``sensehat-c4`` command."""
import sys

from .cli import main

sys.exit(main())
