"""Bots: players that choose among the legal actions of their seat.

A bot sees only its player's view (`Game.view(seat)`), never the full state."""

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    return BOTS[name](seed)


__all__ = ["Bot", "GreedyBot", "RandomBot", "BOTS", "make_bot"]
