"""Facts of a World the bots read often, computed once per World (`World.derived`): each
settlement's region, hex and kind, and the hexes near each settlement from which a general
threatens it."""

from __future__ import annotations

from ..world import World

__all__ = ["THREAT_RANGE", "near_settlements", "settlement_facts"]

THREAT_RANGE = 3  # a free general not mine this many hexes away or nearer threatens a settlement


def settlement_facts(world: World) -> tuple[tuple[int, int, bool], ...]:
    """(region, hex, is a city) of every settlement of `world`: a fact of the World."""
    return world.derived("settlement facts", lambda: tuple((s.region, s.hex, s.is_city) for s in world.settlements))


def near_settlements(world: World) -> tuple[frozenset[int], ...]:
    """Per settlement of `world`, the hexes within THREAT_RANGE of it: a fact of the World."""

    def build() -> tuple[frozenset[int], ...]:
        rows = (world.distances[h] for _, h, _ in settlement_facts(world))
        return tuple(frozenset(i for i, d in enumerate(row) if d <= THREAT_RANGE) for row in rows)

    return world.derived(("near settlements", THREAT_RANGE), build)
