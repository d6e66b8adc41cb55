"""Phase 5, Senate: the elections (VG 1.09.2-1.09.4, 1.09.81; R94-R114, R122): repopulating
Rome, the consuls, a Dictator and his Master of Horse, the censor."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ....engine.errors import IllegalAction
from ..actions import (
    AppointMaster,
    ProposeCensor,
    ProposeConsuls,
    ProposeDictator,
    Repopulate,
    Skip,
)
from ..board import active_wars, aligned
from ..context import Ctx
from ..state import UNALIGNED, Decision
from .sitting import _sitting, ask_presiding, in_senate, presiding, put_to_vote, tally

RULE_CONSULS = "R94-R98 Consuls (VG 1.09.2)"
RULE_CENSOR = "R122 Censor (VG 1.09.4)"


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
    from ..effects import senator_from_card

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
    """R104 (K13 as VG): three active wars (a civil war among them, VG 1.11.3), or one active war
    whose printed land and naval strength reach 20."""
    rules, deck = ctx.rules, ctx.deck
    active = [w for w in ctx.state.wars if w.state in ("active", "unprosecuted")]
    big = any(
        deck.wars[w.id].land + (0 if w.naval_won else deck.wars[w.id].naval) >= rules.dictator_war_strength
        for w in active
    )
    return len(active_wars(ctx.state)) >= rules.dictator_active_wars or big


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
