"""§ 9 Phase 5 — Movement: generals walk the hexes, carry troops and the Ark."""

from __future__ import annotations

from collections.abc import Mapping

from ..world import World
from .actions import Action, DropArk, LeaveTroops, Move, PickUpArk, TakeTroops
from .board import settlement_controller
from .context import Ctx, TurnHandler
from .errors import IllegalAction
from .interned import TROOP_ROW, leave_troops, take_troops
from .messages import message
from .rules import Rules
from .state import General, SettlementState

# What § 9 Movement reports (engine/messages.py).
message("movement.ark_taken", "movement-and-combat", player="player", general="general", hex="hex")
message("movement.ark_dropped", "movement-and-combat", player="player", general="general", hex="hex")

RULE = "§9 Movement"


def start_movement(ctx: Ctx) -> None:
    """Every free general gets his movement points for this phase."""
    state = ctx.state
    points = ctx.rules.movement_points
    state.move_points = {g.id: points for g in state.generals.values() if g.captor is None}
    state.arrivals = {}
    state.arrival_counter = 0


def desert_sealed(ctx: Ctx) -> bool:
    return any(e.card == "sandstorm" for e in ctx.state.events_landed)


def contact_hexes(ctx: Ctx, seat: int, others: set[int] | None = None) -> set[int]:
    """Every hex whose entry ends a move of `seat`'s generals: another player's free general,
    another player's garrison (Canaanite-held included), or a besieged settlement, unless razed.
    `others`: the hexes of the other players' free generals, when the caller has them."""
    state, world = ctx.state, ctx.world
    if others is None:
        others = {g.hex for g in state.generals.values() if g.owner != seat and g.captor is None}
    out = set(others)
    places, settlements = world.settlements, state.settlements
    for i, s in enumerate(settlements):
        owner = s.owner
        if owner is not None and owner != seat and not s.razed:
            out.add(places[i].hex)
    for pair in state.invaders:
        at = pair.at
        if at >= 0 and not settlements[at].razed:
            out.add(places[at].hex)
    return out


Steps = tuple[tuple[tuple[int, int, bool], ...], ...]
Table = tuple[tuple[tuple[int, int], ...], ...]  # per hex: (neighbour, cost of entering it) open to a move


class Reach:
    """Where a general can go from one hex with some points, the Sandstorm raging or not,
    when no contact hex is in the way: `best` (hex -> cost), `order` (those hexes sorted),
    `crossed` (the hexes entered with points to spare: the only ones whose contact matters)."""

    __slots__ = ("best", "order", "crossed")

    def __init__(self, table: Table, start: int, points: int) -> None:
        self.best = _walk(table, start, points, set())
        self.order = tuple(sorted(self.best))
        self.crossed = frozenset(h for h, cost in self.best.items() if cost < points)


class MapMoves:
    """Movement on one map under one set of terrain costs: per hex, its steps (neighbour, cost
    of entering it, is it desert); the `Reach` of each start, points and Sandstorm, and each
    seat's general's Move to each hex, shared by every game on that map."""

    __slots__ = ("costs", "steps", "tables", "free", "rows", "world")

    def __init__(self, world: World, costs: Mapping[str, int]) -> None:
        hexes = world.hexes
        self.world = world
        self.costs = costs
        self.steps: Steps = tuple(
            tuple((n, costs[hexes[n].terrain], hexes[n].terrain == "desert") for n in world.neighbours[h])
            for h in range(len(hexes))
        )
        # the steps open to a move, without and with the Sandstorm (which seals the desert)
        self.tables: tuple[Table, Table] = (
            tuple(tuple((n, cost) for n, cost, _ in out) for out in self.steps),
            tuple(tuple((n, cost) for n, cost, desert in out if not desert) for out in self.steps),
        )
        self.free: dict[tuple[int, int, bool], Reach] = {}  # (start, points, sealed) -> its Reach

    def reach(self, start: int, points: int, contact: set[int], sealed: bool) -> tuple[dict[int, int], tuple[int, ...]]:
        """`_walk`'s answer (hex -> cost) and its hexes in order. Contact only matters where a
        move would cross it: when no hex a contact-free search crosses is a contact hex, the
        contact-free answer is the answer."""
        key = (start, points, sealed)
        free = self.free.get(key)
        if free is None:
            free = self.free[key] = Reach(self.tables[sealed], start, points)
        crossed = free.crossed
        if contact.isdisjoint(crossed):
            return free.best, free.order
        best = _walk(self.tables[sealed], start, points, contact)
        return best, tuple(sorted(best))


def map_moves(world: World, rules: Rules) -> MapMoves:
    """The map's movement under these terrain costs: a fact of the World."""
    costs = rules.terrain_move_cost
    return world.derived(("moves", costs), lambda: MapMoves(world, costs))


def reachable(ctx: Ctx, general: General, contact: set[int] | None = None) -> dict[int, int]:
    """Hex -> cheapest cost, for every hex the general can reach with his points left
    (his own hex excluded). Contact hexes can be entered but not crossed. Computed afresh:
    the legal moves of a turn read `TurnFacts.reach` instead."""
    points = ctx.state.move_points.get(general.id, 0)
    if points <= 0 or general.captor is not None:
        return {}
    if contact is None:
        contact = contact_hexes(ctx, general.owner)
    return _walk(map_moves(ctx.world, ctx.rules).tables[desert_sealed(ctx)], general.hex, points, contact)


def _walk(table: Table, start: int, points: int, contact: set[int]) -> dict[int, int]:
    """Hex -> cheapest cost of every hex reachable from `start` with `points` over the open
    steps of `table`; contact hexes are entered but not crossed."""
    # hex -> cheapest cost so far, by index (a list: cheaper to read than a dict); above
    # `points` where not reached yet
    cost_of = [points + 1] * len(table)
    cost_of[start] = 0
    reached: list[int] = []  # the hexes in the order first reached (the answer's order)
    frontier = [start]
    # Every step costs at least 1, so `points` rounds of relaxation reach every hex in range.
    for _ in range(points):
        grown = []
        for here in frontier:
            if here in contact and here != start:
                continue  # the move would end here
            cost = cost_of[here]
            for nxt, step_cost in table[here]:
                new_cost = cost + step_cost
                if new_cost < cost_of[nxt]:  # (within `points`: above it stands a hex not reached)
                    if cost_of[nxt] > points:
                        reached.append(nxt)
                    cost_of[nxt] = new_cost
                    grown.append(nxt)
        if not grown:
            break
        frontier = grown
    return {h: cost_of[h] for h in reached}


class TurnFacts:
    """What holds for a whole Movement turn of one seat. Only that seat's generals move, and
    nothing a Movement action does changes another player's units or garrisons, the invaders,
    the razed settlements or the events in force: so the contact hexes and the Sandstorm stay
    as they were, a general's reachable hexes depend only on his hex and points left, and his
    legal actions only on those, his army, the Ark and the garrison where he stands.

    Each general's list of actions is kept until a Movement action changes what it reads:
    the handlers below tell the facts which generals they touched (`moved`, `touched_hex`),
    and the seat's whole list is rebuilt from the kept lists of the others."""

    __slots__ = ("contact", "others", "sealed", "map", "moves", "segments", "listing", "movers")

    def __init__(self, ctx: Ctx, seat: int) -> None:
        # the seat's free generals in id order (no Movement action frees, captures or adds one),
        # and the hexes of the other players' free generals (a settlement there without a
        # garrison is contested)
        self.movers: list[int] = []
        self.others: set[int] = set()
        for g in ctx.state.generals.values():
            if g.captor is None:
                if g.owner == seat:
                    self.movers.append(g.id)
                else:
                    self.others.add(g.hex)
        self.contact = contact_hexes(ctx, seat, self.others)
        self.sealed = desert_sealed(ctx)
        self.map = map_moves(ctx.world, ctx.rules)
        # general id -> (his hex, his points, hex -> cost, those hexes in order)
        self.moves: dict[int, tuple[int, int, dict[int, int], tuple[int, ...]]] = {}
        # general id -> his actions, until an action touches him
        self.segments: dict[int, list[Action]] = {}
        # the seat's actions (its free generals' in id order), until an action touches any
        self.listing: list[Action] | None = None

    def reach(self, ctx: Ctx, g: General) -> tuple[dict[int, int], tuple[int, ...]]:
        """The hexes a free general of the seat can reach (hex -> cost) and those hexes in order."""
        gid, here = g.id, g.hex
        points = ctx.state.move_points.get(gid, 0)
        known = self.moves.get(gid)
        if known is not None and known[0] == here and known[1] == points:
            return known[2], known[3]
        best, order = self.map.reach(here, points, self.contact, self.sealed) if points > 0 else ({}, ())
        self.moves[gid] = (here, points, best, order)
        return best, order

    def actions(self, ctx: Ctx, g: General) -> list[Action]:
        """The legal actions of one free general of the seat, in a fixed order: moves (by hex),
        troops taken, troops left, the Ark picked up or dropped."""
        gid = g.id  # (each field read once: a read of the state's fields is a look-up when compiled)
        known = self.segments.get(gid)
        if known is not None:
            return known
        state, world, pool = ctx.state, ctx.world, ctx.actions
        here, seat = g.hex, g.owner
        out: list[Action] = pool.moves(seat, gid, self.reach(ctx, g)[1], world)  # his Move to each hex in reach
        s_index = world.hexes[here].settlement
        if s_index is not None:
            # _garrison_here, from the turn's facts: a standing settlement under him that his
            # seat holds with a garrison, or holds by his presence (no other player's general there)
            s = state.settlements[s_index]
            owner = s.owner
            if (owner == seat or (owner is None and here not in self.others)) and not s.razed:
                troops = pool.troops(seat, gid)
                if owner == seat:
                    count = s.troops
                    out += troops[0][:count] if count <= TROOP_ROW else take_troops(seat, gid, count)
                army = g.army
                out += troops[1][:army] if army <= TROOP_ROW else leave_troops(seat, gid, army)
        if state.ark_hex == here:
            out.append(PickUpArk(player=seat, general=gid))
        if g.ark:
            out.append(DropArk(player=seat, general=gid))
        self.segments[gid] = out
        return out

    def legal(self, ctx: Ctx, seat: int) -> list[Action]:
        """The seat's actions (a fresh list): its free generals' in id order."""
        listing = self.listing
        if listing is None:
            listing = []
            segments, generals = self.segments, ctx.state.generals
            for gid in self.movers:
                known = segments.get(gid)
                listing += known if known is not None else self.actions(ctx, generals[gid])
            self.listing = listing
        return listing.copy()

    def moved(self, gid: int) -> None:
        """General `gid` changed his hex, points, army or Ark: his actions are built anew."""
        self.segments.pop(gid, None)
        self.listing = None

    def touched_hex(self, ctx: Ctx, hex_index: int) -> None:
        """The garrison or the unattended Ark at `hex_index` changed: the actions of every
        general standing there are built anew."""
        generals = ctx.state.generals
        for gid in [gid for gid in self.segments if generals[gid].hex == hex_index]:
            del self.segments[gid]
        self.listing = None


def turn_facts(ctx: Ctx, seat: int) -> TurnFacts:
    return ctx.turn_cached(seat, TurnFacts)


def _own_mover(ctx: Ctx, seat: int, gid: int) -> General:
    g = ctx.state.generals.get(gid)
    if g is None or g.owner != seat:
        raise IllegalAction(RULE, "error.not_your_general", f"general {gid} is not one of yours", general=gid)
    if g.captor is not None:
        raise IllegalAction(RULE, "error.general_captive", f"general {gid} is captive", general=gid)
    return g


def apply_move(ctx: Ctx, action: Move) -> None:
    state, world = ctx.state, ctx.world
    # (a trusted Move was listed for one of the player's free generals)
    g = state.generals[action.general] if ctx.trusted else _own_mover(ctx, action.player, action.general)
    target = world.hex_at.get((action.q, action.r))
    if target is None:
        raise IllegalAction(
            RULE, "error.no_such_hex", f"there is no hex at q={action.q}, r={action.r}", q=action.q, r=action.r
        )
    gid = g.id
    facts = turn_facts(ctx, g.owner)
    options = facts.reach(ctx, g)[0]
    if target not in options:
        points = state.move_points.get(gid, 0)
        if world.hexes[target].terrain == "desert" and desert_sealed(ctx):
            why = "a Sandstorm seals the desert this round"
        elif target == g.hex:
            why = "he is already there"
        else:
            why = f"that hex is out of reach with {points} movement point(s) left"
        raise IllegalAction(
            RULE,
            "error.unreachable",
            f"general {g.id} cannot move to q={action.q}, r={action.r}: {why}",
            general=g.id,
            q=action.q,
            r=action.r,
        )
    move_points = state.move_points
    move_points[gid] = 0 if target in facts.contact else move_points[gid] - options[target]  # contact ends the move
    g.hex = target
    facts.moved(gid)
    counter = state.arrival_counter
    state.arrivals[gid] = counter
    state.arrival_counter = counter + 1


def _garrison_here(ctx: Ctx, g: General) -> int | None:
    """The settlement under the general when his owner controls it (a standing one)."""
    s_index = ctx.world.hexes[g.hex].settlement
    if s_index is None or ctx.state.settlements[s_index].razed:
        return None
    if settlement_controller(ctx.state, ctx.world, s_index) != g.owner:
        return None
    return s_index


def _listed_garrison(ctx: Ctx, action: TakeTroops | LeaveTroops) -> tuple[General, SettlementState]:
    """The general and the settlement under him of a troop action taken from the legal list
    (`ctx.trusted`): `TurnFacts.actions` lists them only for a free general of the seat at a
    standing settlement his seat controls."""
    g = ctx.state.generals[action.general]
    s_index = ctx.world.hexes[g.hex].settlement
    assert s_index is not None
    return g, ctx.state.settlements[s_index]


def apply_take(ctx: Ctx, action: TakeTroops) -> None:
    if ctx.trusted:
        g, s = _listed_garrison(ctx, action)
    else:
        g, s = _checked_take(ctx, action)
    s.troops -= action.count
    if s.troops == 0:
        s.owner = None
    g.army += action.count
    turn_facts(ctx, g.owner).touched_hex(ctx, g.hex)


def _checked_take(ctx: Ctx, action: TakeTroops) -> tuple[General, SettlementState]:
    g = _own_mover(ctx, action.player, action.general)
    s_index = _garrison_here(ctx, g)
    available = ctx.state.settlements[s_index].troops if s_index is not None else 0
    if s_index is None or ctx.state.settlements[s_index].owner != g.owner:
        raise IllegalAction(RULE, "error.no_garrison", f"general {g.id} stands at no garrison of yours", general=g.id)
    if not 1 <= action.count <= available:
        raise IllegalAction(
            RULE,
            "error.troop_count",
            f"take 1 to {available} troops, not {action.count}",
            count=action.count,
            available=available,
        )
    return g, ctx.state.settlements[s_index]


def apply_leave(ctx: Ctx, action: LeaveTroops) -> None:
    if ctx.trusted:
        g, s = _listed_garrison(ctx, action)
    else:
        g, s = _checked_leave(ctx, action)
    s.owner = g.owner
    s.troops += action.count
    g.army -= action.count
    turn_facts(ctx, g.owner).touched_hex(ctx, g.hex)


def _checked_leave(ctx: Ctx, action: LeaveTroops) -> tuple[General, SettlementState]:
    g = _own_mover(ctx, action.player, action.general)
    s_index = _garrison_here(ctx, g)
    if s_index is None:
        raise IllegalAction(
            RULE, "error.no_garrison", f"general {g.id} is not in a settlement you control", general=g.id
        )
    if not 1 <= action.count <= g.army:
        raise IllegalAction(
            RULE,
            "error.troop_count",
            f"leave 1 to {g.army} troops, not {action.count}",
            count=action.count,
            available=g.army,
        )
    return g, ctx.state.settlements[s_index]


def apply_pick_up(ctx: Ctx, action: PickUpArk) -> None:
    g = _own_mover(ctx, action.player, action.general)
    if ctx.state.ark_hex != g.hex:
        raise IllegalAction(
            RULE, "error.no_ark_here", f"the Ark is not unattended on general {g.id}'s hex", general=g.id
        )
    ctx.state.ark_hex = None
    g.ark = True
    turn_facts(ctx, g.owner).touched_hex(ctx, g.hex)
    ctx.log_round("movement.ark_taken", player=g.owner, general=g.id, hex=g.hex)


def apply_drop(ctx: Ctx, action: DropArk) -> None:
    g = _own_mover(ctx, action.player, action.general)
    if not g.ark:
        raise IllegalAction(RULE, "error.no_ark", f"general {g.id} does not carry the Ark", general=g.id)
    g.ark = False
    ctx.state.ark_hex = g.hex
    turn_facts(ctx, g.owner).touched_hex(ctx, g.hex)
    ctx.log_round("movement.ark_dropped", player=g.owner, general=g.id, hex=g.hex)


def legal_movement(ctx: Ctx, seat: int) -> list[Action]:
    return ctx.turn_cached(seat, TurnFacts).legal(ctx, seat)


MOVEMENT_HANDLERS: dict[type[Action], TurnHandler] = {
    Move: apply_move,
    TakeTroops: apply_take,
    LeaveTroops: apply_leave,
    PickUpArk: apply_pick_up,
    DropArk: apply_drop,
}
