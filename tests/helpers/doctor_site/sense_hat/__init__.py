"""A stand-in for the ``sense_hat`` library in ``test_doctor``: the doctor only imports it and reads its version.

(The real library imports ``RTIMU``, a C extension built only on a Pi; ``test_hat_backend`` and the boot test
stand in for its devices.)
"""
__version__ = "2.6.0"
