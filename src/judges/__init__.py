"""Judges & Kings: a digital edition of the strategy board game."""

__version__ = "0.1.0"
