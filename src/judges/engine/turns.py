"""Turn phases (2 Intrigue, 4 Acquisitions, 5 Movement): each living player, in turn order,
owes a "turn" decision; within it they take any number of the phase's actions, then EndTurn.
"""

from __future__ import annotations

from collections.abc import Callable

from .acquisitions import apply_buy, legal_buys
from .actions import Action, Buy, EndTurn
from .board import turn_order
from .context import Ctx, TurnHandler
from .errors import IllegalAction
from .intrigue import INTRIGUE_HANDLERS, legal_intrigue
from .movement import MOVEMENT_HANDLERS, legal_movement
from .state import PHASES, Decision

# phase -> action type -> its handler (ctx, action), which validates before it changes anything
PHASE_HANDLERS: dict[int, dict[type[Action], TurnHandler]] = {
    2: INTRIGUE_HANDLERS,
    4: {Buy: apply_buy},
    5: MOVEMENT_HANDLERS,
}
# phase -> the legal actions of a seat's turn but EndTurn, as a fresh list
PHASE_LEGAL: dict[int, Callable[[Ctx, int], list[Action]]] = {2: legal_intrigue, 4: legal_buys, 5: legal_movement}
# Which phase each turn action belongs to, for a clear refusal in the wrong phase.
ACTION_PHASE = {action_type: phase for phase, handlers in PHASE_HANDLERS.items() for action_type in handlers}
# action type -> (its phase, its handler): one look-up per action
_HANDLERS = {
    action_type: (phase, handler)
    for phase, handlers in PHASE_HANDLERS.items()
    for action_type, handler in handlers.items()
}


def start_turns(ctx: Ctx) -> None:
    state = ctx.state
    state.turn_queue = turn_order(state)
    _next_turn(ctx)


def _next_turn(ctx: Ctx) -> None:
    state = ctx.state
    state.cards_played = 0
    if state.turn_queue:
        seat = state.turn_queue.pop(0)
        state.pending.append(Decision(player=seat, kind="turn"))


def legal_turn(ctx: Ctx, decision: Decision) -> list[Action]:
    seat = decision.player
    end = ctx.actions.end_turn(seat)  # actions are frozen: one per seat serves every turn
    legal = PHASE_LEGAL.get(ctx.state.phase)
    if legal is None:
        return [end]
    out = legal(ctx, seat)  # a fresh list, appended to
    out.append(end)
    return out


def apply_turn_action(ctx: Ctx, decision: Decision, action: Action) -> None:
    if isinstance(action, EndTurn):
        ctx.state.pending.remove(decision)
        _next_turn(ctx)
        return
    phase = ctx.state.phase
    handler = _HANDLERS.get(type(action))
    if handler is None or handler[0] != phase:
        right = ACTION_PHASE.get(type(action))
        where = f"the {PHASES[right - 1]} phase" if right else "no turn"
        raise IllegalAction(
            "§4 The round",
            "error.wrong_phase",
            f"{action.__struct_config__.tag} belongs to {where}, not the {PHASES[phase - 1]} phase",
            action=action.__struct_config__.tag,
            phase=PHASES[phase - 1],
        )
    handler[1](ctx, action)
