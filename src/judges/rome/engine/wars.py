"""Wars and enemy leaders reaching the board (VG 1.07.33-1.07.344; R192-R205; ror-data §3.2)."""

from __future__ import annotations

from .context import Ctx
from .state import WarInPlay


def series_in_play(ctx: Ctx, series: str) -> list[WarInPlay]:
    return [w for w in ctx.state.wars if ctx.deck.wars[w.id].series == series]


def place_war(ctx: Ctx, card: str) -> None:
    """A drawn war: Imminent when a war of its series is anywhere on the board (an inactive
    match becomes active, R196); otherwise active or inactive as printed (R194). A leader of
    its series waiting in the Curia joins it and both are active (VG 1.07.341)."""
    state, deck = ctx.state, ctx.deck
    war = deck.wars[card]
    matches = series_in_play(ctx, war.series)
    if matches:
        for w in matches:
            if w.state == "inactive":
                w.state = "active"
        state.wars.append(WarInPlay(id=card, state="imminent"))
        ctx.report("rome.war.arrives", war=card, state="imminent")
        return
    placed = WarInPlay(id=card, state=war.arrives)
    state.wars.append(placed)
    if any(c in deck.leaders and deck.leaders[c].series == war.series for c in state.curia):
        placed.state = "active"
    ctx.report("rome.war.arrives", war=card, state=placed.state)
    call_leaders(ctx, placed)


def place_leader(ctx: Ctx, card: str) -> None:
    """A drawn leader joins his series' active or inactive wars, activating them (not an
    imminent one, R202); the card lies on the lowest-numbered of them. With none on the board
    he waits in the Curia, or leaves the game when every war of his series is gone (R203)."""
    state, deck = ctx.state, ctx.deck
    series = deck.leaders[card].series
    targets = [w for w in series_in_play(ctx, series) if w.state != "imminent"]
    if targets:
        for w in targets:
            if w.state == "inactive":
                w.state = "active"
        min(targets, key=lambda w: deck.wars[w.id].number).leaders.append(card)
        ctx.report("rome.leader.joins", card=card)
        return
    wars_of_series = [w.id for w in deck.wars.values() if w.series == series]
    if all(w in state.removed for w in wars_of_series):
        state.removed.append(card)
        ctx.report("rome.leader.gone", card=card)
    else:
        state.curia.append(card)
        ctx.report("rome.leader.curia", card=card)


def call_leaders(ctx: Ctx, war: WarInPlay) -> None:
    """VG 1.07.341: leaders of the war's series waiting in the Curia join it as it becomes
    active."""
    state, deck = ctx.state, ctx.deck
    series = deck.wars[war.id].series
    for leader in [c for c in state.curia if c in deck.leaders and deck.leaders[c].series == series]:
        state.curia.remove(leader)
        war.leaders.append(leader)
        ctx.report("rome.leader.joins", card=leader)


def leaders_in_play(ctx: Ctx) -> list[tuple[str, WarInPlay]]:
    return [(leader, w) for w in ctx.state.wars for leader in w.leaders]
