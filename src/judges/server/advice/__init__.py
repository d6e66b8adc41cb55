"""The advice a player may ask for: hints, the review of a finished game, learning from games."""
