"""Phase 5, Senate: other business (VG 1.09.6-1.09.9; R145-R182): levies and deployments,
concessions, land bills, the Consul for Life, and closing the sitting. After the censor (and
prosecutions and governors) the presiding magistrate proposes business until he closes."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ....engine.errors import IllegalAction
from ..actions import (
    AwardConcession,
    CloseSenate,
    Consent,
    Deploy,
    Disband,
    LandBill,
    NominateConsulForLife,
    RaiseForces,
    Recall,
    RecallGovernor,
    Reinforce,
    RepealLandBill,
    Withdraw,
    action_from_dict,
    action_to_dict,
)
from ..board import holder
from ..combat import army, commander_bonus, rebel_army_strength, return_force, strength, war_on_board
from ..context import Ctx
from ..legions import take
from ..state import CIVIL_WAR, UNALIGNED, Decision, Force, Senator, Units
from .sitting import RULE_PROPOSAL, _sitting, ask_presiding, in_senate, presiding, put_to_vote, senators_voting, tally

# --- other business: forces and their deployment (R145-R163), closing (R92) ----------------------

RULE_FORCES = "R145-R150 Forces (VG 1.09.63)"
RULE_DEPLOY = "R151-R159 Deployment (VG 1.09.64)"
RULE_RECALL = "R154, R156, R160-R162 Recalls, reinforcements, withdrawals (VG 1.09.64)"
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
    rebels = state.rebellion.legions if state.rebellion is not None else 0  # R145: his count too
    # VG 1.09.63: a unit disbanded this Senate phase is not raised again in it
    gone_l, gone_f = state.scratch.get("senate", {}).get("disbanded", (0, 0))
    fielded_l = state.units.legions + sum(f.legions for f in state.forces) + rebels + gone_l
    fielded_f = state.units.fleets + sum(f.fleets for f in state.forces) + gone_f
    if fielded_l + action.legions > ctx.rules.max_legions or fielded_f + action.fleets > ctx.rules.max_fleets:
        return "rome.error.too_many_units"
    if (action.legions + action.fleets) * unit_cost(ctx) > state.treasury:
        return "rome.error.state_cannot_pay"
    return None


def disband_refusal(ctx: Ctx, action: Disband) -> str | None:
    """R148, VG 1.09.63: units waiting in Rome's box, none of them raised in this Senate phase
    (the units just raised are regular legions and fleets)."""
    units = ctx.state.units
    if not (0 <= action.veterans <= action.legions and action.fleets >= 0) or action.legions + action.fleets == 0:
        return "rome.error.bad_levy"
    if action.legions > units.legions or action.veterans > units.veterans or action.fleets > units.fleets:
        return "rome.error.units_not_in_rome"
    if action.legions - action.veterans > units.legions - units.veterans:
        return "rome.error.units_not_in_rome"
    regulars, fleets = disbandable(ctx)
    if action.legions - action.veterans > regulars or action.fleets > fleets:
        return "rome.error.raised_this_senate"
    return None


def disbandable(ctx: Ctx) -> tuple[int, int]:
    """The regular legions and the fleets in Rome's box not raised in this Senate phase [D: units
    sent away since were the older ones first]."""
    units = ctx.state.units
    new_l, new_f = ctx.state.scratch.get("senate", {}).get("raised", (0, 0))
    return max(0, units.legions - units.veterans - new_l), max(0, units.fleets - new_f)


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


def master_of(ctx: Ctx, commander: Senator) -> Senator | None:
    """R113 (VG 1.09.34): a Dictator goes to war with his Master of Horse, if he is in Rome."""
    if commander.office != "dictator":
        return None
    master = holder(ctx.state, "master_of_horse")
    return master if master is not None and master.location == "rome" else None


def deploy_refusal(ctx: Ctx, action: Deploy) -> str | None:
    """R153, R155, VG 1.09.643: units from Rome's box, the war's fleet support, at least a legion
    (a fleet at sea), and [D] a force at least as strong as the war: weaker dispatches need the
    commander's consent, which the engine does not ask yet."""
    state = ctx.state
    s = state.senators.get(action.commander)
    if s is None or s not in commanders(ctx):
        return "rome.error.not_a_commander"
    war = war_on_board(ctx, action.war)
    rebels = state.rebellion
    if war is None and (action.war != CIVIL_WAR or rebels is None or rebels.won):
        return "rome.error.no_such_war"
    units = state.units
    if not (0 <= action.veterans <= action.legions and action.fleets >= 0):
        return "rome.error.bad_levy"
    if action.legions > units.legions or action.veterans > units.veterans or action.fleets > units.fleets:
        return "rome.error.units_not_in_rome"
    if action.legions - action.veterans > units.legions - units.veterans:
        return "rome.error.units_not_in_rome"
    if war is None:  # VG 1.11.3, 1.11.37: against the rebel, legions only, as strong as his army [D]
        force = Force(war=CIVIL_WAR, legions=action.legions, veterans=action.veterans)
        rating = commander_bonus(s, army(force, False), master_of(ctx, s))
        if action.fleets or not action.legions or army(force, False) + rating < rebel_army_strength(ctx):
            return "rome.error.too_weak"
        return None
    card = ctx.deck.wars[war.id]
    land, naval = strength(ctx, war)
    at_sea_only = action.legions == 0  # R163, VG 1.10.12: only against a fleet not yet beaten
    if (at_sea_only and (not naval or action.fleets == 0)) or (not at_sea_only and action.fleets < card.fleet_support):
        return "rome.error.too_weak"
    force = Force(war=war.id, legions=action.legions, veterans=action.veterans, fleets=action.fleets)
    master = master_of(ctx, s)  # R113: his rating counts with the Dictator's
    if naval and army(force, True) + commander_bonus(s, action.fleets, master) < naval:
        return "rome.error.too_weak"
    if not at_sea_only and army(force, False) + commander_bonus(s, army(force, False), master) < land:
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


def field_force(ctx: Ctx, commander: str) -> Force | None:
    """The force a commander leads in the field (not one that won its war and is coming home)."""
    return next((f for f in ctx.state.forces if f.commander == commander and f.commander and not f.won), None)


def recall_refusal(ctx: Ctx, action: Recall) -> str | None:
    """R160, R161: a commander in the field, not sent by this Senate (a consul just sent can be
    neither recalled nor stripped of units this Senate)."""
    if field_force(ctx, action.commander) is None:
        return "rome.error.not_a_commander"
    if action.commander in _sitting(ctx).get("sent", []):
        return "rome.error.sent_this_senate"
    return None


def withdraw_refusal(ctx: Ctx, action: Withdraw) -> str | None:
    """R160, R162, R154: units home from a commander in the field not sent by this Senate, so
    long as he keeps a legion, his war's fleet support and a force as strong as his war [D: below
    it he may refuse, and the engine does not ask him yet]."""
    why = recall_refusal(ctx, Recall(player=action.player, commander=action.commander))
    if why is not None:
        return why
    force = field_force(ctx, action.commander)
    assert force is not None
    if not (0 <= action.veterans <= action.legions and action.fleets >= 0) or action.legions + action.fleets == 0:
        return "rome.error.bad_levy"
    if action.legions > force.legions or action.veterans > force.veterans or action.fleets > force.fleets:
        return "rome.error.bad_levy"
    if action.legions - action.veterans > force.legions - force.veterans:
        return "rome.error.bad_levy"
    left = Force(
        war=force.war,
        legions=force.legions - action.legions,
        veterans=force.veterans - action.veterans,
        fleets=force.fleets - action.fleets,
    )
    s = ctx.state.senators[action.commander]
    master = holder(ctx.state, "master_of_horse") if s.office == "dictator" else None
    if left.legions == 0:
        return "rome.error.too_weak"
    if force.war == CIVIL_WAR:
        enough = army(left, False) + commander_bonus(s, army(left, False), master) >= rebel_army_strength(ctx)
        return None if enough else "rome.error.too_weak"
    war = war_on_board(ctx, force.war)
    if war is None:
        return "rome.error.no_such_war"
    land, naval = strength(ctx, war)
    if left.fleets < ctx.deck.wars[war.id].fleet_support:
        return "rome.error.too_weak"
    if naval and army(left, True) + commander_bonus(s, left.fleets, master) < naval:
        return "rome.error.too_weak"
    if army(left, False) + commander_bonus(s, army(left, False), master) < land:
        return "rome.error.too_weak"
    return None


def reinforce_refusal(ctx: Ctx, action: Reinforce) -> str | None:
    """R156, VG 1.09.64: units from Rome's box to a commander in the field (the rebel's foes get
    legions only)."""
    force = field_force(ctx, action.commander)
    if force is None:
        return "rome.error.not_a_commander"
    units = ctx.state.units
    if not (0 <= action.veterans <= action.legions and action.fleets >= 0) or action.legions + action.fleets == 0:
        return "rome.error.bad_levy"
    if force.war == CIVIL_WAR and action.fleets:
        return "rome.error.bad_levy"
    if action.legions > units.legions or action.veterans > units.veterans or action.fleets > units.fleets:
        return "rome.error.units_not_in_rome"
    if action.legions - action.veterans > units.legions - units.veterans:
        return "rome.error.units_not_in_rome"
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
    from .tribunes import put_queued, resume_suspended

    if put_queued(ctx) or resume_suspended(ctx):
        return False
    ask_presiding(ctx, "propose_business")
    return False


Business = (
    RaiseForces
    | Disband
    | Deploy
    | CloseSenate
    | AwardConcession
    | LandBill
    | NominateConsulForLife
    | RepealLandBill
    | Recall
    | Reinforce
    | Withdraw
    | RecallGovernor
)
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
    boxes; a sponsor and a co-sponsor, two aligned senators in Rome of any factions (another
    faction's senator sponsors only with its consent, asked before the vote)."""
    state = ctx.state
    bill = ctx.deck.land_bills.get(action.bill)
    if bill is None or ["land_bill", str(action.bill)] in _sitting(ctx).get("bills_tried", []):
        return "rome.error.no_such_bill"
    if state.land_bills.count(action.bill) >= bill.most_in_force:
        return "rome.error.no_such_bill"
    for sid in (action.sponsor, action.cosponsor):
        s = state.senators.get(sid)
        if s is None or s.faction == UNALIGNED or s.location != "rome":
            return "rome.error.not_a_candidate"
    if action.sponsor == action.cosponsor:
        return "rome.error.not_a_candidate"
    return None


def repeal_refusal(ctx: Ctx, seat: int, action: RepealLandBill) -> str | None:
    """R170, R171, R176 (ror-data §8): a bill of a repealable type in force (type I never), once
    a turn; the sponsor a senator in Rome whose popularity covers the repeal's penalty [D: of the
    presiding magistrate's faction, as for land bills]."""
    bill = ctx.deck.land_bills.get(action.bill)
    if bill is None or not bill.repealable or action.bill not in ctx.state.land_bills:
        return "rome.error.no_such_bill"
    if _sitting(ctx).get("repeal_tried"):
        return "rome.error.no_such_bill"
    s = ctx.state.senators.get(action.sponsor)
    if s is None or s.faction != seat or s.location != "rome":
        return "rome.error.not_a_candidate"
    if s.popularity < -bill.repeal_sponsor:
        return "rome.error.too_unpopular"
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
    others = sorted((s.id for s in in_senate(ctx) if s.faction != seat), key=int)
    pairs = list(combinations(mine, 2)) + [(mine[0], other) for other in others if mine]  # R173
    for kind in ctx.deck.land_bills:
        for sponsor, cosponsor in pairs:
            bill = LandBill(player=seat, bill=kind, sponsor=sponsor, cosponsor=cosponsor)
            if land_bill_refusal(ctx, seat, bill) is None:
                out.append(bill)
    for kind in dict.fromkeys(ctx.state.land_bills):
        for sponsor in mine:
            repeal = RepealLandBill(player=seat, bill=kind, sponsor=sponsor)
            if repeal_refusal(ctx, seat, repeal) is None:
                out.append(repeal)
    rejected = _sitting(ctx)["rejected"]
    units = ctx.state.units
    for force in ctx.state.forces:
        regular = 1 if force.legions > force.veterans else 0
        for move in (
            Recall(player=seat, commander=force.commander),
            Withdraw(player=seat, commander=force.commander, legions=regular, veterans=0, fleets=1 - regular),
            Reinforce(
                player=seat,
                commander=force.commander,
                legions=units.legions,
                veterans=units.veterans,
                fleets=0 if force.war == CIVIL_WAR else units.fleets,
            ),
        ):
            if refusal_of(ctx, move) is None and subject_of(move) not in rejected:
                out.append(move)
    from ..provinces import recallable

    for governor, replacement in recallable(ctx):
        recall = RecallGovernor(player=seat, governor=governor, replacement=replacement)
        if subject_of(recall) not in rejected:
            out.append(recall)
    regulars, fleets_home = disbandable(ctx)
    for legions, fleets in ((regulars, 0), (0, fleets_home)):
        disband = Disband(player=seat, legions=legions, fleets=fleets)
        if legions + fleets and subject_of(disband) not in rejected:
            out.append(disband)
    for legions in LEVIES:
        for fleets in LEVIES:
            levy = RaiseForces(player=seat, legions=legions, fleets=fleets)
            if raise_refusal(ctx, levy) is None and subject_of(levy) not in rejected:
                out.append(levy)
    targets = [(w.id, units.fleets) for w in ctx.state.wars] + [(CIVIL_WAR, 0)]
    for s in commanders(ctx):
        for war, fleets in targets:
            for legions, veterans in ((units.legions, units.veterans), (0, 0)):  # R163: or at sea only
                send = Deploy(
                    player=seat,
                    commander=s.id,
                    war=war,
                    legions=legions,
                    veterans=veterans,
                    fleets=fleets,
                )
                if deploy_refusal(ctx, send) is None and subject_of(send) not in rejected and send not in out:
                    out.append(send)
    return out


def refusal_of(ctx: Ctx, action: Recall | Reinforce | Withdraw) -> str | None:
    if isinstance(action, Recall):
        return recall_refusal(ctx, action)
    if isinstance(action, Reinforce):
        return reinforce_refusal(ctx, action)
    return withdraw_refusal(ctx, action)


def subject_of(action: RaiseForces | Disband | Deploy | Recall | Reinforce | Withdraw | RecallGovernor) -> list[str]:
    if isinstance(action, RecallGovernor):
        return ["recall_governor", action.governor, action.replacement]
    if isinstance(action, Disband):
        return ["disband", str(action.legions), str(action.veterans), str(action.fleets)]
    if isinstance(action, RaiseForces):
        return ["raise", str(action.legions), str(action.fleets)]
    if isinstance(action, Recall):
        return ["recall", action.commander]
    if isinstance(action, Reinforce | Withdraw):
        kind = "reinforce" if isinstance(action, Reinforce) else "withdraw"
        return [kind, action.commander, str(action.legions), str(action.veterans), str(action.fleets)]
    return ["deploy", action.commander, action.war, str(action.legions), str(action.veterans), str(action.fleets)]


Proposal = (
    RaiseForces
    | Disband
    | Deploy
    | AwardConcession
    | LandBill
    | NominateConsulForLife
    | RepealLandBill
    | Recall
    | Reinforce
    | Withdraw
    | RecallGovernor
)


def business_refusal(ctx: Ctx, seat: int, action: Proposal) -> IllegalAction | None:
    """Why `seat` may not put this business to the vote now (the error to raise), or None."""
    if isinstance(action, AwardConcession):
        why = concession_refusal(ctx, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_CONCESSIONS, why, f"{action.card} cannot go to {action.senator} now")
        )
    if isinstance(action, NominateConsulForLife):
        why = consul_for_life_refusal(ctx, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_CONSUL_FOR_LIFE, why, f"{action.senator} cannot be nominated Consul for Life")
        )
    if isinstance(action, LandBill):
        why = land_bill_refusal(ctx, seat, action)
        return (
            None if why is None else IllegalAction(RULE_LAND_BILLS, why, f"no land bill of type {action.bill} so now")
        )
    if isinstance(action, RepealLandBill):
        why = repeal_refusal(ctx, seat, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_LAND_BILLS, why, f"no repeal of a type {action.bill} land bill so now")
        )
    if isinstance(action, RecallGovernor):
        from ..provinces import RULE_RECALL as RULE_GOVERNOR_RECALL
        from ..provinces import recall_refusal as governor_recall_refusal

        if subject_of(action) in _sitting(ctx)["rejected"]:
            return IllegalAction(RULE_PROPOSAL, "rome.error.proposal_rejected", "this proposal was rejected this turn")
        why = governor_recall_refusal(ctx, action.governor, action.replacement)
        return (
            None if why is None else IllegalAction(RULE_GOVERNOR_RECALL, why, f"cannot recall {action.governor} so now")
        )
    if subject_of(action) in _sitting(ctx)["rejected"]:
        return IllegalAction(RULE_PROPOSAL, "rome.error.proposal_rejected", "this proposal was rejected this turn")
    if isinstance(action, Recall | Reinforce | Withdraw):
        why = refusal_of(ctx, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_RECALL, why, f"cannot recall, reinforce or weaken {action.commander} so now")
        )
    if isinstance(action, Disband):
        why = disband_refusal(ctx, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_FORCES, why, f"cannot disband {action.legions} legions and {action.fleets} fleets")
        )
    if isinstance(action, RaiseForces):
        why = raise_refusal(ctx, action)
        return (
            None
            if why is None
            else IllegalAction(RULE_FORCES, why, f"cannot raise {action.legions} legions and {action.fleets} fleets")
        )
    why = deploy_refusal(ctx, action)
    return None if why is None else IllegalAction(RULE_DEPLOY, why, f"cannot send {action.commander} to {action.war}")


def propose(ctx: Ctx, action: Proposal) -> None:
    """Puts a refused-for-nothing proposal on the floor, with the marks that limit it a turn."""
    sitting = _sitting(ctx)
    if isinstance(action, AwardConcession):
        sitting["rejected"].append(["concession", action.card])  # R167: voted on once a turn
        put_to_vote(ctx, "concession", ("concession", action.card, action.senator), vetoable=True)
    elif isinstance(action, NominateConsulForLife):
        sitting["consul_for_life_tried"] = True
        put_to_vote(ctx, "consul_for_life", ("consul_for_life", action.senator), vetoable=False)  # R179
        sitting["floor"]["accused"] = action.senator  # R180: the nominee adds his influence
    elif isinstance(action, LandBill):
        state = ctx.state
        asked = sorted({state.senators[x].faction for x in (action.sponsor, action.cosponsor)} - {action.player})
        if asked:  # R173: another faction's senator sponsors only with its consent
            sitting["sponsoring"] = {"bill": action_to_dict(action), "asked": asked, "answers": {}}
            for seat in asked:
                state.pending.append(Decision(seat, "sponsor_consent"))
                ctx.report("rome.senate.sponsor_asked", faction=seat)
            return
        put_land_bill(ctx, action)
    elif isinstance(action, RepealLandBill):
        sitting["repeal_tried"] = True
        put_to_vote(ctx, "repeal", ("repeal", str(action.bill), action.sponsor), vetoable=True)
    else:
        moved = subject_of(action)
        put_to_vote(ctx, moved[0], tuple(moved), vetoable=True)


def put_land_bill(ctx: Ctx, action: LandBill) -> None:
    _sitting(ctx).setdefault("bills_tried", []).append(["land_bill", str(action.bill)])
    subject = ("land_bill", str(action.bill), action.sponsor, action.cosponsor)
    put_to_vote(ctx, "land_bill", subject, vetoable=True)


def legal_sponsor_consent(ctx: Ctx, decision: Decision) -> Iterable[Consent]:
    return [Consent(player=decision.player, agree=True), Consent(player=decision.player, agree=False)]


def apply_sponsor_consent(ctx: Ctx, decision: Decision, action: Consent) -> None:
    """R173: every faction whose senator is named sponsor or co-sponsor says at once whether it
    agrees; each answer is secret (`answers`, seen by its own faction only: view.py) until the
    last is in. All agree: the bill is voted; a refusal keeps it off the floor (it may be
    proposed again otherwise this turn)."""
    state = ctx.state
    sitting = _sitting(ctx)
    case = sitting["sponsoring"]
    state.pending.remove(decision)
    case["answers"][str(decision.player)] = action.agree
    if len(case["answers"]) < len(case["asked"]):
        return
    sitting["sponsoring"] = None
    refused = sorted(int(seat) for seat, agree in case["answers"].items() if not agree)
    for seat in refused:
        ctx.report("rome.senate.sponsor_refuses", faction=seat)
    if not refused:
        bill = action_from_dict(case["bill"])
        assert isinstance(bill, LandBill)
        put_land_bill(ctx, bill)


def guess_consent(ctx: Ctx, seat: int) -> bool:
    """A sponsor's answer another faction may have given (search.py's sample), on the dice."""
    return ctx.dice.roll(2) == 1


def apply_propose_business(ctx: Ctx, decision: Decision, action: Business) -> None:
    if isinstance(action, CloseSenate):
        ctx.state.pending.remove(decision)
        close(ctx)
        return
    error = business_refusal(ctx, decision.player, action)
    if error is not None:
        raise error
    ctx.state.pending.remove(decision)
    propose(ctx, action)


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
    if kind == "repeal":
        repeal_land_bill(ctx, int(subject[1]), subject[2])
        return
    if kind == "recall":
        force = field_force(ctx, subject[1])
        if force is not None:
            state.forces.remove(force)
            return_force(ctx, force)
            ctx.report("rome.senate.recalled", senator=subject[1])
        return
    if kind == "recall_governor":
        from ..provinces import recall_governor, recall_refusal

        if recall_refusal(ctx, subject[1], subject[2]) is None:
            recall_governor(ctx, subject[1], subject[2])
        return
    if kind == "withdraw":
        force = field_force(ctx, subject[1])
        legions, veterans, fleets = map(int, subject[2:])
        if force is not None:
            take(force, state.units, legions, veterans)  # [D] veterans owing no allegiance first
            force.fleets -= fleets
            state.units.fleets += fleets
            ctx.report("rome.senate.withdrawn", senator=subject[1], legions=legions, fleets=fleets)
        return
    if kind == "reinforce":
        force = field_force(ctx, subject[1])
        legions, veterans, fleets = map(int, subject[2:])
        if force is not None:
            take(state.units, force, legions, veterans)  # [D] veterans owing no allegiance first
            state.units.fleets -= fleets
            force.fleets += fleets
            ctx.report("rome.senate.reinforced", senator=subject[1], legions=legions, fleets=fleets)
        return
    if kind == "consul_for_life":
        s = state.senators[subject[1]]
        state.consul_for_life = s.id
        ctx.report("rome.game.consul_for_life", senator=s.id, faction=s.faction)
        return
    if kind == "disband":
        legions, veterans, fleets = map(int, subject[1:])
        take(state.units, Units(), legions, veterans)  # [D] veterans owing no allegiance first
        state.units.fleets -= fleets
        gone = _sitting(ctx).get("disbanded", (0, 0))
        _sitting(ctx)["disbanded"] = [gone[0] + legions, gone[1] + fleets]
        ctx.report("rome.senate.disbanded", legions=legions, fleets=fleets)
        return
    if kind == "raise":
        legions, fleets = int(subject[1]), int(subject[2])
        raised = _sitting(ctx).get("raised", (0, 0))
        _sitting(ctx)["raised"] = [raised[0] + legions, raised[1] + fleets]
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
    units.fleets -= fleets
    force = Force(war=war, commander=commander, fleets=fleets)
    take(units, force, legions, veterans)  # [D] veterans owing no allegiance go first
    state.forces.append(force)
    s = state.senators[commander]
    master = master_of(ctx, s)
    s.location = "field"
    if master is not None:
        master.location = "field"
    for w in state.wars:
        if w.id == war and w.state in ("inactive", "imminent"):
            w.state = "active"  # R159
    _sitting(ctx).setdefault("sent", []).append(commander)  # R160
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
    for s in senators_voting(ctx, "nay"):  # R174: each senator who voted against
        s.popularity = max(-9, s.popularity + bill.against)
    ctx.report("rome.senate.land_bill", int=kind, senator=sponsor)


def repeal_land_bill(ctx: Ctx, kind: int, sponsor: str) -> None:
    """R176, ror-data §8 (K8 as VG's board): one marker of the type goes; the sponsor loses
    2 (II) or 4 (III) popularity, every senator in Rome of a faction that voted for the repeal 1
    or 2 (the sponsor too [D]); unrest rises by 2 or 3."""
    state = ctx.state
    bill = ctx.deck.land_bills[kind]
    state.land_bills.remove(kind)
    state.unrest += bill.repeal_unrest
    s = state.senators.get(sponsor)
    if s is not None:
        s.popularity = max(-9, s.popularity + bill.repeal_sponsor)
    for x in senators_voting(ctx, "yea"):
        x.popularity = max(-9, x.popularity + bill.repeal_for)
    ctx.report("rome.senate.land_bill_repealed", int=kind, senator=sponsor)


def at_sea_only(ctx: Ctx, force: Force) -> bool:
    """A commander with fleets and no legions against a war whose fleet is not yet beaten (R163,
    VG 1.10.12)."""
    if not force.commander or force.legions or not force.fleets or force.war == CIVIL_WAR:
        return False
    war = war_on_board(ctx, force.war)
    return war is not None and not war.naval_won and ctx.deck.wars[war.id].naval > 0


def close(ctx: Ctx) -> None:
    """R92; VG 1.09.9: forces without a commander, and proconsuls without legions or fleet
    support, come home."""
    state = ctx.state
    _sitting(ctx)["closed"] = True
    for force in list(state.forces):
        if at_sea_only(ctx, force):
            continue  # R163: sent against a fleet, he fights at sea only
        support = 0 if force.war == CIVIL_WAR else ctx.deck.wars[force.war].fleet_support
        if not force.commander or force.legions == 0 or force.fleets < support:
            state.forces.remove(force)
            return_force(ctx, force)
    ctx.report("rome.senate.closed")
