"""The neutral bot's military plan (VG 4.05.3): which wars to attack, with adequate forces, what to
raise, and the deployment it proposes."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import senate
from ...engine.actions import Deploy
from ...engine.state import Senator, WarInPlay
from .seen import Seen


def military_key(s: Senator) -> tuple[int, int, int]:
    """VG 4.05.34: the highest military, ties to the least influence (then the lowest id [D])."""
    return (-s.military, s.influence, int(s.id))


@dataclass(frozen=True, slots=True)
class Attack:
    war: str
    legions: int  # adequate: the war's land strength in legions
    fleets: int  # its fleet support, or its naval strength when it still fights at sea
    all_out: bool = False  # a crisis attack with every unit Rome can send


def adequate(seen: Seen, war: WarInPlay) -> Attack:
    """VG 4.05.31: legions equal to the war's strength, fleets equal to its naval strength (the
    least fleet support otherwise); commanders and veterans not counted."""
    card = seen.deck.wars[war.id]
    return Attack(war.id, seen.land(war), max(card.fleet_support, seen.naval(war)))


def attackable(seen: Seen) -> list[WarInPlay]:
    """The wars with no force of Rome on them, the largest or most dangerous first (VG 4.05.3);
    a later war of a series only after the earlier active ones (R199)."""
    sent = {f.war for f in seen.state.forces}
    free = [w for w in seen.state.wars if w.id not in sent]
    return sorted(free, key=lambda w: (-max(seen.danger(w), seen.land(w)), -seen.naval(w), w.id))


def plan(seen: Seen, commanders: int) -> list[Attack]:
    """VG 4.05.3's plans, read as one rule [D]: Rome attacks as many active wars as it has
    commanders for and can give adequate forces (VG 4.05.31), the weakest first (VG takes the
    largest or most dangerous, 4.05.32: the weakest first beats more wars before four are
    active), skipping those it cannot afford (VG 4.05.33); an inactive war only when
    no war is active (attacked, it turns active and counts toward the four that end Rome); with
    no adequate force anywhere, the weakest active war with all it can send (VG's last crisis
    plan)."""
    if commanders <= 0:
        return []
    wars = attackable(seen)
    active = [w for w in wars if w.state in ("active", "unprosecuted")]
    targets = sorted(active, key=lambda w: (seen.land(w), w.id)) or [w for w in wars if w.state == "inactive"]
    chosen: list[Attack] = []
    for w in targets:
        if len(chosen) == commanders:
            break
        if shortfall(seen, [*chosen, adequate(seen, w)]) is not None:
            chosen.append(adequate(seen, w))
    return chosen or all_out(seen, active)


def all_out(seen: Seen, active: list[WarInPlay]) -> list[Attack]:
    """VG 4.05.3: the weakest active war with all possible strength — [D] only when that force,
    with what the State can pay for, may be sent at all (as strong as the war, with its best
    commander)."""
    if not active:
        return []
    weakest = min(active, key=lambda w: (seen.land(w), w.id))
    a = adequate(seen, weakest)
    attack = Attack(a.war, a.legions, a.fleets, True)
    raised = shortfall(seen, [attack]) or (0, 0)
    units = seen.state.units
    legions, fleets = units.legions + raised[0], units.fleets + raised[1]
    chiefs = [s for s in senate.in_senate(seen.ctx) if s.office in ("field_consul", "rome_consul", "dictator")]
    best = max((s.military for s in chiefs), default=0)
    card = seen.deck.wars[weakest.id]
    naval = seen.naval(weakest)
    army = legions + units.veterans
    if legions == 0 or fleets < card.fleet_support or army + min(best, army) < seen.land(weakest):
        return []
    if naval and fleets + min(best, fleets) < naval:
        return []
    return [attack]


def spare_units(seen: Seen) -> int:
    """[D] How many units the State can pay for and keep its reserve."""
    state = seen.state
    if state.no_recruitment:
        return 0
    return max(0, state.treasury - seen.g.state_reserve) // senate.unit_cost(seen.ctx)


def shortfall(seen: Seen, attacks: list[Attack]) -> tuple[int, int] | None:
    """The legions and fleets to raise for `attacks` beyond Rome's box, or None when the State
    cannot pay for them or they pass 25 of a kind; for an all-out attack, what the State can pay
    toward adequacy."""
    state, rules = seen.state, seen.state.options.rules
    need_l = max(0, sum(a.legions for a in attacks) - state.units.legions)
    need_f = max(0, sum(a.fleets for a in attacks) - state.units.fleets)
    fielded_l = state.units.legions + sum(f.legions for f in state.forces)
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces)
    room_l, room_f, spare = rules.max_legions - fielded_l, rules.max_fleets - fielded_f, spare_units(seen)
    if any(a.all_out for a in attacks):
        need_f = min(need_f, room_f, spare)
        return min(need_l, room_l, spare - need_f), need_f
    if need_l + need_f > spare or need_l > room_l or need_f > room_f:
        return None
    return need_l, need_f


def commanders_left(seen: Seen) -> int:
    """The consuls and the Dictator still in Rome this sitting (the Rome Consul once elected)."""
    offices = ("field_consul", "rome_consul", "dictator") if seen.sitting().get("consuls_elected") else ("dictator",)
    return sum(1 for s in senate.in_senate(seen.ctx) if s.office in offices)


def builds(seen: Seen) -> tuple[int, int]:
    """The levy the plan needs now (legions, fleets): the plan's units beyond those in Rome, or
    with no war the peace-time 10 legions and 5 fleets (VG 4.05.33; none under a manpower
    shortage outside a crisis)."""
    state, rules = seen.state, seen.state.options.rules
    if state.no_recruitment or (state.events.get("manpower_shortage") and not seen.crisis()):
        return 0, 0
    if state.wars:
        return shortfall(seen, plan(seen, commanders_left(seen))) or (0, 0)
    spare = spare_units(seen)
    fielded_l = state.units.legions + sum(f.legions for f in state.forces)
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces)
    want_l = min(max(0, seen.g.peace_legions - fielded_l), spare, rules.max_legions - fielded_l)
    want_f = min(max(0, seen.g.peace_fleets - fielded_f), spare - want_l, rules.max_fleets - fielded_f)
    return want_l, want_f


def dispatch(seen: Seen) -> Deploy | None:
    """The next commander against the plan's first war: the adequate force, half the legions left
    over (up to 15) and the veterans among them; a crisis attack sends everything."""
    state = seen.state
    chiefs = senate.commanders(seen.ctx)
    attacks = plan(seen, commanders_left(seen))
    if not chiefs or not attacks:
        return None
    first = attacks[0]
    units = state.units
    if first.all_out and len(attacks) == 1:
        legions, fleets = units.legions, units.fleets
    else:
        spare = units.legions - sum(a.legions for a in attacks)
        legions = min(units.legions, first.legions + min(max(0, spare) // 2, seen.g.excess_cap))
        fleets = min(units.fleets, first.fleets)
    veterans = min(units.veterans, legions)
    for chief in sorted(chiefs, key=military_key):
        action = Deploy(
            player=seen.seat, commander=chief.id, war=first.war, legions=legions, veterans=veterans, fleets=fleets
        )
        if senate.deploy_refusal(seen.ctx, action) is None and senate.subject_of(action) not in seen.sitting().get(
            "rejected", []
        ):
            return action
    return None
