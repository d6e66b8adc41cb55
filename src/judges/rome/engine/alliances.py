"""New Alliance (ror-data §5.2, VG's event card): at the end of the Senate phase the HRAO picks a
war on the board that sues for peace: half its spoils and back into the top six cards of the
deck; intensified (Another New Alliance), all its spoils and the war beaten for good, never a
revolt."""

from __future__ import annotations

from collections.abc import Iterable

from ...engine.errors import IllegalAction
from .actions import SueForPeace
from .board import hrao, hrao_order
from .combat import is_revolt, sue_for_peace, war_on_board
from .context import Ctx
from .state import Decision

RULE_NEW_ALLIANCE = "New Alliance (VG event; ror-data §5.2)"


def intensified(ctx: Ctx) -> bool:
    return ctx.state.events.get("new_alliance", 0) >= 2


def peace_candidates(ctx: Ctx) -> list[str]:
    """[D] Any war on the board, whatever its state; intensified, no revolt."""
    return [w.id for w in ctx.state.wars if not (intensified(ctx) and is_revolt(ctx, w.id))]


def new_alliance(ctx: Ctx) -> bool:
    """At the end of the Senate, with the event in play, the HRAO's faction (the first in table
    order when nobody is in Rome) owes the choice."""
    state = ctx.state
    if "new_alliance" not in state.events or not peace_candidates(ctx):
        return True
    top = hrao(state)
    state.pending.append(Decision(top.faction if top is not None else hrao_order(state)[0], "sue_for_peace"))
    return True


def legal_sue_for_peace(ctx: Ctx, decision: Decision) -> Iterable[SueForPeace]:
    return [SueForPeace(player=decision.player, war=w) for w in peace_candidates(ctx)]


def apply_sue_for_peace(ctx: Ctx, decision: Decision, action: SueForPeace) -> None:
    war = war_on_board(ctx, action.war)
    if war is None or action.war not in peace_candidates(ctx):
        raise IllegalAction(RULE_NEW_ALLIANCE, "rome.error.no_such_war", f"{action.war} cannot sue for peace")
    ctx.state.pending.remove(decision)
    sue_for_peace(ctx, war, intensified(ctx))
