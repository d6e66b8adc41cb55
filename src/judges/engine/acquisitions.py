"""§ 8 Phase 4 — Acquisitions: buying troops, mercenaries, developments, walls, generals, cards."""

from __future__ import annotations

from ..world import World
from .actions import Action, Buy
from .board import control_map, is_besieged
from .context import Ctx
from .effects import register_wrath
from .errors import IllegalAction
from .intrigue import draw_card
from .items import ITEMS, cost, wrath
from .messages import message
from .rules import Rules
from .state import General

# What § 8 reports (engine/messages.py): a settlement's or a general's item names it.
message(
    "acquisition",
    "acquisitions",
    variants=(("acquisition.settlement", "settlement", "given"), ("acquisition.general", "general", "given")),
    player="player",
    item="item",
    cost="coins",
    settlement="settlement",
    general="general",
)

RULE = "§8 Acquisitions"


def development_cap(rules: Rules, world: World, settlement: int) -> int:
    """The developments a settlement may hold: a city's cap or a village's."""
    return rules.city_max_developments if world.settlements[settlement].is_city else rules.village_max_developments


def _cap(ctx: Ctx, settlement: int) -> int:
    return development_cap(ctx.rules, ctx.world, settlement)


def generals_count(ctx: Ctx, seat: int) -> int:
    """Every living general of the player, captives included, counts toward the limit."""
    return sum(1 for g in ctx.state.generals.values() if g.owner == seat)


def refusal(ctx: Ctx, action: Buy, control: list[int | None] | None = None) -> IllegalAction | None:
    """Why this purchase is not allowed now, or None when it is. The reason is the error
    `apply_buy` raises: a message key with its parameters (`error.buy.too_poor` with `item`,
    `cost`, `coins`...) and an English sentence. `control` (the control map) may be passed in
    when many purchases are checked against one position."""
    rules = ctx.rules
    state, world = ctx.state, ctx.world
    if control is None:
        control = control_map(state, world)
    seat, item = action.player, action.item
    entry = ITEMS.get(item)
    if entry is None:
        return IllegalAction(
            RULE, "error.buy.not_for_sale", f"{item!r} is not for sale; items: {', '.join(ITEMS)}", item=item
        )
    price = cost(rules, item)
    coins = state.players[seat].coins
    if coins < price:
        return IllegalAction(
            RULE,
            "error.buy.too_poor",
            f"a {item} costs {price} coins and you have {coins}",
            item=item,
            cost=price,
            coins=coins,
        )
    named = action.settlement
    settlement = None
    if named is not None:
        settlement = world.settlement_by_name.get(named)
        if settlement is None:
            return IllegalAction(
                RULE,
                "error.buy.unknown_settlement",
                f"there is no settlement called {named!r}",
                item=item,
                settlement=named,
            )
    general = None
    if action.general is not None:
        general = state.generals.get(action.general)
        if general is None or general.owner != seat:
            return IllegalAction(
                RULE,
                "error.buy.not_your_general",
                f"general {action.general} is not one of yours",
                item=item,
                general=action.general,
            )
        if general.captor is not None:
            return IllegalAction(
                RULE,
                "error.buy.general_captive",
                f"general {action.general} is captive",
                item=item,
                general=action.general,
            )
    target = entry.target
    if target == "none":
        if settlement is not None or general is not None:
            return IllegalAction(
                RULE,
                "error.buy.names_nothing",
                f"a {item} is drawn to your hand: name no settlement or general",
                item=item,
            )
        if len(state.players[seat].hand) >= rules.hand_limit:
            return IllegalAction(
                RULE,
                "error.buy.hand_full",
                f"your hand is full ({rules.hand_limit} cards)",
                item=item,
                limit=rules.hand_limit,
            )
        if not state.deck and not state.discard:
            return IllegalAction(RULE, "error.buy.deck_empty", "no card is left to draw", item=item)
        return None
    if target == "general":
        if general is None or settlement is not None:
            return IllegalAction(
                RULE,
                "error.buy.needs_general",
                f"a {item} joins the army of one of your free generals: name the general",
                item=item,
            )
        return None
    if target == "either" and general is not None:
        if settlement is not None:
            return IllegalAction(
                RULE,
                "error.buy.both_named",
                "name either a settlement (its garrison) or a general (his army), not both",
                item=item,
            )
        here = world.hexes[general.hex].settlement
        if here is None or control[here] != seat:
            return IllegalAction(
                RULE,
                "error.buy.army_outside",
                f"a {item} joins general {general.id}'s army only where he stands in a settlement you control",
                item=item,
                general=general.id,
            )
        return None
    # placed in a settlement: target "settlement", or "either" with no general named
    if settlement is None or general is not None:
        return IllegalAction(
            RULE, "error.buy.needs_settlement", f"a {item} is placed in a settlement: name the settlement", item=item
        )
    if control[settlement] != seat:
        return IllegalAction(
            RULE, "error.buy.not_controlled", f"you do not control {named}", item=item, settlement=named
        )
    if entry.besieged_forbids and is_besieged(state, settlement):
        return IllegalAction(RULE, "error.buy.besieged", f"{named} is besieged", item=item, settlement=named)
    if item == "development" and state.settlements[settlement].developments >= _cap(ctx, settlement):
        cap = _cap(ctx, settlement)
        return IllegalAction(
            RULE,
            "error.buy.development_cap",
            f"{named} already has its {cap} development(s)",
            item=item,
            settlement=named,
            limit=cap,
        )
    if item == "wall" and state.settlements[settlement].walls:
        return IllegalAction(RULE, "error.buy.has_walls", f"{named} already has walls", item=item, settlement=named)
    if item == "general" and generals_count(ctx, seat) >= rules.max_generals:
        return IllegalAction(
            RULE,
            "error.buy.general_limit",
            f"you already have {rules.max_generals} generals",
            item=item,
            limit=rules.max_generals,
        )
    return None


def apply_buy(ctx: Ctx, action: Buy) -> None:
    rules = ctx.rules
    if not ctx.trusted:  # a trusted purchase was taken from legal_buys' list
        why = refusal(ctx, action, turn_facts(ctx, action.player).control)
        if why is not None:
            raise why
    state, world = ctx.state, ctx.world
    seat, item = action.player, action.item
    price = _prices(rules)[0][item]  # cost(rules, item), kept with the rules
    state.players[seat].coins -= price
    state.spent[item] = state.spent.get(item, 0) + price
    settlement = world.settlement_by_name.get(action.settlement) if action.settlement is not None else None
    # (validated above: an item placed in a settlement names one, a general's item names him)
    if item in ("troop", "mercenary") and action.general is not None:
        state.generals[action.general].army += 1
        if ITEMS[item].wrath is not None:
            register_wrath(ctx, wrath(rules, item), item)  # reason: the item's name
    elif item == "card":
        draw_card(ctx, seat)
    elif settlement is not None:
        if item == "troop":
            s = state.settlements[settlement]
            s.owner = seat
            s.troops += 1
        elif item == "development":
            state.settlements[settlement].developments += 1
        elif item == "wall":
            state.settlements[settlement].walls = True
        elif item == "general":
            gid = state.next_general_id
            state.next_general_id += 1
            state.generals[gid] = General(id=gid, owner=seat, hex=world.settlements[settlement].hex)
            turn_facts(ctx, seat).general_bought()
    ctx.log_round("acquisition", player=seat, item=item, cost=price, settlement=settlement, general=action.general)


class TurnFacts:
    """What holds for a whole Acquisitions turn of one seat: no purchase changes who controls
    a settlement (troops and generals are placed only where the buyer has control already) or
    which are besieged, so one control map, and the purchases it allows before money and
    limits, serve the whole turn."""

    __slots__ = ("control", "price", "cheapest", "settlements", "armies", "count", "card")

    def __init__(self, ctx: Ctx, seat: int) -> None:
        rules, world = ctx.rules, ctx.world
        self.control = ctx.economy_control_map()
        self.price, self.cheapest = _prices(rules)
        besieged = {pair.at for pair in ctx.state.invaders}
        # per settlement the seat controls: its index, whether it is besieged, its development
        # cap, and its troop, development, wall and general purchases
        self.settlements: list[tuple[int, bool, int, Buy, Buy, Buy, Buy]] = []
        places = world.settlements
        city_cap, village_cap = rules.city_max_developments, rules.village_max_developments
        for s in [s for s, owner in enumerate(self.control) if owner == seat]:
            troop, development, wall, general = ctx.actions.placed_buys(seat, places[s].name)
            cap = city_cap if places[s].is_city else village_cap  # _cap
            self.settlements.append((s, s in besieged, cap, troop, development, wall, general))
        # per free general of the seat, in id order: his troop and mercenary purchases and
        # whether he stands in a settlement the seat controls; `count`: the seat's generals,
        # captives included. Built when first asked, and again after a general is bought
        # (`general_bought`): nothing else in a turn changes them (no general moves or dies).
        self.armies: list[tuple[Buy, Buy, bool]] | None = None
        self.count = 0
        self.card = Buy(player=seat, item="card")

    def general_buys(self, ctx: Ctx, seat: int) -> list[tuple[Buy, Buy, bool]]:
        armies = self.armies
        if armies is None:
            hexes, control = ctx.world.hexes, self.control
            armies = []
            count = 0
            for g in ctx.state.generals.values():
                if g.owner == seat:
                    count += 1
                    if g.captor is None:
                        here = hexes[g.hex].settlement
                        troop, mercenary = _army_buys(seat, g.id)
                        armies.append((troop, mercenary, here is not None and control[here] == seat))
            self.armies, self.count = armies, count
        return armies

    def general_bought(self) -> None:
        self.armies = None


_ARMY_BUYS: dict[int, dict[int, tuple[Buy, Buy]]] = {}  # seat -> general id -> his troop and mercenary purchases


def _army_buys(seat: int, gid: int) -> tuple[Buy, Buy]:
    """A general's troop and mercenary purchases (frozen values: the same serve every turn)."""
    mine = _ARMY_BUYS.get(seat)
    if mine is None:
        mine = _ARMY_BUYS[seat] = {}
    buys = mine.get(gid)
    if buys is None:
        if len(mine) > 5_000:  # bounded: general ids grow over a long-lived process's games
            mine.clear()
        buys = mine[gid] = (
            Buy(player=seat, item="troop", general=gid),
            Buy(player=seat, item="mercenary", general=gid),
        )
    return buys


def _prices(rules: Rules) -> tuple[dict[str, int], int]:
    """Every item's price under these rules and the cheapest (a fact of the Rules)."""
    return rules.prices


def turn_facts(ctx: Ctx, seat: int) -> TurnFacts:
    return ctx.turn_cached(seat, TurnFacts)


def legal_buys(ctx: Ctx, seat: int) -> list[Action]:
    """Every purchase `refusal` allows, in a fixed order (settlements in map order: troop,
    development, wall, general; then free generals: troop, mercenary; then a card), built
    valid from the turn's facts instead of asking `refusal` about each candidate."""
    state, rules = ctx.state, ctx.rules
    coins = state.players[seat].coins
    price, cheapest = _prices(rules)
    if coins < cheapest:
        return []  # (without building the turn's facts: a seat that cannot buy just ends its turn)
    facts = turn_facts(ctx, seat)
    troop_ok = coins >= price["troop"]
    development_ok = coins >= price["development"]
    wall_ok = coins >= price["wall"]
    armies = facts.general_buys(ctx, seat)
    general_ok = coins >= price["general"] and facts.count < rules.max_generals  # captives count
    settlements = state.settlements
    out: list[Action] = []
    for s, besieged, cap, troop, development, wall, general in facts.settlements:
        if troop_ok:
            out.append(troop)
        if not besieged:
            if development_ok and settlements[s].developments < cap:
                out.append(development)
            if wall_ok and not settlements[s].walls:
                out.append(wall)
        if general_ok:
            out.append(general)
    mercenary_ok = coins >= price["mercenary"]
    if troop_ok or mercenary_ok:
        for troop, mercenary, at_home in armies:
            if troop_ok and at_home:  # a troop joins a general in a settlement of his seat
                out.append(troop)
            if mercenary_ok:
                out.append(mercenary)
    if coins >= price["card"] and len(state.players[seat].hand) < rules.hand_limit and (state.deck or state.discard):
        out.append(facts.card)
    return out
