"""§ 9 Phase 6 — Combat: sieges, battles, captures, plunder, and claiming Judge titles."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import ClaimJudge, Plunder
from .board import base_value, control_map, generals_at, is_defended, living_seats, settlement_controller, turn_order
from .context import Ctx
from .effects import kill_general, raze, register_wrath
from .errors import IllegalAction
from .messages import Line, message
from .state import CANAANITES, Decision, InvaderPair

# What § 9 Combat reports (engine/messages.py). A battle's parties are seats, or "invaders".
_BATTLE: dict[str, Any] = {  # (Any: spread into message's keywords)
    "hex": "hex",
    "attacker": "player",
    "defender": "player",
    "winner": "player",
    "rounds": "battle_rounds",
    "attacker_losses": "int",
    "defender_losses": "int",
    "captured": "generals",
    "killed": "generals",
}
message("combat.battle", "movement-and-combat", variants=(("combat.battle.none", "winner", "missing"),), **_BATTLE)
message(
    "notification.battle",
    "movement-and-combat",
    lines=("rounds", Line("fmt.battle_losses"), Line("fmt.captured", "captured"), Line("fmt.killed", "killed")),
    variants=(("notification.battle.none", "winner", "missing"),),
    **_BATTLE,
)
message("general.captured", "captives", general="general", owner="player", captor="player", hex="hex")
message("combat.siege_razed", "movement-and-combat", pair="int", settlement="settlement")
message("combat.pair_destroyed", "movement-and-combat", pair="int", settlement="settlement")
message("combat.plunder", "movement-and-combat", player="player", settlement="settlement", coins="coins")
message("combat.conquest", "movement-and-combat", player="player", settlement="settlement")
message(
    "title.claimed",
    "judges-and-kings",
    variants=(("title.claimed.from", "previous_owner", "given"),),
    region="region",
    player="player",
    previous_owner="player",
    previous_holder="general",
)
message("title.judge", "judges-and-kings", region="region", general="general", player="player")

RULE = "§9 Combat"
RULE_CLAIM = "§9 Claiming a Judge title"
INVADERS = "invaders"

#: Who fights on a side: a seat, CANAANITES, INVADERS, or None (a siege's defenders whose
#: settlement nobody controls).
Party = int | str | None


class Side:
    """One side of a battle: a party (a seat, CANAANITES or INVADERS), the garrison it
    fights with (a settlement index), its generals, and for invaders their strength."""

    __slots__ = ("party", "garrison", "generals", "removed", "strength", "hit_min", "losses")

    def __init__(
        self, party: Party, garrison: int | None, generals: list[int], hit_min: int, strength: int = 0
    ) -> None:
        self.party = party
        self.garrison = garrison
        self.generals = sorted(generals)
        self.removed: list[int] = []
        self.strength = strength
        self.hit_min = hit_min
        self.losses = 0

    def active_generals(self) -> list[int]:
        removed = self.removed
        return [g for g in self.generals if g not in removed] if removed else self.generals


def _troops(ctx: Ctx, side: Side) -> int:
    state = ctx.state
    n = state.settlements[side.garrison].troops if side.garrison is not None else 0
    return n + sum(state.generals[g].army for g in side.active_generals())


def _alive(ctx: Ctx, side: Side) -> bool:
    if side.party == INVADERS:
        return side.strength > 0
    # a side with a general standing is alive; without, only its garrison's troops are left
    return bool(side.active_generals()) or (
        side.garrison is not None and ctx.state.settlements[side.garrison].troops > 0
    )


def _dice(ctx: Ctx, side: Side) -> int:
    rules = ctx.rules
    if side.party == INVADERS:
        return rules.invader_dice
    active = side.active_generals()
    king = rules.king_extra_dice if ctx.state.king in active else 0
    return _troops(ctx, side) + len(active) + king


def _roll(ctx: Ctx, side: Side) -> tuple[list[int], int]:
    roll = ctx.dice.roll
    faces = [roll(6) for _ in range(_dice(ctx, side))]
    return faces, sum(1 for f in faces if f >= side.hit_min)


def _take_hits(ctx: Ctx, side: Side, hits: int) -> None:
    """Troops fall first (the garrison, then armies by general id); generals only when their
    side has no troop left."""
    state = ctx.state
    if side.party == INVADERS:
        side.strength = max(0, side.strength - hits)
        side.losses += hits
        return
    while hits > 0:
        if side.garrison is not None and state.settlements[side.garrison].troops > 0:
            state.settlements[side.garrison].troops -= 1
        else:
            army = next((g for g in side.active_generals() if state.generals[g].army > 0), None)
            if army is not None:
                state.generals[army].army -= 1
            elif side.active_generals():
                side.removed.append(side.active_generals()[0])
            else:
                break
        side.losses += 1
        hits -= 1
    if side.garrison is not None and state.settlements[side.garrison].troops == 0:
        state.settlements[side.garrison].owner = None


def _fight(ctx: Ctx, attacker: Side, defender: Side, hex_index: int) -> Side | None:
    """Rounds of simultaneous dice until a side has nothing left. Returns the winner, or None
    when both fall in the same round. Then captures or deaths of the defeated generals."""
    rounds: list[dict[str, Any]] = []
    while _alive(ctx, attacker) and _alive(ctx, defender):
        a_faces, a_hits = _roll(ctx, attacker)
        d_faces, d_hits = _roll(ctx, defender)
        _take_hits(ctx, defender, a_hits)
        _take_hits(ctx, attacker, d_hits)
        rounds.append({"attacker": a_faces, "defender": d_faces, "attacker_hits": a_hits, "defender_hits": d_hits})
    a_alive, d_alive = _alive(ctx, attacker), _alive(ctx, defender)
    winner = attacker if a_alive else defender if d_alive else None
    loser = defender if winner is attacker else attacker if winner is defender else None
    captor = None
    # A seat's victorious generals take the defeated generals captive (never INVADERS nor CANAANITES).
    if winner is not None and isinstance(winner.party, int) and winner.party != CANAANITES and winner.active_generals():
        captor = winner.party
    outcome: dict[str, list[int]] = {"captured": [], "killed": []}
    for side in (attacker, defender):
        fallen = side.generals if side is loser or winner is None else side.removed
        for gid in fallen:
            if gid not in ctx.state.generals:
                continue
            if side is loser and captor is not None:
                _capture(ctx, gid, captor, hex_index)
                outcome["captured"].append(gid)
            else:
                kill_general(ctx, gid, "battle")
                outcome["killed"].append(gid)
    ctx.state.battles += 1
    record = {
        "hex": hex_index,
        "attacker": _party_name(attacker.party),
        "defender": _party_name(defender.party),
        "winner": _party_name(winner.party) if winner is not None else None,
        "rounds": rounds,
        "attacker_losses": attacker.losses,
        "defender_losses": defender.losses,
        **outcome,
    }
    ctx.log_round("combat.battle", **record)
    ctx.notify("notification.battle", to=living_seats(ctx.state), params=record)
    return winner


def _party_name(party: Party) -> int | str | None:
    return "canaanites" if party == CANAANITES else party


def _capture(ctx: Ctx, gid: int, captor: int, hex_index: int) -> None:
    g = ctx.state.generals[gid]
    g.captor = captor
    g.army = 0
    g.hex = hex_index
    if g.ark:
        g.ark = False
        ctx.state.ark_hex = hex_index  # the Ark is dropped on the hex
    ctx.report("general.captured", general=gid, owner=g.owner, captor=captor, hex=hex_index)


# --- Sieges -------------------------------------------------------------------------------


def _siege(ctx: Ctx, pair: InvaderPair) -> None:
    rules = ctx.rules
    state, world = ctx.state, ctx.world
    settlement = pair.at
    if state.settlements[settlement].razed:
        return  # a pair that razed its settlement moves on at the next Announcements
    hex_index = world.settlements[settlement].hex
    if not is_defended(state, world, settlement):
        ctx.log_round("combat.siege_razed", pair=pair.id, settlement=settlement)
        raze(ctx, settlement, "invaders")
        return
    # Everyone in a besieged settlement defends it together against the common enemy.
    s = state.settlements[settlement]
    defenders = Side(
        party=s.owner if s.owner is not None else settlement_controller(state, world, settlement),
        garrison=settlement if s.owner is not None else None,
        generals=[g.id for g in generals_at(state, hex_index) if g.captor is None],
        hit_min=rules.walls_hit_min if s.walls else rules.defender_hit_min,
    )
    invaders = Side(
        party=INVADERS, garrison=None, generals=[], hit_min=rules.invader_hit_min, strength=rules.invader_pair_strength
    )
    winner = _fight(ctx, invaders, defenders, hex_index)
    if winner is invaders:
        raze(ctx, settlement, "invaders")
    else:
        state.invaders.remove(pair)
        ctx.log_round("combat.pair_destroyed", pair=pair.id, settlement=settlement)


# --- Battles between players (and against the Canaanites) ---------------------------------------


def _parties_at(ctx: Ctx, hex_index: int) -> tuple[int | None, dict[int, list[int]]]:
    """The garrison's owner (if a standing settlement has one) and each player's free generals."""
    state, world = ctx.state, ctx.world
    garrison_owner = None
    s_index = world.hexes[hex_index].settlement
    if s_index is not None:
        s = state.settlements[s_index]
        if not s.razed and s.owner is not None and s.troops > 0:
            garrison_owner = s.owner
    generals: dict[int, list[int]] = {}
    for g in state.generals.values():
        if g.hex == hex_index and g.captor is None:
            generals.setdefault(g.owner, []).append(g.id)
    return garrison_owner, generals


def contested_hexes(ctx: Ctx) -> list[int]:
    """The hexes where two parties meet (players' free generals and `_parties_at`'s garrison
    owner), in hex order; one pass over the generals."""
    state = ctx.state
    owners_at: dict[int, set[int]] = {}
    for g in state.generals.values():
        if g.captor is None:
            owners = owners_at.get(g.hex)
            if owners is None:
                owners_at[g.hex] = {g.owner}
            else:
                owners.add(g.owner)
    hexes, settlements = ctx.world.hexes, state.settlements
    out = []
    for hex_index in sorted(owners_at):
        owners = owners_at[hex_index]
        if len(owners) < 2:
            s_index = hexes[hex_index].settlement
            if s_index is None:
                continue
            s = settlements[s_index]
            if s.razed or s.owner is None or s.troops <= 0 or s.owner in owners:
                continue  # no garrison of another party
        out.append(hex_index)
    return out


def _first_arrival(ctx: Ctx, gids: list[int]) -> int:
    arrivals = [ctx.state.arrivals[g] for g in gids if g in ctx.state.arrivals]
    return min(arrivals) if arrivals else -1  # -1: he was there before anyone moved


def _battle_plan(
    ctx: Ctx, hex_index: int, parties: tuple[int | None, dict[int, list[int]]] | None = None
) -> tuple[int, list[int]]:
    """The holder of the hex and its attackers in order of arrival (`parties`: `_parties_at`
    of the hex, when the caller has it)."""
    garrison_owner, generals = parties if parties is not None else _parties_at(ctx, hex_index)
    if garrison_owner is not None:
        holder = garrison_owner
    else:
        holder = min(generals, key=lambda p: (_first_arrival(ctx, generals[p]), p))
    attackers = sorted((p for p in generals if p != holder), key=lambda p: (_first_arrival(ctx, generals[p]), p))
    return holder, attackers


def _side(ctx: Ctx, party: int, hex_index: int, attacking: bool) -> Side:
    rules = ctx.rules
    state, world = ctx.state, ctx.world
    s_index = world.hexes[hex_index].settlement
    garrison = None
    walls = False
    if s_index is not None:
        s = state.settlements[s_index]
        if not s.razed and s.owner == party and s.troops > 0:
            garrison = s_index
        walls = s.walls and not s.razed
    generals = (
        []
        if party == CANAANITES
        else [g.id for g in generals_at(state, hex_index) if g.owner == party and g.captor is None]
    )
    if attacking:
        hit_min = rules.attacker_hit_min
    elif party == CANAANITES:
        hit_min = rules.walls_hit_min if walls else rules.canaanite_hit_min
    else:
        hit_min = rules.walls_hit_min if walls else rules.defender_hit_min
    return Side(party=party, garrison=garrison, generals=generals, hit_min=hit_min)


def run_battles(ctx: Ctx) -> None:
    """Invader sieges in ring order, then every other contested hex in the attackers' turn
    order; then each victorious attacker at a settlement owes the plunder decision."""
    state, world = ctx.state, ctx.world
    for pair in sorted(state.invaders, key=lambda p: world.settlements[p.at].ring_pos):
        if pair in state.invaders:
            _siege(ctx, pair)
    order = turn_order(state)
    plans = []
    for hex_index in contested_hexes(ctx):
        parties = _parties_at(ctx, hex_index)
        holder, attackers = _battle_plan(ctx, hex_index, parties)
        first = attackers[0]
        rank = order.index(first) if first in order else len(order)
        plans.append((rank, _first_arrival(ctx, parties[1][first]), hex_index, holder, attackers))
    plans.sort()
    conquests = []
    for _, _, hex_index, holder, attackers in plans:
        original = holder
        current: int | None = holder
        for attacker in attackers:
            if current is None:
                current = attacker  # the hex fell empty: the next arrival simply holds it
                continue
            attacking = _side(ctx, attacker, hex_index, True)
            winner = _fight(ctx, attacking, _side(ctx, current, hex_index, False), hex_index)
            current = None if winner is None else attacker if winner is attacking else current
        s_index = world.hexes[hex_index].settlement
        if current is not None and current != original and s_index is not None and not state.settlements[s_index].razed:
            conquests.append((current, s_index))
    for seat, s_index in conquests:
        state.pending.append(Decision(player=seat, kind="plunder", subject=s_index))


def plunder_value(ctx: Ctx, settlement: int) -> int:
    """3 × the settlement's income value (village 1, city 2, +2 per development)."""
    return ctx.rules.plunder_multiplier * base_value(ctx.state, ctx.world, settlement)


def legal_plunder(ctx: Ctx, decision: Decision) -> Iterator[Plunder]:
    name = ctx.world.settlements[decision.subject_index].name
    yield Plunder(player=decision.player, settlement=name, plunder=False)
    yield Plunder(player=decision.player, settlement=name, plunder=True)


def apply_plunder(ctx: Ctx, decision: Decision, action: Plunder) -> None:
    state = ctx.state
    settlement = decision.subject_index
    state.pending.remove(decision)
    if action.plunder:
        gain = plunder_value(ctx, settlement)
        state.players[action.player].coins += gain
        register_wrath(ctx, ctx.rules.wrath_plunder, "plunder")
        ctx.log_round("combat.plunder", player=action.player, settlement=settlement, coins=gain)
        raze(ctx, settlement, "plunder")
    else:
        ctx.log_round("combat.conquest", player=action.player, settlement=settlement)


# --- Claiming Judge titles --------------------------------------------------------------------


def judge_candidates(ctx: Ctx, seat: int, region: int) -> list[int]:
    """The player's free generals standing on the region's settlements (a judge of another
    region too: the manual sets no limit of titles per general); the one in the city first
    (the default choice)."""
    state, world = ctx.state, ctx.world
    out = []
    for s in world.regions[region].settlements:  # the city is listed first
        hex_index = world.settlements[s].hex
        for g in sorted(generals_at(state, hex_index), key=lambda g: g.id):
            if g.owner == seat and g.captor is None:
                out.append(g.id)
    return out


def claim_titles(ctx: Ctx) -> None:
    state, world = ctx.state, ctx.world
    control = control_map(state, world)  # claiming a title changes no control
    for region_index, region in enumerate(world.regions):
        title = state.titles[region_index]
        if not title.in_play:
            continue
        standing = [s for s in region.settlements if not state.settlements[s].razed]
        controllers = {control[s] for s in standing}
        if len(controllers) != 1:
            continue
        seat = controllers.pop()
        if seat is None or seat == CANAANITES or title.owner == seat or state.players[seat].eliminated:
            continue
        previous = (title.owner, title.holder)
        title.owner, title.holder = seat, None
        ctx.log_round(
            "title.claimed", region=region_index, player=seat, previous_owner=previous[0], previous_holder=previous[1]
        )
        candidates = judge_candidates(ctx, seat, region_index)
        if len(candidates) == 1:
            title.holder = candidates[0]
            ctx.log_round("title.judge", region=region_index, general=candidates[0], player=seat)
        elif candidates:
            state.pending.append(Decision(player=seat, kind="claim_judge", subject=region_index))


def legal_claim(ctx: Ctx, decision: Decision) -> Iterator[ClaimJudge]:
    name = ctx.world.regions[decision.subject_index].name
    for gid in judge_candidates(ctx, decision.player, decision.subject_index):
        yield ClaimJudge(player=decision.player, region=name, general=gid)


def apply_claim(ctx: Ctx, decision: Decision, action: ClaimJudge) -> None:
    if action.general not in judge_candidates(ctx, action.player, decision.subject_index):
        raise IllegalAction(
            RULE_CLAIM,
            "error.claim_judge",
            f"general {action.general} is not one of your free generals in {action.region} without a title",
            general=action.general,
            region=action.region,
        )
    ctx.state.pending.remove(decision)
    ctx.state.titles[decision.subject_index].holder = action.general
    ctx.log_round("title.judge", region=decision.subject, general=action.general, player=action.player)
    for other in [d for d in ctx.state.pending if d.kind == "claim_judge"]:
        if not judge_candidates(ctx, other.player, other.subject_index):
            ctx.state.pending.remove(other)  # the title stays vacant


def end_combat(ctx: Ctx) -> None:
    ctx.state.move_points = {}
    ctx.state.arrivals = {}
    ctx.state.arrival_counter = 0
