"""Loads :mod:`fake_hat_ioctl` in a child process that has ``tests/boot_site`` on ``PYTHONPATH``
(``tests/test_hat_kernel.py``; the boot test's venv loads it through ``fake_hat_ioctl.pth``)."""
import fake_hat_ioctl  # noqa: F401
