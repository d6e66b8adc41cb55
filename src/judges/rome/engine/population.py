"""Phase 4, Population (VG 1.08; ror-data §10; R70-R79): unrest from unprosecuted wars and
droughts, then the HRAO's State of the Republic speech on the population table."""

from __future__ import annotations

from .board import drought_effects, hrao
from .context import Ctx
from .effects import kill_senator
from .mortality import draw_chits
from .victory import rome_falls

MOB_CHITS = 6  # ror-data §10: a "mob" result draws six chits against senators in Rome


def unrest_from_wars_and_droughts(ctx: Ctx) -> bool:
    """R70: +1 unrest for each unprosecuted war and each drought effect in force."""
    state = ctx.state
    state.no_recruitment = False
    rise = sum(1 for w in state.wars if w.state == "unprosecuted") + drought_effects(state, ctx.deck)
    state.unrest += rise
    ctx.report("rome.population.unrest", int=state.unrest)
    return True


def state_of_the_republic(ctx: Ctx) -> bool:
    """R75: the HRAO rolls 3d6 + his popularity − unrest (−1 per Evil Omens in force) and reads
    the table (E7): unrest changes (never below 0, R74), a manpower shortage, no recruitment,
    a mob (six chits: senators in Rome die); below the table the people revolt (R76)."""
    state = ctx.state
    speaker = hrao(state)
    dice = ctx.roll(3)
    total = sum(dice) - state.unrest - state.events.get("evil_omens", 0)
    if speaker is not None:
        total += speaker.popularity
        ctx.report("rome.population.roll", senator=speaker.id, int=total)
    row = ctx.deck.population_result(total)
    if row is None:
        rome_falls(ctx, "people_revolt")
        return True
    state.unrest = max(0, state.unrest + row.unrest)
    ctx.report("rome.population.result", int=state.unrest)
    if row.manpower_shortage:
        state.events["manpower_shortage"] = state.events.get("manpower_shortage", 0) + 1
        ctx.report("rome.population.manpower_shortage")
    if row.no_recruitment:
        state.no_recruitment = True
        ctx.report("rome.population.no_recruitment")
    if row.mob:
        ctx.report("rome.population.mob")
        for senator in draw_chits(ctx, MOB_CHITS):
            s = state.senators.get(senator)
            if s is not None and s.location == "rome":
                kill_senator(ctx, senator, "mob")
    return True
