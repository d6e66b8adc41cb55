"""§ 8 Phase 4 — Acquisitions: buying troops, mercenaries, developments, walls, generals, cards."""

from __future__ import annotations

from collections.abc import Iterator

from . import constants as C
from .actions import Buy
from .board import control_map, is_besieged
from .context import Ctx
from .effects import register_wrath
from .errors import IllegalAction
from .intrigue import draw_card
from .state import General

RULE = "§8 Acquisitions"
ITEMS = tuple(C.COSTS)


def _cap(ctx: Ctx, settlement: int) -> int:
    return C.CITY_MAX_DEVELOPMENTS if ctx.world.settlements[settlement].is_city else C.VILLAGE_MAX_DEVELOPMENTS


def generals_count(ctx: Ctx, seat: int) -> int:
    """Every living general of the player, captives included, counts toward the limit."""
    return sum(1 for g in ctx.state.generals.values() if g.owner == seat)


def refusal(ctx: Ctx, action: Buy, control: list | None = None) -> str | None:
    """Why this purchase is not allowed now, or None when it is. `control` (the control map)
    may be passed in when many purchases are checked against one position."""
    state, world = ctx.state, ctx.world
    if control is None:
        control = control_map(state, world)
    seat, item = action.player, action.item
    if item not in C.COSTS:
        return f"{item!r} is not for sale; items: {', '.join(ITEMS)}"
    cost = C.COSTS[item]
    if state.players[seat].coins < cost:
        return f"a {item} costs {cost} coins and you have {state.players[seat].coins}"
    settlement = None
    if action.settlement is not None:
        settlement = world.settlement_by_name.get(action.settlement)
        if settlement is None:
            return f"there is no settlement called {action.settlement!r}"
    general = None
    if action.general is not None:
        general = state.generals.get(action.general)
        if general is None or general.owner != seat:
            return f"general {action.general} is not one of yours"
        if general.captor is not None:
            return f"general {action.general} is captive"
    needs_settlement = item in ("development", "wall", "general") or (item == "troop" and general is None)
    if item == "card":
        if settlement is not None or general is not None:
            return "a card is drawn to your hand: name no settlement or general"
        if len(state.players[seat].hand) >= C.HAND_LIMIT:
            return f"your hand is full ({C.HAND_LIMIT} cards)"
        if not state.deck and not state.discard:
            return "no card is left to draw"
        return None
    if item == "mercenary":
        if general is None or settlement is not None:
            return "a mercenary joins the army of one of your free generals: name the general"
        return None
    if item == "troop" and general is not None:
        if settlement is not None:
            return "name either a settlement (its garrison) or a general (his army), not both"
        here = world.hexes[general.hex].settlement
        if here is None or control[here] != seat:
            return f"a troop joins general {general.id}'s army only where he stands in a settlement you control"
        return None
    if needs_settlement:
        if settlement is None or general is not None:
            return f"a {item} is placed in a settlement: name the settlement"
        if control[settlement] != seat:
            return f"you do not control {action.settlement}"
        if item in ("development", "wall") and is_besieged(state, settlement):
            return f"{action.settlement} is besieged"
        if item == "development" and state.settlements[settlement].developments >= _cap(ctx, settlement):
            return f"{action.settlement} already has its {_cap(ctx, settlement)} development(s)"
        if item == "wall" and state.settlements[settlement].walls:
            return f"{action.settlement} already has walls"
        if item == "general" and generals_count(ctx, seat) >= C.MAX_GENERALS:
            return f"you already have {C.MAX_GENERALS} generals"
    return None


def apply_buy(ctx: Ctx, action: Buy) -> None:
    why = refusal(ctx, action)
    if why is not None:
        raise IllegalAction(RULE, "error.cannot_buy", why, item=action.item)
    state, world = ctx.state, ctx.world
    seat, item = action.player, action.item
    cost = C.COSTS[item]
    state.players[seat].coins -= cost
    state.spent[item] = state.spent.get(item, 0) + cost
    settlement = world.settlement_by_name.get(action.settlement) if action.settlement is not None else None
    if item == "troop" and action.general is None:
        s = state.settlements[settlement]
        s.owner = seat
        s.troops += 1
    elif item in ("troop", "mercenary"):
        state.generals[action.general].army += 1
        if item == "mercenary":
            register_wrath(ctx, C.WRATH_MERCENARY, "mercenary")
    elif item == "development":
        state.settlements[settlement].developments += 1
    elif item == "wall":
        state.settlements[settlement].walls = True
    elif item == "general":
        gid = state.next_general_id
        state.next_general_id += 1
        state.generals[gid] = General(id=gid, owner=seat, hex=world.settlements[settlement].hex)
    elif item == "card":
        draw_card(ctx, seat)
    ctx.log_round("acquisition", player=seat, item=item, cost=cost, settlement=settlement, general=action.general)


def legal_buys(ctx: Ctx, seat: int) -> Iterator[Buy]:
    state, world = ctx.state, ctx.world
    coins = state.players[seat].coins
    if coins < min(C.COSTS.values()):
        return
    control = control_map(state, world)
    mine = [i for i, owner in enumerate(control) if owner == seat]
    names = {s: world.settlements[s].name for s in mine}
    candidates: list[Buy] = []
    for s in mine:
        for item in ("troop", "development", "wall", "general"):
            candidates.append(Buy(player=seat, item=item, settlement=names[s]))
    for g in state.generals.values():
        if g.owner == seat and g.captor is None:
            candidates.append(Buy(player=seat, item="troop", general=g.id))
            candidates.append(Buy(player=seat, item="mercenary", general=g.id))
    candidates.append(Buy(player=seat, item="card"))
    for buy in candidates:
        if C.COSTS[buy.item] <= coins and refusal(ctx, buy, control) is None:
            yield buy
