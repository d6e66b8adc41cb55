"""After the game: a player's costliest decisions, each measured beyond its noise.

The finished game is replayed from its start. Every decision the seat took with a choice is
kept, but not the steps it took back (`engine.undo.taken_back`: a step an Undo removed was never
played). Then, in three passes:

1. **Screen** every decision cheaply: the hint's candidates and the player's action on
   `SCREEN_SAMPLES` paired samples (`paired.compare`); the screen's cost is how far the best
   looked ahead of the player's action.
2. **The hint** at each of the `CANDIDATES` costliest-looking decisions: exactly the hint the
   seat would have got there (`hint.hint_for`, the server's seed for that position: `seed` +
   the decision's place in the log). Where the hint would have played the player's action, the
   decision is not a mistake by the hint's measure and is dropped: the review never calls
   costly what the hint recommended.
3. **Re-measure** the player's action against the hint's on `SAMPLES` fresh paired samples (both
   actions on the same determinized futures). A decision is listed only when the hint's action
   is ahead beyond its noise (`paired.Z` standard errors); its cost, standard error and how sure
   the samples are come from this re-measure alone, not from the screen that picked it (a
   screen's largest costs are inflated by their own luck).

At most `KEPT` are listed, costliest first. The CPU is bounded by `cpu_budget`: the passes stop
where it runs out (the screen first shares half of it), listing what was measured.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from ..engine import Action, Game, action_to_dict
from ..engine.actions import Undo
from ..engine.undo import taken_back
from ..engine.view import PlayerView
from .hint import hint_for
from .mcts import MCTSBot
from .paired import compare

KEPT = 3
SCREEN_SAMPLES = 3
CANDIDATES = 8
SAMPLES = 48
#: The re-measure draws its samples from another stream than the hint's search at that position.
REMEASURE_SEED = 0x5EED


class Costly(NamedTuple):
    seq: int  # the decision's place in the game's log (actions before it)
    round: int
    phase: str
    played: dict[str, Any]
    played_value: int  # % of the searched futures won
    best: dict[str, Any]  # the hint's action at that position
    best_value: int
    cost: float  # points of the searched futures won: best's mean - played's, on paired samples
    error: float  # the cost's standard error, in points
    sure: float  # how sure the samples are that the cost is above zero (0.5-1)
    samples: int  # paired samples of the re-measure
    owners: dict[int, int]  # general id -> seat at the decision (the actions' words)
    events: list[str]  # the Events Area at the decision (a foresight's words)


class Decision(NamedTuple):
    seq: int
    action: Action
    legal: list[Action]
    view: PlayerView


def decisions_of(game: Game, log: list[Action], seat: int) -> list[Decision]:
    """`game` at its start (it is played on), `log` the actions that followed: the seat's
    decisions with a choice that still stand (a step an Undo took back is not one, nor the Undo)."""
    undone = taken_back(log)
    out: list[Decision] = []
    for seq, action in enumerate(log):
        if getattr(action, "player", None) == seat and type(action) is not Undo and seq not in undone:
            legal = list(game.legal_actions(seat))
            if len(legal) > 1 and action in legal:
                out.append(Decision(seq, action, legal, game.view(seat, notifications=False)))
        game.apply(action)
    return out


def screen(seat: int, d: Decision, seed: int) -> float:
    """How far the best of the hint's candidates looked ahead of the player's action on a few
    paired samples (0 when the player's action looked best)."""
    bot = MCTSBot(seed)
    greedy = bot._greedy.choose(seat, d.legal, lambda: d.view)
    cands = bot.candidates(seat, d.legal, d.view, greedy)
    if d.action not in cands:
        cands.append(d.action)
    if len(cands) < 2:
        return 0.0
    found = compare(seat, d.view, cands, seed, min_samples=SCREEN_SAMPLES, max_samples=SCREEN_SAMPLES, search=bot)
    mine = next(m for m in found.measures if m.action == d.action)
    return found.best.mean - mine.mean


def review(game: Game, log: list[Action], seat: int, seed: int, cpu_budget: float | None = None) -> list[Costly]:
    """The seat's `KEPT` costliest decisions, costliest first (see the module docstring); `seed`
    is the seat's hint seed (a position's hint is seeded `seed` + its place in the log)."""
    start = time.thread_time()

    def spent(share: float) -> bool:
        return cpu_budget is not None and time.thread_time() - start > share * cpu_budget

    decisions = decisions_of(game, log, seat)
    looked: list[tuple[float, Decision]] = []
    for d in decisions:
        if spent(0.5):
            break
        cost = screen(seat, d, seed + d.seq)
        if cost > 0:
            looked.append((cost, d))
    looked.sort(key=lambda x: (-x[0], x[1].seq))
    out: list[Costly] = []
    for _, d in looked[:CANDIDATES]:
        if spent(1.0):
            break
        hinted = hint_for(seat, d.legal, d.view, seed + d.seq, cpu_budget=None)
        if hinted.action == d.action:
            continue  # the hint would have played it: no mistake by the hint's measure
        again = compare(
            seat,
            d.view,
            [hinted.action, d.action],
            seed + d.seq + REMEASURE_SEED,
            min_samples=SAMPLES,
            max_samples=SAMPLES,
        )
        if again.best.action != hinted.action or again.measures[1].even:
            continue  # the hint's action is not ahead beyond its noise
        best, mine = again.measures
        state = d.view.state
        out.append(
            Costly(
                d.seq,
                state.round,
                d.view.phase_name,
                action_to_dict(d.action),
                round(100 * mine.mean),
                action_to_dict(hinted.action),
                round(100 * best.mean),
                round(100 * mine.gap, 1),
                round(100 * mine.error, 1),
                mine.sure,
                mine.samples,
                {gid: g.owner for gid, g in state.generals.items()},
                list(state.events_area),
            )
        )
    out.sort(key=lambda c: (-c.cost, c.seq))
    return out[:KEPT]
