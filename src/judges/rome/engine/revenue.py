"""Phase 2, Revenue (VG 1.06; ror-data §16 GAP-9; R21-R39): personal revenue to each faction,
redistribution, the State's revenue, contributions, debits (bankruptcy), returning governors.

Personal revenue is handed to each player as a lump sum (VG 1.06.1): it lands in the faction
treasury and the redistribution step moves it to senators as the player likes."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ...engine.errors import IllegalAction
from .actions import Contribute, Done, Grain, Ransom, Transfer
from .board import active_wars, aligned, drought_effects
from .context import Ctx
from .legions import move, owners
from .state import Decision
from .victory import rome_falls

RULE_REDISTRIBUTION = "R38 Redistribution (VG 1.06.3)"
RULE_CONTRIBUTION = "VG 1.06.52 Contributions"
RULE_GRAIN = "R25 Grain concessions in a drought (VG 1.06.12, the grain cards)"
TREASURY = "treasury"
FACTION_PREFIX = "faction:"
EARNS = ("rome", "field", "province")  # captives and rebels earn nothing (R33, R34)


def rebel_upkeep(ctx: Ctx) -> bool:
    """R35-R37 (VG 1.11.35): before anything else, the rebel pays 2T for each of his legions but
    the veterans owing allegiance to a rebel (R36), from his personal treasury, then his secondary
    rebels', then his faction's; the legions he cannot pay go back to the Senate's box (regulars
    first, then veterans owing no rebel) [D: Rome keeps them and pays their upkeep with its own;
    the HRAO is not asked]."""
    state, rules = ctx.state, ctx.rules
    rebels = state.rebellion
    if rebels is None or rebels.legions == 0:
        return True
    rebel = state.senators[rebels.rebel]
    purses = [rebel] + [s for s in aligned(state, rebel.faction) if s.location == "rebel" and s.id != rebel.id]
    faction = state.factions[rebel.faction]
    free = [o for o in owners(rebels) if o and state.senators[o].location == "rebel"]
    money = sum(s.talents for s in purses) + faction.treasury
    due = rebels.legions - len(free)
    kept = min(due, money // rules.rebel_unit_upkeep)
    owed = kept * rules.rebel_unit_upkeep
    for s in purses:
        paid = min(owed, s.talents)
        s.talents -= paid
        owed -= paid
    faction.treasury -= owed
    released = due - kept
    regulars = min(released, rebels.legions - rebels.veterans)
    others = [o for o in owners(rebels) if not o or state.senators[o].location != "rebel"]
    others.sort(key=lambda o: o != "")
    move(rebels, state.units, regulars, others[: released - regulars])
    ctx.report("rome.revenue.rebel_upkeep", senator=rebel.id, talents=kept * rules.rebel_unit_upkeep, int=released)
    return True


def grain_cards(ctx: Ctx, seat: int) -> list[str]:
    """The faction's grain concessions that may take the drought bonus now: held by a senator
    who earns, while a drought effect is in force."""
    state = ctx.state
    if drought_effects(state, ctx.deck) == 0:
        return []
    return [
        c
        for s in aligned(state, seat)
        if s.location in EARNS
        for c in s.concessions
        if ctx.deck.concessions[c].grain and ctx.deck.concessions[c].kind == "fixed"
    ]


def ask_grain(ctx: Ctx) -> bool:
    """R25 (VG's grain cards): in a drought, every faction holding a grain concession says at once
    which of them take the drought bonus. The choices wait in `scratch["grain"]` (by seat), each
    seen by its own faction only, until the personal revenue pays them (view.py)."""
    for f in ctx.state.factions:
        if not f.eliminated and grain_cards(ctx, f.seat):
            ctx.state.pending.append(Decision(f.seat, "grain"))
            ctx.state.scratch["grain"] = {}
    return True


def legal_grain(ctx: Ctx, decision: Decision) -> Iterable[Grain]:
    mine = grain_cards(ctx, decision.player)
    return [Grain(player=decision.player, cards=list(c)) for n in range(len(mine) + 1) for c in combinations(mine, n)]


def apply_grain(ctx: Ctx, decision: Decision, action: Grain) -> None:
    mine = grain_cards(ctx, decision.player)
    if len(set(action.cards)) != len(action.cards) or not set(action.cards) <= set(mine):
        raise IllegalAction(RULE_GRAIN, "rome.error.not_your_grain", "only one's own grain concessions, in a drought")
    ctx.state.pending.remove(decision)
    ctx.state.scratch.setdefault("grain", {})[str(decision.player)] = list(action.cards)


def guess_grain(ctx: Ctx, seat: int) -> list[str]:
    """A grain choice another faction may have made (search.py's sample): each card takes the
    bonus or not, on the dice."""
    return [c for c in grain_cards(ctx, seat) if ctx.dice.roll(2) == 1]


def personal_revenue(ctx: Ctx) -> bool:
    """VG 1.06.11-12: 1T a senator, 3T the faction leader (R21), 1T a knight (R22), and each
    concession's income (the land commissioner's only while a land bill is in force, R24);
    collecting a concession makes the senator corrupt (R26)."""
    state, rules, deck = ctx.state, ctx.rules, ctx.deck
    bonus = {c for cards in state.scratch.pop("grain", {}).values() for c in cards}
    for f in state.factions:
        if f.eliminated:
            continue
        total = 0
        for s in aligned(state, f.seat):
            if s.location not in EARNS:
                continue
            total += rules.faction_leader_income if f.leader == s.id else rules.senator_income
            total += s.knights * rules.knight_income
            for c in s.concessions:
                card = deck.concessions[c]
                if card.kind != "fixed" or (card.needs_land_bill and not state.land_bills):
                    continue
                if c in bonus:
                    # R25, VG's grain cards: income times (1 + drought effects), and as much
                    # popularity lost (even at -9 it may be taken; popularity stays at -9)
                    times = 1 + drought_effects(state, deck)
                    total += card.income * times
                    s.popularity = max(-9, s.popularity - times)
                    ctx.report("rome.revenue.grain", senator=s.id, card=c, talents=card.income * times)
                else:
                    total += card.income
                s.corrupt = True
        f.treasury += total
        ctx.report("rome.revenue.faction", faction=f.seat, talents=total)
    return True


def ask_everyone(ctx: Ctx, kind: str) -> bool:
    """Every faction still playing owes `kind` at once."""
    for f in ctx.state.factions:
        if not f.eliminated:
            ctx.state.pending.append(Decision(f.seat, kind))
    return True


def ask_redistribution(ctx: Ctx) -> bool:
    return ask_everyone(ctx, "redistribute")


def _balance(ctx: Ctx, seat: int, place: str) -> int | None:
    """Talents in one of the seat's own pools, None when it is not one of them."""
    if place == TREASURY:
        return ctx.state.factions[seat].treasury
    s = ctx.state.senators.get(place)
    if s is None or s.faction != seat:
        return None
    return s.talents


def _may_move(ctx: Ctx, seat: int, place: str) -> bool:
    """Captives may neither give nor receive money (VG 1.06.3); rebels only among rebels."""
    s = ctx.state.senators.get(place)
    return s is None or s.location not in ("captive", "rebel")


def transfer_refusal(ctx: Ctx, seat: int, action: Transfer) -> str | None:
    have = _balance(ctx, seat, action.source)
    if have is None or not _may_move(ctx, seat, action.source):
        return "rome.error.not_your_treasury"
    if action.talents <= 0 or action.talents > have:
        return "rome.error.not_enough_talents"
    if action.target.startswith(FACTION_PREFIX):
        other = action.target.removeprefix(FACTION_PREFIX)
        if not other.isdigit() or not 0 <= int(other) < ctx.state.players or int(other) == seat:
            return "rome.error.not_a_player"
        if ctx.state.factions[int(other)].eliminated:
            return "rome.error.not_a_player"
        return None
    if _balance(ctx, seat, action.target) is None or not _may_move(ctx, seat, action.target):
        return "rome.error.not_your_treasury"
    if action.target == action.source:
        return "rome.error.not_your_treasury"
    return None


RULE_RANSOM = "R229 Ransom (VG 1.10.71)"


def ransom_price(ctx: Ctx, senator: str) -> int:
    """VG 1.10.71: the greater of 10T and 2T per influence (the review's R229 says 1T)."""
    s = ctx.state.senators[senator]
    return max(ctx.rules.ransom_minimum, ctx.rules.ransom_per_influence * s.influence)


def ransom_refusal(ctx: Ctx, seat: int, senator: str) -> str | None:
    s = ctx.state.senators.get(senator)
    if s is None or s.faction != seat or s.location != "captive":
        return "rome.error.not_a_captive"
    if s.talents + ctx.state.factions[seat].treasury < ransom_price(ctx, senator):
        return "rome.error.not_enough_talents"
    return None


def legal_redistribute(ctx: Ctx, decision: Decision) -> Iterable[Done | Transfer | Ransom]:
    """Done, a ransom for each captive the faction can pay for, and for each pair of pools one
    talent or everything (any amount in between is legal too: `apply` takes it)."""
    seat = decision.player
    out: list[Done | Transfer | Ransom] = [Done(player=seat)]
    for s in aligned(ctx.state, seat):
        if ransom_refusal(ctx, seat, s.id) is None:
            out.append(Ransom(player=seat, senator=s.id))
    places = [TREASURY] + [s.id for s in aligned(ctx.state, seat) if _may_move(ctx, seat, s.id)]
    others = [f"{FACTION_PREFIX}{f.seat}" for f in ctx.state.factions if f.seat != seat and not f.eliminated]
    for source in places:
        have = _balance(ctx, seat, source) or 0
        if have <= 0:
            continue
        for target in [p for p in places if p != source] + others:
            for amount in sorted({1, have}):
                out.append(Transfer(player=seat, source=source, target=target, talents=amount))
    return out


def apply_redistribute(ctx: Ctx, decision: Decision, action: Done | Transfer | Ransom) -> None:
    state = ctx.state
    seat = decision.player
    if isinstance(action, Done):
        state.pending.remove(decision)
        return
    if isinstance(action, Ransom):
        why = ransom_refusal(ctx, seat, action.senator)
        if why is not None:
            raise IllegalAction(RULE_RANSOM, why, f"no ransom for {action.senator} now")
        s = state.senators[action.senator]
        price = ransom_price(ctx, s.id)
        own = min(price, s.talents)
        s.talents -= own
        state.factions[seat].treasury -= price - own
        s.location, s.captive_of = "rome", ""
        ctx.report("rome.revenue.ransom", senator=s.id, talents=price)
        return
    why = transfer_refusal(ctx, seat, action)
    if why is not None:
        raise IllegalAction(
            RULE_REDISTRIBUTION, why, f"cannot move {action.talents}T from {action.source} to {action.target}"
        )
    if action.source == TREASURY:
        state.factions[seat].treasury -= action.talents
    else:
        state.senators[action.source].talents -= action.talents
    if action.target == TREASURY:
        state.factions[seat].treasury += action.talents
    elif action.target.startswith(FACTION_PREFIX):
        other = int(action.target.removeprefix(FACTION_PREFIX))
        state.factions[other].treasury += action.talents
        ctx.report("rome.revenue.gift", faction=seat, receiver=other, talents=action.talents)
    else:
        state.senators[action.target].talents += action.talents


def state_revenue(ctx: Ctx) -> bool:
    """VG 1.06.5: the State's 100T, and what events promised it (Allied Enthusiasm, R30)."""
    state = ctx.state
    income = ctx.rules.state_income + state.state_due
    state.state_due = 0
    for used in ("allied_enthusiasm",):  # its card leaves once the State has been paid
        state.events.pop(used, None)
    state.treasury += income
    ctx.report("rome.revenue.state", talents=income, int=state.treasury)
    state.scratch["contributed"] = []
    return True


def ask_contributions(ctx: Ctx) -> bool:
    return ask_everyone(ctx, "contribute")


def contribution_refusal(ctx: Ctx, seat: int, action: Contribute) -> str | None:
    s = ctx.state.senators.get(action.senator)
    if s is None or s.faction != seat:
        return "rome.error.not_your_senator"
    if s.location in ("rebel", "captive"):
        return "rome.error.senator_unavailable"
    if action.senator in ctx.state.scratch.get("contributed", []):
        return "rome.error.one_contribution"
    if action.talents <= 0 or action.talents > s.talents:
        return "rome.error.not_enough_talents"
    return None


def legal_contribute(ctx: Ctx, decision: Decision) -> Iterable[Done | Contribute]:
    """Done, and for each senator able to give: each amount that buys influence (10, 25, 50
    talents) and his whole treasury (other amounts are legal too)."""
    seat = decision.player
    out: list[Done | Contribute] = [Done(player=seat)]
    for s in aligned(ctx.state, seat):
        for amount in sorted({*(r.talents for r in ctx.deck.contributions), s.talents}):
            action = Contribute(player=seat, senator=s.id, talents=amount)
            if contribution_refusal(ctx, seat, action) is None:
                out.append(action)
    return out


def apply_contribute(ctx: Ctx, decision: Decision, action: Done | Contribute) -> None:
    state = ctx.state
    if isinstance(action, Done):
        state.pending.remove(decision)
        return
    why = contribution_refusal(ctx, decision.player, action)
    if why is not None:
        raise IllegalAction(RULE_CONTRIBUTION, why, f"senator {action.senator} cannot give {action.talents}T")
    s = state.senators[action.senator]
    s.talents -= action.talents
    state.treasury += action.talents
    gained = ctx.deck.contribution_influence(action.talents)
    s.influence += gained
    state.scratch.setdefault("contributed", []).append(s.id)
    ctx.report("rome.revenue.contribution", senator=s.id, talents=action.talents, int=gained)


def debits(ctx: Ctx) -> bool:
    """VG 1.06.53 (R28, R29): 20T per active war, the provinces' negative spoils and taxes, the
    land bills, 2T per legion and fleet. A State that cannot pay is bankrupt: Rome falls (R39)."""
    state, rules, deck = ctx.state, ctx.rules, ctx.deck
    owed = rules.war_cost * len(active_wars(state)) + state.scratch.pop("state_owes", 0)
    owed += sum(deck.land_bills[t].cost for t in state.land_bills)
    owed += rules.unit_upkeep * (
        state.units.legions + state.units.fleets + sum(f.legions + f.fleets for f in state.forces)
    )
    state.land_bills = [t for t in state.land_bills if deck.land_bills[t].recurring]
    state.scratch.pop("contributed", None)
    if owed > state.treasury:
        ctx.report("rome.revenue.debits", talents=owed, int=state.treasury)
        rome_falls(ctx, "bankruptcy")
        return True
    state.treasury -= owed
    ctx.report("rome.revenue.debits", talents=owed, int=state.treasury)
    return True


def returning_governors(ctx: Ctx) -> bool:
    """VG 1.06.6 (R31): each governor's term drops by one; at the end of it he returns to Rome
    and his province waits in the Forum for the next Senate."""
    for p in ctx.state.provinces:
        if not p.governor:
            continue
        p.term -= 1
        if p.term <= 0:
            s = ctx.state.senators.get(p.governor)
            if s is not None and s.location == "province":
                s.location = "rome"
                s.governor_of = ""
            p.governor = ""
            p.term = 0
    return True
