"""A PettingZoo AEC environment for Judges & Kings.

- **Agents**: "player_0" … "player_{n-1}"; the agent to act is the first seat the engine is
  waiting for (several may owe decisions at once; they are asked one after another).
- **Actions**: `Discrete(MAX_ACTIONS)`; action *i* is the *i*-th legal action of the agent in
  the engine's enumeration order. The observation's `action_mask` marks the legal indices
  (the engine rarely offers more than `MAX_ACTIONS`; beyond that the list is cut).
- **Observations**: a dict with `observation` (a float32 vector, from the agent's view only:
  the board, each settlement's controller as `engine.board.control_map` answers it, every
  player's public counts, the agent's own hand, the Wrath meter, the round and the phase) and
  `action_mask` (int8).
- **Rewards**: at the end, 1 split among the winners; 0 otherwise (collapse, general
  elimination and the round cap reward nobody).

The game is reached through the game protocol (`games.judges_game`, as every headless loop
reaches it): who moves, the legal actions, applying one, the end and its returns. Only the
observation reads the engine's own view and board (`game`, the engine's object).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Action, Game
from ..engine.board import besieged_settlements, control_map
from ..engine.rules import DEFAULT_RULES, Rules
from ..engine.state import CANAANITES, PHASES
from ..games.judges_game import JudgesGame, new_game
from ..world import World, load_world

MAX_ACTIONS = 512
MAX_PLAYERS = DEFAULT_RULES.max_players  # the observation's shape: fixed, whatever a game's rules
CARDS = tuple(DEFAULT_RULES.deck)


def observation_size(world: World) -> int:
    per_settlement = (MAX_PLAYERS + 3) + 4  # holder one-hot (players, Canaanites, free, razed) + numbers
    per_player = 6
    return len(world.settlements) * per_settlement + MAX_PLAYERS * per_player + len(CARDS) + 2 + len(PHASES) + 2


def encode(game: Game, seat: int) -> np.ndarray:
    """The agent's observation, built from its view (other hands and the deck stay hidden)."""
    view = game.view(seat, notifications=False)
    st = view.state
    rules = st.options.rules
    world = game.world
    n = len(st.players)
    out = np.zeros(observation_size(world), dtype=np.float32)
    i = 0
    control = control_map(st, world)
    besieged = besieged_settlements(st)
    for k, s in enumerate(st.settlements):
        controller = control[k]
        if s.razed:
            out[i + MAX_PLAYERS + 2] = 1
        elif controller == CANAANITES:
            out[i + MAX_PLAYERS] = 1
        elif controller is None:
            out[i + MAX_PLAYERS + 1] = 1  # free or contested
        else:
            out[i + (controller - seat) % n] = 1  # seats relative to the agent
        i += MAX_PLAYERS + 3
        out[i : i + 4] = (s.troops / 5, float(s.walls), s.developments / 3, float(k in besieged))
        i += 4
    for rel in range(MAX_PLAYERS):
        if rel < n:
            p = st.players[(seat + rel) % n]
            generals = [g for g in st.generals.values() if g.owner == p.seat]
            out[i : i + 6] = (
                p.coins / 20,
                view.hand_sizes[p.seat] / rules.hand_limit,
                len(generals) / rules.max_generals,
                sum(g.army for g in generals) / 10,
                float(p.eliminated),
                sum(1 for t in st.titles if t.owner == p.seat and t.holder is not None) / 3,
            )
        i += 6
    own = st.players[seat].hand
    for c, card in enumerate(CARDS):
        out[i + c] = own.count(card) / 2
    i += len(CARDS)
    out[i] = st.wrath / rules.wrath_threshold
    out[i + 1] = min(st.round, 60) / 60
    i += 2
    out[i + st.phase - 1] = 1
    i += len(PHASES)
    out[i] = float(st.king is not None)
    out[i + 1] = float(st.ark_hex is None)
    return out


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard safety wrappers."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def raw_env(**kwargs: Any) -> JudgesAECEnv:
    return JudgesAECEnv(**kwargs)


class JudgesAECEnv(AECEnv):  # pettingzoo ships no type information: AECEnv is Any
    metadata = {"name": "judges_and_kings_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 3,
        round_limit: int = 30,
        wave_pairs: int = 1,
        render_mode: str | None = None,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.players = players
        self.round_limit = round_limit
        self.wave_pairs = wave_pairs
        self.render_mode = render_mode
        self.world = load_world(rules.map)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = observation_size(self.world)
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-1.0, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(MAX_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(MAX_ACTIONS)
        self.match: JudgesGame | None = None  # the game, through the protocol

    @property
    def game(self) -> Game | None:
        """The engine's game being played (None before reset() and after close())."""
        return self.match.game if self.match is not None else None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def _seat(self, agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def _live(self) -> JudgesGame:
        """The game being played (the environment must have been reset)."""
        if self.match is None:
            raise RuntimeError("the environment has no game: call reset() first")
        return self.match

    def _legal(self, seat: int) -> list[Action]:
        return self.match.legal_actions(seat)[:MAX_ACTIONS] if self.match is not None else []

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        match = self._live()
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not match.is_over:
            mask[: len(self._legal(seat))] = 1
        return {"observation": encode(match.game, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # as every headless game starts: no copy kept for an Undo (the agents never take back)
        self.match = new_game(
            self.players,
            0 if seed is None else int(seed),
            self.rules,
            wave_pairs=self.wave_pairs,
            round_limit=self.round_limit,
        )
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        waiting = self._live().to_move()
        return self.possible_agents[waiting[0]] if waiting else self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        legal = self._legal(self._seat(agent))
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action} is not legal for {agent} (mask of {len(legal)} actions)")
        match = self._live()
        match.apply_legal(legal[int(action)])  # one of the actions just listed: trusted
        self.rewards = {a: 0.0 for a in self.agents}
        outcome = match.outcome()
        if outcome is not None:
            for w in outcome.winners:
                self.rewards[self.possible_agents[w]] = 1.0 / len(outcome.winners)
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if outcome is not None:
            # Hand the final turn around so each agent observes its end (PettingZoo's dead steps).
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None or self.match is None:
            return None
        st, phase = self.match.game.state, self.match.game.phase_name
        return f"round {st.round}, {phase}, wrath {st.wrath}, waiting for {self.match.to_move()}"

    def close(self) -> None:
        self.match = None
