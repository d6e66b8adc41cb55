"""After the game (issue 31): a player's costliest decisions, by the hint's own measure.

The finished game is replayed from its start; at each decision of the seat with a choice, the
search of the hint (`MCTSBot.appraise`, from the seat's view only, the action the player chose
among its candidates) values every candidate as the share of the searched futures the seat wins.
A decision's cost is the best candidate's value less the chosen action's, in percentage points;
the review keeps the `KEPT` costliest. The CPU is bounded: at most `MAX_DECISIONS` decisions
(spread over the whole game when the seat took more) share `cpu_budget` seconds. Decisions the
search answers without numbers (one option, a free undoable step) are not measured.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine import Action, Game, action_to_dict
from ..engine.undo import TakeBack
from ..engine.view import PlayerView
from .mcts import MCTSBot

KEPT = 3
MAX_DECISIONS = 12


class Costly(NamedTuple):
    seq: int  # the decision's place in the game's log (actions before it)
    round: int
    phase: str
    played: dict[str, Any]
    played_value: int  # % of the searched futures won
    best: dict[str, Any]
    best_value: int
    cost: int  # percentage points: best_value - played_value
    owners: dict[int, int]  # general id -> seat at the decision (the actions' words)
    events: list[str]  # the Events Area at the decision (a foresight's words)


class _Reviewer(MCTSBot):
    """The hint's search with the player's own choice among its candidates."""

    played: Action | None = None

    def candidates(self, seat: int, legal: list[Action], view: PlayerView, greedy: Action) -> list[Action]:
        out = super().candidates(seat, legal, view, greedy)
        if self.played is not None and self.played not in out:
            out.append(self.played)
        return out


def review(game: Game, log: list[Action], seat: int, seed: int, cpu_budget: float) -> list[Costly]:
    """`game` at its start (it is played on), `log` the actions that followed: the seat's `KEPT`
    costliest decisions, costliest first (none cost nothing)."""
    decisions: list[tuple[int, Action, list[Action], PlayerView]] = []
    for seq, action in enumerate(log):
        if getattr(action, "player", None) == seat and not isinstance(action, TakeBack):
            legal = list(game.legal_actions(seat))
            if len(legal) > 1 and action in legal:
                decisions.append((seq, action, legal, game.view(seat, notifications=False)))
        game.apply(action)
    if len(decisions) > MAX_DECISIONS:  # evenly over the game
        step = len(decisions) / MAX_DECISIONS
        decisions = [decisions[int(i * step)] for i in range(MAX_DECISIONS)]
    out: list[Costly] = []
    each = cpu_budget / max(1, len(decisions))
    for seq, action, legal, view in decisions:
        bot = _Reviewer(seed + seq, cpu_budget=each)
        bot.played = action
        _, cands = bot.appraise(seat, legal, view)
        measured = [c for c in cands if c.mean is not None]
        mine = next((c for c in measured if c.action == action), None)
        if mine is None or mine.mean is None:
            continue
        best = max(measured, key=lambda c: c.mean or 0.0)
        played_value, best_value = round(100 * mine.mean), round(100 * (best.mean or 0.0))
        if best.action == action or best_value <= played_value:
            continue
        state = view.state
        out.append(
            Costly(
                seq,
                state.round,
                view.phase_name,
                action_to_dict(action),
                played_value,
                action_to_dict(best.action),
                best_value,
                best_value - played_value,
                {gid: g.owner for gid, g in state.generals.items()},
                list(state.events_area),
            )
        )
    out.sort(key=lambda c: (-c.cost, c.seq))
    return out[:KEPT]
