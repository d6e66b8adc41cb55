"""Alliances (ror-data §5.2, VG's event cards).

New Alliance: at the end of the Senate phase the HRAO picks a war on the board that sues for
peace: half its spoils and back into the top six cards of the deck; intensified (Another New
Alliance), all its spoils and the war beaten for good, never a revolt. The card stays until used.

Rhodian Maritime Alliance: while some war needs fleets, 8 fleets for Rome (12 intensified; within
the 25), which go when the war that needed the most fleets leaves the board, at the end of that
Combat phase [D: the Senate may not refuse them]."""

from __future__ import annotations

from collections.abc import Iterable

from ...engine.errors import IllegalAction
from .actions import SueForPeace
from .board import hrao, hrao_order
from .combat import is_revolt, strength, sue_for_peace, war_on_board
from .context import Ctx
from .state import Decision, WarInPlay

RULE_NEW_ALLIANCE = "New Alliance (VG event; ror-data §5.2)"


def intensified(ctx: Ctx) -> bool:
    return ctx.state.events.get("new_alliance", 0) >= 2


def peace_candidates(ctx: Ctx) -> list[str]:
    """[D] Any war on the board, whatever its state; intensified, no revolt."""
    return [w.id for w in ctx.state.wars if not (intensified(ctx) and is_revolt(ctx, w.id))]


def new_alliance(ctx: Ctx) -> bool:
    """At the end of the Senate, with the event in play, the HRAO's faction (the first in table
    order when nobody is in Rome) owes the choice."""
    state = ctx.state
    if "new_alliance" not in state.events or not peace_candidates(ctx):
        return True
    top = hrao(state)
    state.pending.append(Decision(top.faction if top is not None else hrao_order(state)[0], "sue_for_peace"))
    return True


def legal_sue_for_peace(ctx: Ctx, decision: Decision) -> Iterable[SueForPeace]:
    return [SueForPeace(player=decision.player, war=w) for w in peace_candidates(ctx)]


def apply_sue_for_peace(ctx: Ctx, decision: Decision, action: SueForPeace) -> None:
    war = war_on_board(ctx, action.war)
    if war is None or action.war not in peace_candidates(ctx):
        raise IllegalAction(RULE_NEW_ALLIANCE, "rome.error.no_such_war", f"{action.war} cannot sue for peace")
    ctx.state.pending.remove(decision)
    more = intensified(ctx)
    del ctx.state.events["new_alliance"]  # used: the card leaves (it lasts until used)
    sue_for_peace(ctx, war, more)


def needs_fleets(ctx: Ctx, war: WarInPlay) -> int:
    """Fleet support plus its modified naval strength."""
    return ctx.deck.wars[war.id].fleet_support + strength(ctx, war)[1]


def rhodian_alliance(ctx: Ctx, count: int) -> None:
    """The event drawn (`count`: how often while its card stays): no war needs fleets, no effect
    (the card goes); else the fleets (the second time, up to the intensified number in all), and
    the wars needing the most are noted."""
    state, rules = ctx.state, ctx.rules
    needing = [w for w in state.wars if needs_fleets(ctx, w)]
    if not needing:
        del state.events["rhodian_maritime_alliance"]
        ctx.report("rome.event.rhodian_fleets", int=0)
        return
    most = max(needs_fleets(ctx, w) for w in needing)
    state.rhodian_wars = [w.id for w in needing if needs_fleets(ctx, w) == most]
    fielded = state.units.fleets + sum(f.fleets for f in state.forces)
    gift = {1: rules.rhodian_fleets, 2: rules.rhodian_fleets_intensified - rules.rhodian_fleets}.get(count, 0)
    given = max(0, min(gift, rules.max_fleets - fielded))
    state.units.fleets += given
    state.rhodian_fleets += given
    ctx.report("rome.event.rhodian_fleets", int=given)


def rhodian_alliance_ends(ctx: Ctx) -> bool:
    """End of the Combat phase: the war that needed the most fleets is gone: the fleets the
    alliance gave go (or all Rome has), from Rome's box first, then [D] from the forces last sent."""
    state = ctx.state
    if not state.rhodian_wars or any(w.id in state.rhodian_wars for w in state.wars):
        return True
    left = state.rhodian_fleets
    taken = min(left, state.units.fleets)
    state.units.fleets -= taken
    left -= taken
    for force in reversed(state.forces):
        taken = min(left, force.fleets)
        force.fleets -= taken
        left -= taken
    ctx.report("rome.event.rhodian_gone", int=state.rhodian_fleets - left)
    state.rhodian_wars, state.rhodian_fleets = [], 0
    state.events.pop("rhodian_maritime_alliance", None)
    return True
