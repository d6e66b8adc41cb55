"""A hint: the strong bot's choice for the decision a seat owes, with its reasons.

The search (`MCTSBot.appraise`) runs from the seat's view only, as a bot's does, so a hint knows
nothing the seat may not see. Its reasons are message keys with parameters (``hint.*`` in the
catalogs), built from the search's own numbers (each candidate's mean reward: the seat's share
of the wins where the rollouts stop, shown as a percentage) and from the facts the greedy bot's
scoring used for that kind of action: the enemy generals near a settlement (`THREAT_RANGE`), a
siege, the settlement's income, the Judge title of its region, the share of the region held, the
generals and cards in hand. Nothing here is English: the server renders the keys in the reader's
language (`render_hint`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..engine import Action, Buy, EndTurn, Move
from ..engine.actions import action_to_dict
from ..engine.board import base_value, besieged_settlements, control_map
from ..engine.view import PlayerView
from ..world import World, load_world
from .greedy import THREAT_RANGE, _near_settlements
from .mcts import _REVERSIBLE, Appraisal, MCTSBot

#: The bot whose choice a hint gives, and how many alternatives it lists.
HINT_SPEC = "mcts"
ALTERNATIVES = 2


class Reason(NamedTuple):
    key: str
    params: dict[str, Any]


class Hint(NamedTuple):
    action: Action
    reasons: list[Reason]
    alternatives: list[tuple[Action, int | None]]  # (action, value in %), best first


def _percent(x: float | None) -> int | None:
    return None if x is None else round(100 * x)


def hint_for(seat: int, legal: list[Action], view: PlayerView, seed: int, cpu_budget: float | None = None) -> Hint:
    """The hint for `seat`'s decision: `legal` are its legal actions, `view` its view (nothing
    else is read). `cpu_budget`: seconds of CPU the search may take (None: its whole budget)."""
    if not legal:
        raise ValueError("the seat owes no decision")
    bot = MCTSBot(seed, cpu_budget=cpu_budget)
    choice, cands = bot.appraise(seat, legal, view)
    world = load_world(view.state.options.rules.map)
    mine = next((c for c in cands if c.action == choice), Appraisal(choice, None, None, 0))
    others = sorted((c for c in cands if c.action != choice and c.mean is not None), key=lambda c: -(c.mean or 0.0))
    reasons: list[Reason] = []
    step = action_to_dict(choice)
    if len(legal) == 1:
        reasons.append(Reason("hint.only", {"step": step}))
    elif mine.mean is None and isinstance(choice, _REVERSIBLE):
        reasons.append(Reason("hint.heuristic", {"step": step}))
    elif mine.mean is None:
        reasons.append(Reason("hint.unrivalled", {"step": step}))
    elif others:
        best = others[0]
        reasons.append(
            Reason(
                # the search keeps greedy's choice unless another is ahead by its margin on the
                # samples both were played on: a higher mean on fewer samples does not overrule it
                "hint.value" if (best.mean or 0.0) <= mine.mean else "hint.kept",
                {
                    "step": step,
                    "value": _percent(mine.mean),
                    "other": action_to_dict(best.action),
                    "other_value": _percent(best.mean),
                    "samples": mine.samples,
                },
            )
        )
    else:
        reasons.append(Reason("hint.value_alone", {"step": step, "value": _percent(mine.mean)}))
    if mine.advantage is not None and choice != cands[0].action:
        reasons.append(
            Reason(
                "hint.overrules",
                {"other": action_to_dict(cands[0].action), "gain": _percent(mine.advantage)},
            )
        )
    reasons += facts(seat, choice, view, world)
    alternatives = [(c.action, _percent(c.mean)) for c in others[:ALTERNATIVES]]
    return Hint(choice, reasons, alternatives)


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
    near = sum(1 for h in enemies if h in _near_settlements(world)[settlement])
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


def hint_json(hint: Hint) -> dict[str, Any]:
    """The hint as data (keys and parameters; `render_hint` adds the texts)."""
    return {
        "action": action_to_dict(hint.action),
        "reasons": [{"key": r.key, "params": r.params} for r in hint.reasons],
        "alternatives": [{"action": action_to_dict(a), "value": v} for a, v in hint.alternatives],
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
    out["alternatives"] = [{**a, "text": words(a["action"])} for a in data["alternatives"]]
    return out
