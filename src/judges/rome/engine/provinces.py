"""Provinces and governors (VG 1.09.5, 1.06.13, 1.06.4, 1.06.51; R32, R137-R144; ror-data §7):
the Senate names a governor for each vacant province; in the Revenue phase each governor may
take spoils (and becomes corrupt), undeveloped provinces may develop, and governed provinces
pay the State their taxes.

Not played yet: the consent of a senator just home (R143), garrisons
and the advanced Provincial Wars."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ...engine.errors import IllegalAction
from ..cards import DiceExpr
from .actions import ProposeGovernor, Spoils
from .board import aligned
from .context import Ctx
from .events import omens
from .senate import _sitting, ask_presiding, presiding, put_to_vote, tally
from .state import Decision, ProvinceInPlay

RULE_GOVERNORS = "R137-R143 Governors (VG 1.09.5)"
RULE_SPOILS = "R32 Provincial spoils (VG 1.06.13)"
VERRES = {1: 3, 2: 5}  # Trial of Verres: the State's extra talents per province, normal / intensified


def roll(ctx: Ctx, expr: DiceExpr) -> int:
    return expr.sign * sum(ctx.roll(expr.dice)) + expr.modifier


# --- the Senate: governors ---------------------------------------------------------------------


def vacant(ctx: Ctx) -> list[ProvinceInPlay]:
    return [p for p in ctx.state.provinces if not p.governor]


def governor_candidates(ctx: Ctx) -> list[str]:
    """R142: any senator in Rome, aligned or not, holding no office [D]."""
    return sorted(
        (s.id for s in ctx.state.senators.values() if s.location == "rome" and not s.office),
        key=int,
    )


def nominations(ctx: Ctx) -> list[tuple[str, str]]:
    rejected = {tuple(r) for r in _sitting(ctx)["rejected"] if len(r) == 3 and r[0] == "governor"}
    return [(s, p.id) for p in vacant(ctx) for s in governor_candidates(ctx) if ("governor", s, p.id) not in rejected]


def governors(ctx: Ctx) -> bool:
    """R137: right after the prosecutions, every vacant province gets a governor (while there is
    a nomination left to try)."""
    sitting = _sitting(ctx)
    if sitting.get("closed") or presiding(ctx) is None:
        return True
    if sitting["floor"] is not None and sitting["floor"]["kind"] == "governor":
        _, senator, province = sitting["floor"]["subject"]
        if tally(ctx):
            install_governor(ctx, senator, province)
    if not nominations(ctx):
        return True
    ask_presiding(ctx, "propose_governor")
    return False


def legal_propose_governor(ctx: Ctx, decision: Decision) -> Iterable[ProposeGovernor]:
    return [ProposeGovernor(player=decision.player, senator=s, province=p) for s, p in nominations(ctx)]


def apply_propose_governor(ctx: Ctx, decision: Decision, action: ProposeGovernor) -> None:
    if (action.senator, action.province) not in nominations(ctx):
        raise IllegalAction(
            RULE_GOVERNORS, "rome.error.not_a_candidate", f"{action.senator} cannot govern {action.province}"
        )
    ctx.state.pending.remove(decision)
    put_to_vote(ctx, "governor", ("governor", action.senator, action.province), vetoable=True)


def install_governor(ctx: Ctx, senator: str, province: str) -> None:
    """R141, R143: he leaves Rome at once for a term of three turns."""
    s = ctx.state.senators[senator]
    s.location, s.governor_of = "province", province
    p = next(x for x in ctx.state.provinces if x.id == province)
    p.governor, p.term = senator, ctx.rules.governor_term
    ctx.report("rome.province.governor", senator=senator, province=province)


RULE_RECALL = "R144 Recalling a governor (VG 1.09.5)"


def recall_refusal(ctx: Ctx, governor: str, replacement: str) -> str | None:
    """R144: a governor in his province past his first year (a Revenue phase since he was
    named), replaced by a senator who could be named governor."""
    p = next((x for x in ctx.state.provinces if x.governor == governor), None)
    s = ctx.state.senators.get(governor)
    if p is None or s is None or s.location != "province":
        return "rome.error.not_a_governor"
    if p.term >= ctx.rules.governor_term:
        return "rome.error.first_year"
    if replacement not in governor_candidates(ctx):
        return "rome.error.not_a_candidate"
    return None


def recallable(ctx: Ctx) -> list[tuple[str, str]]:
    """(governor, replacement) pairs the Senate may vote on now."""
    return [
        (p.governor, r)
        for p in ctx.state.provinces
        if p.governor
        for r in governor_candidates(ctx)
        if recall_refusal(ctx, p.governor, r) is None
    ]


def recall_governor(ctx: Ctx, governor: str, replacement: str) -> None:
    """R144: the governor comes home; his replacement leaves Rome for a full term."""
    p = next(x for x in ctx.state.provinces if x.governor == governor)
    s = ctx.state.senators[governor]
    s.location, s.governor_of = "rome", ""
    ctx.report("rome.province.recalled", senator=governor, province=p.id)
    install_governor(ctx, replacement, p.id)


# --- the Revenue phase --------------------------------------------------------------------------


def governed(ctx: Ctx, seat: int) -> list[str]:
    return [s.id for s in aligned(ctx.state, seat) if s.location == "province" and s.governor_of]


def ask_spoils(ctx: Ctx) -> bool:
    """VG 1.06.13: every faction with governors says, at once, which of them take spoils. The
    choices wait in `scratch["spoils"]` (by seat), each seen by its own faction only, until the
    last is made (view.py)."""
    for f in ctx.state.factions:
        if not f.eliminated and governed(ctx, f.seat):
            ctx.state.pending.append(Decision(f.seat, "spoils"))
            ctx.state.scratch["spoils"] = {}
    return True


def legal_spoils(ctx: Ctx, decision: Decision) -> Iterable[Spoils]:
    mine = governed(ctx, decision.player)
    return [
        Spoils(player=decision.player, governors=list(c)) for n in range(len(mine) + 1) for c in combinations(mine, n)
    ]


def apply_spoils(ctx: Ctx, decision: Decision, action: Spoils) -> None:
    """The choice is kept secret until every faction owing one has chosen; then the spoils are
    taken in seat order, whatever order the choices came in."""
    mine = governed(ctx, decision.player)
    if len(set(action.governors)) != len(action.governors) or not set(action.governors) <= set(mine):
        raise IllegalAction(RULE_SPOILS, "rome.error.not_your_governor", "only one's own governors take spoils")
    state = ctx.state
    state.pending.remove(decision)
    state.scratch.setdefault("spoils", {})[str(decision.player)] = list(action.governors)
    if not any(d.kind == "spoils" for d in state.pending):
        take_spoils(ctx)


def take_spoils(ctx: Ctx) -> None:
    """A governor who takes spoils rolls his province's spoils (− Evil Omens − Trial of Verres),
    keeps what is positive, and is corrupt; the State pays a negative total at the debits."""
    state = ctx.state
    chosen: dict[str, list[str]] = state.scratch.pop("spoils", {})
    for seat in sorted(chosen, key=int):
        for senator in chosen[seat]:
            s = state.senators[senator]
            p = next(x for x in state.provinces if x.id == s.governor_of)
            card = ctx.deck.provinces[p.id]
            total = roll(ctx, card.spoils_developed if p.developed else card.spoils) - omens(ctx)
            total -= VERRES.get(min(state.events.get("trial_of_verres", 0), 2), 0)
            s.corrupt = True
            if total > 0:
                s.talents += total
            else:
                state.scratch["state_owes"] = state.scratch.get("state_owes", 0) - total
            ctx.report("rome.province.spoils", senator=senator, province=p.id, int=total)


def guess_spoils(ctx: Ctx, seat: int) -> list[str]:
    """A choice of spoils another faction may have made (search.py's sample): each governor
    takes them or not, on the dice."""
    return [g for g in governed(ctx, seat) if ctx.dice.roll(2) == 1]


def develop(ctx: Ctx) -> bool:
    """VG 1.06.4 (1.07B): a governed, undeveloped province develops on dr (+1 if its governor is
    not corrupt) of 6 or more; the governor gains 3 influence."""
    for p in ctx.state.provinces:
        if p.developed or not p.governor or ctx.state.senators[p.governor].location == "rebel":
            continue
        s = ctx.state.senators[p.governor]
        die = ctx.roll(1)[0] + (0 if s.corrupt else 1) - omens(ctx)
        if die >= ctx.rules.develop_on:
            p.developed = True
            s.influence += ctx.rules.develop_influence
            ctx.report("rome.province.developed", province=p.id, senator=s.id)
    return True


def taxes(ctx: Ctx) -> bool:
    """VG 1.06.51: each governed province pays the State its income roll (it may be negative),
    − Evil Omens, + Trial of Verres."""
    state = ctx.state
    for p in state.provinces:
        if not p.governor or state.senators[p.governor].location == "rebel":
            continue  # VG 1.11.33: a rebel's province pays the State nothing
        card = ctx.deck.provinces[p.id]
        total = roll(ctx, card.state_developed if p.developed else card.state) - omens(ctx)
        total += VERRES.get(min(state.events.get("trial_of_verres", 0), 2), 0)
        if total >= 0:
            state.treasury += total
        else:
            state.scratch["state_owes"] = state.scratch.get("state_owes", 0) - total
        ctx.report("rome.province.taxes", province=p.id, int=total)
    state.events.pop("trial_of_verres", None)
    return True
