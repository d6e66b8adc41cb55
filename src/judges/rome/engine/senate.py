"""Phase 5, Senate (VG 1.09; R80-R103, R122-R124): the presiding magistrate, proposals and the
vote, tribunes' vetoes, bought votes, the consuls and the censor.

A proposal is put to the vote of every faction at once: each owes a `vote` decision (its
ballot is secret until all are in), answered by a block vote with any bought votes, or by a
tribune's veto. The tally counts the votes cast (abstentions are not cast): more than half
passes, a tie fails (R89). The Senate's later business (prosecutions, governors, forces,
concessions, land bills, Dictator, Consul for Life, assassinations) is not played yet: the
phase stops after the censor's election (`RomeGame.frontier`).

`state.scratch["senate"]` holds the sitting: the presiding magistrate, the slates rejected this
turn, the proposal on the floor and its ballots."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from ...engine.errors import IllegalAction
from .actions import ProposeCensor, ProposeConsuls, Veto, Vote
from .board import aligned, hrao, rank_key, votes
from .context import Ctx
from .state import UNALIGNED, Decision, Senator

RULE_PROPOSAL = "R83 Proposals (VG 1.09.13)"
RULE_VOTE = "R84-R89 Voting (VG 1.09.14)"
RULE_CONSULS = "R94-R98 Consuls (VG 1.09.2)"
RULE_CENSOR = "R122 Censor (VG 1.09.4)"
CHOICES = ("yea", "nay", "abstain")
STAGES = ("consuls", "censor")
#: What the engine's Senate does not play yet: the phase stops here.
NOT_YET = "prosecutions"


def _sitting(ctx: Ctx) -> dict[str, Any]:
    sitting: dict[str, Any] = ctx.state.scratch["senate"]
    return sitting


def presiding(ctx: Ctx) -> Senator | None:
    sid = _sitting(ctx)["presiding"]
    return ctx.state.senators.get(sid) if sid else None


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
    if not sitting["presiding"] or sitting["consuls_elected"]:
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


def censor_election(ctx: Ctx) -> bool:
    sitting = _sitting(ctx)
    if not sitting["presiding"]:
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
    sitting["floor"] = {"kind": kind, "subject": list(subject), "vetoable": vetoable}
    sitting["last"] = list(subject)
    sitting["ballots"] = {}
    ctx.report("rome.senate.proposal", proposal=kind, senators=list(subject))
    for f in ctx.state.factions:
        if not f.eliminated:
            ctx.state.pending.append(Decision(f.seat, "vote"))


def tribunes_in_hand(ctx: Ctx, seat: int) -> list[str]:
    return [c for c in ctx.state.factions[seat].hand if ctx.deck.kind_of(c) == "intrigue" and c.startswith("tribune")]


def purse(ctx: Ctx, seat: int) -> int:
    """The talents the faction's senators in Rome could spend on votes."""
    return sum(s.talents for s in aligned(ctx.state, seat) if s.location == "rome")


def legal_vote(ctx: Ctx, decision: Decision) -> Iterable[Vote | Veto]:
    seat = decision.player
    out: list[Vote | Veto] = [Vote(player=seat, choice=c) for c in CHOICES]
    money = purse(ctx, seat)
    if money:
        out += [Vote(player=seat, choice=c, talents=money) for c in ("yea", "nay")]
    if _sitting(ctx)["floor"]["vetoable"]:
        out += [Veto(player=seat, card=c) for c in dict.fromkeys(tribunes_in_hand(ctx, seat))]
    return out


def apply_vote(ctx: Ctx, decision: Decision, action: Vote | Veto) -> None:
    """The ballot is kept secret (the scratch) until the tally; a veto ends the vote at once."""
    state = ctx.state
    seat = decision.player
    sitting = _sitting(ctx)
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
    if action.choice not in CHOICES:
        raise IllegalAction(RULE_VOTE, "rome.error.not_a_choice", f"{action.choice!r} is not a vote")
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
    subject = floor["subject"]
    if "veto" in ballots:
        sitting["rejected"].append(subject)
        ctx.report("rome.senate.vetoed", faction=ballots["veto"])
        return False
    counts = {"yea": 0, "nay": 0, "abstain": 0}
    for seat_text, (choice, talents) in ballots.items():
        seat = int(seat_text)
        present = [s for s in aligned(state, seat) if s.location == "rome"]
        counts[choice] += sum(votes(s) for s in present) + talents
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
        if s.office in ("rome_consul", "field_consul"):
            s.office = ""
            s.prior_consul = True
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
