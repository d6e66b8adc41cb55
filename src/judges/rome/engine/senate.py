"""Phase 5, Senate (VG 1.09; R80-R103, R122-R124): the presiding magistrate, proposals and the
vote, tribunes' vetoes, bought votes, the consuls and the censor.

A proposal is put to the vote of every faction at once: each owes a `vote` decision (its
ballot is secret until all are in), answered by a block vote with any bought votes, or by a
tribune's veto. The tally counts the votes cast (abstentions are not cast): more than half
passes, a tie fails (R89). The Senate's later business (prosecutions, governors, forces,
concessions, land bills, Dictator, Consul for Life, assassinations, recalls) is not played yet:
after the censor, the presiding magistrate proposes levies and deployments until he closes.

`state.scratch["senate"]` holds the sitting: the presiding magistrate, the slates rejected this
turn, the proposal on the floor and its ballots."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from ...engine.errors import IllegalAction
from .actions import (
    Appeal,
    AppointMaster,
    AwardConcession,
    CloseSenate,
    Deploy,
    LandBill,
    NominateConsulForLife,
    ProposeCensor,
    ProposeConsuls,
    ProposeDictator,
    RaiseForces,
    Repopulate,
    Skip,
    Veto,
    Vote,
)
from .board import aligned, hrao, rank_key, votes
from .combat import army, commander_bonus, return_force, strength, war_on_board
from .context import Ctx
from .state import UNALIGNED, Decision, Force, Senator

RULE_PROPOSAL = "R83 Proposals (VG 1.09.13)"
RULE_VOTE = "R84-R89 Voting (VG 1.09.14)"
RULE_CONSULS = "R94-R98 Consuls (VG 1.09.2)"
RULE_CENSOR = "R122 Censor (VG 1.09.4)"
CHOICES = ("yea", "nay", "abstain")


def _sitting(ctx: Ctx) -> dict[str, Any]:
    sitting: dict[str, Any] = ctx.state.scratch["senate"]
    return sitting


def presiding(ctx: Ctx) -> Senator | None:
    """The presiding magistrate; one who died or left Rome hands the chair to the next in rank
    (R9: "el HRAO pasa inmediatamente al siguiente senador en rango"); None when nobody is left."""
    sitting = _sitting(ctx)
    s = ctx.state.senators.get(sitting["presiding"]) if sitting["presiding"] else None
    if s is not None and s.location == "rome" and s.faction != UNALIGNED:
        return s
    if not sitting["presiding"]:
        return None
    rest = [x for x in in_senate(ctx) if x.id not in sitting["stepped_down"]]
    successor = min(rest, key=rank_key) if rest else None
    sitting["presiding"] = successor.id if successor is not None else ""
    return successor


def in_senate(ctx: Ctx) -> list[Senator]:
    """Aligned senators in Rome: they attend and vote (R10)."""
    return [s for s in ctx.state.senators.values() if s.faction != UNALIGNED and s.location == "rome"]


def open_senate(ctx: Ctx) -> bool:
    """R80: the HRAO presides; with nobody in Rome there is no Senate."""
    top = hrao(ctx.state)
    ctx.state.scratch["senate"] = {
        "presiding": top.id if top is not None else "",
        "stepped_down": [],
        "rejected": [],
        "floor": None,
        "ballots": {},
        "consuls_elected": False,
    }
    if top is not None:
        ctx.report("rome.senate.opens", senator=top.id)
    return True


# --- Repopulating Rome (VG 1.09.81) --------------------------------------------------------------

RULE_REPOPULATE = "Repopulating Rome (VG 1.09.81)"
ROME_MINIMUM = 8


def available_senators(ctx: Ctx) -> list[str]:
    """The family cards in the Curia; with none there, the unaligned senators in the Forum."""
    state = ctx.state
    curia = [c for c in state.curia if ctx.deck.kind_of(c) == "senator" and c not in state.senators]
    if curia:
        return curia
    return [s.id for s in state.senators.values() if s.faction == UNALIGNED and s.location == "rome"]


def repopulate(ctx: Ctx) -> bool:
    """While fewer than eight aligned senators are in Rome, the faction with fewest senators
    (then least influence in Rome, then the dice) takes one of the available senators, its
    player's choice. [D] Checked when the Senate opens."""
    state = ctx.state
    if len(in_senate(ctx)) >= ROME_MINIMUM or not available_senators(ctx):
        return True
    seats = [f.seat for f in state.factions if not f.eliminated]

    def need(seat: int) -> tuple[int, int]:
        return (len(aligned(state, seat)), sum(s.influence for s in aligned(state, seat) if s.location == "rome"))

    fewest = min(need(seat) for seat in seats)
    tied = [seat for seat in seats if need(seat) == fewest]
    while len(tied) > 1:
        rolls = {seat: ctx.dice.roll(6) for seat in tied}
        tied = [seat for seat in tied if rolls[seat] == max(rolls.values())]
    state.pending.append(Decision(tied[0], "repopulate"))
    return False


def legal_repopulate(ctx: Ctx, decision: Decision) -> Iterable[Repopulate]:
    return [Repopulate(player=decision.player, senator=s) for s in available_senators(ctx)]


def apply_repopulate(ctx: Ctx, decision: Decision, action: Repopulate) -> None:
    from .effects import senator_from_card

    state = ctx.state
    if action.senator not in available_senators(ctx):
        raise IllegalAction(RULE_REPOPULATE, "rome.error.not_a_candidate", f"{action.senator} is not available")
    state.pending.remove(decision)
    if action.senator in state.curia:
        state.curia.remove(action.senator)
        state.senators[action.senator] = senator_from_card(ctx.deck, action.senator, decision.player)
    else:
        state.senators[action.senator].faction = decision.player
    ctx.report("rome.senate.repopulate", senator=action.senator, faction=decision.player)


# --- candidates ---------------------------------------------------------------------------------


def consul_candidates(ctx: Ctx) -> list[str]:
    """VG 1.09.2 (R96, R97): aligned senators in Rome, not a consul or Dictator now."""
    return [s.id for s in in_senate(ctx) if s.office not in ("rome_consul", "field_consul", "dictator")]


def consul_pairs(ctx: Ctx) -> list[tuple[str, str]]:
    """Every pair not yet rejected this turn (R98, E10), in id order."""
    ids = sorted(consul_candidates(ctx), key=int)
    rejected = {tuple(r) for r in _sitting(ctx)["rejected"] if len(r) == 2}
    return [p for p in combinations(ids, 2) if p not in rejected]


def censor_candidates(ctx: Ctx) -> list[str]:
    """VG 1.09.4 (R122): prior consuls in Rome holding no major office but the censorship;
    with none, any aligned senator in Rome free of other major offices. Rejected ones excluded."""
    free = [s for s in in_senate(ctx) if s.office in ("", "censor")]
    eligible = [s for s in free if s.prior_consul] or free
    rejected = {r[0] for r in _sitting(ctx)["rejected"] if len(r) == 1}
    return sorted((s.id for s in eligible if s.id not in rejected), key=int)


# --- the elections (re-entrant steps) -----------------------------------------------------------


def consul_elections(ctx: Ctx) -> bool:
    sitting = _sitting(ctx)
    if presiding(ctx) is None or sitting["consuls_elected"]:
        return True
    if sitting["floor"] is not None:
        if tally(ctx):
            install_consuls(ctx, sitting["last"])
            return True
    pairs = consul_pairs(ctx)
    if not pairs:
        ctx.report("rome.senate.no_candidates", office="rome_consul")
        return True
    if len(pairs) == 1:  # VG 1.09.21 (R85): the last legal pair is appointed, no veto
        install_consuls(ctx, pairs[0])
        return True
    ask_presiding(ctx, "propose_consuls")
    return False


RULE_DICTATOR = "R104-R114 Dictator (VG 1.09.3)"


def dictator_allowed(ctx: Ctx) -> bool:
    """R104 (K13 as VG): three active wars, or one active war whose printed land and naval
    strength reach 20."""
    rules, deck = ctx.rules, ctx.deck
    active = [w for w in ctx.state.wars if w.state in ("active", "unprosecuted")]
    big = any(
        deck.wars[w.id].land + (0 if w.naval_won else deck.wars[w.id].naval) >= rules.dictator_war_strength
        for w in active
    )
    return len(active) >= rules.dictator_active_wars or big


def dictator_candidates(ctx: Ctx) -> list[str]:
    """R107: an aligned senator in Rome holding no office."""
    rejected = {r[1] for r in _sitting(ctx)["rejected"] if len(r) == 2 and r[0] == "dictator"}
    return sorted((s.id for s in in_senate(ctx) if not s.office and s.id not in rejected), key=int)


def dictator_election(ctx: Ctx) -> bool:
    """R104-R106: after the consuls and before the censor, the presiding magistrate may put a
    Dictator to the vote [D: the consuls' agreement is modelled as his proposal and the vote]."""
    sitting = _sitting(ctx)
    if presiding(ctx) is None or sitting.get("dictator_done"):
        return True
    if sitting["floor"] is not None and sitting["floor"]["kind"] == "dictator":
        if tally(ctx):
            install_dictator(ctx, sitting["last"][1])
            return True
    if (
        not dictator_allowed(ctx)
        or not dictator_candidates(ctx)
        or any(s.office == "dictator" for s in ctx.state.senators.values())
    ):
        sitting["dictator_done"] = True
        return True
    ask_presiding(ctx, "propose_dictator")
    return False


def legal_propose_dictator(ctx: Ctx, decision: Decision) -> Iterable[ProposeDictator | Skip]:
    out: list[ProposeDictator | Skip] = [Skip(player=decision.player)]
    out += [ProposeDictator(player=decision.player, senator=s) for s in dictator_candidates(ctx)]
    return out


def apply_propose_dictator(ctx: Ctx, decision: Decision, action: ProposeDictator | Skip) -> None:
    if isinstance(action, Skip):
        ctx.state.pending.remove(decision)
        _sitting(ctx)["dictator_done"] = True
        return
    if action.senator not in dictator_candidates(ctx):
        raise IllegalAction(RULE_DICTATOR, "rome.error.not_a_candidate", f"{action.senator} cannot be Dictator")
    ctx.state.pending.remove(decision)
    put_to_vote(ctx, "dictator", ("dictator", action.senator), vetoable=True)


def install_dictator(ctx: Ctx, senator: str) -> None:
    """R108, R110: +7 influence, the prior-consul marker; he presides and names his Master of
    Horse."""
    s = ctx.state.senators[senator]
    s.office, s.prior_consul = "dictator", True
    s.influence += ctx.rules.dictator_influence
    sitting = _sitting(ctx)
    sitting["presiding"] = s.id
    sitting["dictator_done"] = True
    ctx.report("rome.senate.dictator", senator=s.id)
    if any(
        x.id != s.id and not x.office
        for x in ctx.state.senators.values()
        if x.location == "rome" and x.faction != UNALIGNED
    ):
        ctx.state.pending.append(Decision(s.faction, "appoint_master"))


def legal_appoint_master(ctx: Ctx, decision: Decision) -> Iterable[AppointMaster]:
    return [AppointMaster(player=decision.player, senator=s.id) for s in in_senate(ctx) if not s.office]


def apply_appoint_master(ctx: Ctx, decision: Decision, action: AppointMaster) -> None:
    """R109: any other senator in Rome, +3 influence, no prior-consul marker."""
    s = ctx.state.senators.get(action.senator)
    if s is None or s.office or s.location != "rome" or s.faction == UNALIGNED:
        raise IllegalAction(RULE_DICTATOR, "rome.error.not_a_candidate", f"{action.senator} cannot be Master of Horse")
    ctx.state.pending.remove(decision)
    s.office = "master_of_horse"
    s.influence += ctx.rules.master_of_horse_influence
    ctx.report("rome.senate.master_of_horse", senator=s.id)


def censor_election(ctx: Ctx) -> bool:
    sitting = _sitting(ctx)
    if presiding(ctx) is None:
        return True
    if sitting["floor"] is not None:
        if tally(ctx):
            install_censor(ctx, sitting["last"][0])
            return True
    candidates = censor_candidates(ctx)
    if not candidates:
        ctx.report("rome.senate.no_candidates", office="censor")
        return True
    if len(candidates) == 1:  # VG 1.09.4: the only eligible candidate is appointed
        install_censor(ctx, candidates[0])
        return True
    ask_presiding(ctx, "propose_censor")
    return False


def ask_presiding(ctx: Ctx, kind: str) -> None:
    pm = presiding(ctx)
    assert pm is not None
    ctx.state.pending.append(Decision(pm.faction, kind))


def legal_propose_consuls(ctx: Ctx, decision: Decision) -> Iterable[ProposeConsuls]:
    return [ProposeConsuls(player=decision.player, first=a, second=b) for a, b in consul_pairs(ctx)]


def apply_propose_consuls(ctx: Ctx, decision: Decision, action: ProposeConsuls) -> None:
    pair = tuple(sorted((action.first, action.second), key=lambda x: int(x) if x.isdigit() else 0))
    if pair not in consul_pairs(ctx):
        raise IllegalAction(RULE_CONSULS, "rome.error.not_a_candidate_pair", f"{pair} cannot be nominated now")
    ctx.state.pending.remove(decision)
    put_to_vote(ctx, "consuls", pair, vetoable=True)


def legal_propose_censor(ctx: Ctx, decision: Decision) -> Iterable[ProposeCensor]:
    return [ProposeCensor(player=decision.player, senator=s) for s in censor_candidates(ctx)]


def apply_propose_censor(ctx: Ctx, decision: Decision, action: ProposeCensor) -> None:
    if action.senator not in censor_candidates(ctx):
        raise IllegalAction(RULE_CENSOR, "rome.error.not_a_candidate", f"{action.senator} cannot be nominated censor")
    ctx.state.pending.remove(decision)
    put_to_vote(ctx, "censor", (action.senator,), vetoable=True)


# --- voting -------------------------------------------------------------------------------------


def put_to_vote(ctx: Ctx, kind: str, subject: tuple[str, ...], vetoable: bool) -> None:
    """Every faction still playing owes its vote at once (also one with nobody in Rome: it may
    still veto, VG 1.09.15)."""
    sitting = _sitting(ctx)
    pm = ctx.state.senators.get(sitting["presiding"])
    if pm is not None and pm.office == "dictator" and kind not in ("trial",):
        vetoable = False  # R111: a Dictator's proposals cannot be vetoed
    sitting["floor"] = {"kind": kind, "subject": list(subject), "vetoable": vetoable}
    sitting["last"] = list(subject)
    sitting["ballots"] = {}
    named = [x for x in subject if x in ctx.state.senators]
    ctx.report("rome.senate.proposal", proposal=kind, senators=named)
    for f in ctx.state.factions:
        if not f.eliminated:
            ctx.state.pending.append(Decision(f.seat, "vote"))


def tribunes_in_hand(ctx: Ctx, seat: int) -> list[str]:
    return [c for c in ctx.state.factions[seat].hand if ctx.deck.kind_of(c) == "intrigue" and c.startswith("tribune")]


def purse(ctx: Ctx, seat: int) -> int:
    """The talents the faction's senators in Rome could spend on votes."""
    return sum(s.talents for s in aligned(ctx.state, seat) if s.location == "rome")


def legal_vote(ctx: Ctx, decision: Decision) -> Iterable[Vote | Veto | Appeal]:
    seat = decision.player
    no_abstaining = _sitting(ctx)["floor"]["kind"] == "land_bill"  # VG 1.09.14
    out: list[Vote | Veto | Appeal] = [
        Vote(player=seat, choice=c) for c in CHOICES if not (no_abstaining and c == "abstain")
    ]
    money = purse(ctx, seat)
    if money:
        out += [Vote(player=seat, choice=c, talents=money) for c in ("yea", "nay")]
    if _sitting(ctx)["floor"]["vetoable"]:
        out += [Veto(player=seat, card=c) for c in dict.fromkeys(tribunes_in_hand(ctx, seat))]
    from .prosecutions import may_appeal

    if may_appeal(ctx, decision):
        out.append(Appeal(player=seat))
    return out


def apply_vote(ctx: Ctx, decision: Decision, action: Vote | Veto | Appeal) -> None:
    """The ballot is kept secret (the scratch) until the tally; a veto ends the vote at once."""
    state = ctx.state
    seat = decision.player
    sitting = _sitting(ctx)
    if isinstance(action, Appeal):
        from .prosecutions import appeal

        appeal(ctx, decision, action)
        return
    if isinstance(action, Veto):
        if not sitting["floor"]["vetoable"]:
            raise IllegalAction(RULE_VOTE, "rome.error.no_veto_here", "this proposal cannot be vetoed")
        if action.card not in tribunes_in_hand(ctx, seat):
            raise IllegalAction(RULE_VOTE, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
        state.factions[seat].hand.remove(action.card)
        state.discard.append(action.card)
        sitting["ballots"] = {"veto": seat}
        state.pending = [d for d in state.pending if d.kind != "vote"]
        return
    if action.choice not in CHOICES or (action.choice == "abstain" and sitting["floor"]["kind"] == "land_bill"):
        raise IllegalAction(RULE_VOTE, "rome.error.not_a_choice", f"{action.choice!r} is not a vote here")
    if not 0 <= action.talents <= purse(ctx, seat) or (action.talents and action.choice == "abstain"):
        raise IllegalAction(RULE_VOTE, "rome.error.not_enough_talents", "cannot buy those votes")
    sitting["ballots"][str(seat)] = [action.choice, action.talents]
    state.pending.remove(decision)


def tally(ctx: Ctx) -> bool:
    """R89: more than half of the votes cast passes; a tie fails. Bought votes are paid to the
    bank by the voting faction's senators in Rome, the richest first. A proposal of the
    presiding magistrate rejected by every other faction's senators costs him 1 influence, or
    the chair if he has none (R90). Returns True when it passed; a failed slate is rejected for
    the turn (R87, R98)."""
    state = ctx.state
    sitting = _sitting(ctx)
    floor, ballots = sitting["floor"], sitting["ballots"]
    sitting["floor"] = None
    sitting["last_ballots"] = {k: v for k, v in ballots.items() if k != "veto"}
    subject = floor["subject"]
    if "veto" in ballots:
        sitting["rejected"].append(subject)
        ctx.report("rome.senate.vetoed", faction=ballots["veto"])
        return False
    counts = {"yea": 0, "nay": 0, "abstain": 0}
    for side, extra in floor.get("extra", {}).items():
        counts[side] += extra
    accused = state.senators.get(floor.get("accused", ""))
    for seat_text, (choice, talents) in ballots.items():
        seat = int(seat_text)
        present = [s for s in aligned(state, seat) if s.location == "rome"]
        counts[choice] += sum(votes(s) for s in present) + talents
        if accused is not None and accused.faction == seat:
            counts[choice] += accused.influence  # VG 1.09.42: the accused's influence
        for s in sorted(present, key=lambda x: (-x.talents, int(x.id))):
            paid = min(talents, s.talents)
            s.talents -= paid
            talents -= paid
    passed = counts["yea"] > counts["nay"]
    ctx.report("rome.senate.tally", yea=counts["yea"], nay=counts["nay"], won=passed)
    if passed:
        return True
    sitting["rejected"].append(subject)
    pm = presiding(ctx)
    others = [int(seat) for seat in ballots if pm is not None and int(seat) != pm.faction]
    voters = [seat for seat in others if any(s.location == "rome" for s in aligned(state, seat))]
    if pm is not None and voters and all(ballots[str(seat)][0] == "nay" for seat in voters):
        if pm.influence > 0:
            pm.influence -= ctx.rules.rejected_proposal_influence
            ctx.report("rome.senate.rebuked", senator=pm.id)
        elif floor["kind"] == "trial":
            sitting["prosecutions_over"] = True  # VG 1.09.41: the Censor hands the chair back
        else:
            step_down(ctx, pm)
    return False


def step_down(ctx: Ctx, pm: Senator) -> None:
    """VG 1.09.144: the chair passes to the next in rank (he keeps his office)."""
    sitting = _sitting(ctx)
    sitting["stepped_down"].append(pm.id)
    rest = [s for s in in_senate(ctx) if s.id not in sitting["stepped_down"]]
    sitting["presiding"] = min(rest, key=rank_key).id if rest else ""
    ctx.report("rome.senate.steps_down", senator=pm.id)


# --- offices ------------------------------------------------------------------------------------


def install_consuls(ctx: Ctx, pair: list[str] | tuple[str, str]) -> None:
    """VG 1.09.22 (R99-R102): the outgoing consuls take the prior-consul marker; the new ones
    gain 5 influence; a die each decides who is Rome Consul [D: the engine does not model their
    agreement]; the Rome Consul presides. A censor or Master of Horse elected leaves that office."""
    state, rules = ctx.state, ctx.rules
    for s in state.senators.values():
        if s.office in ("rome_consul", "field_consul", "dictator"):
            s.office = ""
            s.prior_consul = True
        elif s.office == "master_of_horse":
            s.office = ""
    first, second = (state.senators[x] for x in pair)
    while True:
        a, b = ctx.roll(2)
        if a != b:
            break
    rome, field_ = (first, second) if a > b else (second, first)
    rome.office, field_.office = "rome_consul", "field_consul"
    for s in (rome, field_):
        s.influence += rules.consul_influence
    sitting = _sitting(ctx)
    sitting["consuls_elected"] = True
    sitting["presiding"] = rome.id
    ctx.report("rome.senate.consuls", senator=rome.id, other=field_.id)


def install_censor(ctx: Ctx, senator: str) -> None:
    state = ctx.state
    for s in state.senators.values():
        if s.office == "censor":
            s.office = ""
    s = state.senators[senator]
    s.office = "censor"
    s.influence += ctx.rules.censor_influence
    ctx.report("rome.senate.censor", senator=senator)


# --- other business: forces and their deployment (R145-R163), closing (R92) ----------------------

RULE_FORCES = "R145-R150 Forces (VG 1.09.63)"
RULE_DEPLOY = "R151-R159 Deployment (VG 1.09.64)"
LEVIES = (0, 1, 3, 6)  # the sizes of levy offered as legal actions (any size is legal)


def unit_cost(ctx: Ctx) -> int:
    """R147, ror-data §12: 10T a unit, +10T per manpower shortage in force."""
    shortages = ctx.state.events.get("manpower_shortage", 0)
    return ctx.rules.unit_cost + ctx.rules.manpower_shortage_extra * shortages


def raise_refusal(ctx: Ctx, action: RaiseForces) -> str | None:
    state = ctx.state
    if state.no_recruitment:
        return "rome.error.no_recruitment"
    if action.legions < 0 or action.fleets < 0 or action.legions + action.fleets == 0:
        return "rome.error.bad_levy"
    fielded_l = state.units.legions + sum(f.legions for f in state.forces)
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces)
    if fielded_l + action.legions > ctx.rules.max_legions or fielded_f + action.fleets > ctx.rules.max_fleets:
        return "rome.error.too_many_units"
    if (action.legions + action.fleets) * unit_cost(ctx) > state.treasury:
        return "rome.error.state_cannot_pay"
    return None


def commanders(ctx: Ctx) -> list[Senator]:
    """R151, R152: the Field Consul first; the Rome Consul once the Field Consul has gone (or
    with no Field Consul in Rome)."""
    state = ctx.state
    field_ = next((s for s in in_senate(ctx) if s.office == "field_consul"), None)
    rome = next((s for s in in_senate(ctx) if s.office == "rome_consul"), None)
    dictator = [s for s in in_senate(ctx) if s.office == "dictator"]
    if field_ is not None:
        return [field_] + dictator
    return ([rome] if rome is not None and state.scratch["senate"]["consuls_elected"] else []) + dictator


def deploy_refusal(ctx: Ctx, action: Deploy) -> str | None:
    """R153, R155, VG 1.09.643: units from Rome's box, the war's fleet support, at least a legion
    (a fleet at sea), and [D] a force at least as strong as the war: weaker dispatches need the
    commander's consent, which the engine does not ask yet."""
    state = ctx.state
    s = state.senators.get(action.commander)
    if s is None or s not in commanders(ctx):
        return "rome.error.not_a_commander"
    war = war_on_board(ctx, action.war)
    if war is None:
        return "rome.error.no_such_war"
    units = state.units
    if not (0 <= action.veterans <= action.legions and action.fleets >= 0):
        return "rome.error.bad_levy"
    if action.legions > units.legions or action.veterans > units.veterans or action.fleets > units.fleets:
        return "rome.error.units_not_in_rome"
    if action.legions - action.veterans > units.legions - units.veterans:
        return "rome.error.units_not_in_rome"
    card = ctx.deck.wars[war.id]
    if action.fleets < card.fleet_support or action.legions == 0:
        return "rome.error.too_weak"
    force = Force(war=war.id, legions=action.legions, veterans=action.veterans, fleets=action.fleets)
    land, naval = strength(ctx, war)
    if naval and army(force, True) + commander_bonus(s, action.fleets) < naval:
        return "rome.error.too_weak"
    if army(force, False) + commander_bonus(s, army(force, False)) < land:
        return "rome.error.too_weak"
    earlier = [
        w
        for w in state.wars
        if ctx.deck.wars[w.id].series == card.series
        and ctx.deck.wars[w.id].number < card.number
        and w.state in ("active", "unprosecuted")
        and not any(f.war == w.id for f in state.forces)
    ]
    if earlier:
        return "rome.error.earlier_war_first"  # R199
    return None


def business(ctx: Ctx) -> bool:
    """Other business, proposed by the presiding magistrate until he closes the sitting or is
    sent to war (R92, R158)."""
    sitting = _sitting(ctx)
    if sitting.get("closed"):
        return True
    if presiding(ctx) is None:
        close(ctx)
        return True
    if sitting["floor"] is not None:
        floor = sitting["floor"]
        if tally(ctx):
            enact(ctx, floor["kind"], floor["subject"])
            if sitting.get("closed"):
                return True
        if presiding(ctx) is None:
            close(ctx)
            return True
    ask_presiding(ctx, "propose_business")
    return False


Business = RaiseForces | Deploy | CloseSenate | AwardConcession | LandBill | NominateConsulForLife
RULE_CONSUL_FOR_LIFE = "R178-R182 Consul for Life (VG 1.09.821)"


def consul_for_life_refusal(ctx: Ctx, action: NominateConsulForLife) -> str | None:
    """R178, R179, R182: an aligned senator in Rome with 21 influence or more, once a turn, while
    there is no Consul for Life."""
    s = ctx.state.senators.get(action.senator)
    if ctx.state.consul_for_life or _sitting(ctx).get("consul_for_life_tried"):
        return "rome.error.not_a_candidate"
    if s is None or s.faction == UNALIGNED or s.location != "rome":
        return "rome.error.not_a_candidate"
    if s.influence < ctx.rules.consul_for_life_nominee:
        return "rome.error.not_a_candidate"
    return None


RULE_CONCESSIONS = "R164-R167 Concessions (VG 1.09.61)"
RULE_LAND_BILLS = "R168-R177 Land bills (VG 1.09.62)"


def concession_refusal(ctx: Ctx, action: AwardConcession) -> str | None:
    """R164, R167: a concession in the Forum, once a turn, to an aligned senator in Rome; the
    Land Commissioner only while a land bill is in force."""
    state = ctx.state
    if action.card not in state.forum_concessions or ["concession", action.card] in _sitting(ctx)["rejected"]:
        return "rome.error.no_such_concession"
    s = state.senators.get(action.senator)
    if s is None or s.faction == UNALIGNED or s.location != "rome":
        return "rome.error.not_a_candidate"
    if ctx.deck.concessions[action.card].needs_land_bill and not state.land_bills:
        return "rome.error.needs_land_bill"
    return None


def land_bill_refusal(ctx: Ctx, seat: int, action: LandBill) -> str | None:
    """R168, R169, R173: one proposal of each type a turn, no more in force than the board's
    boxes; a sponsor and a co-sponsor, two senators in Rome [D: of the presiding magistrate's
    faction: the engine does not ask another faction's consent yet]."""
    state = ctx.state
    bill = ctx.deck.land_bills.get(action.bill)
    if bill is None or ["land_bill", str(action.bill)] in _sitting(ctx).get("bills_tried", []):
        return "rome.error.no_such_bill"
    if state.land_bills.count(action.bill) >= bill.most_in_force:
        return "rome.error.no_such_bill"
    for sid in (action.sponsor, action.cosponsor):
        s = state.senators.get(sid)
        if s is None or s.faction != seat or s.location != "rome":
            return "rome.error.not_a_candidate"
    if action.sponsor == action.cosponsor:
        return "rome.error.not_a_candidate"
    return None


def legal_propose_business(ctx: Ctx, decision: Decision) -> Iterable[Business]:
    seat = decision.player
    out: list[Business] = [CloseSenate(player=seat)]
    for card in dict.fromkeys(ctx.state.forum_concessions):
        for s in in_senate(ctx):
            award = AwardConcession(player=seat, card=card, senator=s.id)
            if concession_refusal(ctx, award) is None:
                out.append(award)
    for s in in_senate(ctx):
        nomination = NominateConsulForLife(player=seat, senator=s.id)
        if consul_for_life_refusal(ctx, nomination) is None:
            out.append(nomination)
    mine = sorted((s.id for s in in_senate(ctx) if s.faction == seat), key=int)
    for kind in ctx.deck.land_bills:
        for sponsor, cosponsor in combinations(mine, 2):
            bill = LandBill(player=seat, bill=kind, sponsor=sponsor, cosponsor=cosponsor)
            if land_bill_refusal(ctx, seat, bill) is None:
                out.append(bill)
    rejected = _sitting(ctx)["rejected"]
    for legions in LEVIES:
        for fleets in LEVIES:
            levy = RaiseForces(player=seat, legions=legions, fleets=fleets)
            if raise_refusal(ctx, levy) is None and subject_of(levy) not in rejected:
                out.append(levy)
    units = ctx.state.units
    for s in commanders(ctx):
        for war in ctx.state.wars:
            send = Deploy(
                player=seat,
                commander=s.id,
                war=war.id,
                legions=units.legions,
                veterans=units.veterans,
                fleets=units.fleets,
            )
            if deploy_refusal(ctx, send) is None and subject_of(send) not in rejected:
                out.append(send)
    return out


def subject_of(action: RaiseForces | Deploy) -> list[str]:
    if isinstance(action, RaiseForces):
        return ["raise", str(action.legions), str(action.fleets)]
    return ["deploy", action.commander, action.war, str(action.legions), str(action.veterans), str(action.fleets)]


def apply_propose_business(ctx: Ctx, decision: Decision, action: Business) -> None:
    sitting = _sitting(ctx)
    if isinstance(action, CloseSenate):
        ctx.state.pending.remove(decision)
        close(ctx)
        return
    if isinstance(action, AwardConcession):
        why = concession_refusal(ctx, action)
        if why is not None:
            raise IllegalAction(RULE_CONCESSIONS, why, f"{action.card} cannot go to {action.senator} now")
        ctx.state.pending.remove(decision)
        sitting["rejected"].append(["concession", action.card])  # R167: voted on once a turn
        put_to_vote(ctx, "concession", ("concession", action.card, action.senator), vetoable=True)
        return
    if isinstance(action, NominateConsulForLife):
        why = consul_for_life_refusal(ctx, action)
        if why is not None:
            raise IllegalAction(RULE_CONSUL_FOR_LIFE, why, f"{action.senator} cannot be nominated Consul for Life")
        ctx.state.pending.remove(decision)
        sitting["consul_for_life_tried"] = True
        put_to_vote(ctx, "consul_for_life", ("consul_for_life", action.senator), vetoable=False)  # R179
        sitting["floor"]["accused"] = action.senator  # R180: the nominee adds his influence
        return
    if isinstance(action, LandBill):
        why = land_bill_refusal(ctx, decision.player, action)
        if why is not None:
            raise IllegalAction(RULE_LAND_BILLS, why, f"no land bill of type {action.bill} so now")
        ctx.state.pending.remove(decision)
        sitting.setdefault("bills_tried", []).append(["land_bill", str(action.bill)])
        subject = ("land_bill", str(action.bill), action.sponsor, action.cosponsor)
        put_to_vote(ctx, "land_bill", subject, vetoable=True)
        return
    if subject_of(action) in sitting["rejected"]:
        raise IllegalAction(RULE_PROPOSAL, "rome.error.proposal_rejected", "this proposal was rejected this turn")
    if isinstance(action, RaiseForces):
        why = raise_refusal(ctx, action)
        if why is not None:
            raise IllegalAction(RULE_FORCES, why, f"cannot raise {action.legions} legions and {action.fleets} fleets")
        ctx.state.pending.remove(decision)
        put_to_vote(ctx, "raise", tuple(subject_of(action)), vetoable=True)
        return
    why = deploy_refusal(ctx, action)
    if why is not None:
        raise IllegalAction(RULE_DEPLOY, why, f"cannot send {action.commander} to {action.war}")
    ctx.state.pending.remove(decision)
    put_to_vote(ctx, "deploy", tuple(subject_of(action)), vetoable=True)


def enact(ctx: Ctx, kind: str, subject: list[str]) -> None:
    state = ctx.state
    if kind == "concession":
        card, senator = subject[1], subject[2]
        state.forum_concessions.remove(card)
        state.senators[senator].concessions.append(card)
        ctx.report("rome.cards.concession", card=card, senator=senator, faction=state.senators[senator].faction)
        return
    if kind == "land_bill":
        pass_land_bill(ctx, int(subject[1]), subject[2], subject[3])
        return
    if kind == "consul_for_life":
        s = state.senators[subject[1]]
        state.consul_for_life = s.id
        ctx.report("rome.game.consul_for_life", senator=s.id, faction=s.faction)
        return
    if kind == "raise":
        legions, fleets = int(subject[1]), int(subject[2])
        state.treasury -= (legions + fleets) * unit_cost(ctx)
        state.units.legions += legions
        state.units.fleets += fleets
        for s in state.senators.values():  # R149, VG 1.09.631: Armaments and Ship Building pay now
            for held in s.concessions:
                info = ctx.deck.concessions[held]
                paid = info.income * (
                    legions if info.kind == "per_legion" else fleets if info.kind == "per_fleet" else 0
                )
                if paid:
                    s.talents += paid
                    s.corrupt = True
        ctx.report("rome.senate.raised", legions=legions, fleets=fleets)
        return
    commander, war, legions, veterans, fleets = subject[1], subject[2], *map(int, subject[3:])
    units = state.units
    units.legions -= legions
    units.veterans -= veterans
    units.fleets -= fleets
    state.forces.append(Force(war=war, commander=commander, legions=legions, veterans=veterans, fleets=fleets))
    s = state.senators[commander]
    s.location = "field"
    for w in state.wars:
        if w.id == war and w.state in ("inactive", "imminent"):
            w.state = "active"  # R159
    ctx.report("rome.senate.deployed", senator=commander, war=war)
    if _sitting(ctx)["presiding"] == commander:  # R158: the Senate closes
        close(ctx)


def pass_land_bill(ctx: Ctx, kind: int, sponsor: str, cosponsor: str) -> None:
    """R172, R174 (VG 1.09.62): the marker, unrest at once, popularity to the sponsors, and to
    every senator in Rome whose faction voted against (a vetoing tribune loses nothing, R175)."""
    state = ctx.state
    bill = ctx.deck.land_bills[kind]
    state.land_bills.append(kind)
    state.unrest = max(0, state.unrest + bill.unrest)
    for sid, gain in ((sponsor, bill.sponsor), (cosponsor, bill.cosponsor)):
        s = state.senators.get(sid)
        if s is not None:
            s.popularity = min(9, s.popularity + gain)
    against = [int(seat) for seat, (choice, _) in _sitting(ctx)["last_ballots"].items() if choice == "nay"]
    for s in in_senate(ctx):
        if s.faction in against:
            s.popularity = max(-9, s.popularity + bill.against)
    ctx.report("rome.senate.land_bill", int=kind, senator=sponsor)


def close(ctx: Ctx) -> None:
    """R92; VG 1.09.9: forces without a commander, and proconsuls without legions or fleet
    support, come home."""
    state = ctx.state
    _sitting(ctx)["closed"] = True
    for force in list(state.forces):
        card = ctx.deck.wars[force.war]
        if not force.commander or force.legions == 0 or force.fleets < card.fleet_support:
            state.forces.remove(force)
            return_force(ctx, force)
    ctx.report("rome.senate.closed")
