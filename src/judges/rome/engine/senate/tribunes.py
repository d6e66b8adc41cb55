"""Phase 5, Senate: proposals made with a tribune (R83, R85; VG 1.09.13).

Besides the presiding magistrate, any faction with a senator in Rome may make a proposal by
playing a tribune card. The engine offers it while a faction answers a vote on other business
(it names the card; the card is played at once); the faction then names its proposal, any the
presiding magistrate could make but closing, its land bills' sponsors among its own senators.
The proposal goes to the floor as soon as the one being voted is settled, before the presiding
magistrate proposes again; no tribune can veto it (R85), and its rejection costs the presiding
magistrate nothing. [D] One such proposal waits at a time; one no longer legal when its turn
comes lapses, its tribune spent.

A tribune played during the vote that would send the presiding magistrate to war (and so close
the Senate) suspends that vote (R93, VG 1.09.151): its ballots are set aside, the tribune's
proposal is voted first, then the dispatch is put to the vote again, unless the proposal made
it impossible on its terms (it is then cancelled). [D] Ballots cast before the suspension are
cast again.

`sitting["queued"]` holds the waiting proposal: the faction and the action;
`sitting["dispatch_suspended"]` the suspended dispatch (its floor)."""

from __future__ import annotations

from collections.abc import Iterable

from ....engine.errors import IllegalAction
from ..actions import Action, CloseSenate, Deploy, LandBill, Skip, TribuneProposal, action_from_dict, action_to_dict
from ..context import Ctx
from ..state import Decision
from .business import Proposal, business_refusal, deploy_refusal, legal_propose_business, propose
from .sitting import _sitting, in_senate, put_to_vote, tribunes_in_hand

RULE = "R83, R85 Proposals with a tribune (VG 1.09.13)"
BUSINESS = frozenset(
    (
        "raise",
        "disband",
        "deploy",
        "concession",
        "land_bill",
        "consul_for_life",
        "repeal",
        "recall",
        "reinforce",
        "withdraw",
        "recall_governor",
    )
)


def may_propose(ctx: Ctx, seat: int) -> bool:
    sitting = _sitting(ctx)
    floor = sitting["floor"]
    if sitting.get("closed") or floor is None or floor["kind"] not in BUSINESS:
        return False
    busy = ("tribune_proposal", "assassination", "bodyguards")  # one answer per action type at a time
    if sitting.get("queued") is not None or any(d.kind in busy for d in ctx.state.pending):
        return False
    return bool(tribunes_in_hand(ctx, seat)) and any(s.faction == seat for s in in_senate(ctx))


def play_tribune(ctx: Ctx, decision: Decision, action: TribuneProposal) -> None:
    """Answering a vote: the tribune is played; the faction still owes its ballot."""
    seat = decision.player
    if not may_propose(ctx, seat):
        raise IllegalAction(RULE, "rome.error.no_tribune_proposal", "no proposal with a tribune may be made now")
    if action.card not in tribunes_in_hand(ctx, seat):
        raise IllegalAction(RULE, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
    ctx.state.factions[seat].hand.remove(action.card)
    ctx.state.discard.append(action.card)
    sitting = _sitting(ctx)
    floor = sitting["floor"]
    if floor["kind"] == "deploy" and floor["subject"][1] == sitting["presiding"]:
        sitting["dispatch_suspended"] = floor  # R93: not a veto, a suspension
        sitting["floor"] = None
        sitting["ballots"] = {}
        ctx.state.pending = [d for d in ctx.state.pending if d.kind != "vote"]
        ctx.report("rome.senate.dispatch_suspended", faction=seat, senator=floor["subject"][1])
    ctx.state.pending.append(Decision(seat, "tribune_proposal"))
    ctx.report("rome.senate.tribune_played", faction=seat)


def legal_tribune_proposal(ctx: Ctx, decision: Decision) -> Iterable[Action]:
    out: list[Action] = [Skip(player=decision.player)]
    out += [
        a
        for a in legal_propose_business(ctx, decision)
        if not isinstance(a, CloseSenate)
        and not (
            isinstance(a, LandBill)
            and any(ctx.state.senators[x].faction != decision.player for x in (a.sponsor, a.cosponsor))
        )
    ]
    return out


def apply_tribune_proposal(ctx: Ctx, decision: Decision, action: Proposal | Skip) -> None:
    """The proposal waits for the floor; Skip gives it up (the tribune stays spent)."""
    if isinstance(action, Skip):
        ctx.state.pending.remove(decision)
        return
    if isinstance(action, CloseSenate):
        raise IllegalAction(RULE, "rome.error.no_tribune_proposal", "only the presiding magistrate closes the Senate")
    error = business_refusal(ctx, decision.player, action)
    if error is not None:
        raise error
    if isinstance(action, LandBill) and any(
        ctx.state.senators[x].faction != decision.player for x in (action.sponsor, action.cosponsor)
    ):
        raise IllegalAction(
            RULE, "rome.error.not_a_candidate", "a tribune's land bill is sponsored by its own senators"
        )
    ctx.state.pending.remove(decision)
    _sitting(ctx)["queued"] = {"seat": decision.player, "action": action_to_dict(action)}


def resume_suspended(ctx: Ctx) -> bool:
    """R93: the suspended dispatch is voted again (True), or cancelled when it is no longer
    possible on its terms (False)."""
    sitting = _sitting(ctx)
    floor = sitting.pop("dispatch_suspended", None)
    if floor is None or sitting.get("closed"):
        return False
    subject = floor["subject"]
    send = Deploy(
        player=0,
        commander=subject[1],
        war=subject[2],
        legions=int(subject[3]),
        veterans=int(subject[4]),
        fleets=int(subject[5]),
    )
    if deploy_refusal(ctx, send) is not None or subject[1] != sitting["presiding"]:
        ctx.report("rome.senate.dispatch_cancelled", senator=subject[1])
        return False
    ctx.report("rome.senate.dispatch_resumes", senator=subject[1])
    put_to_vote(ctx, "deploy", tuple(subject), vetoable=floor["vetoable"])
    sitting["floor"].update({k: v for k, v in floor.items() if k not in ("kind", "subject", "vetoable")})
    return True


def put_queued(ctx: Ctx) -> bool:
    """The waiting proposal takes the floor (True), or lapses (False: the presiding magistrate
    proposes)."""
    sitting = _sitting(ctx)
    queued = sitting.pop("queued", None)
    if queued is None:
        return False
    seat, action = queued["seat"], action_from_dict(queued["action"])
    if not isinstance(action, Proposal) or business_refusal(ctx, seat, action) is not None:
        ctx.report("rome.senate.tribune_lapses", faction=seat)
        return False
    ctx.report("rome.senate.tribune_proposal", faction=seat)
    propose(ctx, action)
    floor = sitting["floor"]
    floor["vetoable"] = False  # R85
    floor["tribune"] = seat
    return True
