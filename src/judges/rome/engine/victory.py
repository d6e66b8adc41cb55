"""How the game ends (VG 1.12; ror-data §15; R256-R262 and the three ways Rome falls)."""

from __future__ import annotations

from .context import Ctx
from .state import Result


def rome_falls(ctx: Ctx, ending: str) -> None:
    """Bankruptcy, a people's revolt or too many wars: everybody loses (R39, R76, R232). With a
    rebel in the field he would win instead (R259); rebels arise in the Revolution phase."""
    ctx.state.result = Result(ending, ())
    ctx.state.pending.clear()
    ctx.report("rome.game.over", ending=ending, factions=[])
