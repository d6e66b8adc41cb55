"""Paired comparisons: several actions of one decision played on the same determinized samples.

The hint and the review measure an action as the MCTS bot does (`MCTSBot._playout`: the action,
then every seat as the greedy bot until the announcements two rounds later, scored by the result
or a softmax of material), but for a reader rather than for a move: every sample (the hidden
hands, the deck, the ballots and every future die drawn anew from the seat's view,
`SearchState.determinize`) is played once with each action still in the running, so the
difference between two actions is measured on the same luck. A difference's uncertainty is the
standard error of the per-sample differences; two actions whose difference is within `Z` of its
standard error are *about even*: the samples cannot tell them apart.

`compare` spends its samples where the choice is close: every action gets `min_samples`; then,
a batch of samples at a time, an action whose gap to the leader is beyond its noise is set
aside (its measure is kept) and the rest play on, until one action is left, the sample cap is
reached, or the rollout or CPU budget is spent. A rollout cap (`max_rollouts`) makes the result
the same on every machine; the CPU budget is only the server's safety net.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import NamedTuple

from ..engine import Action
from ..engine.search import SearchState, game_from_view
from ..engine.view import PlayerView
from .mcts import MCTSBot

#: A difference is beyond its noise when it exceeds Z standard errors (two-sided 95 %).
Z = 1.96
#: The smallest standard deviation of a per-sample difference assumed: a few identical samples
#: would otherwise claim a certainty they do not have (one point of reward).
MIN_SD = 0.01
#: Samples added to the actions still in the running at a time.
BATCH = 4
#: A gap under one point of reward is about even whatever the samples say: too small to
#: tell a player.
NEGLIGIBLE = 0.01


class Measure(NamedTuple):
    """One action of a comparison. Rewards are the seat's share of the searched futures won
    (0–1); `gap` and `error` compare it with the comparison's best action on the samples both
    were played on."""

    action: Action
    mean: float  # mean reward over its samples
    gap: float  # best's mean - this one's, on the shared samples (0 for the best)
    error: float  # standard error of that gap (0 for the best)
    samples: int  # samples it was played on

    @property
    def even(self) -> bool:
        """Within its noise of the best: the samples cannot tell the two apart."""
        return self.gap <= Z * self.error or self.gap < NEGLIGIBLE

    @property
    def sure(self) -> float:
        """How sure the samples are that the best is better than this one: the normal
        approximation's chance that the true gap is above zero (0.5–1)."""
        if self.error <= 0:
            return 1.0 if self.gap > 0 else 0.5
        return 0.5 * (1.0 + math.erf(self.gap / self.error / math.sqrt(2.0)))


class Comparison(NamedTuple):
    measures: list[Measure]  # the best first, then by gap
    rollouts: int
    out_of_time: bool

    @property
    def best(self) -> Measure:
        return self.measures[0]


def gap_stats(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, int]:
    """Mean of a[i] - b[i] over the samples both hold (their common prefix), its standard error,
    and how many samples that is."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    sd = max(math.sqrt(var), MIN_SD)
    return mean, sd / math.sqrt(n), n


def compare(
    seat: int,
    view: PlayerView,
    actions: Sequence[Action],
    seed: int,
    *,
    min_samples: int = 8,
    max_samples: int = 48,
    max_rollouts: int | None = None,
    cpu_budget: float | None = None,
    search: MCTSBot | None = None,
) -> Comparison:
    """`actions` (distinct, legal for `seat` at `view`) each played on the same samples drawn from
    `view`: see the module docstring. With `min_samples == max_samples` every action gets exactly
    that many (a fixed-size re-measure)."""
    if not actions:
        raise ValueError("nothing to compare")
    bot = search or MCTSBot(seed)
    base = SearchState(game_from_view(view, bot._seed()))
    rewards: list[list[float]] = [[] for _ in actions]
    alive = list(range(len(actions)))
    deadline = None if cpu_budget is None else time.thread_time() + cpu_budget
    rollouts = 0
    out_of_time = False

    def leader(among: Sequence[int]) -> int:
        return max(among, key=lambda i: (sum(rewards[i]) / len(rewards[i]), -i))

    while len(alive) > 1 or not rewards[alive[0]]:
        n = len(rewards[alive[0]])
        if n >= max_samples:
            break
        batch = min_samples if n == 0 else min(BATCH, max_samples - n)
        if max_rollouts is not None and n > 0 and rollouts + batch * len(alive) > max_rollouts:
            break
        for _ in range(batch):
            if deadline is not None and n > 0 and time.thread_time() > deadline:
                out_of_time = True
                break
            sample = base.determinize(seat, bot._seed())
            for i in alive:
                rewards[i].append(bot._playout(sample.clone(), seat, actions[i], view.round))
                rollouts += 1
            n += 1
        if out_of_time:
            break
        if len(alive) > 1:
            top = leader(alive)
            # set aside what is behind the leader beyond its noise: the samples go to the rest
            kept = []
            for i in alive:
                gap, error, _ = gap_stats(rewards[top], rewards[i])
                if i == top or gap <= Z * error:
                    kept.append(i)
            alive = kept
    played = [i for i in range(len(actions)) if rewards[i]]
    top = leader(alive)  # those still in the running share every sample
    others = []
    for i in played:
        if i != top:
            gap, error, _ = gap_stats(rewards[top], rewards[i])
            others.append(Measure(actions[i], sum(rewards[i]) / len(rewards[i]), gap, error, len(rewards[i])))
    best = Measure(actions[top], sum(rewards[top]) / len(rewards[top]), 0.0, 0.0, len(rewards[top]))
    return Comparison([best, *sorted(others, key=lambda m: m.gap)], rollouts, out_of_time)
