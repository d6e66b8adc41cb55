"""§ 5.4–5.5 and § 11: events expire, land on a terrain, displace each other; Plague."""

from __future__ import annotations

from ..world import TERRAINS, Hex, World
from .actions import ForeseeEvents
from .board import generals_at, prophet_owner
from .context import Ctx
from .effects import kill_general
from .errors import IllegalAction
from .messages import message
from .rules import Rules
from .state import Decision, LandedEvent

# What § 5.4-5.5 and § 11 report (engine/messages.py).
message("events.expired", "events", cards="cards")
message("events.roll", "events", card="card", die="die", terrain="terrain")
message("prophet.foresaw_events", "events", player="player", terrains="terrains")
message("events.displaced", "events", card="card", by="card", terrain="terrain")
message("events.landed", "events", card="card", terrain="terrain")
message("plague.garrison", "events", settlement="settlement", owner="player", die="die", lost="int")
message("plague.army", "events", general="general", owner="player", die="die", lost="int")
message("plague.general", "events", general="general", owner="player", die="die", died="death_outcome")

RULE_LAND = "§5.5 New events land"


def expire_events(ctx: Ctx) -> None:
    """§ 5.4: last round's cards are discarded (this is how a Sandstorm stops sealing)."""
    state = ctx.state
    if state.events_landed:
        ctx.report("events.expired", cards=[e.card for e in state.events_landed])
        state.discard.extend(e.card for e in state.events_landed)
        state.events_landed = []


def assign_terrains(ctx: Ctx) -> None:
    """§ 5.5: each card gets a terrain by a d6 (Sandstorm: desert), or by the prophet's owner."""
    rules = ctx.rules
    state = ctx.state
    state.pending_terrains = []
    if not state.events_area:
        return
    seer = prophet_owner(state)
    if seer is not None:
        state.pending.append(Decision(player=seer, kind="foresee_events"))
        return
    for card in state.events_area:
        if card == "sandstorm":
            state.pending_terrains.append(rules.sandstorm_terrain)
            continue
        face = ctx.roll(6)
        terrain = rules.event_terrain_by_die[face]
        ctx.report("events.roll", card=card, die=face, terrain=terrain)
        state.pending_terrains.append(terrain)


def allowed_terrains(rules: Rules, card: str) -> tuple[str, ...]:
    """Where a prophet may send a card: any terrain, but a Sandstorm only to the desert."""
    return (rules.sandstorm_terrain,) if card == "sandstorm" else TERRAINS


def legal_foresee_events(ctx: Ctx, decision: Decision) -> list[ForeseeEvents]:
    """The prophet's owner chooses one card at a time, in the Events Area's order: each action
    names the terrains chosen so far and one more, for the next card (three at most, not one
    for every combination: 3ⁿ for n cards). The decision stays owed until every card has one."""
    state = ctx.state
    chosen = state.pending_terrains
    if len(chosen) >= len(state.events_area):
        return []
    card = state.events_area[len(chosen)]
    return [
        ForeseeEvents(player=decision.player, terrains=[*chosen, terrain])
        for terrain in allowed_terrains(ctx.rules, card)
    ]


def apply_foresee_events(ctx: Ctx, decision: Decision, action: ForeseeEvents) -> None:
    """`terrains`: those chosen already (kept in `state.pending_terrains`, seen by the prophet's
    owner alone), then the next card's, as `legal_foresee_events` lists them. Before the first
    choice, one terrain for every card at once is accepted too: the one form of this action
    before the choice was made card by card, so that stored games and logs replay."""
    state = ctx.state
    cards, chosen, terrains = state.events_area, state.pending_terrains, action.terrains
    if len(terrains) != len(chosen) + 1 and (chosen or len(terrains) != len(cards)):
        raise IllegalAction(
            RULE_LAND,
            "error.foresee_count",
            f"name the terrains in the Events Area's order: those chosen already and the next card's,"
            f" {len(chosen) + 1} in all (or, before the first choice, all {len(cards)} at once), not {len(terrains)}",
            needed=len(chosen) + 1,
            expected=len(cards),
            got=len(terrains),
        )
    if terrains[: len(chosen)] != chosen:
        raise IllegalAction(
            RULE_LAND,
            "error.foresee_chosen",
            f"the terrains must begin with the {len(chosen)} chosen already, unchanged: {chosen}",
            chosen=len(chosen),
        )
    for card, terrain in zip(cards[len(chosen) :], terrains[len(chosen) :]):
        if terrain not in allowed_terrains(ctx.rules, card):
            if card == "sandstorm":
                msg = "a Sandstorm always lands on desert"
            else:
                msg = f"{terrain!r} is not a terrain (plain, mountains or desert)"
            raise IllegalAction(RULE_LAND, "error.foresee_terrain", msg, card=card, terrain=terrain)
    state.pending_terrains = list(terrains)
    if len(terrains) == len(cards):
        state.pending.remove(decision)
        ctx.report("prophet.foresaw_events", player=action.player, terrains=list(terrains))


def resolve_events(ctx: Ctx) -> None:
    """Two cards never share a terrain: the newer displaces the older, which is discarded
    without effect. The survivors take effect; a Plague strikes at once (rules reference)."""
    state = ctx.state
    if not state.events_area:
        return
    on_terrain: dict[str, str] = {}
    for card, terrain in zip(state.events_area, state.pending_terrains):
        if terrain in on_terrain:
            older = on_terrain[terrain]
            ctx.report("events.displaced", card=older, by=card, terrain=terrain)
            state.discard.append(older)
        on_terrain[terrain] = card
    state.events_area = []
    state.pending_terrains = []
    state.events_landed = [LandedEvent(card=card, terrain=terrain) for terrain, card in on_terrain.items()]
    for event in state.events_landed:
        ctx.report("events.landed", card=event.card, terrain=event.terrain)
    for event in state.events_landed:
        if event.card == "plague":
            plague(ctx, event.terrain)


def _halve(n: int) -> int:
    return (n + 1) // 2  # half, rounded up


def _hexes_of(world: World, terrain: str) -> tuple[Hex, ...]:
    """The hexes of one terrain, in map order (a fact of the World)."""
    return world.hexes_of(terrain)


def plague(ctx: Ctx, terrain: str) -> None:
    """§ 11 [D]: on the struck terrain, hex by hex: each garrison, then each general (by id):
    his army, then his life. A garrison or army loses half its troops (rounded up) on a d6 of
    1–3; a general dies on a 1."""
    rules = ctx.rules
    state, world = ctx.state, ctx.world
    occupied = {g.hex for g in state.generals.values()}  # a plague moves nobody: only deaths change this
    for hx in _hexes_of(world, terrain):
        if hx.settlement is not None:
            s = state.settlements[hx.settlement]
            if not s.razed and s.owner is not None and s.troops > 0:
                face = ctx.roll(6)
                lost = _halve(s.troops) if face <= rules.plague_troop_loss_max_die else 0
                s.troops -= lost
                ctx.report("plague.garrison", settlement=hx.settlement, owner=s.owner, die=face, lost=lost)
                if s.troops == 0:
                    s.owner = None
        if hx.index not in occupied:
            continue
        for g in sorted(generals_at(state, hx.index), key=lambda g: g.id):
            if g.army > 0:
                face = ctx.roll(6)
                lost = _halve(g.army) if face <= rules.plague_troop_loss_max_die else 0
                g.army -= lost
                ctx.report("plague.army", general=g.id, owner=g.owner, die=face, lost=lost)
            face = ctx.roll(6)
            died = face <= rules.plague_general_death_max_die
            ctx.report("plague.general", general=g.id, owner=g.owner, die=face, died=died)
            if died:
                kill_general(ctx, g.id, "plague")
