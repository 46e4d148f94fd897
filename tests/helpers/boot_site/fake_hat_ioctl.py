"""Answers for the ioctls ``sense_hat`` and the launcher send to the Sense HAT's devices.

In the boot test the LED framebuffer is a regular file and the joystick's evdev
node a FIFO, so the kernel answers every ioctl on them with ``ENOTTY``.  This
wraps ``fcntl.ioctl`` for exactly four requests, and only on such stand-ins
(a regular file or a FIFO): ``EVIOCGRAB`` (grab the joystick) succeeds, and the
framebuffer's gamma ioctls keep a per-process table as the ``rpisense-fb``
driver does (reset to the default or the low-light table, set, get).  Anything
else, or any real device, goes to the real ``ioctl``.

``FAKE_HAT_GAMMA=refused`` in the environment plays the display driver of
Raspberry Pi OS Bookworm's newer kernels instead, which has no gamma ioctls: they
go to the real ``ioctl`` too, whose answer on a regular file is that driver's,
``OSError`` ENOTTY (python-sense-hat issue 145).

Loaded at start-up through ``fake_hat_ioctl.pth`` in the venv's site-packages (or,
for a test's child process, through ``PYTHONPATH``).
"""
import array
import fcntl
import os
import stat

EVIOCGRAB = 0x40044590
FBIOGET_GAMMA, FBIOSET_GAMMA, FBIORESET_GAMMA = 61696, 61697, 61698
GAMMA_DEFAULT_TABLE = [0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7,
                       8, 9, 10, 11, 12, 14, 15, 17, 18, 20, 21, 23, 25, 27, 29, 31]  # the driver's gamma_default
GAMMA_LOW_TABLE = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
                   3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10, 10]  # gamma_low (what sense_hat checks)
GAMMA_ENV = "FAKE_HAT_GAMMA"
HANDLED = (EVIOCGRAB,) if os.environ.get(GAMMA_ENV) == "refused" else (
    EVIOCGRAB, FBIOGET_GAMMA, FBIOSET_GAMMA, FBIORESET_GAMMA)

_real_ioctl = fcntl.ioctl
_gamma = list(GAMMA_DEFAULT_TABLE)


def _stand_in(fd):
    """True if ``fd`` (an int or an object with ``fileno()``) is a regular file or a FIFO."""
    number = fd if isinstance(fd, int) else fd.fileno()
    mode = os.fstat(number).st_mode
    return stat.S_ISREG(mode) or stat.S_ISFIFO(mode)


def ioctl(fd, request, arg=0, mutate_flag=True):
    if request not in HANDLED or not _stand_in(fd):
        return _real_ioctl(fd, request, arg, mutate_flag)
    if request == FBIORESET_GAMMA:
        _gamma[:] = GAMMA_LOW_TABLE if arg == 1 else GAMMA_DEFAULT_TABLE
    elif request == FBIOSET_GAMMA:
        _gamma[:] = list(arg)
    elif request == FBIOGET_GAMMA:
        arg[:] = array.array("B", _gamma)
    return 0


fcntl.ioctl = ioctl
