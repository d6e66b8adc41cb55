"""§ 12 The Wrath of God: reconciled at the start of every Announcements (§ 5.1)."""

from __future__ import annotations

from . import constants as C
from .board import canaanites_hold_israel_or_judah
from .context import Ctx


def reconcile_wrath(ctx: Ctx) -> None:
    state = ctx.state
    before = state.wrath
    registered = state.wrath_registered
    presence = C.WRATH_CANAANITE_PRESENCE if canaanites_hold_israel_or_judah(state, ctx.world) else 0
    state.wrath = before + registered + presence
    state.wrath_registered = 0
    state.judgment = False
    ctx.report(
        "wrath.reconciled",
        before=before,
        registered=registered,
        canaanites=presence,
        after=min(state.wrath, C.WRATH_THRESHOLD),
    )
    if state.wrath >= C.WRATH_THRESHOLD:
        # A judgment; the meter returns to 0 and any surplus is lost [D].
        state.judgment = True
        state.judgments += 1
        state.wrath = 0
        ctx.report("wrath.judgment", judgments=state.judgments)
