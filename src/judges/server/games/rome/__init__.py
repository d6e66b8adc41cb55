"""*Republic of Rome*'s server parts: its table kit (kit.py) and its view builder (wire.py: the
table's envelope around the game's own view)."""
