"""*Judges & Kings*' server parts: its table kit (kit.py) and its wire view builder (wire.py)."""
