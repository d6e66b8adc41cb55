"""Phase 1, Mortality (VG 1.05; R17-R20): imminent wars become active, then the chits."""

from __future__ import annotations

from .context import Ctx
from .effects import kill_senator
from .wars import call_leaders

BLANK = "blank"
DRAW_TWO = "draw_two"


def cup(ctx: Ctx) -> list[str]:
    """The mortality chits (ror-data §13): one per senator id, the blanks and the "draw 2"s."""
    m = ctx.deck.mortality
    return [str(n) for n in range(1, m.senator_ids + 1)] + [BLANK] * m.blank + [DRAW_TWO] * m.draw_two


def draw_chits(ctx: Ctx, count: int) -> list[str]:
    """VG 1.05.21: `count` chits; a drawn chit stays out until the whole draw is done, except a
    "draw 2", which goes back at once and calls two more. Returns the senator ids and blanks
    drawn, in order (each also reported)."""
    chits = cup(ctx)
    out: list[str] = []
    left = count
    while left > 0:
        if all(c == DRAW_TWO for c in chits):
            break  # nothing but "draw 2" chits left in the cup: no chit can be drawn out
        chit = chits[ctx.dice.roll(len(chits)) - 1]
        ctx.report("rome.mortality.chit", chit=chit)
        if chit == DRAW_TWO:
            left += 1  # this draw is replaced by two more
            continue
        chits.remove(chit)
        out.append(chit)
        left -= 1
    return out


def activate_imminent(ctx: Ctx) -> bool:
    """VG 1.05.1 / 1.07.3321 (R197): for each series, its lowest-numbered imminent war becomes
    active."""
    state, deck = ctx.state, ctx.deck
    lowest: dict[str, tuple[int, int]] = {}
    for i, w in enumerate(state.wars):
        if w.state == "imminent":
            card = deck.wars[w.id]
            if card.series not in lowest or card.number < lowest[card.series][0]:
                lowest[card.series] = (card.number, i)
    for _, i in sorted(lowest.values(), key=lambda t: t[1]):
        state.wars[i].state = "active"
        ctx.report("rome.war.imminent_active", war=state.wars[i].id)
        call_leaders(ctx, state.wars[i])
    return True


def mortality_draw(ctx: Ctx) -> bool:
    """VG 1.05.2: one chit (R17); a senator in play whose id it bears dies."""
    dead = [c for c in draw_chits(ctx, ctx.rules.mortality_draws) if c in ctx.state.senators]
    for senator in dead:
        if senator in ctx.state.senators:
            kill_senator(ctx, senator, "mortality")
    if not dead:
        ctx.report("rome.mortality.no_one")
    return True
