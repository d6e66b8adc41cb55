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
    for agent in e.agent_iter(max_iter=100_000):
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
