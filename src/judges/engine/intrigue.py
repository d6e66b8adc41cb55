"""§ 6 Phase 2 — Intrigue: the free draw, cards, executions and releases."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import (
    Action,
    Discard,
    Execute,
    PlayAnointing,
    PlayAssassin,
    PlayEvent,
    PlayProphet,
    PlayRevolt,
    PlayTax,
    Release,
)
from .board import controlled_settlements, free_generals, turn_order
from .cards import EVENT_CARDS, is_event
from .context import Ctx, TurnHandler
from .effects import kill_general, register_wrath
from .errors import IllegalAction
from .messages import message
from .state import CANAANITES, Decision

# What § 6 reports (engine/messages.py).
message("deck.reshuffled", "intrigue", cards="int")
message("intrigue.tax", "intrigue", player="player", region="region")
message("intrigue.event", "intrigue", player="player", card="card")
message(
    "intrigue.assassin", "intrigue", player="player", target="general", owner="player", die="die", outcome="outcome"
)
message(
    "intrigue.revolt",
    "intrigue",
    player="player",
    settlement="settlement",
    owner="player",
    die="die",
    success="revolt_outcome",
)
message("intrigue.prophet", "intrigue", player="player", general="general")
message("intrigue.anointing", "intrigue", player="player", general="general")
message("intrigue.execution", "intrigue", player="player", general="general", owner="player")
message("intrigue.release", "intrigue", player="player", general="general", owner="player", hex="hex")

RULE_DRAW = "§6 Intrigue: drawing"
RULE_CARDS = "§6 Intrigue cards"
RULE_CAPTIVES = "§6 Captives"


# --- The deck ---------------------------------------------------------------------------


def draw_card(ctx: Ctx, seat: int) -> str | None:
    """Draws the top card; an empty deck is first rebuilt from the shuffled discard pile."""
    state = ctx.state
    if not state.deck and state.discard:
        state.deck = state.discard
        state.discard = []
        ctx.dice.shuffle(state.deck)
        ctx.report("deck.reshuffled", cards=len(state.deck))
    if not state.deck:
        return None
    card = state.deck.pop()
    state.players[seat].hand.append(card)
    return card


def post_discards(ctx: Ctx) -> None:
    """A player above the hand limit owes a discard decision (one card at a time)."""
    state = ctx.state
    for seat in turn_order(state):
        if len(state.players[seat].hand) > ctx.rules.hand_limit and not any(
            d.player == seat and d.kind == "discard" for d in state.pending
        ):
            state.pending.append(Decision(player=seat, kind="discard"))


def free_draw(ctx: Ctx) -> None:
    """At the start of Intrigue every living player draws a card, then discards down to 5."""
    state = ctx.state
    for seat in turn_order(state):
        for _ in range(ctx.rules.free_draw):
            draw_card(ctx, seat)
    post_discards(ctx)


def legal_discard(ctx: Ctx, decision: Decision) -> Iterator[Discard]:
    for card in sorted(set(ctx.state.players[decision.player].hand)):
        yield Discard(player=decision.player, card=card)


def apply_discard(ctx: Ctx, decision: Decision, action: Discard) -> None:
    hand = ctx.state.players[action.player].hand
    if action.card not in hand:
        raise IllegalAction(RULE_DRAW, "error.card_not_in_hand", f"you have no {action.card} card", card=action.card)
    ctx.state.pending.remove(decision)
    hand.remove(action.card)
    ctx.state.discard.append(action.card)
    if len(hand) > ctx.rules.hand_limit:
        ctx.state.pending.append(Decision(player=action.player, kind="discard"))


# --- Checks shared by the card plays -------------------------------------------------------


def _require_card(ctx: Ctx, seat: int, card: str) -> None:
    rules = ctx.rules
    if ctx.state.cards_played >= rules.cards_per_turn:
        raise IllegalAction(
            RULE_CARDS,
            "error.card_limit",
            f"you have already played {rules.cards_per_turn} cards this turn",
            limit=rules.cards_per_turn,
        )
    if card not in ctx.state.players[seat].hand:
        raise IllegalAction(RULE_CARDS, "error.card_not_in_hand", f"you have no {card} card", card=card)


def _spend_card(ctx: Ctx, seat: int, card: str, to_discard: bool = True) -> None:
    ctx.state.players[seat].hand.remove(card)
    ctx.state.cards_played += 1
    if to_discard:
        ctx.state.discard.append(card)


def _can_play(ctx: Ctx, seat: int, card: str) -> bool:
    return ctx.state.cards_played < ctx.rules.cards_per_turn and card in ctx.state.players[seat].hand


def _own_free_general(ctx: Ctx, seat: int, gid: int, rule: str) -> None:
    g = ctx.state.generals.get(gid)
    if g is None or g.owner != seat:
        raise IllegalAction(rule, "error.not_your_general", f"general {gid} is not one of yours", general=gid)
    if g.captor is not None:
        raise IllegalAction(rule, "error.general_captive", f"general {gid} is captive", general=gid)


# --- Tax ------------------------------------------------------------------------------------


def taxable_regions(ctx: Ctx) -> list[int]:
    return [r for r in range(len(ctx.world.regions)) if r not in ctx.state.taxes]


def apply_tax(ctx: Ctx, action: PlayTax) -> None:
    _require_card(ctx, action.player, "tax")
    region = ctx.world.region_by_name.get(action.region)
    if region is None:
        raise IllegalAction(
            RULE_CARDS, "error.unknown_region", f"there is no region called {action.region!r}", region=action.region
        )
    if region in ctx.state.taxes:
        raise IllegalAction(
            RULE_CARDS,
            "error.region_taxed",
            f"{action.region} is already taxed this round (one Tax per region per round)",
            region=action.region,
        )
    _spend_card(ctx, action.player, "tax")
    ctx.state.taxes[region] = action.player
    register_wrath(ctx, ctx.rules.wrath_tax, "tax")
    ctx.log_round("intrigue.tax", player=action.player, region=region)


# --- Events ---------------------------------------------------------------------------------


def apply_event(ctx: Ctx, action: PlayEvent) -> None:
    if not is_event(action.card):
        raise IllegalAction(RULE_CARDS, "error.not_an_event", f"{action.card!r} is not an event card", card=action.card)
    _require_card(ctx, action.player, action.card)
    _spend_card(ctx, action.player, action.card, to_discard=False)
    ctx.state.events_area.append(action.card)
    ctx.log_round("intrigue.event", player=action.player, card=action.card)


# --- Assassin -------------------------------------------------------------------------------


def assassin_targets(ctx: Ctx, seat: int) -> list[int]:
    return [g.id for g in ctx.state.generals.values() if g.owner != seat]


def apply_assassin(ctx: Ctx, action: PlayAssassin) -> None:
    rules = ctx.rules
    _require_card(ctx, action.player, "assassin")
    state = ctx.state
    target = state.generals.get(action.target)
    if target is None or target.owner == action.player:
        raise IllegalAction(
            RULE_CARDS,
            "error.assassin_target",
            f"the Assassin must target another player's general; {action.target} is not one",
            target=action.target,
        )
    _spend_card(ctx, action.player, "assassin")
    face = ctx.roll(6)
    if face >= rules.assassin_kill_min_die:
        outcome = "killed"
        register_wrath(ctx, rules.wrath_assassination, "assassination")
        kill_general(ctx, target.id, "assassination")
    elif face <= rules.assassin_exposed_max_die:
        outcome = "exposed"
        fine = min(rules.assassin_exposed_fine, state.players[action.player].coins)
        state.players[action.player].coins -= fine
        state.players[target.owner].coins += fine
        register_wrath(ctx, rules.wrath_assassin_exposed, "assassin_exposed")
    else:
        outcome = "failed"
    ctx.log_round(
        "intrigue.assassin", player=action.player, target=target.id, owner=target.owner, die=face, outcome=outcome
    )


# --- Revolt ---------------------------------------------------------------------------------


def revolt_targets(ctx: Ctx, seat: int) -> list[int]:
    """Settlements another player controls by garrison only, in a region where `seat`
    controls a settlement."""
    state, world = ctx.state, ctx.world
    settlements, places = state.settlements, world.settlements
    # the standing garrisons: `seat`'s (their regions), the other players'
    mine: list[int] = []
    candidates: list[int] = []
    for s, st in enumerate(settlements):
        owner = st.owner
        if owner is not None and not st.razed:
            if owner == seat:
                mine.append(s)
            elif owner != CANAANITES:
                candidates.append(s)
    if not candidates:
        return []
    my_regions = {places[s].region for s in mine}
    # (hex, owner) of every free general; `seat` also controls the settlements without a
    # garrison where only its free generals stand (control_map's rules)
    stands = {(g.hex, g.owner) for g in state.generals.values() if g.captor is None}
    hexes = world.hexes
    for h, owner in stands:
        if owner == seat:
            s_index = hexes[h].settlement
            if s_index is not None:
                st = settlements[s_index]
                if st.owner is None and not st.razed and all(o == seat for hh, o in stands if hh == h):
                    my_regions.add(places[s_index].region)
    # held by garrison only: none of the garrison owner's free generals stands there
    return [
        s for s in candidates if places[s].region in my_regions and (places[s].hex, settlements[s].owner) not in stands
    ]


def apply_revolt(ctx: Ctx, action: PlayRevolt) -> None:
    _require_card(ctx, action.player, "revolt")
    state, world = ctx.state, ctx.world
    target = world.settlement_by_name.get(action.settlement)
    if target is None or target not in revolt_targets(ctx, action.player):
        raise IllegalAction(
            RULE_CARDS,
            "error.revolt_target",
            f"a Revolt needs a settlement another player holds by garrison only, in a region "
            f"where you control a settlement; {action.settlement} is not one",
            settlement=action.settlement,
        )
    _spend_card(ctx, action.player, "revolt")
    s = state.settlements[target]
    face = ctx.roll(6)
    victim = s.owner
    success = face > s.troops
    if success:
        s.owner = action.player
        s.troops = ctx.rules.revolt_troops_placed
    ctx.log_round("intrigue.revolt", player=action.player, settlement=target, owner=victim, die=face, success=success)


# --- Prophet and Anointing --------------------------------------------------------------------


def prophets_in_supply(ctx: Ctx) -> int:
    return ctx.rules.prophet_tokens - sum(1 for g in ctx.state.generals.values() if g.prophet)


def anointed_in_play(ctx: Ctx) -> bool:
    return any(g.anointed for g in ctx.state.generals.values())


def prophet_targets(ctx: Ctx, seat: int) -> list[int]:
    if prophets_in_supply(ctx) <= 0:
        return []
    return [g.id for g in free_generals(ctx.state, seat) if not g.prophet]


def anointing_targets(ctx: Ctx, seat: int) -> list[int]:
    mine = free_generals(ctx.state, seat)
    if anointed_in_play(ctx) or not any(g.prophet for g in mine):
        return []
    return [g.id for g in mine]


def apply_prophet(ctx: Ctx, action: PlayProphet) -> None:
    _require_card(ctx, action.player, "prophet")
    _own_free_general(ctx, action.player, action.general, RULE_CARDS)
    if prophets_in_supply(ctx) <= 0:
        raise IllegalAction(RULE_CARDS, "error.no_prophet", "both Prophet tokens are in play")
    if ctx.state.generals[action.general].prophet:
        raise IllegalAction(
            RULE_CARDS,
            "error.has_prophet",
            f"general {action.general} already carries a Prophet",
            general=action.general,
        )
    _spend_card(ctx, action.player, "prophet")
    ctx.state.generals[action.general].prophet = True
    ctx.log_round("intrigue.prophet", player=action.player, general=action.general)


def apply_anointing(ctx: Ctx, action: PlayAnointing) -> None:
    _require_card(ctx, action.player, "anointing")
    _own_free_general(ctx, action.player, action.general, RULE_CARDS)
    if anointed_in_play(ctx):
        raise IllegalAction(RULE_CARDS, "error.anointed_in_play", "the Anointed is already in play")
    if not any(g.prophet for g in free_generals(ctx.state, action.player)):
        raise IllegalAction(
            RULE_CARDS, "error.needs_prophet", "an Anointing needs one of your free generals carrying a Prophet"
        )
    _spend_card(ctx, action.player, "anointing")
    ctx.state.generals[action.general].anointed = True
    ctx.log_round("intrigue.anointing", player=action.player, general=action.general)


# --- Captives -------------------------------------------------------------------------------


def my_captives(ctx: Ctx, seat: int) -> list[int]:
    return [g.id for g in ctx.state.generals.values() if g.captor == seat]


def _require_captive(ctx: Ctx, seat: int, gid: int) -> None:
    if gid not in my_captives(ctx, seat):
        raise IllegalAction(RULE_CAPTIVES, "error.not_your_captive", f"general {gid} is not your captive", general=gid)


def apply_execute(ctx: Ctx, action: Execute) -> None:
    _require_captive(ctx, action.player, action.general)
    owner = ctx.state.generals[action.general].owner
    ctx.log_round("intrigue.execution", player=action.player, general=action.general, owner=owner)
    kill_general(ctx, action.general, "execution")


def release_destination(ctx: Ctx, gid: int) -> int:
    """The nearest settlement his owner controls (ties: the lower settlement index); none:
    the hex where he was held."""
    state, world = ctx.state, ctx.world
    g = state.generals[gid]
    best = None
    for s in controlled_settlements(state, world, g.owner):
        d = world.hex_distance(g.hex, world.settlements[s].hex)
        if best is None or d < best[0]:
            best = (d, s)
    return world.settlements[best[1]].hex if best is not None else g.hex


def apply_release(ctx: Ctx, action: Release) -> None:
    _require_captive(ctx, action.player, action.general)
    g = ctx.state.generals[action.general]
    destination = release_destination(ctx, g.id)
    g.captor = None
    g.hex = destination
    ctx.log_round("intrigue.release", player=action.player, general=g.id, owner=g.owner, hex=destination)


# --- Legal actions of an Intrigue turn ----------------------------------------------------------


def legal_intrigue(ctx: Ctx, seat: int) -> list[Action]:
    """Every legal action of an Intrigue turn, in a fixed order: Tax by region, the events,
    Assassin by target, Revolt by settlement, Prophet, Anointing, then each captive executed
    or released. The targets are those of the functions above, worked out in one pass over
    the generals; the actions are shared frozen values (`_interned`)."""
    state = ctx.state
    generals = state.generals.values()
    out: list[Action] = []
    hand = state.players[seat].hand
    if hand and state.cards_played < ctx.rules.cards_per_turn:
        world = ctx.world
        cards = set(hand)
        if "tax" in cards:
            taxes, row = state.taxes, _row(PlayTax, seat)
            for r, region in enumerate(world.regions):
                if r not in taxes:
                    out.append(row.get(region.name) or _make(row, PlayTax, seat, region.name))
        row = _row(PlayEvent, seat)
        for card in EVENT_CARDS:
            if card in cards:
                out.append(row.get(card) or _make(row, PlayEvent, seat, card))
        if "assassin" in cards:
            row = _row(PlayAssassin, seat)
            for g in generals:
                if g.owner != seat:
                    out.append(row.get(g.id) or _make(row, PlayAssassin, seat, g.id))
        if "revolt" in cards:
            row = _row(PlayRevolt, seat)
            for t in revolt_targets(ctx, seat):
                name = world.settlements[t].name
                out.append(row.get(name) or _make(row, PlayRevolt, seat, name))
        if "prophet" in cards:
            row = _row(PlayProphet, seat)
            out += [row.get(gid) or _make(row, PlayProphet, seat, gid) for gid in prophet_targets(ctx, seat)]
        if "anointing" in cards:
            row = _row(PlayAnointing, seat)
            out += [row.get(gid) or _make(row, PlayAnointing, seat, gid) for gid in anointing_targets(ctx, seat)]
    for g in generals:
        if g.captor == seat:
            out.append(_interned(Execute, seat, g.id))
            out.append(_interned(Release, seat, g.id))
    return out


# The field each interned Intrigue action carries besides its player.
_FIELD: dict[type[Action], str] = {
    PlayTax: "region",
    PlayEvent: "card",
    PlayAssassin: "target",
    PlayRevolt: "settlement",
    PlayProphet: "general",
    PlayAnointing: "general",
    Execute: "general",
    Release: "general",
}
# action type -> seat -> the value of its field -> the action: actions are frozen values, so
# one of each serves every turn of every game (like EndTurn)
_INTERNED: dict[type[Action], dict[int, dict[object, Action]]] = {kind: {} for kind in _FIELD}


def _row(kind: type[Action], seat: int) -> dict[object, Action]:
    """The interned actions of one type for one seat, by the value of its field."""
    by_seat = _INTERNED[kind]
    row = by_seat.get(seat)
    if row is None:
        row = by_seat[seat] = {}
    return row


def _make(row: dict[object, Action], kind: type[Action], seat: int, value: object) -> Action:
    if len(row) > 5_000:  # bounded: names and ids come from the games played
        row.clear()
    action = row[value] = kind(player=seat, **{_FIELD[kind]: value})
    return action


def _interned(kind: type[Action], seat: int, value: object) -> Action:
    """The action `kind(player=seat, <its field>=value)`, shared."""
    row = _row(kind, seat)
    return row.get(value) or _make(row, kind, seat, value)


INTRIGUE_HANDLERS: dict[type[Action], TurnHandler] = {
    PlayTax: apply_tax,
    PlayEvent: apply_event,
    PlayAssassin: apply_assassin,
    PlayRevolt: apply_revolt,
    PlayProphet: apply_prophet,
    PlayAnointing: apply_anointing,
    Execute: apply_execute,
    Release: apply_release,
}
