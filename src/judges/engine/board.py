"""Read-only questions about a position: control, sieges, values, regions, turn order.

Nothing here changes the state.
"""

from __future__ import annotations

from typing import Final

from ..world import World
from .state import CANAANITES, GameState, General


def living_seats(state: GameState) -> list[int]:
    return [p.seat for p in state.players if not p.eliminated]


def turn_order(state: GameState) -> list[int]:
    """§ 4: in round r the first player is the living player at seat (r-1) mod N, then onward."""
    n = len(state.players)
    start = (state.round - 1) % n
    return [seat for i in range(n) if not state.players[seat := (start + i) % n].eliminated]


def generals_at(state: GameState, hex_index: int) -> list[General]:
    return [g for g in state.generals.values() if g.hex == hex_index]


def free_generals(state: GameState, seat: int) -> list[General]:
    """The player's generals that are not captive, in id order."""
    return [g for g in state.generals.values() if g.owner == seat and g.captor is None]


def is_besieged(state: GameState, settlement: int) -> bool:
    return any(pair.at == settlement for pair in state.invaders)


def besieged_settlements(state: GameState) -> set[int]:
    """Every besieged settlement at once (the same answers as is_besieged, in one pass)."""
    return {pair.at for pair in state.invaders}


def hex_controller(state: GameState, world: World, hex_index: int) -> int | None:
    """§ 2: who controls a hex.

    A settlement: the owner of its garrison (a seat or CANAANITES), else the one player
    with a non-captive general in it. Any other hex: the one player with a non-captive
    general there. Razed settlements and contested hexes (generals of several players,
    no garrison) are controlled by nobody.
    """
    s_index = world.hexes[hex_index].settlement
    if s_index is not None:
        s = state.settlements[s_index]
        if s.razed:
            return None
        if s.owner is not None:
            return s.owner
    owners = {g.owner for g in state.generals.values() if g.hex == hex_index and g.captor is None}
    if len(owners) == 1:
        return next(iter(owners))
    return None


def settlement_controller(state: GameState, world: World, settlement: int) -> int | None:
    return hex_controller(state, world, world.settlements[settlement].hex)


_CONTESTED: Final = -2


def control_map(state: GameState, world: World) -> list[int | None]:
    """The controller of every settlement at once (the same answers as settlement_controller,
    in one pass over the generals instead of one per settlement)."""
    out = [None if s.razed else s.owner for s in state.settlements]  # a garrison's owner controls
    by_hex: dict[int, int] = {}  # hex -> the one owner of free generals there, or _CONTESTED
    for g in state.generals.values():
        if g.captor is None:
            here, owner = g.hex, g.owner
            previous = by_hex.get(here)
            if previous is None:
                by_hex[here] = owner
            elif previous != owner:
                by_hex[here] = _CONTESTED
    hexes, settlements = world.hexes, state.settlements
    for hex_index, owner in by_hex.items():
        s_index = hexes[hex_index].settlement
        if s_index is not None and owner != _CONTESTED:
            s = settlements[s_index]
            if s.owner is None and not s.razed:  # no garrison: the generals' owner controls
                out[s_index] = owner
    return out


def base_value(state: GameState, world: World, settlement: int) -> int:
    """§ 7: a settlement's income value before this round's events: a village 1, a city 2,
    +2 a development under the default rules (plunder counts this value; Income adds the
    events to it). The numbers are the game's own rules (its options')."""
    rules = state.options.rules
    base = rules.city_income if world.settlements[settlement].is_city else rules.village_income
    return base + rules.development_income * state.settlements[settlement].developments


def controlled_settlements(state: GameState, world: World, seat: int) -> list[int]:
    return [i for i, owner in enumerate(control_map(state, world)) if owner == seat]


def is_defended(state: GameState, world: World, settlement: int) -> bool:
    """A settlement with a garrison or any general in it (§ 5.2: otherwise invaders raze it)."""
    s = state.settlements[settlement]
    if s.owner is not None and s.troops > 0:
        return True
    hex_index = world.settlements[settlement].hex
    return any(g.hex == hex_index for g in state.generals.values())


def standing_in_region(state: GameState, world: World, region: int) -> int:
    return sum(1 for s in world.regions[region].settlements if not state.settlements[s].razed)


def region_share(
    state: GameState, world: World, region: int, seat: int, control: list[int | None] | None = None
) -> float:
    """The share of a region's standing settlements that `seat` controls (0 when none stands).
    `control` is the position's `control_map`, when the caller has it already."""
    control = control if control is not None else control_map(state, world)
    standing = [i for i in world.regions[region].settlements if not state.settlements[i].razed]
    return sum(1 for i in standing if control[i] == seat) / len(standing) if standing else 0.0


def sustaining_regions(state: GameState, world: World, need: int) -> int:
    """How many regions have at least `need` standing settlements (`standing_in_region`)."""
    settlements = state.settlements
    out = 0
    for region in world.regions:
        standing = 0
        for s in region.settlements:
            if not settlements[s].razed:
                standing += 1
        if standing >= need:
            out += 1
    return out


def judge_titles_of(state: GameState, general_id: int) -> list[int]:
    return [r for r, t in enumerate(state.titles) if t.holder == general_id]


def prophet_owner(state: GameState) -> int | None:
    """§ 5.5: the owner of a prophet in play decides; with several, the one last in turn order.

    A prophet is in play when a non-captive general of a living player carries it.
    """
    owners = {
        g.owner
        for g in state.generals.values()
        if g.prophet and g.captor is None and not state.players[g.owner].eliminated
    }
    if not owners:
        return None
    order = turn_order(state)
    return max(owners, key=order.index)


def canaanites_hold_israel_or_judah(state: GameState, world: World) -> bool:
    for region in world.regions:
        if region.kingdom in ("israel", "judah"):
            for s in region.settlements:
                st = state.settlements[s]
                if st.owner == CANAANITES and not st.razed:
                    return True
    return False
