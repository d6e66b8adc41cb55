"""Property-based tests: random positions, random legal decisions, many rounds.

Invariants checked after every action: no negative coins or troops; each settlement in
exactly one state (free, player-held, Canaanite-held, razed); one Ark; relic counts within
the supply; titles and the crown held by living generals; the Wrath meter within 0..12.
At the end: replaying the action log from the seed gives the identical game, and the
state's JSON round-trip is lossless.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judges.bots import RandomBot
from judges.engine import CANAANITES, DEFAULT_RULES, Game, Options, action_to_dict
from judges.engine.cards import EVENT_CARDS
from judges.engine.scenario import build_game
from judges.engine.state import state_from_json, state_to_json
from judges.world import load_world

WORLD = load_world()
NAMES = [s.name for s in WORLD.settlements]
REGIONS = [r.name for r in WORLD.regions]


def check_invariants(game: Game) -> None:
    state = game.state
    for p in state.players:
        assert p.coins >= 0
        # Above the limit only while that player owes a discard.
        assert len(p.hand) <= DEFAULT_RULES.hand_limit or any(
            d.player == p.seat and d.kind == "discard" for d in state.pending
        )
    for i, s in enumerate(state.settlements):
        assert s.troops >= 0 and 0 <= s.developments
        if s.razed:
            assert (s.owner, s.troops, s.walls, s.developments) == (None, 0, False, 0), NAMES[i]
        elif s.owner is None:
            assert s.troops == 0, NAMES[i]
        else:
            assert s.troops > 0, NAMES[i]
            assert s.owner == CANAANITES or 0 <= s.owner < len(state.players)
    carriers = [g for g in state.generals.values() if g.ark]
    assert len(carriers) + (state.ark_hex is not None) == 1
    assert sum(g.prophet for g in state.generals.values()) <= DEFAULT_RULES.prophet_tokens
    assert sum(g.anointed for g in state.generals.values()) <= DEFAULT_RULES.anointed_tokens
    for g in state.generals.values():
        assert g.army >= 0
        assert g.captor != g.owner
    # A general may hold several Judge titles (§ 10: the manual sets no limit); each title has
    # at most one holder, who belongs to its owner.
    for t in state.titles:
        if t.holder is not None:
            assert t.holder in state.generals and state.generals[t.holder].owner == t.owner
        if not t.in_play:
            assert t.owner is None and t.holder is None
    if state.king is not None:
        assert state.king in state.generals
    assert 0 <= state.wrath < DEFAULT_RULES.wrath_threshold
    assert all(p.at >= 0 for p in state.invaders) or state.pending
    for d in state.pending:
        assert not state.players[d.player].eliminated


@st.composite
def positions(draw):
    players = draw(st.integers(2, 6))
    generals = []
    for gid in range(100, 100 + draw(st.integers(0, 5))):
        generals.append(
            {
                "id": gid,
                "owner": draw(st.integers(0, players - 1)),
                "at": draw(st.sampled_from(NAMES)),
                "prophet": draw(st.booleans()),
                "army": draw(st.integers(0, 4)),
            }
        )
    prophets = 0
    for g in generals:  # never more prophets than the supply holds
        if g["prophet"]:
            prophets += 1
            g["prophet"] = prophets <= DEFAULT_RULES.prophet_tokens
    if generals and draw(st.booleans()):
        generals[0]["anointed"] = True
    titles = {}
    for g, region in zip(generals, draw(st.permutations(REGIONS))):
        if draw(st.booleans()):
            titles[region] = {"holder": g["id"]}
    position = {
        "wrath": draw(st.integers(0, 12)),
        "wrath_registered": draw(st.integers(0, 6)),
        "generals": generals,
        "titles": titles,
        "events_area": draw(st.lists(st.sampled_from(EVENT_CARDS), max_size=4)),
        "settlements": {name: {"razed": True} for name in draw(st.lists(st.sampled_from(NAMES), max_size=12))},
    }
    return {
        "options": {
            "players": players,
            "seed": draw(st.integers(0, 2**32)),
            "wave_pairs": draw(st.integers(1, 2)),
            "round_limit": draw(st.integers(1, 8)),
        },
        "position": position,
        "dice": None,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=positions(), policy_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_replay_identically(scenario, policy_seed):
    """Whole games (to their ending or the round cap, through all seven phases) from a
    random position, choosing uniformly among the legal actions of a random owing seat."""
    game = build_game(scenario)
    check_invariants(game)
    start_state = state_to_json(game.state)
    rng = random.Random(policy_seed)
    while not game.is_over:
        seat = rng.choice(game.waiting_for())
        legal = list(game.legal_actions(seat))
        assert legal, f"seat {seat} owes a decision but has no legal action"
        game.apply(rng.choice(legal))
        check_invariants(game)
    # Replaying the log from the same start rebuilds the identical game.
    replayed = build_game(scenario)
    assert state_to_json(replayed.state) == start_state
    for action in [action_to_dict(a) for a in game.log]:
        replayed.apply(action)
    assert state_to_json(replayed.state) == state_to_json(game.state)
    # JSON round-trip is lossless.
    assert state_to_json(state_from_json(state_to_json(game.state))) == state_to_json(game.state)
    assert state_from_json(state_to_json(game.state)) == game.state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_standard_games_run_to_an_ending_under_the_round_cap(seed, players):
    game = Game.new(Options(players=players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit))
    bots = [RandomBot(seed + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: {}))
        check_invariants(game)
    assert game.state.ending is not None
    assert game.state.round <= DEFAULT_RULES.simulation_round_limit
