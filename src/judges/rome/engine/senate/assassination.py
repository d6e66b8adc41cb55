"""Phase 5, Senate: assassinations (VG 1.09.7; R184-R191; ror-data §12, GAP-30).

While the Senate sits, a faction may announce an attempt when it answers a vote (R184: "even in
the middle of another vote"): once a Senate phase, against a senator in Rome of another faction
not yet targeted this turn (R185), never once a Consul for Life is proclaimed (R181). It names
the assassin and the target and plays its Assassin cards (+1 each, R187); the target's faction
then plays Secret Bodyguard cards or none (−1 each, R188; it is always asked, so nobody learns
its hand). The die: 5 or more kills the target, 2 or less catches the assassin (R186); each
bodyguard makes the assassin roll once more, caught on 2 or less (R188).

A caught assassin is executed; his faction leader loses 5 influence and at once faces a special
major prosecution (R189): no Censor, no prosecutor, no tribune; the popular appeal is rolled at
once with the *victim's* popularity subtracted instead of the leader's added; convicted, he is
executed and as many mortality chits as the victim's popularity are drawn against his faction's
other senators in Rome (R190). A caught assassin of a land bill's sponsor or co-sponsor, both of
one faction, is only executed (R191). The proposal on the floor waits while the trial is voted
and resumes after it; a proposal naming a senator who died falls.

The vote the attempt interrupts waits for it (R184: "in the middle of another vote"): from the
announcement to the die nobody casts a ballot, vetoes or appeals, so nothing of the vote (a
popular appeal that kills the accused) can remove the target or the assassin before the die.

`sitting["assassinations"]` holds the factions that tried and those targeted this turn;
`sitting["attempt"]` the attempt under way (with the factions whose ballots it interrupted);
`sitting["suspended"]` the proposal waiting for a special trial (its ballots as secret as the
floor's)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ....engine.errors import IllegalAction
from ..actions import Assassinate, Bodyguards, DeclareAssassination, Skip
from ..context import Ctx
from ..effects import kill_senator
from ..events import omens
from ..mortality import draw_chits
from ..state import UNALIGNED, Decision, Senator
from .sitting import _sitting, in_senate, named_senators, put_to_vote, tally

RULE = "R184-R191 Assassination (VG 1.09.7)"
ASSASSIN = "assassin"
BODYGUARD = "secret_bodyguard"
TRIAL = "assassin_trial"


def _attempts(ctx: Ctx) -> dict[str, list[int]]:
    """This turn's attempts as read by the legality checks: the record, or an empty one that is
    not stored (reading the position never changes it: a replay computes no legal actions)."""
    record: dict[str, list[int]] = _sitting(ctx).get("assassinations") or {"by": [], "against": []}
    return record


def _record(ctx: Ctx) -> dict[str, list[int]]:
    """This turn's attempts to write to (stored on the first attempt)."""
    sitting = _sitting(ctx)
    if "assassinations" not in sitting:
        sitting["assassinations"] = {"by": [], "against": []}
    record: dict[str, list[int]] = sitting["assassinations"]
    return record


def cards_held(ctx: Ctx, seat: int, name: str) -> list[str]:
    return [c for c in ctx.state.factions[seat].hand if c.split(".")[0] == name]


def targets(ctx: Ctx, seat: int) -> list[Senator]:
    """R184, R185, GAP-30: another faction's senator in Rome, his faction not targeted yet."""
    against = _attempts(ctx)["against"]
    return [s for s in in_senate(ctx) if s.faction != seat and s.faction not in against]


def may_declare(ctx: Ctx, seat: int) -> bool:
    """While a proposal is on the floor (not a special trial), no other attempt under way, no
    Consul for Life proclaimed, once a Senate phase, with a senator in Rome and a target."""
    sitting = _sitting(ctx)
    floor = sitting["floor"]
    if ctx.state.consul_for_life or sitting.get("closed") or floor is None or floor["kind"] == TRIAL:
        return False
    if sitting.get("attempt") is not None or seat in _attempts(ctx)["by"]:
        return False
    if any(d.kind == "tribune_proposal" for d in ctx.state.pending):
        return False  # one answer per action type at a time (Skip answers both)
    return any(s.faction == seat for s in in_senate(ctx)) and bool(targets(ctx, seat))


def declare(ctx: Ctx, decision: Decision, action: DeclareAssassination) -> None:
    """Answering a vote: the faction still owes its ballot; it now also names the attempt."""
    seat = decision.player
    if not may_declare(ctx, seat):
        raise IllegalAction(RULE, "rome.error.no_assassination", "no assassination attempt may be made now")
    state = ctx.state
    _record(ctx)["by"].append(seat)
    # the vote waits for the attempt: nobody answers it (no ballot, veto or appeal) until the die
    owed = sorted(d.player for d in state.pending if d.kind == "vote")
    state.pending = [d for d in state.pending if d.kind != "vote"]
    _sitting(ctx)["attempt"] = {"by": seat, "owed": owed}
    state.pending.append(Decision(seat, "assassination"))
    ctx.report("rome.senate.assassination_declared", faction=seat)


def legal_assassinate(ctx: Ctx, decision: Decision) -> Iterable[Assassinate | Skip]:
    """Every assassin and target; no Assassin card or all of them (any number is legal)."""
    seat = decision.player
    held = len(cards_held(ctx, seat, ASSASSIN))
    out: list[Assassinate | Skip] = [Skip(player=seat)]
    mine = [s for s in in_senate(ctx) if s.faction == seat]
    for assassin in mine:
        for target in targets(ctx, seat):
            for cards in dict.fromkeys((0, held)):
                out.append(Assassinate(player=seat, assassin=assassin.id, target=target.id, cards=cards))
    return out


def apply_assassinate(ctx: Ctx, decision: Decision, action: Assassinate | Skip) -> None:
    """[D] A faction that withdraws has still spent its attempt (it was announced)."""
    state, seat = ctx.state, decision.player
    sitting = _sitting(ctx)
    if isinstance(action, Skip):
        state.pending.remove(decision)
        _vote_goes_on(ctx, sitting["attempt"]["owed"])
        sitting["attempt"] = None
        ctx.report("rome.senate.assassination_withdrawn", faction=seat)
        return
    assassin = state.senators.get(action.assassin)
    if assassin is None or assassin.faction != seat or assassin.location != "rome":
        raise IllegalAction(RULE, "rome.error.not_your_senator_in_rome", f"{action.assassin} cannot be the assassin")
    target = state.senators.get(action.target)
    if target is None or target not in targets(ctx, seat):
        raise IllegalAction(RULE, "rome.error.not_an_assassination_target", f"{action.target} cannot be the target")
    held = cards_held(ctx, seat, ASSASSIN)
    if not 0 <= action.cards <= len(held):
        raise IllegalAction(RULE, "rome.error.not_in_hand", "not so many Assassin cards in the hand", card=ASSASSIN)
    state.pending.remove(decision)
    _play(ctx, seat, held[: action.cards])
    _record(ctx)["against"].append(target.faction)
    owed = sitting["attempt"]["owed"]
    sitting["attempt"] = {"by": seat, "assassin": assassin.id, "target": target.id, "cards": action.cards, "owed": owed}
    ctx.report("rome.senate.assassination", senator=assassin.id, target=target.id, int=action.cards)
    state.pending.append(Decision(target.faction, "bodyguards"))


def legal_bodyguards(ctx: Ctx, decision: Decision) -> Iterable[Bodyguards]:
    held = len(cards_held(ctx, decision.player, BODYGUARD))
    return [Bodyguards(player=decision.player, cards=n) for n in range(held + 1)]


def apply_bodyguards(ctx: Ctx, decision: Decision, action: Bodyguards) -> None:
    held = cards_held(ctx, decision.player, BODYGUARD)
    if not 0 <= action.cards <= len(held):
        raise IllegalAction(RULE, "rome.error.not_in_hand", "not so many bodyguards in the hand", card=BODYGUARD)
    ctx.state.pending.remove(decision)
    _play(ctx, decision.player, held[: action.cards])
    if action.cards:
        ctx.report("rome.senate.bodyguards", faction=decision.player, int=action.cards)
    resolve(ctx, action.cards)


def _play(ctx: Ctx, seat: int, cards: list[str]) -> None:
    for card in cards:
        ctx.state.factions[seat].hand.remove(card)
        ctx.state.discard.append(card)


def resolve(ctx: Ctx, guards: int) -> None:
    """R186-R188: the die, +1 per Assassin card, −1 per bodyguard (and Evil Omens); then one
    more roll per bodyguard to catch the assassin (+1 per Assassin card) [D: VG does not say
    whether the Assassin cards modify these rolls; the table's ≤ 2 is read as for the first]."""
    state, rules = ctx.state, ctx.rules
    sitting = _sitting(ctx)
    attempt = sitting["attempt"]
    sitting["attempt"] = None
    _vote_goes_on(ctx, attempt["owed"])  # before the die: a proposal that falls drops them again
    seat, cards = attempt["by"], attempt["cards"]
    assassin_id, target = attempt["assassin"], state.senators[attempt["target"]]
    victim_popularity = target.popularity
    floor = sitting["floor"]
    land_bill_sponsors = (
        floor is not None
        and floor["kind"] == "land_bill"
        and target.id in floor["subject"][2:4]
        and len({state.senators[s].faction for s in floor["subject"][2:4] if s in state.senators}) == 1
    )
    roll = ctx.dice.roll(6) + cards - guards - omens(ctx)
    ctx.report("rome.senate.assassination_roll", int=roll)
    dead: list[str] = []
    if roll >= rules.assassination_kills_from:
        kill_senator(ctx, target.id, "assassination")
        dead.append(target.id)
    else:
        ctx.report("rome.senate.assassination_fails", senator=target.id)
    caught = roll <= rules.assassination_caught_to
    for _ in range(guards):
        if caught:
            break
        again = ctx.dice.roll(6) + cards - omens(ctx)
        ctx.report("rome.senate.catch_roll", int=again)
        caught = again <= rules.assassination_caught_to
    if not caught:
        _void_if_named(ctx, dead)
        return
    ctx.report("rome.senate.assassin_caught", senator=assassin_id)
    if assassin_id in state.senators:
        kill_senator(ctx, assassin_id, "execution")
        dead.append(assassin_id)
    _void_if_named(ctx, dead)
    if land_bill_sponsors:
        return  # R191: the assassin's death is all
    leader = state.senators.get(state.factions[seat].leader)
    if leader is None or leader.id == assassin_id:
        return  # [D] a faction leader who was the assassin himself: his death is all
    leader.influence = max(0, leader.influence - rules.assassin_leader_influence)
    if leader.location == "rome":
        special_trial(ctx, leader, seat, victim_popularity)


def _vote_goes_on(ctx: Ctx, owed: list[int]) -> None:
    """The factions whose ballots the attempt interrupted owe them again."""
    for seat in owed:
        if not ctx.state.factions[seat].eliminated:
            ctx.state.pending.append(Decision(seat, "vote"))


def _void_if_named(ctx: Ctx, dead: list[str]) -> None:
    """[D] A proposal naming a senator who died during its vote falls: the ballots are void."""
    sitting = _sitting(ctx)
    floor = sitting["floor"]
    if floor is not None and set(named_senators(floor)) & set(dead):
        sitting["floor"] = None
        sitting["ballots"] = {}
        ctx.state.pending = [d for d in ctx.state.pending if d.kind != "vote"]
        ctx.report("rome.senate.proposal_falls")


def special_trial(ctx: Ctx, leader: Senator, seat: int, victim_popularity: int) -> None:
    """R189: the proposal on the floor waits; every faction votes on the leader at once, after
    the popular appeal rolled at once with the victim's popularity subtracted."""
    state = ctx.state
    sitting = _sitting(ctx)
    if sitting["floor"] is not None:
        sitting["suspended"] = {
            "floor": sitting["floor"],
            "ballots": sitting["ballots"],
            "last": sitting.get("last"),
            "owed": sorted(d.player for d in state.pending if d.kind == "vote"),
        }
        state.pending = [d for d in state.pending if d.kind != "vote"]
    put_to_vote(ctx, TRIAL, (leader.id,), vetoable=False)
    floor = sitting["floor"]
    floor.update(accused=leader.id, extra={}, faction=seat, victim_popularity=victim_popularity)
    total = sum(ctx.roll(2)) - victim_popularity - omens(ctx)
    row = ctx.deck.appeal_result(total)
    ctx.report("rome.senate.appeal", senator=leader.id, int=total)
    if row.effect == "votes":
        side = "yea" if row.votes > 0 else "nay"
        floor["extra"][side] = abs(row.votes)
        return
    state.pending = [d for d in state.pending if d.kind != "vote"]
    sitting["floor"] = None
    if row.effect == "killed":
        convict(ctx, floor, mob=True)
    else:
        ctx.report("rome.senate.freed", senator=leader.id)
    resume(ctx)


def finish_trial(ctx: Ctx) -> None:
    """Every ballot of the special trial is in: the tally, then the waiting proposal resumes."""
    floor = _sitting(ctx)["floor"]
    if tally(ctx):
        convict(ctx, floor)
    else:
        ctx.report("rome.senate.acquitted", senator=floor["accused"])
    resume(ctx)


def convict(ctx: Ctx, floor: dict[str, Any], mob: bool = False) -> None:
    """R190: the leader dies; chits equal to the victim's popularity strike his faction's other
    senators in Rome."""
    state = ctx.state
    leader, seat = floor["accused"], floor["faction"]
    dead = [leader]
    if leader in state.senators:
        kill_senator(ctx, leader, "mob" if mob else "execution")
    for chit in draw_chits(ctx, max(0, floor["victim_popularity"])):
        s = state.senators.get(chit)
        if s is not None and chit != leader and s.faction == seat and s.faction != UNALIGNED and s.location == "rome":
            kill_senator(ctx, chit, "mob")
            dead.append(chit)
    suspended = _sitting(ctx).get("suspended")
    if suspended is not None and set(named_senators(suspended["floor"])) & set(dead):
        del _sitting(ctx)["suspended"]
        ctx.report("rome.senate.proposal_falls")


def resume(ctx: Ctx) -> None:
    """The waiting proposal returns to the floor; the factions that had not voted owe it again."""
    sitting = _sitting(ctx)
    suspended = sitting.pop("suspended", None)
    if suspended is None:
        return
    sitting["floor"], sitting["ballots"], sitting["last"] = suspended["floor"], suspended["ballots"], suspended["last"]
    for seat in suspended["owed"]:
        if not ctx.state.factions[seat].eliminated:
            ctx.state.pending.append(Decision(seat, "vote"))
