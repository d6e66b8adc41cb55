"""Dice per second of the two generators (engine/dice.py): SplitMix64 and keyed BLAKE2b.

    PYTHONPATH=src python bench/dice_speed.py [--rolls N]

Rolls six-sided dice, then shuffles a 60-card deck, through each generator; prints the rate
and the time per die. Numbers in docs/architecture.md "Randomness".
"""

from __future__ import annotations

import argparse
import time

from judges.engine.dice import SeededDice, StrongDice, seed_to_state


class _Holder:
    __slots__ = ("rng",)

    def __init__(self, rng: int) -> None:
        self.rng = rng


def measure(dice, rolls: int) -> tuple[float, float]:
    start = time.perf_counter()
    for _ in range(rolls):
        dice.roll(6)
    per_die = (time.perf_counter() - start) / rolls
    deck = list(range(60))
    shuffles = max(1, rolls // 600)
    start = time.perf_counter()
    for _ in range(shuffles):
        dice.shuffle(deck)
    per_shuffle = (time.perf_counter() - start) / shuffles
    return per_die, per_shuffle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300_000)
    args = parser.parse_args()
    generators = {
        "splitmix64": SeededDice(_Holder(seed_to_state(1))),
        "blake2b": StrongDice(_Holder(0), bytes(range(32))),
    }
    for name, dice in generators.items():
        per_die, per_shuffle = measure(dice, args.rolls)
        print(
            f"{name:10s} {1 / per_die:12,.0f} dice/s  {per_die * 1e6:6.2f} µs/die  "
            f"{per_shuffle * 1e6:8.1f} µs per 60-card shuffle"
        )


if __name__ == "__main__":
    main()
