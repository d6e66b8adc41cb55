"""§ 10 Judges and Kings: the Anointed, succession, vacant titles and the King election."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import AppointJudge, ChooseSuccessor, Vote
from .board import turn_order
from .context import Ctx
from .effects import crown
from .errors import IllegalAction
from .messages import message
from .state import Decision

# What § 10 reports (engine/messages.py).
message("king.token_lost", "judges-and-kings", owner="player")
message("king.deposed", "judges-and-kings", general="general", owner="player")
message("title.deferred", "judges-and-kings", region="region")
message("title.appointed", "judges-and-kings", region="region", general="general", owner="player", by="player")
message("election.opened", "judges-and-kings", candidates="generals")
message("election.result", "judges-and-kings", tally="tally", winner="general")
message("election.tie", "judges-and-kings", tally="tally", tied="generals")
message(
    "notification.election",
    "judges-and-kings",
    variants=(("notification.election.tie", "winner", "missing"),),
    lines=("ballots",),
    tally="tally",
    ballots="ballots",
    winner="general",
)

RULE_ANOINTED = "§5.3 The Anointed"
RULE_SUCCESSION = "§10 Succession"
RULE_VACANT = "§10 Vacant titles"
RULE_ELECTION = "§10 Election"


# --- The Anointed (§ 5.3) --------------------------------------------------------------


def crown_anointed(ctx: Ctx) -> None:
    """With no King reigning, a free general carrying the Anointed is crowned, before any
    election and in place of a pending succession."""
    state = ctx.state
    if state.king is not None:
        return
    for g in state.generals.values():
        if g.anointed and g.captor is None and not state.players[g.owner].eliminated:
            crown(ctx, g.id, "anointed")
            return


# --- Succession (§ 10) -----------------------------------------------------------------


def succession_candidates(ctx: Ctx, seat: int) -> list[int]:
    """§ 10 [M]: the dead King's player "chooses the successor among his own generals": every
    living general of his, captive or free, with or without a Judge title."""
    return sorted(g.id for g in ctx.state.generals.values() if g.owner == seat)


def open_succession(ctx: Ctx) -> None:
    state = ctx.state
    seat = state.succession_owner
    if seat is None or state.king is not None:
        state.succession_owner = None
        return
    if state.players[seat].eliminated or not succession_candidates(ctx, seat):
        # No successor is possible: the King's token is lost [D].
        state.succession_owner = None
        ctx.report("king.token_lost", owner=seat)
        return
    state.pending.append(Decision(player=seat, kind="succession"))


def legal_succession(ctx: Ctx, decision: Decision) -> Iterator[ChooseSuccessor]:
    for gid in succession_candidates(ctx, decision.player):
        yield ChooseSuccessor(player=decision.player, general=gid)


def apply_succession(ctx: Ctx, decision: Decision, action: ChooseSuccessor) -> None:
    if action.general not in succession_candidates(ctx, action.player):
        raise IllegalAction(
            RULE_SUCCESSION,
            "error.successor",
            f"general {action.general} is not one of your generals",
            general=action.general,
        )
    ctx.state.pending.remove(decision)
    crown(ctx, action.general, "succession")


# --- The King of an eliminated player (§ 10) ------------------------------------------


def depose_king_of(ctx: Ctx, seat: int) -> None:
    """When `seat`'s elimination is announced, his King, free or captive, stops being King: the
    throne is vacant (no succession), and the usual precedence fills it, the Anointed first,
    then an election (the owner's ruling)."""
    state = ctx.state
    if state.king is not None and state.generals[state.king].owner == seat:
        ctx.report("king.deposed", general=state.king, owner=seat)
        state.king = None


# --- Vacant titles (§ 10) --------------------------------------------------------------


def title_appointer(ctx: Ctx, region: int) -> int | None:
    """Who fills a vacant title: a reigning, free King's player; else the title's owner."""
    state = ctx.state
    king = state.generals.get(state.king) if state.king is not None else None
    if king is not None and king.captor is None and not state.players[king.owner].eliminated:
        return king.owner
    owner = state.titles[region].owner
    if owner is None or state.players[owner].eliminated:
        return None
    return owner


def granted_by_king(ctx: Ctx, appointer: int) -> bool:
    """Whether `appointer` fills vacant titles as the reigning, free King's player."""
    state = ctx.state
    king = state.generals.get(state.king) if state.king is not None else None
    return king is not None and king.owner == appointer and king.captor is None


def appointable_generals(ctx: Ctx, region: int) -> list[int]:
    """The King grants a vacant title to any free general of a living player [M: "a un general
    no cautivo"]; the title's owner fills it with any of his own generals, captive included
    [M: "uno de sus propios generales", every one of them, as in the succession: the owner's
    ruling]. A general may hold several titles: the manual sets no limit (§ 10)."""
    state = ctx.state
    appointer = title_appointer(ctx, region)
    if appointer is None:
        return []
    if granted_by_king(ctx, appointer):
        return [g.id for g in state.generals.values() if g.captor is None and not state.players[g.owner].eliminated]
    return [g.id for g in state.generals.values() if g.owner == appointer]


def vacant_regions(ctx: Ctx) -> list[int]:
    return [r for r, t in enumerate(ctx.state.titles) if t.in_play and t.owner is not None and t.holder is None]


def open_vacant_titles(ctx: Ctx) -> None:
    for region in vacant_regions(ctx):
        appointer = title_appointer(ctx, region)
        if appointer is None or not appointable_generals(ctx, region):
            # Nobody eligible can fill it: deferred to the next round, blocking nobody.
            ctx.report("title.deferred", region=region)
            continue
        ctx.state.pending.append(Decision(player=appointer, kind="appoint_judge", subject=region))


def legal_appoint(ctx: Ctx, decision: Decision) -> Iterator[AppointJudge]:
    name = ctx.world.regions[decision.subject_index].name
    for gid in appointable_generals(ctx, decision.subject_index):
        yield AppointJudge(player=decision.player, region=name, general=gid)


def apply_appoint(ctx: Ctx, decision: Decision, action: AppointJudge) -> None:
    state = ctx.state
    region = decision.subject_index
    if action.general not in appointable_generals(ctx, region):
        if action.general not in state.generals:
            why = f"there is no general {action.general}"
        elif granted_by_king(ctx, decision.player):
            why = f"general {action.general} is not eligible: the King grants titles to free generals in the game"
        else:
            why = f"general {action.general} is not yours and only a reigning King may appoint another tribe's general"
        raise IllegalAction(RULE_VACANT, "error.appoint", why, general=action.general, region=action.region)
    state.pending.remove(decision)
    g = state.generals[action.general]
    title = state.titles[region]
    title.holder = g.id
    title.owner = g.owner  # ownership passes to the appointed general's player [D]
    ctx.report("title.appointed", region=region, general=g.id, owner=g.owner, by=action.player)
    # Another decision may have lost its last eligible general to this appointment.
    for other in [d for d in state.pending if d.kind == "appoint_judge"]:
        if not appointable_generals(ctx, other.subject_index):
            state.pending.remove(other)
            ctx.report("title.deferred", region=other.subject)


# --- The election (§ 10) ---------------------------------------------------------------


def candidates(ctx: Ctx) -> list[int]:
    """Free generals holding a Judge title in play."""
    state = ctx.state
    out = []
    for t in state.titles:
        if t.in_play and t.holder is not None:
            g = state.generals[t.holder]
            if g.captor is None and not state.players[g.owner].eliminated:
                out.append(g.id)
    return sorted(set(out))


def votes_of(ctx: Ctx, seat: int) -> int:
    """§ 10 [M] "each Judge title gives its owner one vote": one per title the player owns,
    vacant ones included, except a title whose judge is captive [M]; plus one per free general
    carrying a Prophet [D]."""
    state = ctx.state
    votes = 0
    for t in state.titles:
        if t.in_play and t.owner == seat and (t.holder is None or state.generals[t.holder].captor is None):
            votes += 1
    votes += sum(1 for g in state.generals.values() if g.owner == seat and g.prophet and g.captor is None)
    return votes


def open_election(ctx: Ctx) -> None:
    state = ctx.state
    state.votes = {}
    if state.king is not None or len(candidates(ctx)) < 2:
        return
    ctx.report("election.opened", candidates=candidates(ctx))
    for seat in turn_order(state):
        if votes_of(ctx, seat) > 0:
            state.pending.append(Decision(player=seat, kind="vote"))


def legal_vote(ctx: Ctx, decision: Decision) -> Iterator[Vote]:
    for gid in candidates(ctx):
        yield Vote(player=decision.player, candidate=gid)


def apply_vote(ctx: Ctx, decision: Decision, action: Vote) -> None:
    if action.candidate not in candidates(ctx):
        raise IllegalAction(
            RULE_ELECTION,
            "error.candidate",
            f"general {action.candidate} is not a candidate: only free judges can be elected",
            candidate=action.candidate,
        )
    ctx.state.pending.remove(decision)
    ctx.state.votes[action.player] = action.candidate


def tally_election(ctx: Ctx) -> None:
    state = ctx.state
    if not state.votes:
        return
    tally = {gid: 0 for gid in candidates(ctx)}
    ballots = []
    for seat in turn_order(state):
        if seat in state.votes:
            weight = votes_of(ctx, seat)
            tally[state.votes[seat]] = tally.get(state.votes[seat], 0) + weight
            ballots.append({"player": seat, "candidate": state.votes[seat], "votes": weight})
    best = max(tally.values())
    leaders = [gid for gid, v in tally.items() if v == best]
    counts = [{"general": gid, "owner": state.generals[gid].owner, "votes": v} for gid, v in tally.items()]
    if len(leaders) == 1:
        winner = leaders[0]
        ctx.report("election.result", tally=counts, winner=winner)
        crown(ctx, winner, "election")
    else:
        winner = None
        ctx.report("election.tie", tally=counts, tied=leaders)
    # [M] "Todos reciben una notificación": every player, the eliminated (spectators) too.
    ctx.notify(
        "notification.election",
        to=[p.seat for p in state.players],
        params={"tally": counts, "ballots": ballots, "winner": winner},
    )
    state.votes = {}
