"""The random bot: uniform over its seat's legal actions, from its own seeded dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...engine.dice import SeededDice, seed_to_state

_A = TypeVar("_A")


class _Rng:
    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = seed_to_state(seed)


class RandomRomeBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._dice = SeededDice(_Rng(seed))

    def choose(self, legal: Sequence[_A]) -> _A:
        return legal[self._dice.roll(len(legal)) - 1]
