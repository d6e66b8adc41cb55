"""§ 13 Invaders: pairs that travel the ring, besiege, and raze what nobody defends."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import ForeseeInvasion
from .board import is_defended, prophet_owner
from .context import Ctx
from .effects import raze
from .errors import IllegalAction
from .messages import message
from .state import CANAANITES, Decision, InvaderPair

# What § 13 reports (engine/messages.py).
message("invaders.besiege", "wrath-and-invaders", pair="int", settlement="settlement", how="arrival")
message("invaders.raid", "wrath-and-invaders", pair="int", settlement="settlement", how="arrival")
message("invaders.stay", "wrath-and-invaders", pair="int", settlement="settlement")
message("invaders.wave", "wrath-and-invaders", wave="int", pairs="int")
message("invaders.no_entry", "wrath-and-invaders", pair="int")
message("invaders.entry_roll", "wrath-and-invaders", pair="int", die="die", sides="int")
message("prophet.foresaw_invasion", "events", player="player", pair="int")

RULE_MOVE = "§5.2 Invaders move"
RULE_ENTRY = "§13 New wave"


def _can_host(ctx: Ctx, settlement: int, besieged: set[int]) -> bool:
    """A settlement a pair may stop at: standing, not besieged by another pair, and not
    Canaanite-held (the invaders do not besiege their own people: rules reference)."""
    s = ctx.state.settlements[settlement]
    return not s.razed and s.owner != CANAANITES and settlement not in besieged


def _land(ctx: Ctx, pair: InvaderPair, settlement: int, how: str) -> None:
    pair.at = settlement
    if is_defended(ctx.state, ctx.world, settlement):
        ctx.report("invaders.besiege", pair=pair.id, settlement=settlement, how=how)
    else:
        ctx.report("invaders.raid", pair=pair.id, settlement=settlement, how=how)
        raze(ctx, settlement, "invaders")


def move_invaders(ctx: Ctx) -> None:
    """§ 5.2: every pair, oldest first, goes to the next settlement along its direction."""
    state, world = ctx.state, ctx.world
    ring = world.ring
    n = len(ring)
    for pair in state.invaders:
        besieged = {p.at for p in state.invaders if p is not pair}
        pos = world.settlements[pair.at].ring_pos
        for k in range(1, n):
            candidate = ring[(pos + k * pair.direction) % n]
            if _can_host(ctx, candidate, besieged):
                _land(ctx, pair, candidate, "move")
                break
        else:
            ctx.report("invaders.stay", pair=pair.id, settlement=pair.at)


def entry_candidates(ctx: Ctx) -> list[int]:
    """Where an entering pair may appear: standing, unbesieged, not Canaanite-held."""
    besieged = {p.at for p in ctx.state.invaders if p.at >= 0}
    settlements = ctx.state.settlements
    return [  # _can_host
        s
        for s in ctx.world.ring
        if not settlements[s].razed and settlements[s].owner != CANAANITES and s not in besieged
    ]


def start_wave(ctx: Ctx) -> None:
    """§ 5.2 / § 13: after a judgment a new wave enters, one pair per wave slot."""
    state = ctx.state
    if not state.judgment:
        return
    state.waves += 1
    for i in range(state.options.wave_pairs):
        # The first pair of a wave goes clockwise, the second counter-clockwise [M].
        state.invaders.append(
            InvaderPair(id=state.next_pair_id, at=-1, direction=1 if i == 0 else -1, wave=state.waves)
        )
        state.next_pair_id += 1
    ctx.report("invaders.wave", wave=state.waves, pairs=state.options.wave_pairs)
    place_entering_pairs(ctx)


def place_entering_pairs(ctx: Ctx) -> None:
    """Places the wave's pairs still off the board: by the prophet's owner, else by a die."""
    state = ctx.state
    for pair in state.invaders:
        if pair.at >= 0:
            continue
        candidates = entry_candidates(ctx)
        if not candidates:
            state.invaders.remove(pair)
            ctx.report("invaders.no_entry", pair=pair.id)
            place_entering_pairs(ctx)
            return
        seer = prophet_owner(state)
        if seer is not None:
            state.pending.append(Decision(player=seer, kind="foresee_invasion", subject=pair.id))
            return  # the next pair is placed once this one is
        face = ctx.roll(len(candidates))
        ctx.report("invaders.entry_roll", pair=pair.id, die=face, sides=len(candidates))
        _land(ctx, pair, candidates[face - 1], "entry")


def legal_foresee_invasion(ctx: Ctx, decision: Decision) -> Iterator[ForeseeInvasion]:
    for s in entry_candidates(ctx):
        yield ForeseeInvasion(player=decision.player, settlement=ctx.world.settlements[s].name)


def apply_foresee_invasion(ctx: Ctx, decision: Decision, action: ForeseeInvasion) -> None:
    world = ctx.world
    target = world.settlement_by_name.get(action.settlement)
    if target is None:
        raise IllegalAction(
            RULE_ENTRY,
            "error.unknown_settlement",
            f"there is no settlement called {action.settlement!r}",
            settlement=action.settlement,
        )
    if target not in entry_candidates(ctx):
        raise IllegalAction(
            RULE_ENTRY,
            "error.invasion_target",
            f"invaders can only enter at a standing, unbesieged settlement not held by "
            f"Canaanites; {action.settlement} is not one",
            settlement=action.settlement,
        )
    pair = next(p for p in ctx.state.invaders if p.id == decision.subject)
    ctx.state.pending.remove(decision)
    ctx.report("prophet.foresaw_invasion", player=action.player, pair=pair.id)
    _land(ctx, pair, target, "entry")
    place_entering_pairs(ctx)
