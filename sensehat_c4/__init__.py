"""Connect 4 for the Raspberry Pi Sense HAT."""
__version__ = "0.1.0"
