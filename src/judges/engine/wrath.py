"""§ 12 The Wrath of God: reconciled at the start of every Announcements (§ 5.1)."""

from __future__ import annotations

from .board import canaanites_hold_israel_or_judah
from .context import Ctx
from .messages import message

# What § 12 reports (engine/messages.py).
message("wrath.reconciled", "wrath-and-invaders", before="int", registered="int", canaanites="int", after="int")
message("wrath.judgment", "wrath-and-invaders", judgments="int")


def reconcile_wrath(ctx: Ctx) -> None:
    rules = ctx.rules
    state = ctx.state
    before = state.wrath
    registered = state.wrath_registered
    presence = rules.wrath_canaanite_presence if canaanites_hold_israel_or_judah(state, ctx.world) else 0
    state.wrath = before + registered + presence
    state.wrath_registered = 0
    state.judgment = False
    ctx.report(
        "wrath.reconciled",
        before=before,
        registered=registered,
        canaanites=presence,
        after=min(state.wrath, rules.wrath_threshold),
    )
    if state.wrath >= rules.wrath_threshold:
        # A judgment; the meter returns to 0 and any surplus is lost [D].
        state.judgment = True
        state.judgments += 1
        state.wrath = 0
        ctx.report("wrath.judgment", judgments=state.judgments)
