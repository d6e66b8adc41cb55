"""The round machine's declaration: each phase as its ordered automatic steps.

A step runs when nothing is pending; it may resolve rules by itself or post decisions
(`state.pending`). The machine (game.advance) moves to the next step only once every
decision is made, so a step that posts decisions is followed by the step that uses them.
"""

from __future__ import annotations

from collections.abc import Callable

from . import combat, events, intrigue, invaders, movement, titles, turns, wrath
from .board import living_seats
from .context import Ctx
from .income import run_income
from .messages import message
from .state import Entry
from .victory import victory_check

# What the phases' frame reports (engine/messages.py).
message("player.eliminated", "income-and-victory", player="player", round="int")
message("notification.eliminated", "income-and-victory", player="player", round="int")
message(
    "notification.announcements",
    "announcements",
    variants=(("notification.announcements.judgment", "judgment", "nonempty"),),
    round="int",
    wrath="int",
    judgment="bool",
    events="events",
)

Step = Callable[[Ctx], None]


def announce_eliminations(ctx: Ctx) -> None:
    """§ 14: eliminations decided at the last Victory Check are announced now; the King of an
    eliminated player loses the crown (§ 10)."""
    state = ctx.state
    for p in state.players:
        if p.eliminated and not p.elimination_announced:
            p.elimination_announced = True
            ctx.report("player.eliminated", player=p.seat, round=p.eliminated_round)
            ctx.notify(
                "notification.eliminated",
                to=[q.seat for q in state.players],
                params={"player": p.seat, "round": p.eliminated_round},
            )
            titles.depose_king_of(ctx, p.seat)


def open_report(ctx: Ctx) -> None:
    ctx.state.report = []


def close_announcements(ctx: Ctx) -> None:
    """§ 5: everything resolved becomes one Announcements notification for each living player."""
    state = ctx.state
    entries: list[Entry] = state.report
    state.report = []
    ctx.notify(
        "notification.announcements",
        to=living_seats(state),
        params={
            "wrath": state.wrath,
            "judgment": state.judgment,
            "events": [{"card": e.card, "terrain": e.terrain} for e in state.events_landed],
        },
        entries=entries,
    )


def close_phase_report(ctx: Ctx) -> None:
    """Outside the Announcements, what the rules report joins the Round report."""
    state = ctx.state
    state.round_log.extend(state.report)
    state.report = []


def close_round(ctx: Ctx) -> None:
    state = ctx.state
    state.round_log = []


PHASE_STEPS: dict[int, tuple[Step, ...]] = {
    1: (
        open_report,
        announce_eliminations,
        wrath.reconcile_wrath,  # 5.1
        invaders.move_invaders,  # 5.2
        invaders.start_wave,  # 5.2 / 13: may wait for 👁 Foresee
        titles.crown_anointed,  # 5.3
        titles.open_succession,  # may wait for 👑 Succession
        titles.open_vacant_titles,  # may wait for ⚖ Appoint Judge
        titles.open_election,  # may wait for 🗳 Vote
        titles.tally_election,
        events.expire_events,  # 5.4
        events.assign_terrains,  # 5.5: may wait for 👁 Foresee
        events.resolve_events,
        close_announcements,
    ),
    2: (intrigue.free_draw, turns.start_turns, close_phase_report),  # the draw may wait for discards
    3: (run_income,),
    4: (turns.start_turns, close_phase_report),
    5: (movement.start_movement, turns.start_turns),
    6: (
        combat.run_battles,  # may wait for plunder choices
        combat.claim_titles,  # may wait for the choice of a judge
        combat.end_combat,
        close_phase_report,
    ),
    7: (close_phase_report, victory_check, close_round),
}
