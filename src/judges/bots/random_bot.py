from __future__ import annotations

from collections.abc import Callable

from ..engine import Action
from ..engine.dice import SeededDice, seed_to_state
from ..engine.view import PlayerView


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator (reproducible)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = seed_to_state(seed)
        self._dice = SeededDice(self)

    def choose(self, seat: int, legal: list[Action], view: Callable[[], PlayerView]) -> Action:
        return legal[self._dice.roll(len(legal)) - 1]
