"""Shared changes of the position: a senator enters play, a senator dies."""

from __future__ import annotations

from ..cards import Deck
from .context import Ctx
from .legions import Army, forget, move_all
from .state import CIVIL_WAR, UNALIGNED, Force, Senator

CAUSES = ("mortality", "mob", "epidemic", "battle", "assassination", "execution")


def senator_from_card(deck: Deck, card: str, faction: int = UNALIGNED) -> Senator:
    """A family card entering play with its printed values (popularity 0, no knights, no money)."""
    c = deck.senators[card]
    return Senator(
        id=c.id,
        faction=faction,
        military=c.military,
        oratory=c.oratory,
        loyalty=c.loyalty,
        influence=c.influence,
        popularity=c.popularity,
    )


def kill_senator(ctx: Ctx, senator_id: str, cause: str) -> None:
    """VG 1.05.3 / 1.05.31 (R18, R19): every marker but the faction leader's goes; concessions
    and a governor's province go to the Forum; a commander's force stays on its war without him;
    a statesman's card leaves the game; a family card stays in its faction, stripped and back in
    Rome, if it carries the faction-leader marker, and otherwise goes to the Curia. Money in his
    personal treasury is lost."""
    state = ctx.state
    s = state.senators[senator_id]
    ctx.report("rome.mortality.dies", senator=senator_id, cause=cause)
    state.forum_concessions.extend(s.concessions)
    for p in state.provinces:
        if p.governor == senator_id:
            p.governor = ""
            p.term = 0
    for force in state.forces:
        if force.commander == senator_id:
            force.commander = ""  # his force waits on the war for the next Senate (VG 1.10.2)
    if s.office == "dictator":
        send_master_home(ctx)
    leader = s.faction != UNALIGNED and state.factions[s.faction].leader == senator_id
    rebel = state.rebellion is not None and state.rebellion.rebel == senator_id
    armies: list[Army] = [state.units, *state.forces]
    if state.rebellion is not None:
        armies.append(state.rebellion)
    for army in armies:
        forget(army, senator_id)  # VG 1.10.5: his veterans' allegiance dies with him
    if state.rebellion is not None and state.rebellion.master == senator_id:
        state.rebellion.master = ""
    if s.statesman:
        state.removed.append(s.statesman)
    if s.family_card and leader:
        fresh = senator_from_card(ctx.deck, senator_id, s.faction)
        state.senators[senator_id] = fresh
    else:
        del state.senators[senator_id]
        if s.family_card:
            state.curia.append(senator_id)
        if leader:
            state.factions[s.faction].leader = ""  # a lone statesman: a new leader is named in the Forum
    if rebel:
        revolt_fails(ctx, s.faction)


def revolt_fails(ctx: Ctx, faction: int) -> None:
    """VG 1.11.372 (R251, R254): the primary rebel is dead: every secondary rebel dies with him,
    the rebel army's survivors go back to Rome's box, and the Senate's forces facing him come
    home."""
    state = ctx.state
    army = state.rebellion
    if army is None:
        return
    state.rebellion = None
    legions = army.legions
    move_all(army, state.units)
    ctx.report("rome.revolution.revolt_fails", faction=faction, legions=legions)
    for force in [f for f in state.forces if f.war == CIVIL_WAR and not f.won]:
        state.forces.remove(force)
        come_home(ctx, force)
    for other in [x.id for x in state.senators.values() if x.location == "rebel"]:
        if other in state.senators:
            kill_senator(ctx, other, "execution")


def come_home(ctx: Ctx, force: Force) -> None:
    """Units back to the active-forces box, the commander back to Rome."""
    units = ctx.state.units
    move_all(force, units)
    units.fleets += force.fleets
    force.fleets = 0
    s = ctx.state.senators.get(force.commander)
    if s is not None and s.location == "field":
        s.location = "rome"
    if s is not None and s.office == "dictator":
        send_master_home(ctx)


def send_master_home(ctx: Ctx) -> None:
    """R230, VG 1.09.34: the Master of Horse away with a Dictator who falls, is made proconsul or
    comes home returns to Rome and keeps his office."""
    for s in ctx.state.senators.values():
        if s.office == "master_of_horse" and s.location == "field":
            s.location = "rome"
