"""Phase 7, Revolution (VG 1.11; R233-R246): each faction from the HRAO's plays statesmen and
concessions, hands are cut to five, then each commander who won a land victory this turn lays
down his command or declares himself in revolt; the senators of a rebel's faction join him or
stay loyal.

A rebel's legions are the veterans owing him allegiance and those that follow him on the roll
(the talents going to veterans first [D]); veterans owing any rebel allegiance desert to him.
Not played yet: card trading between players (R237)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from ...engine.errors import IllegalAction
from .actions import Discard, Done, GiveCard, JoinRevolt, LayDown, Revolt, RollLegions
from .board import aligned, hrao_order, order_from, rank_key
from .combat import rebel_strength, return_force
from .context import Ctx
from .effects import send_master_home
from .legions import Army, move, move_all, owners
from .setup import in_turn
from .state import UNALIGNED, Decision, Force, Rebellion, Senator

RULE_HAND = "R236 Hand limit (VG 1.11)"
RULE_TRADE = "R237 Trading cards (VG 1.11.1)"
RULE_REVOLT = "R238 Declaration of civil war (VG 1.11.3)"
RULE_SECONDARY = "R243 Secondary rebels (VG 1.11.32)"


def start(ctx: Ctx) -> bool:
    """R237 (VG 1.11.1): first every faction, at once, may give cards to the others."""
    ctx.state.scratch["revolution_cards"] = hrao_order(ctx.state)
    for f in ctx.state.factions:
        if not f.eliminated:
            ctx.state.pending.append(Decision(f.seat, "trade_cards"))
    return True


def legal_trade_cards(ctx: Ctx, decision: Decision) -> Iterable[Done | GiveCard]:
    seat = decision.player
    out: list[Done | GiveCard] = [Done(player=seat)]
    others = [f.seat for f in ctx.state.factions if not f.eliminated and f.seat != seat]
    for card in dict.fromkeys(ctx.state.factions[seat].hand):
        out += [GiveCard(player=seat, card=card, to=to) for to in others]
    return out


def apply_trade_cards(ctx: Ctx, decision: Decision, action: Done | GiveCard) -> None:
    """A gift is secret but for its giver and receiver: the report names no card."""
    state = ctx.state
    if isinstance(action, Done):
        state.pending.remove(decision)
        return
    mine = state.factions[decision.player]
    if action.card not in mine.hand:
        raise IllegalAction(RULE_TRADE, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
    if not 0 <= action.to < state.players or action.to == decision.player or state.factions[action.to].eliminated:
        raise IllegalAction(RULE_TRADE, "rome.error.not_a_player", f"cannot give to {action.to}")
    mine.hand.remove(action.card)
    state.factions[action.to].hand.append(action.card)
    ctx.report("rome.revolution.gift", faction=decision.player, receiver=action.to)


def play_cards(ctx: Ctx) -> bool:
    """R234: in table order from the HRAO, statesmen and concessions."""
    return in_turn(ctx, "revolution_cards", "play_cards")


def hand_limit(ctx: Ctx) -> bool:
    """R236: every faction above the limit discards, all at once: the cards chosen wait in
    `scratch["discarding"]` (by seat; still in the hand, seen by their own faction only:
    view.py) until every hand is cut, then go to the discard pile in seat order."""
    for f in ctx.state.factions:
        if not f.eliminated and len(f.hand) > ctx.rules.hand_limit:
            ctx.state.pending.append(Decision(f.seat, "discard"))
            ctx.state.scratch["discarding"] = {}
    return True


def _kept(ctx: Ctx, seat: int) -> list[str]:
    """The faction's hand without the cards it has chosen to discard."""
    kept = list(ctx.state.factions[seat].hand)
    for card in ctx.state.scratch.get("discarding", {}).get(str(seat), []):
        kept.remove(card)
    return kept


def legal_discard(ctx: Ctx, decision: Decision) -> Iterable[Discard]:
    return [Discard(player=decision.player, card=c) for c in dict.fromkeys(_kept(ctx, decision.player))]


def apply_discard(ctx: Ctx, decision: Decision, action: Discard) -> None:
    kept = _kept(ctx, decision.player)
    if action.card not in kept:
        raise IllegalAction(RULE_HAND, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
    state = ctx.state
    state.scratch.setdefault("discarding", {}).setdefault(str(decision.player), []).append(action.card)
    if len(kept) - 1 <= ctx.rules.hand_limit:
        state.pending.remove(decision)
    if not any(d.kind == "discard" for d in state.pending):
        chosen: dict[str, list[str]] = state.scratch.pop("discarding", {})
        for seat in sorted(chosen, key=int):
            for card in chosen[seat]:
                state.factions[int(seat)].hand.remove(card)
                state.discard.append(card)


def guess_discards(ctx: Ctx, seat: int) -> list[str]:
    """The discards another faction may have chosen (search.py's sample): as many cards of its
    hand as it holds above the limit, drawn at random."""
    hand = list(ctx.state.factions[seat].hand)
    ctx.dice.shuffle(hand)
    return hand[: max(0, len(hand) - ctx.rules.hand_limit)]


# --- declaration of civil war -----------------------------------------------------------------


def declaration_order(ctx: Ctx, commanders: list[Senator]) -> list[Senator]:
    """VG 1.11.3: table order from the HRAO, every senator in play counted as in Rome."""
    state = ctx.state
    everyone = [s for s in state.senators.values() if s.faction != UNALIGNED]
    seats = order_from(state, min(everyone, key=rank_key).faction) if everyone else []
    return sorted(commanders, key=lambda s: (seats.index(s.faction) if s.faction in seats else 99, rank_key(s)))


def declarations(ctx: Ctx) -> bool:
    """R238, R239: each commander who won on land this turn, in turn, lays down his command or
    revolts; none may revolt while a rebel marches on Rome. When all have declared, the primary
    rebel's faction declares its loyalty."""
    state = ctx.state
    queue: list[str] | None = state.scratch.get("declarers")
    if queue is None:
        victors: list[Senator] = []
        for force in [f for f in state.forces if f.won]:
            s = state.senators.get(force.commander)
            if s is None or state.rebellion is not None:
                state.forces.remove(force)
                return_force(ctx, force)
            else:
                victors.append(s)
        queue = [s.id for s in declaration_order(ctx, victors)]
        state.scratch["declarers"] = queue
    if queue:
        commander = state.senators[queue.pop(0)]
        state.pending.append(Decision(commander.faction, "revolt", commander.id))
        return False
    candidate = state.scratch.pop("candidate", None)
    state.scratch.pop("revolt_roll", None)
    if candidate is not None:
        establish(ctx, candidate)
    return True


def victors_force(ctx: Ctx, senator: str) -> Force:
    return next(f for f in ctx.state.forces if f.won and f.commander == senator)


def roll_strength(ctx: Ctx, roll: dict[str, Any]) -> int:
    """The army that would follow him, his rating included (VG 1.11.3)."""
    return rebel_strength(ctx, ctx.state.senators[roll["senator"]], roll["legions"], len(roll["veterans"]))


def candidate_of(ctx: Ctx) -> Rebellion | None:
    """The strongest rebel declared so far this phase (VG 1.11.3), with his army."""
    found = ctx.state.scratch.get("candidate")
    return None if found is None else msgspec.convert(found, Rebellion)


def revolt_refusal(ctx: Ctx, decision: Decision) -> str | None:
    roll = ctx.state.scratch.get("revolt_roll")
    if roll is None or roll["senator"] != decision.subject:
        return "rome.error.legions_not_rolled"
    if roll["legions"] == 0:
        return "rome.error.no_legion_follows"
    candidate = candidate_of(ctx)
    if candidate is not None:
        theirs = rebel_strength(ctx, ctx.state.senators[candidate.rebel], candidate.legions, candidate.veterans)
        if roll_strength(ctx, roll) <= theirs:
            return "rome.error.rebel_too_weak"  # VG 1.11.3: only a stronger army displaces him
    return None


def rolling(force: Force, senator: str) -> int:
    """How many of his legions roll: all but the veterans owing him allegiance (R240)."""
    return force.legions - force.loyal.get(senator, 0)


def legal_revolt(ctx: Ctx, decision: Decision) -> Iterable[LayDown | RollLegions | Revolt]:
    """Laying down, always; before the roll, rolling with no talent and with as many as can be
    spent (other amounts are legal too); after it, revolting when the army may."""
    seat = decision.player
    out: list[LayDown | RollLegions | Revolt] = [LayDown(player=seat)]
    roll = ctx.state.scratch.get("revolt_roll")
    if roll is None or roll["senator"] != decision.subject:
        s = ctx.state.senators[decision.subject]
        most = min(s.talents, rolling(victors_force(ctx, s.id), s.id))
        out += [RollLegions(player=seat, talents=t) for t in sorted({0, most})]
    elif revolt_refusal(ctx, decision) is None:
        out.append(Revolt(player=seat))
    return out


def apply_revolt(ctx: Ctx, decision: Decision, action: LayDown | RollLegions | Revolt) -> None:
    state = ctx.state
    s = state.senators[decision.subject]
    force = victors_force(ctx, s.id)
    rolled = state.scratch.get("revolt_roll")
    if isinstance(action, LayDown):
        state.pending.remove(decision)
        state.forces.remove(force)
        return_force(ctx, force)
        ctx.report("rome.revolution.lays_down", senator=s.id)
        return
    if isinstance(action, RollLegions):
        if rolled is not None and rolled["senator"] == s.id:
            raise IllegalAction(RULE_REVOLT, "rome.error.legions_rolled", f"{s.id} has rolled for his legions")
        if not 0 <= action.talents <= min(s.talents, rolling(force, s.id)):
            raise IllegalAction(RULE_REVOLT, "rome.error.not_enough_talents", f"{action.talents}T for the rolls")
        roll_legions(ctx, s, force, action.talents)
        return
    why = revolt_refusal(ctx, decision)
    if why is not None:
        raise IllegalAction(RULE_REVOLT, why, f"{s.id} cannot revolt")
    state.pending.remove(decision)
    assert rolled is not None
    previous = candidate_of(ctx)
    if previous is not None:  # VG 1.11.3: the weaker declaration is ignored: he lays down
        move_all(previous, state.units)
        earlier = state.senators.get(previous.rebel)
        if earlier is not None:
            earlier.location = "rome"
            if earlier.office == "dictator":  # his Master of Horse comes home with him (R230)
                send_master_home(ctx)
    state.forces.remove(force)
    army_ = Rebellion(rebel=s.id)
    move(force, army_, rolled["regulars"], rolled["veterans"])
    state.units.fleets += force.fleets  # R242: fleets, and the legions that did not follow, go home
    force.fleets = 0
    move_all(force, state.units)
    s.location = "rebel"  # declared: out of Rome with his army (his markers go when he stands)
    state.scratch["candidate"] = msgspec.to_builtins(army_)
    ctx.report("rome.revolution.declares", senator=s.id, legions=army_.legions)


def roll_legions(ctx: Ctx, s: Senator, force: Force, talents: int) -> None:
    """R240, R241 (VG 1.11.31): veterans owing him allegiance follow him; a die for every other
    legion, +1 on as many as talents spent (veterans first); it follows on the era's number or
    more."""
    s.talents -= talents
    others = [o for o in owners(force) if o != s.id]
    followers = [s.id] * force.loyal.get(s.id, 0)
    regulars = 0
    for i in range(rolling(force, s.id)):
        if ctx.roll(1)[0] + (1 if i < talents else 0) >= ctx.rules.rebel_legion_joins_on:
            if i < len(others):
                followers.append(others[i])
            else:
                regulars += 1
    legions = regulars + len(followers)
    ctx.state.scratch["revolt_roll"] = {
        "senator": s.id,
        "legions": legions,
        "regulars": regulars,
        "veterans": followers,
    }
    ctx.report("rome.revolution.legions", senator=s.id, int=legions, legions=force.legions)


def establish(ctx: Ctx, candidate: dict[str, Any]) -> None:
    """The primary rebel marches on Rome (VG 1.11.3, 1.11.33): he becomes a rebel; each other
    senator of his faction, but a captive, declares at once (R243; a Master of Horse only when
    the rebel is Dictator, R245)."""
    state = ctx.state
    state.rebellion = msgspec.convert(candidate, Rebellion)
    rebel = state.senators[state.rebellion.rebel]
    was_dictator = rebel.office == "dictator"
    if was_dictator:
        send_master_home(ctx)  # VG 1.11.32: he keeps his office unless he joins
    become_rebel(ctx, rebel)
    desert(ctx, rebel.id)
    ctx.report("rome.revolution.revolt", senator=rebel.id, legions=state.rebellion.legions)
    for other in aligned(state, rebel.faction):
        if other.id == rebel.id or other.location in ("captive", "rebel"):
            continue
        if other.office == "master_of_horse" and not was_dictator:
            continue
        state.pending.append(Decision(rebel.faction, "join_revolt", other.id))


def desert(ctx: Ctx, senator: str) -> None:
    """R244 (VG 1.11.34): every veteran owing a rebel allegiance, in Rome's box or in any force,
    deserts to the rebel army."""
    state = ctx.state
    assert state.rebellion is not None
    holders: list[Army] = [state.units, *state.forces]
    for holder in holders:
        n = holder.loyal.get(senator, 0)
        if n:
            move(holder, state.rebellion, 0, [senator] * n)


def become_rebel(ctx: Ctx, s: Senator) -> None:
    """VG 1.11.32, 1.11.33 (R244, R246): he leaves Rome; his concessions go to the Forum; he
    loses his knights and offices (a governor keeps his province); a command he held goes back
    to the Senate: his force waits on its war for a new commander, or comes home when it won."""
    state = ctx.state
    state.forum_concessions.extend(s.concessions)
    s.concessions = []
    s.knights = 0
    s.office = ""
    s.location = "rebel"
    for force in [f for f in state.forces if f.commander == s.id]:
        force.commander = ""
        if force.won:
            state.forces.remove(force)
            return_force(ctx, force)


def legal_join_revolt(ctx: Ctx, decision: Decision) -> Iterable[JoinRevolt]:
    return [JoinRevolt(player=decision.player, join=True), JoinRevolt(player=decision.player, join=False)]


def apply_join_revolt(ctx: Ctx, decision: Decision, action: JoinRevolt) -> None:
    """R243, R245: a senator who joins becomes a secondary rebel; an ex-Master of Horse who joins
    a rebel Dictator adds his military rating to the rebel army's."""
    state = ctx.state
    army_ = state.rebellion
    s = state.senators.get(decision.subject)
    if army_ is None or s is None:
        raise IllegalAction(RULE_SECONDARY, "rome.error.no_rebellion", "no revolt to join")
    state.pending.remove(decision)
    if not action.join:
        ctx.report("rome.revolution.loyal", senator=s.id)
        return
    ctx.report("rome.revolution.joins", senator=s.id)
    if s.office == "master_of_horse":
        army_.master = s.id
    become_rebel(ctx, s)
    desert(ctx, s.id)
