"""Log temperature readings per city."""

__version__ = "0.3.1"
