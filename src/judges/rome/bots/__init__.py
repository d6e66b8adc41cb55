"""Bots for Republic of Rome, each choosing from the legal actions of its seat."""
