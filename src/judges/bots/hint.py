"""A hint: the best of a decision's strong candidates, measured on paired samples, with reasons.

The candidates are the MCTS bot's (`MCTSBot.candidates`: greedy's choice, ending the turn, the
best option of each kind greedy ranks — in Movement each general's steps toward its two best
goals, whatever greedy's own next step is). They are compared on paired samples from the seat's
view only (`paired.compare`: every candidate played on the same determinized futures, so a hint
knows nothing the seat may not see), a batch at a time while the leader is within its noise of
another, up to `SAMPLES` samples, `ROLLOUTS` rollouts or `CPU_SECONDS` of CPU: the search's time
goes where the choice is close. The hint names the best, how far ahead it is of the nearest
alternative (in points of the searched futures won, ± the standard error, how sure the samples
are), or that they are *about even* when the samples cannot tell them apart; and the next two
alternatives the same way. Its other reasons are the facts greedy's scoring read for that kind of
action: the enemy generals near a settlement (`THREAT_RANGE`), a siege, the settlement's income,
the Judge title of its region, the share of the region held, the generals and cards in hand.
Nothing here is English: the server renders the keys in the reader's language (`render_hint`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..engine import Action, Buy, EndTurn, Move
from ..engine.actions import action_to_dict
from ..engine.board import base_value, besieged_settlements, control_map
from ..engine.view import PlayerView
from ..world import World, load_world
from .mcts import MCTSBot
from .paired import Measure, compare
from .world_facts import THREAT_RANGE, near_settlements

#: The bot whose candidates a hint weighs, and how many alternatives it names.
HINT_SPEC = "mcts"
ALTERNATIVES = 2
#: Paired samples every candidate gets, and the most the close ones get.
FIRST_SAMPLES = 8
SAMPLES = 48
#: The rollouts a hint may play (the same hint on every machine), and its CPU (the server's
#: safety net: past it the hint stands on the samples played).
ROLLOUTS = 160
CPU_SECONDS = 0.8


class Reason(NamedTuple):
    key: str
    params: dict[str, Any]


class Alternative(NamedTuple):
    action: Action
    value: int  # % of the searched futures won
    gap: int  # points behind the hinted action, on the samples both were played on
    error: int  # the gap's standard error, in points
    even: bool  # the samples cannot tell it from the hinted action


class Hint(NamedTuple):
    action: Action
    reasons: list[Reason]
    alternatives: list[Alternative]  # the nearest first
    samples: int = 0  # paired samples of the hinted action (0: no comparison was needed)


def _points(x: float) -> int:
    return round(100 * x)


def _alternative(m: Measure) -> Alternative:
    return Alternative(m.action, _points(m.mean), _points(m.gap), max(1, _points(m.error)), m.even)


def hint_for(
    seat: int, legal: list[Action], view: PlayerView, seed: int, cpu_budget: float | None = CPU_SECONDS
) -> Hint:
    """The hint for `seat`'s decision: `legal` are its legal actions, `view` its view (nothing
    else is read). `cpu_budget`: seconds of CPU the comparison may take (None: no bound but the
    rollouts')."""
    if not legal:
        raise ValueError("the seat owes no decision")
    world = load_world(view.state.options.rules.map)
    if len(legal) == 1:
        return Hint(
            legal[0], [Reason("hint.only", {"step": action_to_dict(legal[0])})] + facts(seat, legal[0], view, world), []
        )
    bot = MCTSBot(seed)
    greedy = bot._greedy.choose(seat, legal, lambda: view)
    cands = bot.candidates(seat, legal, view, greedy)
    if len(cands) == 1:
        step = action_to_dict(greedy)
        return Hint(greedy, [Reason("hint.unrivalled", {"step": step})] + facts(seat, greedy, view, world), [])
    found = compare(
        seat,
        view,
        cands,
        seed,
        min_samples=FIRST_SAMPLES,
        max_samples=SAMPLES,
        max_rollouts=ROLLOUTS,
        cpu_budget=cpu_budget,
        search=bot,
    )
    best = found.best
    others = [_alternative(m) for m in found.measures[1:]]
    nearest = others[0]
    params: dict[str, Any] = {
        "step": action_to_dict(best.action),
        "other": action_to_dict(nearest.action),
        "gap": nearest.gap,
        "error": nearest.error,
        "samples": found.measures[1].samples,
    }
    if nearest.even:
        reasons = [Reason("hint.even", params)]
    else:
        reasons = [Reason("hint.ahead", {**params, "sure": round(100 * found.measures[1].sure)})]
    reasons += facts(seat, best.action, view, world)
    return Hint(best.action, reasons, others[:ALTERNATIVES], best.samples)


def facts(seat: int, action: Action, view: PlayerView, world: World) -> list[Reason]:
    """The facts the greedy bot's scoring reads for this kind of action, from the view."""
    state = view.state
    out: list[Reason] = []
    settlement: int | None = None
    if isinstance(action, Buy):
        if action.settlement is not None:
            settlement = world.settlement_by_name[action.settlement]
        if action.item == "general":
            count = sum(1 for g in state.generals.values() if g.owner == seat)
            out.append(Reason("hint.generals", {"count": count}))
        elif action.item == "card":
            out.append(Reason("hint.hand", {"count": len(state.players[seat].hand)}))
        elif action.item == "development" and settlement is not None:
            out.append(
                Reason(
                    "hint.development",
                    {"settlement": settlement, "coins": state.options.rules.development_income},
                )
            )
    elif isinstance(action, Move):
        hex_index = world.hex_at.get((action.q, action.r))
        if hex_index is not None:
            settlement = world.hexes[hex_index].settlement
            if state.ark_hex is not None and hex_index == world.tabernacle_hex:
                g = state.generals.get(action.general)
                if g is not None and g.ark:
                    out.append(Reason("hint.tabernacle", {"general": action.general}))
    elif isinstance(action, EndTurn):
        out.append(Reason("hint.end_turn", {}))
    if settlement is None:
        return out
    s = state.settlements[settlement]
    region = world.settlements[settlement].region
    enemies = [g.hex for g in state.generals.values() if g.owner != seat and g.captor is None]
    near = sum(1 for h in enemies if h in near_settlements(world)[settlement])
    if isinstance(action, Buy) and action.item in ("troop", "wall"):
        out.append(
            Reason(
                "hint.threat",
                {"settlement": settlement, "count": near, "range": THREAT_RANGE, "troops": s.troops},
            )
        )
        if settlement in besieged_settlements(state):
            out.append(Reason("hint.besieged", {"settlement": settlement}))
    income = base_value(state, world, settlement)
    owner = s.owner
    if owner == seat:
        out.append(Reason("hint.income_kept", {"settlement": settlement, "coins": income}))
    elif isinstance(action, Move):
        defenders = s.troops if owner is not None else 0
        defenders += sum(
            1 + g.army
            for g in state.generals.values()
            if g.owner != seat and g.captor is None and g.hex == world.settlements[settlement].hex
        )
        out.append(Reason("hint.income_gained", {"settlement": settlement, "coins": income, "defenders": defenders}))
    title = state.titles[region] if region < len(state.titles) else None
    if title is not None and title.holder is not None:
        holder = state.generals.get(title.holder)
        if holder is not None and holder.owner == seat:
            out.append(Reason("hint.title_mine", {"region": region}))
        elif holder is not None:
            out.append(Reason("hint.title_theirs", {"region": region, "owner": holder.owner}))
    control = control_map(state, world)
    standing = [i for i in world.regions[region].settlements if not state.settlements[i].razed]
    held = sum(1 for i in standing if control[i] == seat)
    out.append(Reason("hint.region_share", {"region": region, "held": held, "total": len(standing)}))
    return out


_NOTES = {True: "hint.alternative_even", False: "hint.alternative_behind"}


def _note(alternative: dict[str, Any], lang: str) -> str:
    """How an alternative compares with the hinted action, in `lang` (a hint stored before the
    paired measure has only its value)."""
    from ..i18n import render_entry

    if "gap" not in alternative:
        return f"{alternative.get('value')} %"
    params = {"gap": alternative["gap"], "error": alternative["error"]}
    return render_entry({"key": _NOTES[bool(alternative["even"])], "params": params}, lang)


def hint_json(hint: Hint) -> dict[str, Any]:
    """The hint as data (keys and parameters; `render_hint` adds the texts)."""
    return {
        "action": action_to_dict(hint.action),
        "reasons": [{"key": r.key, "params": r.params} for r in hint.reasons],
        "alternatives": [
            {"action": action_to_dict(a.action), "value": a.value, "gap": a.gap, "error": a.error, "even": a.even}
            for a in hint.alternatives
        ],
        "samples": hint.samples,
    }


def render_hint(
    data: dict[str, Any], lang: str, view: PlayerView, world: World, names: Mapping[Any, str] | None = None
) -> dict[str, Any]:
    """`hint_json`'s data with each reason's and alternative's text in `lang` (the actions as
    their buttons' words: `i18n.render_action`, with the owners, costs and events of `view`)."""
    from ..i18n import render_action, render_entry

    state = view.state
    owners = {gid: g.owner for gid, g in state.generals.items()}

    def words(action: dict[str, Any]) -> str:
        return render_action(
            action, lang, world, names, owners=owners, costs=state.options.rules.costs, events=state.events_area
        )

    out = dict(data)
    out["text"] = words(data["action"])
    reasons = []
    for r in data["reasons"]:
        params = dict(r["params"])
        for name in ("step", "other"):
            if isinstance(params.get(name), dict):
                params[name] = words(params[name])
        reasons.append({**r, "text": render_entry({"key": r["key"], "params": params}, lang, world, names)})
    out["reasons"] = reasons
    out["alternatives"] = [
        {
            **a,
            "text": words(a["action"]),
            "note": _note(a, lang),
        }
        for a in data["alternatives"]
    ]
    return out
