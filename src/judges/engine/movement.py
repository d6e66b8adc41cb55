"""§ 9 Phase 5 — Movement: generals walk the hexes, carry troops and the Ark."""

from __future__ import annotations

from collections.abc import Mapping

from ..world import World
from .actions import Action, DropArk, LeaveTroops, Move, PickUpArk, TakeTroops
from .board import settlement_controller
from .context import Ctx, TurnHandler
from .errors import IllegalAction
from .rules import Rules
from .state import General

RULE = "§9 Movement"


def start_movement(ctx: Ctx) -> None:
    """Every free general gets his movement points for this phase."""
    state = ctx.state
    state.move_points = {g.id: ctx.rules.movement_points for g in state.generals.values() if g.captor is None}
    state.arrivals = {}
    state.arrival_counter = 0


def desert_sealed(ctx: Ctx) -> bool:
    return any(e.card == "sandstorm" for e in ctx.state.events_landed)


def contact_hexes(ctx: Ctx, seat: int) -> set[int]:
    """Every hex whose entry ends a move of `seat`'s generals: another player's free general,
    another player's garrison (Canaanite-held included), or a besieged settlement, unless razed."""
    state, world = ctx.state, ctx.world
    out = {g.hex for g in state.generals.values() if g.owner != seat and g.captor is None}
    out.update(
        info.hex
        for info, s in zip(world.settlements, state.settlements, strict=True)
        if s.owner is not None and s.owner != seat and not s.razed
    )
    for pair in state.invaders:
        if pair.at >= 0 and not state.settlements[pair.at].razed:
            out.add(world.settlements[pair.at].hex)
    return out


Steps = tuple[tuple[tuple[int, int, bool], ...], ...]


class MapMoves:
    """Movement on one map under one set of terrain costs: per hex, its steps (neighbour, cost
    of entering it, is it desert), and the reachable hexes of each start, points and Sandstorm
    when no contact hex is in the way, shared by every game on that map."""

    __slots__ = ("costs", "steps", "free")

    def __init__(self, world: World, costs: Mapping[str, int]) -> None:
        hexes = world.hexes
        self.costs = costs
        self.steps: Steps = tuple(
            tuple((n, costs[hexes[n].terrain], hexes[n].terrain == "desert") for n in world.neighbours[h])
            for h in range(len(hexes))
        )
        # (start, points, sealed) -> (hex -> cost, those hexes in order, the hexes a move may cross)
        self.free: dict[tuple[int, int, bool], tuple[dict[int, int], list[int], frozenset[int]]] = {}

    def reach(self, start: int, points: int, contact: set[int], sealed: bool) -> tuple[dict[int, int], list[int]]:
        """`_search`'s answer (hex -> cost) and its hexes in order. Contact only matters where a
        move would cross it: when no hex a contact-free search crosses is a contact hex, the
        contact-free answer is the answer."""
        key = (start, points, sealed)
        free = self.free.get(key)
        if free is None:
            best = _search(self.steps, start, points, set(), sealed)
            crossed = frozenset(h for h, cost in best.items() if cost < points)  # entered with points to spare
            free = self.free[key] = (best, sorted(best), crossed)
        if contact.isdisjoint(free[2]):
            return free[0], free[1]
        best = _search(self.steps, start, points, contact, sealed)
        return best, sorted(best)


_MAP_MOVES: dict[int, MapMoves] = {}  # id(world) -> its movement, under the last terrain costs asked for


def map_moves(world: World, rules: Rules) -> MapMoves:
    costs = rules.terrain_move_cost
    moves = _MAP_MOVES.get(id(world))
    if moves is None or moves.costs != costs:
        moves = _MAP_MOVES[id(world)] = MapMoves(world, costs)
    return moves


def reachable(ctx: Ctx, general: General, contact: set[int] | None = None) -> dict[int, int]:
    """Hex -> cheapest cost, for every hex the general can reach with his points left
    (his own hex excluded). Contact hexes can be entered but not crossed. Computed afresh:
    the legal moves of a turn read `TurnFacts.reach` instead."""
    points = ctx.state.move_points.get(general.id, 0)
    if points <= 0 or general.captor is not None:
        return {}
    if contact is None:
        contact = contact_hexes(ctx, general.owner)
    return _search(map_moves(ctx.world, ctx.rules).steps, general.hex, points, contact, desert_sealed(ctx))


def _search(steps: Steps, start: int, points: int, contact: set[int], sealed: bool) -> dict[int, int]:
    best = {start: 0}
    frontier = [start]
    # Every step costs at least 1, so `points` rounds of relaxation reach every hex in range.
    for _ in range(points):
        grown = []
        for here in frontier:
            if here != start and here in contact:
                continue  # the move would end here
            cost = best[here]
            for nxt, step_cost, desert in steps[here]:
                if sealed and desert:
                    continue  # the Sandstorm seals the desert
                new_cost = cost + step_cost
                if new_cost <= points and new_cost < best.get(nxt, 99):
                    best[nxt] = new_cost
                    grown.append(nxt)
        if not grown:
            break
        frontier = grown
    del best[start]
    return best


class TurnFacts:
    """What holds for a whole Movement turn of one seat. Only that seat's generals move, and
    nothing a Movement action does changes another player's units or garrisons, the invaders,
    the razed settlements or the events in force: so the contact hexes and the Sandstorm stay
    as they were, a general's reachable hexes depend only on his hex and points left, and his
    legal actions only on those, his army, the Ark and the garrison where he stands."""

    __slots__ = ("contact", "others", "sealed", "map", "moves", "segments")

    def __init__(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        # hexes of the other players' free generals (a settlement there without a garrison is contested)
        self.others = {g.hex for g in state.generals.values() if g.owner != seat and g.captor is None}
        self.contact = contact_hexes(ctx, seat)
        self.sealed = desert_sealed(ctx)
        self.map = map_moves(ctx.world, ctx.rules)
        # general id -> (his hex, his points, hex -> cost, his Move actions in hex order)
        self.moves: dict[int, tuple[int, int, dict[int, int], list[Move]]] = {}
        # general id -> (what his actions depend on, his actions)
        self.segments: dict[int, tuple[tuple[object, ...], list[Action]]] = {}

    def reach(self, ctx: Ctx, g: General) -> tuple[dict[int, int], list[Move]]:
        """The hexes a free general of the seat can reach (hex -> cost) and his Move actions."""
        points = ctx.state.move_points.get(g.id, 0)
        known = self.moves.get(g.id)
        if known is not None and known[0] == g.hex and known[1] == points:
            return known[2], known[3]
        best, order = self.map.reach(g.hex, points, self.contact, self.sealed) if points > 0 else ({}, [])
        hexes = ctx.world.hexes
        moves = [Move(player=g.owner, general=g.id, q=hexes[h].q, r=hexes[h].r) for h in order]
        self.moves[g.id] = (g.hex, points, best, moves)
        return best, moves

    def actions(self, ctx: Ctx, g: General) -> list[Action]:
        """The legal actions of one free general of the seat, in a fixed order: moves (by hex),
        troops taken, troops left, the Ark picked up or dropped."""
        state = ctx.state
        s_index = ctx.world.hexes[g.hex].settlement
        s = state.settlements[s_index] if s_index is not None else None
        key = (
            g.hex,
            state.move_points.get(g.id, 0),
            g.army,
            g.ark,
            state.ark_hex == g.hex,
            s.owner if s is not None else None,
            s.troops if s is not None else 0,
        )
        known = self.segments.get(g.id)
        if known is not None and known[0] == key:
            return known[1]
        seat = g.owner
        out: list[Action] = list(self.reach(ctx, g)[1])
        # _garrison_here, from the turn's facts: a standing settlement under him that his seat
        # holds with a garrison, or holds by his presence (no other player's general there)
        if s is not None and not s.razed and (s.owner == seat or (s.owner is None and g.hex not in self.others)):
            if s.owner == seat:
                out.extend(TakeTroops(player=seat, general=g.id, count=n) for n in range(1, s.troops + 1))
            out.extend(LeaveTroops(player=seat, general=g.id, count=n) for n in range(1, g.army + 1))
        if state.ark_hex == g.hex:
            out.append(PickUpArk(player=seat, general=g.id))
        if g.ark:
            out.append(DropArk(player=seat, general=g.id))
        self.segments[g.id] = (key, out)
        return out


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
    g = _own_mover(ctx, action.player, action.general)
    target = world.hex_at.get((action.q, action.r))
    if target is None:
        raise IllegalAction(
            RULE, "error.no_such_hex", f"there is no hex at q={action.q}, r={action.r}", q=action.q, r=action.r
        )
    facts = turn_facts(ctx, g.owner)
    options = facts.reach(ctx, g)[0]
    if target not in options:
        points = state.move_points.get(g.id, 0)
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
    state.move_points[g.id] -= options[target]
    if target in facts.contact:
        state.move_points[g.id] = 0  # contact ends the move
    g.hex = target
    state.arrivals[g.id] = state.arrival_counter
    state.arrival_counter += 1


def _garrison_here(ctx: Ctx, g: General) -> int | None:
    """The settlement under the general when his owner controls it (a standing one)."""
    s_index = ctx.world.hexes[g.hex].settlement
    if s_index is None or ctx.state.settlements[s_index].razed:
        return None
    if settlement_controller(ctx.state, ctx.world, s_index) != g.owner:
        return None
    return s_index


def apply_take(ctx: Ctx, action: TakeTroops) -> None:
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
    s = ctx.state.settlements[s_index]
    s.troops -= action.count
    if s.troops == 0:
        s.owner = None
    g.army += action.count


def apply_leave(ctx: Ctx, action: LeaveTroops) -> None:
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
    s = ctx.state.settlements[s_index]
    s.owner = g.owner
    s.troops += action.count
    g.army -= action.count


def apply_pick_up(ctx: Ctx, action: PickUpArk) -> None:
    g = _own_mover(ctx, action.player, action.general)
    if ctx.state.ark_hex != g.hex:
        raise IllegalAction(
            RULE, "error.no_ark_here", f"the Ark is not unattended on general {g.id}'s hex", general=g.id
        )
    ctx.state.ark_hex = None
    g.ark = True
    ctx.log_round("movement.ark_taken", player=g.owner, general=g.id, hex=g.hex)


def apply_drop(ctx: Ctx, action: DropArk) -> None:
    g = _own_mover(ctx, action.player, action.general)
    if not g.ark:
        raise IllegalAction(RULE, "error.no_ark", f"general {g.id} does not carry the Ark", general=g.id)
    g.ark = False
    ctx.state.ark_hex = g.hex
    ctx.log_round("movement.ark_dropped", player=g.owner, general=g.id, hex=g.hex)


def legal_movement(ctx: Ctx, seat: int) -> list[Action]:
    facts = turn_facts(ctx, seat)
    out: list[Action] = []
    for g in ctx.state.generals.values():
        if g.owner == seat and g.captor is None:
            out.extend(facts.actions(ctx, g))
    return out


MOVEMENT_HANDLERS: dict[type[Action], TurnHandler] = {
    Move: apply_move,
    TakeTroops: apply_take,
    LeaveTroops: apply_leave,
    PickUpArk: apply_pick_up,
    DropArk: apply_drop,
}
