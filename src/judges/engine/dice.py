"""The one door through which randomness enters a game.

Every die the rules roll and every shuffle goes through a `Dice`. A game's seeded dice keep
their whole state in `GameState.rng` (one 64-bit integer), so cloning or serializing the
state also clones the dice, and seed + action log always rebuild the same game.
Tests use `ScriptedDice`, which hands out exactly the faces a test lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .errors import DiceScriptExhausted

_MASK = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: returns (next state, 64-bit output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def seed_to_state(seed: int) -> int:
    """Spreads any integer seed into a 64-bit generator state."""
    state, out = splitmix64(seed & _MASK)
    return out


class Dice(Protocol):
    def roll(self, sides: int = 6) -> int:
        """One die with `sides` faces: an integer in 1..sides."""

    def shuffle(self, items: list) -> None:
        """Shuffles `items` in place."""


class _DiceBase:
    def d6(self) -> int:
        return self.roll(6)

    def roll(self, sides: int = 6) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def shuffle(self, items: list) -> None:
        # Fisher-Yates driven by individual dice, so a shuffle is scriptable too.
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]


class SeededDice(_DiceBase):
    """Dice whose state lives in `holder.rng` (normally the GameState)."""

    __slots__ = ("holder",)

    def __init__(self, holder) -> None:
        self.holder = holder

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one face")
        state = self.holder.rng
        limit = ((_MASK + 1) // sides) * sides  # rejection keeps every face equally likely
        while True:
            state, out = splitmix64(state)
            if out < limit:
                break
        self.holder.rng = state
        return out % sides + 1


class ScriptedDice(_DiceBase):
    """Dice for tests and scenarios: hands out the listed faces in order.

    `shuffles`, when given, lists the permutations that successive shuffles apply
    (each a list of source indices); otherwise a shuffle keeps the order unchanged,
    so a test never has to script the dice of the deck shuffle.
    When the faces run out, `fallback` dice (if any) take over; otherwise
    DiceScriptExhausted is raised, which makes a test that rolls more than it
    expected fail loudly.
    """

    def __init__(
        self, faces: Sequence[int] = (), shuffles: Sequence[Sequence[int]] | None = None, fallback: Dice | None = None
    ) -> None:
        self.faces = list(faces)
        self.position = 0
        self.shuffles = [list(p) for p in shuffles] if shuffles is not None else None
        self.fallback = fallback
        self.rolled: list[tuple[int, int]] = []  # (sides, face) of every die handed out

    @property
    def remaining(self) -> list[int]:
        return self.faces[self.position :]

    def roll(self, sides: int = 6) -> int:
        if self.position >= len(self.faces):
            if self.fallback is not None:
                face = self.fallback.roll(sides)
                self.rolled.append((sides, face))
                return face
            raise DiceScriptExhausted(len(self.faces), sides)
        face = self.faces[self.position]
        if not 1 <= face <= sides:
            raise ValueError(f"scripted die #{self.position + 1} shows {face}, but this die has {sides} faces")
        self.position += 1
        self.rolled.append((sides, face))
        return face

    def shuffle(self, items: list) -> None:
        if self.shuffles is None:
            return
        if not self.shuffles:
            if self.fallback is not None:
                self.fallback.shuffle(items)
            return
        order = self.shuffles.pop(0)
        if sorted(order) != list(range(len(items))):
            raise ValueError(f"scripted shuffle {order} is not a permutation of {len(items)} items")
        items[:] = [items[i] for i in order]
