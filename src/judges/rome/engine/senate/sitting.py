"""Phase 5, Senate: the sitting (VG 1.09.1; R80-R92): the presiding magistrate, proposals put
to the vote, the ballots, tribunes' vetoes, bought votes, the tally and the chair's step-down.

A proposal is put to the vote of every faction at once: each owes a `vote` decision (its
ballot is secret until all are in), answered by a block vote with any bought votes, or by a
tribune's veto. The tally counts the votes cast (abstentions are not cast): more than half
passes, a tie fails (R89).

`state.scratch["senate"]` holds the sitting: the presiding magistrate, the slates rejected this
turn, the proposal on the floor and its ballots."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ....engine.errors import IllegalAction
from ..actions import Appeal, DeclareAssassination, SplitVote, TribuneProposal, Veto, Vote
from ..board import aligned, hrao, rank_key, votes
from ..context import Ctx
from ..state import UNALIGNED, Decision, Senator

RULE_PROPOSAL = "R83 Proposals (VG 1.09.13)"
RULE_VOTE = "R84-R89 Voting (VG 1.09.14)"
CHOICES = ("yea", "nay", "abstain")
LAND_BILL_VOTES = ("land_bill", "repeal")  # VG 1.09.14: nobody abstains [D: on a repeal either]


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


def ask_presiding(ctx: Ctx, kind: str) -> None:
    pm = presiding(ctx)
    assert pm is not None
    ctx.state.pending.append(Decision(pm.faction, kind))


# --- voting -------------------------------------------------------------------------------------


def controller(ctx: Ctx) -> int | None:
    """R258, VG 1.09.823: the faction of a living Consul for Life (None when there is none)."""
    state = ctx.state
    s = state.senators.get(state.consul_for_life) if state.consul_for_life else None
    return s.faction if s is not None and s.faction != UNALIGNED else None


def controlled(ctx: Ctx, seat: int, kind: str) -> bool:
    """R258, VG 1.09.823: while a Consul for Life lives, his player casts the votes of every other
    faction but the rebel's; he may not make them vote against a land bill, so on land bills and
    repeals [D] each faction still votes for itself."""
    top = controller(ctx)
    if top is None or seat == top or kind in LAND_BILL_VOTES:
        return False
    rebels = ctx.state.rebellion
    rebel = ctx.state.senators.get(rebels.rebel) if rebels is not None and not rebels.won else None
    return rebel is None or rebel.faction != seat


def put_to_vote(ctx: Ctx, kind: str, subject: tuple[str, ...], vetoable: bool) -> None:
    """Every faction still playing owes its vote at once (also one with nobody in Rome: it may
    still veto, VG 1.09.15), but those a Consul for Life controls (R258): their votes follow his
    faction's at the tally."""
    sitting = _sitting(ctx)
    pm = ctx.state.senators.get(sitting["presiding"])
    if pm is not None and pm.office == "dictator" and kind not in ("trial",):
        vetoable = False  # R111: a Dictator's proposals cannot be vetoed
    sitting["floor"] = {"kind": kind, "subject": list(subject), "vetoable": vetoable}
    sitting["last"] = list(subject)
    sitting["ballots"] = {}
    ctx.report("rome.senate.proposal", proposal=kind, senators=named_senators(sitting["floor"]))
    for f in ctx.state.factions:
        if not f.eliminated and not controlled(ctx, f.seat, kind):
            ctx.state.pending.append(Decision(f.seat, "vote"))


#: Where each kind of proposal names its senators in its subject.
NAMED: dict[str, tuple[int, ...]] = {
    "consuls": (0, 1),
    "censor": (0,),
    "trial": (0,),
    "assassin_trial": (0,),
    "dictator": (1,),
    "governor": (1,),
    "concession": (2,),
    "land_bill": (2, 3),
    "repeal": (2,),
    "recall": (1,),
    "reinforce": (1,),
    "withdraw": (1,),
    "recall_governor": (1, 2),
    "consul_for_life": (1,),
    "deploy": (1,),
    "raise": (),
    "disband": (),
}


def named_senators(floor: dict[str, Any]) -> list[str]:
    """The senators a proposal names (a levy names none: its numbers are no senators)."""
    subject = floor["subject"]
    return [subject[i] for i in NAMED[floor["kind"]]]


def tribunes_in_hand(ctx: Ctx, seat: int) -> list[str]:
    return [c for c in ctx.state.factions[seat].hand if ctx.deck.kind_of(c) == "intrigue" and c.startswith("tribune")]


def purse(ctx: Ctx, seat: int) -> int:
    """The talents the faction's senators in Rome could spend on votes."""
    return sum(s.talents for s in aligned(ctx.state, seat) if s.location == "rome")


Ballot = Vote | SplitVote | Veto | Appeal | DeclareAssassination | TribuneProposal


def legal_vote(ctx: Ctx, decision: Decision) -> Iterable[Ballot]:
    seat = decision.player
    no_abstaining = _sitting(ctx)["floor"]["kind"] in LAND_BILL_VOTES
    out: list[Ballot] = [Vote(player=seat, choice=c) for c in CHOICES if not (no_abstaining and c == "abstain")]
    money = purse(ctx, seat)
    if money:
        out += [Vote(player=seat, choice=c, talents=money) for c in ("yea", "nay")]
    if _sitting(ctx)["floor"]["vetoable"]:
        out += [Veto(player=seat, card=c) for c in dict.fromkeys(tribunes_in_hand(ctx, seat))]
    from ..prosecutions import may_appeal
    from .assassination import may_declare
    from .tribunes import may_propose

    if may_appeal(ctx, decision):
        out.append(Appeal(player=seat))
    if may_declare(ctx, seat):
        out.append(DeclareAssassination(player=seat))
    if may_propose(ctx, seat):
        out += [TribuneProposal(player=seat, card=c) for c in dict.fromkeys(tribunes_in_hand(ctx, seat))]
    return out


def apply_vote(ctx: Ctx, decision: Decision, action: Ballot) -> None:
    """The ballot is kept secret (the scratch) until the tally; a veto ends the vote at once.
    Announcing an assassination leaves the ballot owed; the last ballot of a special trial
    settles it at once (the proposal it interrupted resumes)."""
    from . import assassination, tribunes

    state = ctx.state
    seat = decision.player
    sitting = _sitting(ctx)
    if isinstance(action, DeclareAssassination):
        assassination.declare(ctx, decision, action)
        return
    if isinstance(action, TribuneProposal):
        tribunes.play_tribune(ctx, decision, action)
        return
    if isinstance(action, Appeal):
        from ..prosecutions import appeal

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
    if action.choice not in CHOICES or (action.choice == "abstain" and sitting["floor"]["kind"] in LAND_BILL_VOTES):
        raise IllegalAction(RULE_VOTE, "rome.error.not_a_choice", f"{action.choice!r} is not a vote here")
    if not 0 <= action.talents <= purse(ctx, seat) or (action.talents and action.choice == "abstain"):
        raise IllegalAction(RULE_VOTE, "rome.error.not_enough_talents", "cannot buy those votes")
    present = {s.id for s in aligned(state, seat) if s.location == "rome"}
    split = action.split if isinstance(action, SplitVote) else {}
    for sid, choice in split.items():
        if sid not in present:
            raise IllegalAction(RULE_VOTE, "rome.error.not_your_senator_in_rome", f"{sid} cannot vote for you")
        if choice not in CHOICES or (choice == "abstain" and sitting["floor"]["kind"] in LAND_BILL_VOTES):
            raise IllegalAction(RULE_VOTE, "rome.error.not_a_choice", f"{choice!r} is not a vote here")
    ballot: list[Any] = [action.choice, action.talents]
    if any(choice != action.choice for choice in split.values()):
        ballot.append({sid: c for sid, c in sorted(split.items()) if c != action.choice})
    sitting["ballots"][str(seat)] = ballot
    state.pending.remove(decision)
    if sitting["floor"]["kind"] == assassination.TRIAL and not any(d.kind == "vote" for d in state.pending):
        assassination.finish_trial(ctx)


def choice_of(ballot: list[Any], senator: str) -> str:
    """How one senator voted: his faction's block vote unless the ballot splits him off."""
    split: dict[str, str] = ballot[2] if len(ballot) > 2 else {}
    block: str = ballot[0]
    return split.get(senator, block)


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
    top = controller(ctx)
    if top is not None and str(top) in ballots:  # R258: his block vote, with no bought votes
        for f in state.factions:
            if not f.eliminated and controlled(ctx, f.seat, floor["kind"]):
                ballots[str(f.seat)] = [ballots[str(top)][0], 0]
    sitting["last_ballots"] = dict(ballots)
    counts = {"yea": 0, "nay": 0, "abstain": 0}
    for side, extra in floor.get("extra", {}).items():
        counts[side] += extra
    accused = state.senators.get(floor.get("accused", ""))
    for seat_text, ballot in ballots.items():
        seat, choice, talents = int(seat_text), ballot[0], ballot[1]
        present = [s for s in aligned(state, seat) if s.location == "rome"]
        for s in present:
            counts[choice_of(ballot, s.id)] += votes(s)
        counts[choice] += talents
        if accused is not None and accused.faction == seat:
            counts[choice_of(ballot, accused.id)] += accused.influence  # VG 1.09.42: the accused's influence
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
    # his own proposals only: nobody proposes a special trial (R189), a tribune's is its faction's
    proposed = floor["kind"] != "assassin_trial" and "tribune" not in floor
    if pm is not None and proposed and voters and all(against(ctx, seat, ballots[str(seat)]) for seat in voters):
        if pm.influence > 0:
            pm.influence -= ctx.rules.rejected_proposal_influence
            ctx.report("rome.senate.rebuked", senator=pm.id)
        elif floor["kind"] == "trial":
            sitting["prosecutions_over"] = True  # VG 1.09.41: the Censor hands the chair back
        else:
            step_down(ctx, pm)
    return False


def against(ctx: Ctx, seat: int, ballot: list[Any]) -> bool:
    """Every senator of the faction in Rome voted against."""
    return all(choice_of(ballot, s.id) == "nay" for s in aligned(ctx.state, seat) if s.location == "rome")


def senators_voting(ctx: Ctx, choice: str) -> list[Senator]:
    """The senators in Rome who voted `choice` in the last tally."""
    ballots = _sitting(ctx).get("last_ballots", {})
    return [
        s for s in in_senate(ctx) if str(s.faction) in ballots and choice_of(ballots[str(s.faction)], s.id) == choice
    ]


def step_down(ctx: Ctx, pm: Senator) -> None:
    """VG 1.09.144: the chair passes to the next in rank (he keeps his office)."""
    sitting = _sitting(ctx)
    sitting["stepped_down"].append(pm.id)
    rest = [s for s in in_senate(ctx) if s.id not in sitting["stepped_down"]]
    sitting["presiding"] = min(rest, key=rank_key).id if rest else ""
    ctx.report("rome.senate.steps_down", senator=pm.id)
