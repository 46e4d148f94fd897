"""Started by Python in child processes of the tests: point sense_emu at a temporary directory.

Only active when ``C4_TEST_EMU_DIR`` is set (see ``tests/helpers/emu_sandbox.py``).
"""
import os
import sys

if os.environ.get("C4_TEST_EMU_DIR"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import emu_sandbox

    emu_sandbox.redirect(os.environ["C4_TEST_EMU_DIR"])
    del sys.path[0]
