"""Loads :mod:`fake_hat_ioctl` in a child process that has ``tests/helpers/boot_site`` on ``PYTHONPATH``
(``tests/gamelib/backends/test_hat_kernel.py``; the boot test's venv loads it through ``fake_hat_ioctl.pth``)."""
import fake_hat_ioctl  # noqa: F401
