"""Turn phases (2 Intrigue, 4 Acquisitions, 5 Movement, 6 Combat's choices): each living
player in turn order owes a "turn" decision until they end it.

In this version of the engine the content of phases 2, 4, 5 and 6 is not built yet: a
player's turn offers only EndTurn (a hand-off), so whole rounds run.
"""

from __future__ import annotations

from typing import Iterator

from .actions import EndTurn
from .board import turn_order
from .context import Ctx
from .state import Decision


def start_turns(ctx: Ctx) -> None:
    state = ctx.state
    state.turn_queue = turn_order(state)
    _next_turn(ctx)


def _next_turn(ctx: Ctx) -> None:
    state = ctx.state
    if state.turn_queue:
        seat = state.turn_queue.pop(0)
        state.pending.append(Decision(player=seat, kind="turn"))


def legal_turn(ctx: Ctx, decision: Decision) -> Iterator[EndTurn]:
    yield EndTurn(player=decision.player)


def apply_end_turn(ctx: Ctx, decision: Decision, action: EndTurn) -> None:
    ctx.state.pending.remove(decision)
    _next_turn(ctx)
