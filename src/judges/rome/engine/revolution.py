"""Phase 7, Revolution (VG 1.11; R233-R237): victorious commanders lay down their command, each
faction from the HRAO's plays statesmen and concessions, and hands are cut to five.

Not played yet: rebellion and civil war (R238-R255), card trading between players (R237)."""

from __future__ import annotations

from collections.abc import Iterable

from ...engine.errors import IllegalAction
from .actions import Discard
from .board import hrao_order
from .combat import return_force
from .context import Ctx
from .setup import in_turn
from .state import Decision

RULE_HAND = "R236 Hand limit (VG 1.11)"


def lay_down_commands(ctx: Ctx) -> bool:
    """R238: a commander who won his war comes home and his force returns to Rome's box [D: he
    cannot rebel yet]."""
    state = ctx.state
    for force in [f for f in state.forces if f.won]:
        state.forces.remove(force)
        return_force(ctx, force)
    state.scratch["revolution_cards"] = hrao_order(state)
    return True


def play_cards(ctx: Ctx) -> bool:
    """R234: in table order from the HRAO, statesmen and concessions."""
    return in_turn(ctx, "revolution_cards", "play_cards")


def hand_limit(ctx: Ctx) -> bool:
    """R236: every faction above the limit discards, all at once."""
    for f in ctx.state.factions:
        if not f.eliminated and len(f.hand) > ctx.rules.hand_limit:
            ctx.state.pending.append(Decision(f.seat, "discard"))
    return True


def legal_discard(ctx: Ctx, decision: Decision) -> Iterable[Discard]:
    return [Discard(player=decision.player, card=c) for c in dict.fromkeys(ctx.state.factions[decision.player].hand)]


def apply_discard(ctx: Ctx, decision: Decision, action: Discard) -> None:
    f = ctx.state.factions[decision.player]
    if action.card not in f.hand:
        raise IllegalAction(RULE_HAND, "rome.error.not_in_hand", f"no {action.card} in the hand", card=action.card)
    f.hand.remove(action.card)
    ctx.state.discard.append(action.card)
    if len(f.hand) <= ctx.rules.hand_limit:
        ctx.state.pending.remove(decision)
