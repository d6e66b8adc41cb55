"""A learned value function: each seat's chance to win from a position, for searches that cut
their rollouts short.

The model is a *conditional logit* over the seats: every living seat gets a score `w · f(seat)`
from a dozen public features of its position (`FEATURES`), and its chance to win is the softmax
of the scores over the living seats (eliminated seats: 0). It has the form of the hand-weighted
evaluation it replaces (a softmax of `engine.search.material`), with the weights fitted to the
outcomes of the lab's own games instead of chosen by hand; docs/bots.md says why this model.

Training (`train`, `judges train-value`): seeded games of greedy bots (the search's rollout
policy, so the value predicts "who wins if everyone plays on as the greedy bot"), one sample at
the first decision of every round — exactly where the MCTS bot's rollouts stop — labelled with
the game's winners (a shared win is split). The fit is Newton's method on the L2-penalised
log-likelihood: deterministic, a few seconds of CPU with numpy. The weights ship as
`judges/data/value.json`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..engine.board import base_value, control_map, region_share, turn_order
from ..engine.state import GameState
from ..engine.victory import score
from ..extras import require
from ..world import World

if TYPE_CHECKING:
    from ..engine import Game

T = TypeVar("T")

#: The per-seat features, in the order of the weights. All public: a view's state has them.
FEATURES = (
    "points",  # victory points now (§ 14: judges, the King, the Tabernacle)
    "judge_progress",  # sum over sustaining titles not yet theirs: squared share of the region
    "best_share",  # the largest share of a sustaining region whose title is not theirs
    "settlements",  # settlements controlled
    "income",  # their base income values (§ 7)
    "generals",  # free generals
    "troops",  # troops with free generals and in their garrisons
    "coins",
    "cards",  # cards in hand (hand sizes are public)
    "ark",  # 1 while one of their free generals carries the Ark
    "first",  # 1 for the first player in this round's turn order
)

DEFAULT_PATH = "value.json"  # in judges/data


def features(state: GameState, world: World) -> list[list[float]]:
    """The `FEATURES` of every seat (zeros for an eliminated seat)."""
    rules = state.options.rules
    n = len(state.players)
    rows = [[0.0] * len(FEATURES) for _ in range(n)]
    control = control_map(state, world)
    for g in state.generals.values():
        if g.captor is None:
            row = rows[g.owner]
            row[5] += 1
            row[6] += g.army
            if g.ark:
                row[9] = 1.0
    for r, region in enumerate(world.regions):
        standing = 0
        for i in region.settlements:
            s = state.settlements[i]
            if s.razed:
                continue
            standing += 1
            owner = control[i]
            if owner is None or owner < 0:
                continue
            row = rows[owner]
            row[3] += 1
            row[4] += base_value(state, world, i)
            if s.owner == owner:
                row[6] += s.troops
        title = state.titles[r]
        if standing >= rules.settlements_to_sustain_judge and title.in_play:
            for seat in range(n):
                if title.owner != seat:
                    share = region_share(state, world, r, seat, control)
                    rows[seat][1] += share * share
                    rows[seat][2] = max(rows[seat][2], share)
    order = turn_order(state)
    for seat, player in enumerate(state.players):
        row = rows[seat]
        if player.eliminated:
            rows[seat] = [0.0] * len(FEATURES)
            continue
        row[0] = score(state, world, seat)["total"]
        row[7] = player.coins
        row[8] = len(player.hand)
        row[10] = 1.0 if order and order[0] == seat else 0.0
    return rows


@dataclass(frozen=True)
class ValueModel:
    """Weights for `FEATURES` (a conditional logit over the seats)."""

    weights: tuple[float, ...]
    trained_on: str = ""  # how the weights were made (the training command), for the record

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a value model has {len(FEATURES)} weights, not {len(self.weights)}")

    def win_chances(self, state: GameState, world: World) -> list[float]:
        """Each seat's chance to win from `state` (they sum to 1 over the living seats)."""
        rows = features(state, world)
        w = self.weights
        scores = [
            None if p.eliminated else sum(wi * fi for wi, fi in zip(w, row)) for p, row in zip(state.players, rows)
        ]
        top = max((s for s in scores if s is not None), default=0.0)
        exps = [0.0 if s is None else math.exp(s - top) for s in scores]
        total = sum(exps) or 1.0
        return [e / total for e in exps]

    def to_json(self) -> str:
        return json.dumps(
            {"features": list(FEATURES), "weights": list(self.weights), "trained_on": self.trained_on}, indent=2
        )

    @classmethod
    def from_json(cls, text: str) -> ValueModel:
        data = json.loads(text)
        if data.get("features") != list(FEATURES):
            raise ValueError(f"the value model's features {data.get('features')} are not {list(FEATURES)}")
        return cls(weights=tuple(float(x) for x in data["weights"]), trained_on=data.get("trained_on", ""))


@cache
def default_model() -> ValueModel:
    """The weights shipped with the package (`judges/data/value.json`)."""
    text = resources.files("judges").joinpath("data", DEFAULT_PATH).read_text(encoding="utf-8")
    return ValueModel.from_json(text)


def load_model(path: str | Path | None = None) -> ValueModel:
    return default_model() if path is None else ValueModel.from_json(Path(path).read_text(encoding="utf-8"))


# --- training ---------------------------------------------------------------------------------


#: one training position: (features of every seat, which seats are alive, winner shares)
Sample = tuple[list[list[float]], list[bool], list[float]]


def _greedy_game_rows(
    seed: int, players: int, round_limit: int, take: Callable[[Game], T | None]
) -> list[tuple[T, list[bool], list[float]]]:
    """Plays one seeded game of greedy bots; before each decision `take(game)` may return a row,
    kept with which seats are alive then; every row is labelled with the game's winner shares
    (a shared win is split; no rows from a game without a winner)."""
    from ..engine import Game, Options
    from . import GreedyBot, bot_seed

    game = Game.new(Options(players=players, seed=seed, round_limit=round_limit), undoable=False)
    bots = [GreedyBot(bot_seed(seed, s)) for s in range(players)]
    state, world = game.state, game.world
    rows: list[tuple[T, list[bool]]] = []
    while not game.is_over:
        row = take(game)
        if row is not None:
            rows.append((row, [not p.eliminated for p in state.players]))
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply(bots[seat].choose_in_state(seat, legal, state, world))
    if not state.winners:
        return []
    share = 1.0 / len(state.winners)
    label = [share if seat in state.winners else 0.0 for seat in range(players)]
    return [(row, alive, label) for row, alive in rows]


def samples_of_game(seed: int, players: int, round_limit: int = 60) -> list[Sample]:
    """A sample at the first decision of each round of one seeded game of greedy bots,
    labelled with its winners (none from a game without a winner)."""
    seen_round = 0

    def take(game: Game) -> list[list[float]] | None:
        nonlocal seen_round
        if game.state.round == seen_round:
            return None
        seen_round = game.state.round
        return features(game.state, game.world)

    return _greedy_game_rows(seed, players, round_limit, take)


def fit(samples: list[Sample], l2: float = 1.0, steps: int = 25) -> tuple[float, ...]:
    """The weights maximising the conditional-logit likelihood of `samples` minus `l2`/2 ·|w|²
    (features standardised for the fit, weights returned on the raw features). Newton's method:
    deterministic, converged in a few steps. Needs numpy (the 'lab' extra)."""
    np = require("numpy", "lab", "fitting the value model")

    k = len(FEATURES)
    xs = [np.asarray(x, dtype=float) for x, _, _ in samples]
    alive = [np.asarray(a, dtype=bool) for _, a, _ in samples]
    ys = [np.asarray(y, dtype=float) for _, _, y in samples]
    stacked = np.vstack([x[a] for x, a in zip(xs, alive)])
    scale = stacked.std(axis=0)
    scale[scale == 0] = 1.0
    w = np.zeros(k)
    for _ in range(steps):
        grad = -l2 * w
        hess = -l2 * np.eye(k)
        for x, y, a in zip(xs, ys, alive):
            z = x[a] / scale
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            grad += z.T @ (y[a] - p)
            hess -= z.T @ (np.diag(p) - np.outer(p, p)) @ z
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return tuple(float(v) for v in w / scale)


def train(games: int, players: tuple[int, ...], seed: int, l2: float = 1.0) -> ValueModel:
    """Fits a model on `games` greedy games for each player count, seeds `seed`, `seed`+1, …"""
    samples: list[Sample] = []
    for n in players:
        for g in range(games):
            samples.extend(samples_of_game(seed + g, n))
    counts = ",".join(str(n) for n in players)
    return ValueModel(
        weights=fit(samples, l2),
        trained_on=f"judges train-value --games {games} --players {counts} --seed {seed} --l2 {l2}",
    )


def log_loss(model: ValueModel, samples: list[Sample]) -> float:
    """Mean cross-entropy of the model's win chances against the outcomes (lower is better)."""
    total = 0.0
    for rows, living, label in samples:
        scores = [sum(w * f for w, f in zip(model.weights, row)) for row in rows]
        alive = [i for i, a in enumerate(living) if a]
        top = max(scores[i] for i in alive)
        log_z = top + math.log(sum(math.exp(scores[i] - top) for i in alive))
        total -= sum(label[i] * (scores[i] - log_z) for i in alive if label[i] > 0)
    return total / max(1, len(samples))


# --- the temperature of the material softmax ----------------------------------------------------

#: one position where a rollout stops: (material of every seat, which seats are alive, winner shares)
HorizonSample = tuple[list[float], list[bool], list[float]]


def horizon_samples(seed: int, players: int, round_limit: int = 60) -> list[HorizonSample]:
    """One seeded game of greedy bots (the rollout policy), sampled where the MCTS bot's rollouts
    stop — as each round's announcements end (its election and Victory Check just played) —
    with each seat's `engine.search.material` and the game's winners (a shared win is split;
    none from a game without a winner)."""
    from ..engine.search import material

    announcing = False  # the phase at the previous decision was Announcements

    def take(game: Game) -> list[float] | None:
        nonlocal announcing
        row = material(game) if announcing and game.state.phase != 1 else None
        announcing = game.state.phase == 1
        return row

    return _greedy_game_rows(seed, players, round_limit, take)


def softmax_log_loss(samples: list[HorizonSample], temperature: float) -> float:
    """Mean cross-entropy of the softmax of material at `temperature` (the MCTS bot's leaf
    evaluation) against the outcomes: lower is better calibrated."""
    total = 0.0
    for worth, living, label in samples:
        alive = [i for i, a in enumerate(living) if a]
        top = max(worth[i] for i in alive)
        log_z = math.log(sum(math.exp((worth[i] - top) / temperature) for i in alive))
        total -= sum(label[i] * ((worth[i] - top) / temperature - log_z) for i in alive if label[i] > 0)
    return total / max(1, len(samples))
