"""How the game ends (VG 1.12; ror-data §15; R256-R262 and the three ways Rome falls)."""

from __future__ import annotations

from .board import active_wars, faction_influence
from .context import Ctx
from .state import UNALIGNED, Result


def rome_falls(ctx: Ctx, ending: str) -> None:
    """Bankruptcy, a people's revolt or too many wars: everybody loses (R39, R76, R232). With a
    senator in revolt, bankruptcy or a people's revolt makes him win instead (R259)."""
    rebels = ctx.state.rebellion
    if ending != "wars" and rebels is not None:
        rebels.won = True
        rebel_wins(ctx)
        return
    ctx.state.result = Result(ending, ())
    ctx.state.pending.clear()
    ctx.report("rome.game.over", ending=ending, factions=[])


def rebel_wins(ctx: Ctx) -> None:
    """VG 1.12.2 (1, 2), 1.12.3 (R247, R253, R259, R260): the rebel has met a winning condition
    (his army is no longer an active war): with fewer than four active wars his faction wins
    [D: with four or more the rebel end game, his fight against them, is not played: Rome
    falls]."""
    state = ctx.state
    rebels = state.rebellion
    assert rebels is not None
    if len(active_wars(state)) >= ctx.rules.wars_lose_game:
        state.result = Result("wars", ())
        state.pending.clear()
        ctx.report("rome.game.over", ending="wars", factions=[])
        return
    seat = state.senators[rebels.rebel].faction
    state.result = Result("rebel", (seat,))
    state.pending.clear()
    ctx.report("rome.game.over", ending="rebel", factions=[seat])


def consul_for_life_appointed(ctx: Ctx) -> None:
    """VG 1.09.822 (R256): an aligned senator in Rome with 35 influence or more is Consul for Life
    at once; of several, the one furthest above 34, then the one of the faction with the most
    influence."""
    state = ctx.state
    if state.consul_for_life and state.consul_for_life in state.senators:
        return
    state.consul_for_life = ""
    threshold = ctx.rules.consul_for_life_automatic
    able = [
        s
        for s in state.senators.values()
        if s.faction != UNALIGNED and s.location == "rome" and s.influence >= threshold
    ]
    if able:
        best = max(able, key=lambda s: (s.influence, faction_influence(state, s.faction), -int(s.id)))
        state.consul_for_life = best.id
        ctx.report("rome.game.consul_for_life", senator=best.id, faction=best.faction)


def consul_for_life_wins(ctx: Ctx) -> bool:
    """VG 1.12.2 (4), R257: a Consul for Life alive at the end of a Revolution phase wins."""
    state = ctx.state
    s = state.senators.get(state.consul_for_life)
    if s is not None and s.faction != UNALIGNED:
        state.result = Result("consul_for_life", (s.faction,))
        state.pending.clear()
        ctx.report("rome.game.over", ending="consul_for_life", factions=[s.faction])
    return True
