"""MCTS over the game protocol: the search of `mcts.py` for any game of the registry
(`games.protocol`), with no heuristic of its own. It is Republic of Rome's `mcts` bot.

From the bot's view it rebuilds a playable game (`GameDef.from_view`), and for every sample
draws what the seat cannot see anew (`determinize`: hands, deck order, secret ballots and
treasuries, dice), so it never uses what it cannot see. The candidates are the rollout policy's
own choice (the baseline, as greedy's is for `mcts.py`) and up to `width` others in a stable
hash order. Each is played on a copy of the sample, then every seat plays by the rollout
policy — uniformly at random by default (the bot's own seeded dice, the same stream for every
candidate of a sample: common random numbers), or a game's own `rollout` policy (Rome: the
neutral bot, whose answers read the sample; its dice are the sample's, again the same for every
candidate) — until the game ends or `horizon` turns (J&K: rounds) have passed; the end scores
`returns()` when over, else a softmax of `standing()` at `temperature`. Sequential Halving
(Karnin, Koren & Somekh 2013) spreads `iterations` rollouts over ⌈log2 m⌉ stages, the worse
half dropped after each; the survivor is played unless its paired advantage over the baseline
is under `margin`. With `early`, a search stops after a stage where no candidate comes within
half the margin of beating the baseline.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import Any

from ..engine.dice import SeededDice, seed_to_state
from ..engine.errors import RuleError
from ..games.protocol import GameDef, GameProtocol


def _seed_of(dice: SeededDice) -> int:
    return (dice.roll(1 << 30) << 30) ^ dice.roll(1 << 30)


class _Rng:
    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = seed_to_state(seed)


class ProtocolMCTSBot:
    name = "mcts"

    def __init__(
        self,
        game: GameDef[Any, Any],
        seed: int,
        iterations: int = 32,
        horizon: int = 1,
        early_samples: int = 2,
        width: int = 6,
        temperature: float = 4.0,
        margin: float = 0.01,
        early: bool = True,
        baseline: Callable[[int, list[Any], Callable[[], Any]], Any] | None = None,
        rollout: Callable[[GameProtocol[Any, Any], int, list[Any]], Any] | None = None,
    ) -> None:
        """`baseline(seat, legal, view)`: the rollout policy's choice at the real decision (default:
        uniform at random); `rollout(game, seat, legal)`: its choice in a sample (default: the same)."""
        if iterations < 1 or horizon < 1 or early_samples < 1:
            raise ValueError("MCTS needs one iteration, one turn of horizon and one sample at least")
        self.game = game
        self.rng = seed_to_state(seed)
        self._dice = SeededDice(self)
        self.iterations = iterations
        self.horizon = horizon
        self.early_samples = early_samples
        self.width = width
        self.temperature = temperature
        self.margin = margin
        self.early = early
        self.baseline = baseline
        self.rollout = rollout
        self.searched = 0  # decisions searched (for measurements)
        self.departed = 0  # of them, those where the search overruled the baseline

    def max_rollouts(self) -> int:
        """The most rollouts one decision may play: the budget, and the first stage's minimum of
        `early_samples` for each of at most `width` + 1 candidates (the baseline's and the
        others'): what a server bounds before it seats the bot."""
        return self.iterations + (self.width + 1) * (self.early_samples if self.early else 0)

    # --- the decision ---------------------------------------------------------------------

    def choose(self, seat: int, legal: list[Any], view: Callable[[], Any]) -> Any:
        if self.baseline is None:
            baseline = legal[self._dice.roll(len(legal)) - 1]
        elif len(legal) > 1:
            baseline = self.baseline(seat, legal, view)
        if len(legal) == 1:
            return legal[0]
        cands = self.candidates(legal, baseline)
        base = self.game.from_view(view(), _seed_of(self._dice))
        self.searched += 1
        choice = self._halve(base, seat, cands)
        self.departed += choice is not baseline
        return choice

    def candidates(self, legal: list[Any], baseline: Any) -> list[Any]:
        """The baseline first, then up to `width` others in a stable hash order of their encoding."""
        encode = self.game.codec.to_json
        first = encode(baseline)
        rest = sorted((a for a in legal if encode(a) != first), key=lambda a: zlib.crc32(encode(a)))
        return [baseline, *rest[: self.width]]

    def _halve(self, base: GameProtocol[Any, Any], seat: int, cands: list[Any]) -> Any:
        m = len(cands)
        stages = max(2, math.ceil(math.log2(m)))
        total, count = [0.0] * m, [0] * m
        paired, pairs = [0.0] * m, [0] * m
        alive = list(range(m))
        start = base.progress
        for stage in range(stages):
            per = max(1, self.iterations // (stages * len(alive)))
            if stage == 0 and self.early:
                per = max(per, self.early_samples)
            for _ in range(per):
                sample = base.determinize(seat, _seed_of(self._dice))
                policy_seed = _seed_of(self._dice)
                rewards = {c: self._playout(sample.clone(), seat, cands[c], start, policy_seed) for c in alive}
                for c, r in rewards.items():
                    total[c] += r
                    count[c] += 1
                if 0 in rewards:
                    for c in alive:
                        paired[c] += rewards[c] - rewards[0]
                        pairs[c] += 1
            if len(alive) == 1:
                break
            if self.early and 0 in alive and stage < stages - 1:
                if all(paired[c] / pairs[c] < self.margin / 2 for c in alive if c != 0):
                    return cands[0]
            alive.sort(key=lambda c: (-total[c] / count[c], c))
            alive = alive[: 1 if stage == stages - 1 else max(2, math.ceil(len(alive) / 2))]
        best = alive[0]
        if best != 0 and pairs[best] and paired[best] / pairs[best] < self.margin:
            return cands[0]
        return cands[best]

    def _playout(self, game: GameProtocol[Any, Any], seat: int, action: Any, start: int, seed: int) -> float:
        try:
            game.apply(action)
        except RuleError:  # not legal in this sample (cannot happen from a faithful view)
            return -1.0
        dice = SeededDice(_Rng(seed))
        stop = start + self.horizon
        policy = self.rollout
        while not game.is_over and game.progress < stop:
            p = game.to_move()[0]
            legal = game.legal_actions(p)
            if len(legal) == 1:
                game.apply_legal(legal[0])
            elif policy is None:
                game.apply_legal(legal[dice.roll(len(legal)) - 1])
            else:
                game.apply(policy(game, p, legal))
        if game.is_over:
            return game.returns()[seat]
        return self.evaluate(game)[seat]

    def evaluate(self, game: GameProtocol[Any, Any]) -> list[float]:
        """A softmax of each seat's standing (material, influence) at `temperature`."""
        worth = game.standing()
        top = max(worth)
        weights = [math.exp((w - top) / self.temperature) for w in worth]
        total = sum(weights) or 1.0
        return [w / total for w in weights]
