"""The Censor's prosecutions (VG 1.09.41-1.09.45; R125-R136; ror-data §11): up to two minor or
one major prosecution a turn, each with a consenting prosecutor, tried by every faction's vote
at once (the accused adds his influence), with the accused's appeal to the people, vetoable by
a tribune; then the corrupt and major markers of senators in Rome are cleared.

`state.scratch["senate"]["trials"]` holds the Censor's allowance left, the senators already
tried and the prosecutors who refused."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...engine.errors import IllegalAction
from .actions import Appeal, Consent, Done, Prosecute
from .context import Ctx
from .effects import kill_senator
from .events import omens
from .mortality import draw_chits
from .senate import in_senate, put_to_vote, tally
from .state import Decision, Senator

RULE = "R125-R136 Prosecutions (VG 1.09.41)"
MINOR, MAJOR = 1, 2  # a major prosecution uses the whole allowance of two
ALLOWANCE = 2


def _trials(ctx: Ctx) -> dict[str, Any]:
    sitting: dict[str, Any] = ctx.state.scratch["senate"]
    if "trials" not in sitting:
        sitting["trials"] = {"left": ALLOWANCE, "tried": [], "refused": [], "case": None}
    trials: dict[str, Any] = sitting["trials"]
    return trials


def censor(ctx: Ctx) -> Senator | None:
    return next((s for s in in_senate(ctx) if s.office == "censor"), None)


def prosecutions(ctx: Ctx) -> bool:
    """R125: the Censor presides over his prosecutions, then hands the chair back."""
    sitting = ctx.state.scratch["senate"]
    judge = censor(ctx)
    if not sitting["presiding"] or judge is None:  # VG 1.09.41: a dead Censor's trials fail
        if sitting["floor"] is not None and sitting["floor"]["kind"] == "trial":
            sitting["floor"] = None
        return end_prosecutions(ctx)
    trials = _trials(ctx)
    if "chair" not in trials:
        trials["chair"] = sitting["presiding"]
        sitting["presiding"] = judge.id
    if sitting["floor"] is not None:
        case = trials["case"]
        if tally(ctx):
            convict(ctx, case)
        trials["case"] = None
    if sitting.get("prosecutions_over") or trials["left"] <= 0 or not charges(ctx):
        return end_prosecutions(ctx)
    ctx.state.pending.append(Decision(judge.faction, "prosecute"))
    return False


def eligible(ctx: Ctx, accused: Senator, major: bool) -> bool:
    """VG 1.09.412-413 (R126, R128): a minor prosecution needs a corrupt or major marker, a major
    one the major marker (an office held last turn); only in Rome; not the Censor himself; at
    most once a turn [D]."""
    judge = censor(ctx)
    if judge is None or accused.id == judge.id or accused.location != "rome" or accused.faction < 0:
        return False
    if accused.id in _trials(ctx)["tried"]:
        return False
    return bool(accused.held_office) if major else bool(accused.held_office or accused.corrupt)


def charges(ctx: Ctx) -> list[Prosecute]:
    judge = censor(ctx)
    if judge is None:
        return []
    trials = _trials(ctx)
    out = []
    for accused in in_senate(ctx):
        for major in (False, True):
            if major and trials["left"] < MAJOR or not eligible(ctx, accused, major):
                continue
            for p in in_senate(ctx):
                if p.id in (judge.id, accused.id) or [accused.id, p.id] in trials["refused"]:
                    continue
                out.append(Prosecute(player=judge.faction, accused=accused.id, prosecutor=p.id, major=major))
    return out


def legal_prosecute(ctx: Ctx, decision: Decision) -> Iterable[Prosecute | Done]:
    out: list[Prosecute | Done] = [Done(player=decision.player)]
    out += [
        Prosecute(player=decision.player, accused=c.accused, prosecutor=c.prosecutor, major=c.major)
        for c in charges(ctx)
    ]
    return out


def apply_prosecute(ctx: Ctx, decision: Decision, action: Prosecute | Done) -> None:
    state = ctx.state
    if isinstance(action, Done):
        state.pending.remove(decision)
        ctx.state.scratch["senate"]["prosecutions_over"] = True
        return
    if all(
        (c.accused, c.prosecutor, c.major) != (action.accused, action.prosecutor, action.major) for c in charges(ctx)
    ):
        raise IllegalAction(RULE, "rome.error.not_prosecutable", f"{action.accused} cannot be prosecuted so now")
    state.pending.remove(decision)
    _trials(ctx)["case"] = {"accused": action.accused, "prosecutor": action.prosecutor, "major": action.major}
    state.pending.append(Decision(state.senators[action.prosecutor].faction, "consent", action.prosecutor))


def legal_consent(ctx: Ctx, decision: Decision) -> Iterable[Consent]:
    return [Consent(player=decision.player, agree=True), Consent(player=decision.player, agree=False)]


def apply_consent(ctx: Ctx, decision: Decision, action: Consent) -> None:
    """R130: without a consenting prosecutor there is no trial (the Censor may name another)."""
    state = ctx.state
    trials = _trials(ctx)
    case = trials["case"]
    state.pending.remove(decision)
    if not action.agree:
        trials["refused"].append([case["accused"], case["prosecutor"]])
        trials["case"] = None
        return
    trials["left"] -= MAJOR if case["major"] else MINOR  # R135: a vetoed trial counts too
    trials["tried"].append(case["accused"])
    ctx.report("rome.senate.trial", senator=case["accused"], prosecutor=case["prosecutor"], major=case["major"])
    put_to_vote(ctx, "trial", (case["accused"],), vetoable=True)
    floor = state.scratch["senate"]["floor"]
    floor["accused"] = case["accused"]
    floor["extra"] = {}


def may_appeal(ctx: Ctx, decision: Decision) -> bool:
    sitting = ctx.state.scratch["senate"]
    floor = sitting["floor"]
    if floor is None or floor["kind"] != "trial" or floor.get("appealed"):
        return False
    accused = ctx.state.senators.get(floor["accused"])
    return accused is not None and accused.faction == decision.player and str(decision.player) not in sitting["ballots"]


def appeal(ctx: Ctx, decision: Decision, action: Appeal) -> None:
    """R133, VG 1.09.421: DR + popularity on the VG table: killed by the mob (guilty), votes for or
    against conviction, or freed, with a chit per point above 11 against the Censor and the
    prosecutor."""
    if not may_appeal(ctx, decision):
        raise IllegalAction(RULE, "rome.error.no_appeal", "only the accused's faction, once, before it votes")
    state = ctx.state
    sitting = state.scratch["senate"]
    floor = sitting["floor"]
    floor["appealed"] = True
    accused = state.senators[floor["accused"]]
    total = sum(ctx.roll(2)) + accused.popularity - omens(ctx)
    row = ctx.deck.appeal_result(total)
    ctx.report("rome.senate.appeal", senator=accused.id, int=total)
    case = _trials(ctx)["case"]
    if row.effect == "votes":
        side = "yea" if row.votes > 0 else "nay"
        floor["extra"][side] = floor["extra"].get(side, 0) + abs(row.votes)
        return
    state.pending = [d for d in state.pending if d.kind != "vote"]
    sitting["floor"] = None
    _trials(ctx)["case"] = None
    if row.effect == "killed":
        convict(ctx, case, mob=True)
        return
    ctx.report("rome.senate.freed", senator=accused.id)
    targets = {s.id for s in (censor(ctx), state.senators.get(case["prosecutor"])) if s is not None}
    for chit in draw_chits(ctx, max(0, total - 11)):
        if chit in targets and chit in state.senators:
            kill_senator(ctx, chit, "mob")


def convict(ctx: Ctx, case: dict[str, Any], mob: bool = False) -> None:
    """R127, R129, R131 (VG 1.09.44-442): minor: −5 influence (not below 0), −5 popularity, the
    prior-consul marker and the concessions lost; major (or the mob): death. The prosecutor takes
    the accused's prior-consul marker and half the influence lost, rounded up."""
    state, rules = ctx.state, ctx.rules
    accused = state.senators.get(case["accused"])
    prosecutor = state.senators.get(case["prosecutor"])
    if accused is None:
        return
    had_marker = accused.prior_consul
    if case["major"] or mob:
        lost = accused.influence
        kill_senator(ctx, accused.id, "mob" if mob else "execution")
    else:
        lost = min(rules.minor_conviction_influence, accused.influence)
        accused.influence -= lost
        accused.popularity = max(-9, accused.popularity - rules.minor_conviction_popularity)
        accused.prior_consul = False
        state.forum_concessions.extend(accused.concessions)
        accused.concessions = []
        ctx.report("rome.senate.convicted", senator=accused.id)
    if prosecutor is not None:
        prosecutor.influence += -(-lost // 2)
        prosecutor.prior_consul = prosecutor.prior_consul or had_marker


def end_prosecutions(ctx: Ctx) -> bool:
    """R136, VG 1.09.45: corrupt and major markers of senators in Rome go; the chair returns."""
    sitting = ctx.state.scratch["senate"]
    for s in ctx.state.senators.values():
        if s.location == "rome":
            s.corrupt = False
            s.held_office = ""
    trials = sitting.get("trials")
    if trials is not None and "chair" in trials:
        sitting["presiding"] = trials.pop("chair")
    return True
