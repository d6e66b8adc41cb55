"""§ 7 Phase 3 — Income: credited automatically just before Acquisitions."""

from __future__ import annotations

from ..world import World
from .board import base_value, control_map, living_seats
from .context import Ctx
from .messages import message
from .state import Entry, GameState

# What § 7 Income reports (engine/messages.py): one notification per player, its lines.
message("income.besieged", "income-and-victory", settlement="settlement", value="coins")
message("income.taxed", "income-and-victory", settlement="settlement", value="coins", collector="player")
message(
    "income.tax",
    "income-and-victory",
    variants=(("income.tax.modified", "modifiers", "nonempty"),),
    settlement="settlement",
    value="coins",
    modifiers="cards",
    owner="player",
)
message(
    "income.settlement",
    "income-and-victory",
    variants=(("income.settlement.modified", "modifiers", "nonempty"),),
    settlement="settlement",
    value="coins",
    modifiers="cards",
    developments="int",
)
message("income.dowry", "income-and-victory", value="coins")
message("notification.income", "income-and-victory", player="player", before="coins", income="coins", after="coins")


def settlement_value(state: GameState, world: World, settlement: int) -> tuple[int, list[str]]:
    """The income value of a settlement and the modifiers that made it (§ 7)."""
    rules = state.options.rules
    value = base_value(state, world, settlement)
    modifiers = []
    terrain = world.hexes[world.settlements[settlement].hex].terrain
    for event in state.events_landed:
        if event.terrain == terrain:
            if event.card == "abundance":
                value += rules.abundance_bonus
                modifiers.append("abundance")
            elif event.card == "famine":
                value -= rules.famine_penalty
                modifiers.append("famine")
    return max(rules.min_settlement_value, value), modifiers


_NONE: list[str] = []


def compute_income(state: GameState, world: World, control: list[int | None] | None = None) -> dict[int, list[Entry]]:
    """Every living player's income lines for this round, without changing anything.
    `control` is the position's `control_map`, when the caller has it already."""
    rules = state.options.rules
    lines: dict[int, list[Entry]] = {seat: [] for seat in living_seats(state)}
    if control is None:
        control = control_map(state, world)
    besieged = {pair.at for pair in state.invaders}
    # settlement_value, with the events read once: terrain -> (their change, their names)
    events: dict[str, tuple[int, list[str]]] = {}
    for event in state.events_landed:
        change, names = events.get(event.terrain, (0, []))
        if event.card == "abundance":
            events[event.terrain] = (change + rules.abundance_bonus, [*names, "abundance"])
        elif event.card == "famine":
            events[event.terrain] = (change - rules.famine_penalty, [*names, "famine"])
    hexes, places = world.hexes, world.settlements
    least = rules.min_settlement_value
    for region_index, region in enumerate(world.regions):
        collector = state.taxes.get(region_index)
        for settlement in region.settlements:
            s = state.settlements[settlement]
            if s.razed:
                continue
            owner = control[settlement]
            if settlement in besieged:
                # A besieged settlement yields to nobody, tax collector included.
                if owner in lines:
                    lines[owner].append(Entry(key="income.besieged", params={"settlement": settlement, "value": 0}))
                continue
            if collector is None and owner not in lines:
                continue  # nobody collects it
            value = base_value(state, world, settlement)
            change, names = events.get(hexes[places[settlement].hex].terrain, (0, _NONE))
            value, modifiers = max(least, value + change), list(names)
            if collector is not None:
                if owner in lines:
                    lines[owner].append(
                        Entry(key="income.taxed", params={"settlement": settlement, "value": 0, "collector": collector})
                    )
                if collector in lines:
                    lines[collector].append(
                        Entry(
                            key="income.tax",
                            params={
                                "settlement": settlement,
                                "value": rules.tax_multiplier * value,
                                "modifiers": modifiers,
                                "owner": owner,
                            },
                        )
                    )
            elif owner in lines:
                lines[owner].append(
                    Entry(
                        key="income.settlement",
                        params={
                            "settlement": settlement,
                            "value": value,
                            "modifiers": modifiers,
                            "developments": s.developments,
                        },
                    )
                )
    if state.round == rules.dowry_round:
        for seat in lines:
            lines[seat].append(Entry(key="income.dowry", params={"value": rules.dowry}))
    return lines


def run_income(ctx: Ctx) -> None:
    state = ctx.state
    for seat, entries in compute_income(state, ctx.world, ctx.economy_control_map()).items():
        player = state.players[seat]
        before = player.coins
        gained = 0
        for e in entries:
            gained += e.params["value"]
        player.coins += gained
        ctx.notify(
            "notification.income",
            to=[seat],
            params={"player": seat, "before": before, "income": gained, "after": player.coins},
            entries=entries,
        )
    # A Tax card acts on this round's Income only.
    state.taxes = {}
