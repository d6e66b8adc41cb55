"""Shared changes of the position: a senator enters play, a senator dies."""

from __future__ import annotations

from ..cards import Deck
from .context import Ctx
from .state import UNALIGNED, Senator

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
    leader = s.faction != UNALIGNED and state.factions[s.faction].leader == senator_id
    if s.statesman:
        state.removed.append(s.statesman)
    if s.family_card and leader:
        fresh = senator_from_card(ctx.deck, senator_id, s.faction)
        state.senators[senator_id] = fresh
        return
    del state.senators[senator_id]
    if s.family_card:
        state.curia.append(senator_id)
    if leader:
        state.factions[s.faction].leader = ""  # a lone statesman: a new leader is named in the Forum
