"""Playing statesmen and concessions from the hand (VG 1.07.312, 1.07.32; R7, R234, R235):
at setup and in the Revolution phase, each faction in turn plays any number, then says Done."""

from __future__ import annotations

from collections.abc import Iterable

from ...engine.errors import IllegalAction
from .actions import Done, PlayConcession, PlayStatesman
from .board import aligned
from .context import Ctx
from .effects import senator_from_card
from .state import UNALIGNED, Decision

RULE = "R235 Statesmen and concessions"


def statesman_refusal(ctx: Ctx, seat: int, card: str) -> str | None:
    """Why a statesman cannot be played now (an error key), or None."""
    state = ctx.state
    if card not in state.factions[seat].hand or ctx.deck.kind_of(card) != "statesman":
        return "rome.error.not_in_hand"
    family = ctx.deck.statesmen[card].family
    s = state.senators.get(family)
    if s is not None:
        if s.statesman:
            return "rome.error.statesman_in_play"  # 1.07.312: one statesman of an id at a time
        if s.faction not in (UNALIGNED, seat):
            return "rome.error.family_held_by_other"
    return None


def concession_refusal(ctx: Ctx, seat: int, card: str, senator: str) -> str | None:
    state = ctx.state
    if card not in state.factions[seat].hand or ctx.deck.kind_of(card) != "concession":
        return "rome.error.not_in_hand"
    s = state.senators.get(senator)
    if s is None or s.faction != seat:
        return "rome.error.not_your_senator"
    if s.location in ("captive", "rebel"):
        return "rome.error.senator_unavailable"
    if ctx.deck.concessions[card].needs_land_bill and not state.land_bills:
        return "rome.error.needs_land_bill"
    return None


def legal_play_cards(ctx: Ctx, decision: Decision) -> Iterable[Done | PlayStatesman | PlayConcession]:
    seat = decision.player
    out: list[Done | PlayStatesman | PlayConcession] = [Done(player=seat)]
    for card in dict.fromkeys(ctx.state.factions[seat].hand):
        kind = ctx.deck.kind_of(card)
        if kind == "statesman" and statesman_refusal(ctx, seat, card) is None:
            out.append(PlayStatesman(player=seat, card=card))
        elif kind == "concession":
            for s in aligned(ctx.state, seat):
                if concession_refusal(ctx, seat, card, s.id) is None:
                    out.append(PlayConcession(player=seat, card=card, senator=s.id))
    return out


def apply_play_cards(ctx: Ctx, decision: Decision, action: Done | PlayStatesman | PlayConcession) -> None:
    state = ctx.state
    seat = decision.player
    if isinstance(action, Done):
        state.pending.remove(decision)
        return
    if isinstance(action, PlayStatesman):
        why = statesman_refusal(ctx, seat, action.card)
        if why is not None:
            raise IllegalAction(RULE, why, f"statesman {action.card} cannot be played now", card=action.card)
        play_statesman(ctx, seat, action.card)
        return
    why = concession_refusal(ctx, seat, action.card, action.senator)
    if why is not None:
        raise IllegalAction(
            RULE, why, f"concession {action.card} cannot go to senator {action.senator}", card=action.card
        )
    state.factions[seat].hand.remove(action.card)
    state.senators[action.senator].concessions.append(action.card)
    ctx.report("rome.cards.concession", card=action.card, senator=action.senator, faction=seat)


def play_statesman(ctx: Ctx, seat: int, card: str) -> None:
    """VG 1.07.312: on his family card in the faction (or in the Forum: it comes along) he
    keeps his own military, oratory and loyalty and takes the higher influence and popularity
    and the family card's knights, money, markers and concessions; with the family card in
    the Curia or the deck he stands alone."""
    state = ctx.state
    st = ctx.deck.statesmen[card]
    state.factions[seat].hand.remove(card)
    s = state.senators.get(st.family)
    if s is None:
        s = senator_from_card(ctx.deck, st.family, seat)
        s.family_card = False
        state.senators[st.family] = s
        s.influence = st.influence
    else:
        s.influence = max(s.influence, st.influence)
    s.faction = seat
    s.statesman = card
    s.military, s.oratory, s.loyalty = st.military, st.oratory, st.loyalty
    s.popularity = max(s.popularity, st.popularity)
    ctx.report("rome.cards.statesman", card=card, faction=seat)
