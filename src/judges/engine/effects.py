"""The changes that several rules share: a general dies, a settlement is razed, Wrath is
registered, a King is crowned. Each writes its report lines."""

from __future__ import annotations

from .board import standing_in_region
from .context import Ctx
from .messages import message

# What its effects report (engine/messages.py).
message("wrath.registered", "wrath-and-invaders", amount="int", reason="wrath_reason")
message("general.died", "captives", general="general", owner="player", cause="cause", hex="hex")
message("ark.dropped", "movement-and-combat", hex="hex")
message("title.vacant", "judges-and-kings", region="region", owner="player")
message("king.died", "judges-and-kings", general="general", owner="player")
message("settlement.razed", "movement-and-combat", settlement="settlement", by="razed_by")
message("title.left_play", "judges-and-kings", region="region")
message("king.crowned", "judges-and-kings", general="general", owner="player", how="crowned")


def register_wrath(ctx: Ctx, amount: int, reason: str) -> None:
    """§ 12: Wrath registered now is added to the meter at the next Announcements."""
    ctx.state.wrath_registered += amount
    ctx.log_round("wrath.registered", amount=amount, reason=reason)


def kill_general(ctx: Ctx, general_id: int, cause: str) -> None:
    """A general dies: his relics, titles and crown follow the rules of §§ 6, 10, 11."""
    state = ctx.state
    g = state.generals.pop(general_id)
    ctx.report("general.died", general=general_id, owner=g.owner, cause=cause, hex=g.hex)
    if g.prophet:
        # § 6 "prophets killed": the token returns to the supply.
        register_wrath(ctx, ctx.rules.wrath_prophet_killed, "prophet_killed")
    if g.ark:
        state.ark_hex = g.hex  # the Ark is dropped where he fell
        ctx.report("ark.dropped", hex=g.hex)
    # The Anointed token, carried by the dead, simply returns to the supply.
    for region, title in enumerate(state.titles):
        if title.holder == general_id:
            title.holder = None  # § 10: the title is vacant and keeps its owner
            ctx.report("title.vacant", region=region, owner=title.owner)
    if state.king == general_id:
        state.king = None
        state.succession_owner = g.owner  # § 10: succession at the next Announcements
        ctx.report("king.died", general=general_id, owner=g.owner)


def raze(ctx: Ctx, settlement: int, by: str) -> None:
    """A razed settlement is never rebuilt (§ 2); its region may lose its judge (§ 9)."""
    state, world = ctx.state, ctx.world
    s = state.settlements[settlement]
    s.razed = True
    s.owner = None
    s.troops = 0
    s.walls = False
    s.developments = 0
    if by == "invaders":
        state.razed_by_invaders += 1
    elif by == "plunder":
        state.razed_by_plunder += 1
    ctx.report("settlement.razed", settlement=settlement, by=by)
    region = world.settlements[settlement].region
    title = state.titles[region]
    if title.in_play and standing_in_region(state, world, region) < ctx.rules.settlements_to_sustain_judge:
        title.in_play = False
        title.owner = None
        title.holder = None
        ctx.report("title.left_play", region=region)


def crown(ctx: Ctx, general_id: int, how: str) -> None:
    """§ 10: a general becomes King; the Anointed token he carried returns to the supply."""
    state = ctx.state
    g = state.generals[general_id]
    state.king = general_id
    state.succession_owner = None
    g.anointed = False
    ctx.report("king.crowned", general=general_id, owner=g.owner, how=how)
