"""The PettingZoo environment passes PettingZoo's own API test and plays whole games."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is installed by scripts/setup.sh")

from pettingzoo.test import api_test  # noqa: E402

from judges.rl import env  # noqa: E402


def test_pettingzoo_api_test_passes():
    api_test(env(players=3, round_limit=3), num_cycles=300)


def test_whole_games_end_with_rewards_for_the_winners():
    e = env(players=2, round_limit=8)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    for _agent in e.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 0
    game = e.unwrapped.game
    assert game.is_over
    total = sum(e.unwrapped._cumulative_rewards.values())
    assert total == (1.0 if game.state.winners else 0.0)


def test_observations_come_from_the_agents_view_only():
    e = env(players=3, round_limit=3)
    e.reset(seed=1)
    raw = e.unwrapped
    before = raw.observe("player_1")["observation"].copy()
    # Changing the cards of another player's hidden hand (not its size) changes nothing player 1 observes.
    other = raw.game.state.players[2]
    other.hand = ["revolt" if card != "revolt" else "tax" for card in other.hand]
    after = raw.observe("player_1")["observation"]
    assert np.array_equal(before, after)


def _observed_controllers(obs: np.ndarray, seat: int, players: int, settlements: int) -> list:
    """Each settlement's controller as the observation encodes it (a seat, CANAANITES, None)."""
    from judges.engine import CANAANITES
    from judges.rl.env import MAX_PLAYERS

    out = []
    width = MAX_PLAYERS + 3 + 4
    for k in range(settlements):
        block = obs[k * width : k * width + MAX_PLAYERS + 3]
        slot = int(np.flatnonzero(block)[0])
        if slot == MAX_PLAYERS:
            out.append(CANAANITES)
        elif slot in (MAX_PLAYERS + 1, MAX_PLAYERS + 2):
            out.append(None)  # free, contested or razed
        else:
            out.append((slot + seat) % players)
    return out


def test_the_observed_control_is_the_engines_on_a_contested_hex():
    """§ 2: generals of two players on a hex without a garrison: nobody controls it."""
    from judges.engine.board import control_map
    from judges.engine.state import General

    e = env(players=3, round_limit=3)
    e.reset(seed=2)
    raw = e.unwrapped
    state, world = raw.game.state, raw.game.world
    free = next(i for i, s in enumerate(state.settlements) if s.owner is None and not s.razed)
    hex_index = world.settlements[free].hex
    for owner in (1, 2):  # seat 1's general arrives first: an answer by arrival would be seat 1
        gid = state.next_general_id
        state.generals[gid] = General(id=gid, owner=owner, hex=hex_index)
        state.next_general_id += 1
    control = control_map(state, world)
    assert control[free] is None
    for seat in range(3):
        obs = raw.observe(f"player_{seat}")["observation"]
        assert _observed_controllers(obs, seat, 3, len(world.settlements)) == control
    del state.generals[state.next_general_id - 1]  # seat 1 alone: his
    control = control_map(state, world)
    assert control[free] == 1
    assert _observed_controllers(raw.observe("player_0")["observation"], 0, 3, len(world.settlements)) == control


def test_the_environment_plays_through_the_game_protocol_the_engines_own_game():
    """The environment reaches the game through the protocol (games.judges_game); the game it
    plays is the engine's, action for action: the same choices on the engine directly give the
    same log and the same final state."""
    import msgspec

    from judges.engine import Game, Options
    from judges.games.protocol import GameProtocol

    e = env(players=3, round_limit=4)
    e.reset(seed=6)
    raw = e.unwrapped
    assert isinstance(raw.match, GameProtocol) and raw.match.name == "judges"
    rng = np.random.default_rng(6)
    for _agent in e.agent_iter(max_iter=100_000):
        obs, _reward, terminated, truncated, _info = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    direct = Game.new(Options(players=3, seed=6, round_limit=4), undoable=False)
    for action in raw.game.log:
        direct.apply(msgspec.json.decode(msgspec.json.encode(action)))
    assert direct.is_over and direct.state.winners == raw.game.state.winners
    assert msgspec.json.encode(direct.state) == msgspec.json.encode(raw.game.state)
