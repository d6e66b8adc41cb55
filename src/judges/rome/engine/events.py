"""Events (VG 1.07.21; R45-R47; ror-data §5): a DR of 7 on an initiative rolls 3d6 on the era's
column; the card comes into play, or turns to its intensified side when it is already there.

What an event does at once is done here (Mob Violence, Natural Disaster, Evil Omens, Epidemic,
Storm at Sea, Allied Enthusiasm); what it changes later is read by the phase it changes (a
drought by the Population phase, a manpower shortage by the Senate's levies, Evil Omens by
every die roll, Enemy Leader Dies at the end of the Forum, the deserters by each battle, New
Alliance at the end of the Senate, the Rhodian fleets by `alliances`). `state.events[event]` counts how
often the event was drawn while its card stayed in play: 2 or more is its intensified side."""

from __future__ import annotations

from .context import Ctx
from .effects import kill_senator
from .mortality import draw_chits
from .victory import rome_falls

EPIDEMIC_CHITS = 6
NATURAL_DISASTER_COST = 50
EVIL_OMENS_COST = 20
#: ror-data §5.2: Natural Disaster's die picks the concession it destroys.
DISASTER_CONCESSIONS = {
    1: "mining",
    2: "mining",
    3: "harbor_fees",
    4: "harbor_fees",
    5: "armaments",
    6: "ship_building",
}
AWAY = ("province", "field", "captive", "rebel")


def omens(ctx: Ctx) -> int:
    """The −1 per Evil Omens in force on every die roll but initiative and events."""
    return ctx.state.events.get("evil_omens", 0)


def deserters(ctx: Ctx, dice: list[int]) -> int:
    """Ally Deserts and Enemy's Ally Deserts (ror-data §5.2), read by each battle this turn: an
    even 3d6 adds the black die to the war's strength (the white dice when intensified), an odd
    one takes it away (not below 0, applied by the battle). [D] The first die is the black one."""
    natural = sum(dice)
    black, white = dice[0], sum(dice[1:])
    events = ctx.state.events
    change = 0
    if events.get("ally_deserts", 0) and natural % 2 == 0:
        change += white if events["ally_deserts"] >= 2 else black
    if events.get("enemys_ally_deserts", 0) and natural % 2 == 1:
        change -= white if events["enemys_ally_deserts"] >= 2 else black
    return change


def state_pays(ctx: Ctx, talents: int) -> bool:
    """The State pays; if it cannot, it is bankrupt and Rome falls (VG 1.06.53)."""
    if talents > ctx.state.treasury:
        ctx.state.treasury = 0
        rome_falls(ctx, "bankruptcy")
        return False
    ctx.state.treasury -= talents
    return True


def destroy_concession(ctx: Ctx, card: str) -> None:
    """A concession in play (under a senator or in the Forum) goes to the Curia."""
    state = ctx.state
    for s in state.senators.values():
        if card in s.concessions:
            s.concessions.remove(card)
            state.curia.append(card)
            ctx.report("rome.concession.destroyed", card=card)
            return
    if card in state.forum_concessions:
        state.forum_concessions.remove(card)
        state.curia.append(card)
        ctx.report("rome.concession.destroyed", card=card)


def draw_event(ctx: Ctx) -> str:
    """Rolls the event and does what it does at once; returns it (the Forum hands the Rhodian
    Maritime Alliance to `alliances`)."""
    state = ctx.state
    roll = sum(ctx.roll(3))
    event = ctx.deck.event_for(roll, ctx.rules.era)
    count = state.events.get(event, 0) + 1
    state.events[event] = count
    ctx.report("rome.event.drawn", event=event, int=count)
    intensified = count >= 2
    if event == "mob_violence":
        extra = ctx.roll(1)[0] if intensified else 0
        for senator in draw_chits(ctx, state.unrest + extra):
            s = state.senators.get(senator)
            if s is not None and s.location == "rome" and s.popularity < state.unrest:
                kill_senator(ctx, senator, "mob")
    elif event == "natural_disaster":
        if not intensified and not state_pays(ctx, NATURAL_DISASTER_COST):
            return event
        destroy_concession(ctx, DISASTER_CONCESSIONS[ctx.roll(1)[0]])
    elif event == "evil_omens":
        if not intensified:
            state_pays(ctx, EVIL_OMENS_COST)
    elif event == "epidemic":
        if not intensified:
            for senator in draw_chits(ctx, EPIDEMIC_CHITS):
                s = state.senators.get(senator)
                if s is not None and s.location == "rome":
                    kill_senator(ctx, senator, "epidemic")
        else:
            for senator in draw_chits(ctx, EPIDEMIC_CHITS):
                s = state.senators.get(senator)
                if s is not None and s.location in AWAY:
                    kill_senator(ctx, senator, "epidemic")
                    break
    elif event == "storm_at_sea":
        lost = min(state.units.fleets, sum(ctx.roll(2)))
        state.units.fleets -= lost
        ctx.report("rome.event.fleets_lost", int=lost)
    elif event == "allied_enthusiasm":
        if count == 1:
            state.state_due += ctx.rules.allied_enthusiasm
        elif count == 2:
            state.state_due += ctx.rules.allied_enthusiasm_intensified - ctx.rules.allied_enthusiasm
    return event
