"""The MCTS bot: single-observer information-set MCTS (SO-ISMCTS) with UCT, from its view only.

A decision with one legal action is answered at once. Otherwise the bot rebuilds a Game from
its view (`engine.search.game_from_view`: hidden hands, deck order and dice are a sample) and
runs `iterations` iterations; each one

1. determinizes that game for its seat (`SearchState.determinize`: other hands, deck order,
   others' ballots and dice resampled) — so the bot never uses what it cannot see;
2. descends the tree by UCB1 (each seat maximizes its own reward; children count how often
   they were *available*, as ISMCTS does, because legal actions differ between samples),
   expanding one new child;
3. plays a rollout: the greedy bot for every seat for at most `rollout_depth` actions;
4. scores the end: `returns()` if the game ended, else a softmax of each seat's material
   (`engine.search.material`: points, progress toward Judge titles, settlements, income,
   generals, troops, coins);
5. backs the reward vector up the path.

Candidate restriction (to stay fast): at every node only a few actions are searched — the
greedy bot's choice (tried first, with a small progressive bias), EndTurn when the decision
is a turn, and up to `samples` others chosen by a stable hash order (stable within one search,
so the tree's statistics stay meaningful). Decisions with at most `samples` + 2 legal actions
(votes, plunder, discards, most appointments) search them all. The chosen action is the most
visited root child; ties go to the greedy choice. Free, undoable actions (take/leave troops,
pick up/drop the Ark) are searched only when greedy proposes them, so no search walks a turn
in circles; past MAX_TURN_ACTIONS in one turn the greedy bot decides.
"""

from __future__ import annotations

import math
import zlib
from typing import Callable

from ..engine import Action, DropArk, EndTurn, LeaveTroops, PickUpArk, TakeTroops
from ..engine.actions import action_to_json
from ..engine.dice import SeededDice, seed_to_state
from ..engine.search import SearchState, game_from_view, material
from .greedy import GreedyBot


# Actions that cost nothing and can be undone (take/leave troops, pick up/drop the Ark) could make
# a turn endless; they are searched only when the greedy bot itself proposes them.
_REVERSIBLE = (TakeTroops, LeaveTroops, PickUpArk, DropArk)
MAX_TURN_ACTIONS = 60  # a safety net: past this many actions in one turn, the greedy bot decides


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "mover", "prior")

    def __init__(self, mover: int = -1, prior: float = 0.0, players: int = 0) -> None:
        self.children: dict[bytes, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players
        self.mover = mover  # the seat whose action led here
        self.prior = prior  # progressive bias (the greedy choice's)


class MCTSBot:
    name = "mcts"

    def __init__(self, seed: int, iterations: int = 200, rollout_depth: int = 10, exploration: float = 0.7,
                 samples: int = 3, greedy_bias: float = 0.15, temperature: float = 2.0,
                 epsilon: float = 0.0) -> None:
        if iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        self.rng = seed_to_state(seed)
        self._dice = SeededDice(self)
        self._greedy = GreedyBot(seed ^ 0x9E3779B9)
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.samples = samples
        self.greedy_bias = greedy_bias
        self.temperature = temperature
        self.epsilon = epsilon
        self._salt = 0
        self._turn: tuple = ()
        self._turn_actions = 0

    def _seed(self) -> int:
        return (self._dice.roll(1 << 30) << 30) ^ self._dice.roll(1 << 30)

    # --- the decision ---------------------------------------------------------------------

    def choose(self, seat: int, legal: list[Action], view: Callable[[], dict]) -> Action:
        if len(legal) == 1:
            return legal[0]
        v = view()
        turn = (v["round"], v["phase"], seat, tuple(d["kind"] for d in v["my_decisions"]))
        self._turn_actions = self._turn_actions + 1 if turn == self._turn else 1
        self._turn = turn
        if self._turn_actions > MAX_TURN_ACTIONS:
            return self._greedy.choose(seat, legal, lambda: v)
        base = SearchState(game_from_view(v, self._seed()))
        self._salt = self._seed()
        by_key = {action_to_json(a): a for a in legal}
        root_cands = self._candidates(base, seat, legal, lambda: v)
        if len(root_cands) == 1:
            return by_key.get(root_cands[0][0], legal[0])
        players = len(base.game.state.players)
        root = _Node(players=players)
        for _ in range(self.iterations):
            self._iterate(root, base.determinize(seat, self._seed()), players)
        best_key, best_visits = root_cands[0][0], -1
        for key, _ in root_cands:  # in candidate order: ties go to the greedy choice
            child = root.children.get(key)
            if child is not None and child.visits > best_visits:
                best_key, best_visits = key, child.visits
        return by_key.get(best_key, root_cands[0][1])

    def _iterate(self, root: _Node, s: SearchState, players: int) -> None:
        node, path = root, [root]
        while not s.is_terminal():
            p = s.current_player()
            legal = list(s.game.legal_actions(p))
            if not legal:
                break
            cands = self._candidates(s, p, legal)
            untried = None
            for key, action in cands:
                child = node.children.get(key)
                if child is None:
                    if untried is None:
                        untried = (key, action)
                else:
                    child.avail += 1
            if untried is not None:
                key, action = untried
                prior = self.greedy_bias if key == cands[0][0] else 0.0
                child = node.children[key] = _Node(p, prior, players)
                child.avail = 1
                s.apply(action)
                path.append(child)
                break
            key, action = self._select(node, cands, p)
            s.apply(action)
            node = node.children[key]
            path.append(node)
        reward = self._rollout(s)
        for n in path:
            n.visits += 1
            for i in range(players):
                n.total[i] += reward[i]

    def _select(self, node: _Node, cands: list, p: int) -> tuple[bytes, Action]:
        best, best_score = cands[0], -math.inf
        for key, action in cands:
            child = node.children[key]
            score = (child.total[p] / child.visits
                     + self.exploration * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
                     + child.prior / (1 + child.visits))
            if score > best_score:
                best, best_score = (key, action), score
        return best

    # --- candidates, rollouts, evaluation ------------------------------------------------------

    def _greedy_choice(self, s: SearchState, p: int, legal: list[Action], view=None) -> Action:
        return self._greedy.choose(p, legal, view or (lambda: s.game.view(p, notifications=False)))

    def _candidates(self, s: SearchState, p: int, legal: list[Action], view=None) -> list[tuple[bytes, Action]]:
        """(key, action) pairs, the greedy choice first; see the module docstring."""
        keyed = [(action_to_json(a), a) for a in legal]
        if len(keyed) == 1:
            return keyed
        first = action_to_json(self._greedy_choice(s, p, legal, view))
        chosen = [k for k in keyed if k[0] == first] or keyed[:1]
        if len(keyed) <= self.samples + 2 and not any(isinstance(a, _REVERSIBLE) for _, a in keyed):
            return chosen + [k for k in keyed if k[0] != chosen[0][0]]
        end = [k for k in keyed if isinstance(k[1], EndTurn) and k[0] != chosen[0][0]]
        rest = [k for k in keyed if k[0] != chosen[0][0] and not isinstance(k[1], (EndTurn,) + _REVERSIBLE)]
        rest.sort(key=lambda k: zlib.crc32(k[0]) ^ self._salt)
        return chosen + end + rest[:self.samples]

    def _rollout(self, s: SearchState) -> list[float]:
        game = s.game
        for _ in range(self.rollout_depth):
            if game.is_over:
                break
            p = game.waiting_for()[0]
            legal = list(game.legal_actions(p))
            if len(legal) == 1:
                action = legal[0]
            elif self.epsilon and self._dice.roll(1000) <= self.epsilon * 1000:
                action = legal[self._dice.roll(len(legal)) - 1]
            else:
                action = self._greedy_choice(s, p, legal)
            game.apply(action)
        return s.returns() if game.is_over else self.evaluate(s)

    def evaluate(self, s: SearchState) -> list[float]:
        """Rewards at a cut-off: a softmax of each seat's material (eliminated seats get 0)."""
        state = s.game.state
        worth = material(s.game)
        top = max(worth)
        weights = [0.0 if p.eliminated else math.exp((w - top) / self.temperature)
                   for p, w in zip(state.players, worth)]
        total = sum(weights) or 1.0
        return [w / total for w in weights]
