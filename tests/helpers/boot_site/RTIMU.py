"""A stand-in for ``RTIMU``, the Sense HAT's IMU library (a C extension built only on a Pi).

``sense_hat.SenseHat()`` builds a settings object and the three sensor objects at
start-up and touches them again only when a program reads a sensor; the launcher
never does, so every sensor here reports that it could not start.  The boot test
(``tests/gamelib/launcher/test_boot.py``) copies this file into the container's system
``dist-packages``, where Raspberry Pi OS's ``python3-rtimulib`` puts the real one.
"""


class Settings:
    def __init__(self, path):
        self.path = path


class _Sensor:
    def __init__(self, settings):
        self.settings = settings

    def IMUInit(self):  # noqa: N802 (the real library's names)
        return False

    def pressureInit(self):  # noqa: N802
        return False

    def humidityInit(self):  # noqa: N802
        return False


class RTIMU(_Sensor):
    pass


class RTPressure(_Sensor):
    pass


class RTHumidity(_Sensor):
    pass
