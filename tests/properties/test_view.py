"""The player's view (engine/view.py): its type, what it hides, and that the engine's queries
answer the same on the view's state as on the full state, for many random positions."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judges.bots import RandomBot
from judges.engine import Game, GameState, Options
from judges.engine.board import (
    base_value,
    control_map,
    controlled_settlements,
    hex_controller,
    region_share,
    settlement_controller,
    standing_in_region,
)
from judges.engine.income import compute_income, settlement_value
from judges.engine.scenario import build_game
from judges.engine.victory import score
from judges.engine.view import PlayerView


def random_position(seed: int, players: int, actions: int, policy_seed: int) -> Game:
    """A standard game after `actions` uniformly random legal decisions."""
    game = Game.new(Options(players=players, seed=seed, round_limit=40))
    bot = RandomBot(policy_seed)
    for _ in range(actions):
        if game.is_over:
            break
        seat = game.waiting_for()[0]
        game.apply(bot.choose(seat, list(game.legal_actions(seat)), lambda: game.view(seat)))
    return game


def queries(state: GameState, game: Game) -> dict:
    """Every public question the engine answers about a position."""
    world = game.world
    n = len(state.players)
    control = control_map(state, world)
    return {
        "control": control,
        "hexes": [hex_controller(state, world, h) for h in range(len(world.hexes))],
        "settlements": [settlement_controller(state, world, i) for i in range(len(world.settlements))],
        "controlled": [controlled_settlements(state, world, seat) for seat in range(n)],
        "base_value": [base_value(state, world, i) for i in range(len(world.settlements))],
        "value": [settlement_value(state, world, i) for i in range(len(world.settlements))],
        "income": compute_income(state, world),
        "standing": [standing_in_region(state, world, r) for r in range(len(world.regions))],
        "shares": [[region_share(state, world, r, seat) for seat in range(n)] for r in range(len(world.regions))],
        "scores": [score(state, world, seat) for seat in range(n)],
    }


def assert_hides(view: PlayerView, game: Game) -> None:
    state, seat = game.state, view.seat
    shown = view.state
    assert isinstance(view, PlayerView) and isinstance(shown, GameState)
    assert shown.rng == 0 and shown.options.seed == 0
    assert shown.deck == [] and view.deck_size == len(state.deck)
    assert shown.votes == {} and view.ballot == state.votes.get(seat)
    assert view.hand_sizes == [len(p.hand) for p in state.players]
    for p in shown.players:
        assert p.hand == (state.players[seat].hand if p.seat == seat else [])
    # a prophet's choice of terrains so far: his owner's alone
    seer = any(d.player == seat and d.kind == "foresee_events" for d in state.pending)
    assert shown.pending_terrains == (state.pending_terrains if seer else [])
    # Nothing else is hidden: putting the hidden parts back gives the full state.
    restored = msgspec.structs.replace(
        shown,
        rng=state.rng,
        options=state.options,
        deck=state.deck,
        votes=state.votes,
        pending_terrains=state.pending_terrains,
        players=[msgspec.structs.replace(p, hand=state.players[p.seat].hand) for p in shown.players],
    )
    assert restored == state
    text = msgspec.json.encode(view)
    assert str(state.rng).encode() not in text
    if state.options.seed >= 10**6:
        assert str(state.options.seed).encode() not in text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 6),
    actions=st.integers(0, 400),
    policy_seed=st.integers(0, 2**32),
)
def test_engine_queries_answer_the_same_on_the_view_as_on_the_full_state(seed, players, actions, policy_seed):
    game = random_position(seed, players, actions, policy_seed)
    truth = queries(game.state, game)
    for seat in range(players):
        view = game.view(seat)
        assert_hides(view, game)
        assert queries(view.state, game) == truth


def test_the_view_is_typed_and_hides_other_hands_the_deck_the_seed_and_the_dice():
    game = Game.new(Options(players=4, seed=1_234_567_891))
    view = game.view(1)
    assert view.seat == 1 and view.round == game.state.round and view.phase_name == game.phase_name
    assert view.waiting_for == game.waiting_for() and view.pending == game.state.pending
    assert view.my_decisions == [d for d in game.state.pending if d.player == 1]
    assert view.notifications == game.notifications_for(1)
    assert game.view(1, notifications=False).notifications == []
    assert view.deck_size > 0 and all(size > 0 for size in view.hand_sizes)
    assert_hides(view, game)
    # The view shares nothing with the game: changing one leaves the other alone.
    view.state.settlements[0].troops += 5
    view.state.players[1].hand.append("tax")
    assert game.view(1) != view
    assert game.state.players[1].hand != view.state.players[1].hand


def test_only_the_seats_own_ballot_shows_during_an_election():
    data = json.loads((Path(__file__).parents[2] / "scenarios" / "election.json").read_text())
    game = build_game(data)
    votes = [a for d in game.state.pending if d.kind == "vote" for a in game.legal_actions(d.player)]
    assert votes, "the election scenario opens an election"
    game.apply(votes[0])  # one ballot cast, the others still owed
    voter = votes[0].player
    assert game.state.votes and any(d.kind == "vote" for d in game.state.pending)
    for seat in range(len(game.state.players)):
        view = game.view(seat)
        assert view.ballot == game.state.votes.get(seat)
        assert view.state.votes == {}
        assert_hides(view, game)
    assert game.view(voter).ballot == votes[0].candidate


def test_the_greedy_view_helpers_are_the_engines_functions():
    """The greedy bot's control, settlement value and region shares are the engine's."""
    from judges.bots.seat_view import SeatView

    game = random_position(7, 4, 300, 7)
    for seat in range(4):
        view = game.view(seat, notifications=False)
        me = SeatView(view, game.world)
        world = game.world
        assert [me.controller(i) for i in range(len(world.settlements))] == control_map(game.state, world)
        assert [me.value(i) for i in range(len(world.settlements))] == [
            base_value(game.state, world, i) for i in range(len(world.settlements))
        ]
        assert [me.region_share(r) for r in range(len(world.regions))] == [
            region_share(game.state, world, r, seat) for r in range(len(world.regions))
        ]
