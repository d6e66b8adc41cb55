"""§ 14 Phase 7 — Victory Check: custody, eliminations, points, endings, the Round report."""

from __future__ import annotations

from typing import Any

from ..world import World
from .board import control_map, controlled_settlements, hex_controller, living_seats, sustaining_regions
from .context import Ctx
from .messages import Line, message
from .state import GameState

# What § 14 reports (engine/messages.py).
message("captive.freed", "captives", general="general", owner="player", hex="hex")
message("captive.transferred", "captives", general="general", owner="player", captor="player", hex="hex")
message(
    "notification.round_report",
    "income-and-victory",
    lines=("scores", Line("fmt.eliminated_now", "eliminated")),
    round="int",
    scores="scores",
    eliminated="players",
)
message(
    "notification.game_over",
    "income-and-victory",
    variants=(("notification.game_over.no_winner", "winners", "empty"),),
    lines=("ending",),
    ending="ending",
    winners="players",
    round="int",
)


def reconcile_custody(ctx: Ctx) -> None:
    """A captive on a hex his captor no longer controls passes to its controller, and goes
    free when that is his own player or nobody [D]. Captives never move [D]."""
    state, world = ctx.state, ctx.world
    for g in sorted((g for g in state.generals.values() if g.captor is not None), key=lambda g: g.id):
        controller = hex_controller(state, world, g.hex)
        if controller == g.captor:
            continue
        if controller is None or controller == g.owner or controller < 0:
            g.captor = None
            ctx.log_round("captive.freed", general=g.id, owner=g.owner, hex=g.hex)
        else:
            ctx.log_round("captive.transferred", general=g.id, owner=g.owner, captor=controller, hex=g.hex)
            g.captor = controller


def score(state: GameState, world: World, seat: int) -> dict[str, int]:
    """§ 14: 1 per Judge title held by a living general (captive or not), 1 for the King,
    1 for the Tabernacle while the Ark's carrier stands on it."""
    rules = state.options.rules
    judges = sum(
        1 for t in state.titles if t.in_play and t.holder is not None and state.generals[t.holder].owner == seat
    )
    king = 1 if state.king is not None and state.generals[state.king].owner == seat else 0
    tabernacle = (
        1
        if any(
            g.ark and g.owner == seat and g.captor is None and g.hex == world.tabernacle_hex
            for g in state.generals.values()
        )
        else 0
    )
    return {
        "judges": judges * rules.points_per_judge,
        "king": king * rules.points_king,
        "tabernacle": tabernacle * rules.points_tabernacle,
        "total": judges * rules.points_per_judge + king * rules.points_king + tabernacle * rules.points_tabernacle,
    }


def scores_of(state: GameState, world: World, seats: list[int]) -> dict[int, dict[str, int]]:
    """`score` of each of `seats`, in one pass over the titles and the generals."""
    rules = state.options.rules
    generals = state.generals
    judges = dict.fromkeys(seats, 0)
    for t in state.titles:
        if t.in_play and t.holder is not None:
            owner = generals[t.holder].owner
            if owner in judges:
                judges[owner] += 1
    king_owner = generals[state.king].owner if state.king is not None else None
    tabernacle = world.tabernacle_hex
    at_tabernacle = {g.owner for g in generals.values() if g.ark and g.captor is None and g.hex == tabernacle}
    per_judge, per_king, per_tabernacle = rules.points_per_judge, rules.points_king, rules.points_tabernacle
    out: dict[int, dict[str, int]] = {}
    for seat in seats:
        j = judges[seat] * per_judge
        k = (1 if king_owner == seat else 0) * per_king
        ark = (1 if seat in at_tabernacle else 0) * per_tabernacle
        out[seat] = {"judges": j, "king": k, "tabernacle": ark, "total": j + k + ark}
    return out


def standings(state: GameState, world: World) -> dict[int, dict[str, int]]:
    """Every player's points by source (`score`) and the settlements they control (§ 2: a
    garrison's owner, else the one player whose free generals stand there; the count the
    tie-break compares): the numbers a screen shows of each player during the game and in the
    final table, from this one place."""
    seats = [p.seat for p in state.players]
    control = control_map(state, world)
    return {
        seat: {**points, "settlements": sum(1 for owner in control if owner == seat)}
        for seat, points in scores_of(state, world, seats).items()
    }


def eliminate(ctx: Ctx) -> list[int]:
    """A player with no settlement and no free general is eliminated now, announced at the
    next Announcements."""
    state, world = ctx.state, ctx.world
    out: list[int] = []
    free = {g.owner for g in state.generals.values() if g.captor is None}  # the seats with a free general
    bare = [seat for seat in living_seats(state) if seat not in free]
    if not bare:
        return out
    control = control_map(state, world)
    for seat in bare:
        if seat not in control:
            p = state.players[seat]
            p.eliminated = True
            p.eliminated_round = state.round
            out.append(seat)
    return out


def victory_check(ctx: Ctx) -> None:
    rules = ctx.rules
    state, world = ctx.state, ctx.world
    reconcile_custody(ctx)
    living_before = living_seats(state)
    eliminated_now = eliminate(ctx)
    living = living_seats(state)
    scores = scores_of(state, world, living)
    ending, winners = None, []
    if sustaining_regions(state, world, rules.settlements_to_sustain_judge) < rules.min_sustaining_regions:
        ending = "collapse"  # the land is judged: everyone loses, whatever the scores
    elif not living:
        ending = "general_elimination"
    elif len(living) == 1 and len(living_before) > 1:
        ending, winners = "last_standing", living
    else:
        reached = [seat for seat in living if scores[seat]["total"] >= rules.points_to_win]
        if reached:
            ending = "three_points"
            winners = _break_tie(state, world, reached)
        elif state.options.round_limit is not None and state.round >= state.options.round_limit:
            ending = "round_limit"
    entries = list(state.round_log)
    # [M] "para cada jugador": every player, the eliminated (spectators) too.
    ctx.notify(
        "notification.round_report",
        to=[p.seat for p in state.players],
        params={"scores": {str(seat): s for seat, s in scores.items()}, "eliminated": eliminated_now},
        entries=entries,
    )
    if ending is not None:
        state.ending = ending
        state.winners = winners
        ctx.notify(
            "notification.game_over",
            to=[p.seat for p in state.players],
            params={"ending": ending, "winners": winners, "round": state.round},
        )


def tie_break(state: GameState, world: World, seats: list[int]) -> str | None:
    """Which rule decided among `seats` (those that reached the points to win), as
    `_break_tie` applies it: None (one alone), "score" (the highest score), "settlements"
    (most settlements among the tied), "shared" (still tied: a shared victory)."""
    if len(seats) <= 1:
        return None
    totals = {seat: score(state, world, seat)["total"] for seat in seats}
    top = [seat for seat in seats if totals[seat] == max(totals.values())]
    if len(top) == 1:
        return "score"
    return "settlements" if len(_break_tie(state, world, seats)) == 1 else "shared"


def final_table(state: GameState, world: World) -> dict[str, Any]:
    """The end of the game as a table: each player's points by source (§ 14: Judge titles,
    the King, the Tabernacle), settlements held, when they were eliminated, and whether they
    won; the ending, its round, and the tie-break that decided (None when none was needed)."""
    rules = state.options.rules
    numbers = standings(state, world)
    rows: list[dict[str, Any]] = []
    for p in state.players:
        rows.append(
            {
                "seat": p.seat,
                **numbers[p.seat],
                "eliminated_round": p.eliminated_round if p.eliminated else None,
                "winner": p.seat in state.winners,
            }
        )
    reached = [
        p.seat
        for p in state.players
        if not p.eliminated and score(state, world, p.seat)["total"] >= rules.points_to_win
    ]
    return {
        "ending": state.ending,
        "round": state.round,
        "winners": list(state.winners),
        "tie_break": tie_break(state, world, reached) if state.ending == "three_points" else None,
        "players": rows,
    }


def _break_tie(state: GameState, world: World, seats: list[int]) -> list[int]:
    """Several at 3 points or more: the highest score wins; a tie at the top goes to the one
    controlling most settlements; still tied, a shared victory."""
    totals = {seat: score(state, world, seat)["total"] for seat in seats}
    top = max(totals.values())
    seats = [seat for seat in seats if totals[seat] == top]
    if len(seats) == 1:
        return seats
    counts = {seat: len(controlled_settlements(state, world, seat)) for seat in seats}
    best = max(counts.values())
    return [seat for seat in seats if counts[seat] == best]
