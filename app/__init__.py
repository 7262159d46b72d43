"""Airboss, the umpire's desk for face-to-face air-combat wargames."""

__version__ = "0.1.0"
