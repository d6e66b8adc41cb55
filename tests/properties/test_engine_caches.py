"""Property tests of the engine's shortcuts (docs/performance.md): what it caches during a
turn, and the trusted path that skips the checks an enumeration already made.

- The legal actions of every Acquisitions and Movement turn, at every step of random games,
  equal those worked out afresh the slow way: every candidate purchase asked of `refusal`
  (which builds its own control map each time), every general's reachable hexes searched
  anew with the contact hexes of the moment (`reachable`), garrisons read through
  `settlement_controller`. The control map equals each settlement's controller asked alone.
- A game moved through `apply_legal` and one moved through the validating `apply` by the
  same choices reach the same state, the same notifications and the same log, step by step.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_invariants import positions

from judges.engine import DEFAULT_RULES, Game, Options
from judges.engine.acquisitions import refusal
from judges.engine.actions import Buy, DropArk, EndTurn, LeaveTroops, Move, PickUpArk, TakeTroops
from judges.engine.board import control_map, settlement_controller
from judges.engine.movement import _garrison_here, contact_hexes, reachable
from judges.engine.scenario import build_game
from judges.engine.state import LandedEvent, state_to_json

ITEMS_AT_SETTLEMENTS = ("troop", "development", "wall", "general")


def buys_afresh(game: Game, seat: int) -> list:
    """Every candidate purchase, in the listing order, kept when `refusal` allows it."""
    ctx, state, world = game._ctx, game.state, game.world
    candidates = [
        Buy(player=seat, item=item, settlement=world.settlements[s].name)
        for s in range(len(world.settlements))
        if settlement_controller(state, world, s) == seat
        for item in ITEMS_AT_SETTLEMENTS
    ]
    for g in state.generals.values():
        if g.owner == seat and g.captor is None:
            candidates += [
                Buy(player=seat, item="troop", general=g.id),
                Buy(player=seat, item="mercenary", general=g.id),
            ]
    candidates.append(Buy(player=seat, item="card"))
    return [buy for buy in candidates if refusal(ctx, buy) is None]


def movement_afresh(game: Game, seat: int) -> list:
    """Each free general's moves (a new search), troops taken and left, the Ark."""
    ctx, state, world = game._ctx, game.state, game.world
    out: list = []
    for g in state.generals.values():
        if g.owner != seat or g.captor is not None:
            continue
        for h in sorted(reachable(ctx, g, contact_hexes(ctx, seat))):
            out.append(Move(player=seat, general=g.id, q=world.hexes[h].q, r=world.hexes[h].r))
        s_index = _garrison_here(ctx, g)
        if s_index is not None:
            s = state.settlements[s_index]
            if s.owner == seat:
                out += [TakeTroops(player=seat, general=g.id, count=n) for n in range(1, s.troops + 1)]
            out += [LeaveTroops(player=seat, general=g.id, count=n) for n in range(1, g.army + 1)]
        if state.ark_hex == g.hex:
            out.append(PickUpArk(player=seat, general=g.id))
        if g.ark:
            out.append(DropArk(player=seat, general=g.id))
    return out


def check_against_fresh_answers(game: Game, seat: int, legal: list) -> int:
    """Compares the cached answers with fresh ones; returns 1 when a turn was checked."""
    state, world = game.state, game.world
    assert control_map(state, world) == [settlement_controller(state, world, s) for s in range(len(world.settlements))]
    if not any(d.player == seat and d.kind == "turn" for d in state.pending):
        return 0
    if state.phase == 4:
        expected = buys_afresh(game, seat)
    elif state.phase == 5:
        expected = movement_afresh(game, seat)
    else:
        return 0
    assert legal == [*expected, EndTurn(player=seat)], f"round {state.round} phase {state.phase} seat {seat}"
    return 1


def play_both_ways(make_game, policy_seed: int, max_actions: int = 2500) -> int:
    """The same choices through apply_legal (the game checked against fresh answers) and
    through apply; returns how many turn positions were checked."""
    trusted, validated = make_game(), make_game()
    rng = random.Random(policy_seed)
    checked = 0
    for _ in range(max_actions):
        if trusted.is_over:
            break
        seat = rng.choice(trusted.waiting_for())
        legal = trusted.legal_actions(seat)
        assert legal == validated.legal_actions(seat)
        checked += check_against_fresh_answers(trusted, seat, legal)
        action = rng.choice(legal)
        got = trusted.apply_legal(action)
        assert validated.apply(action) == got
        assert state_to_json(trusted.state) == state_to_json(validated.state)
    assert trusted.log == validated.log
    assert trusted.notifications == validated.notifications
    return checked


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), policy_seed=st.integers(0, 2**32))
def test_cached_turn_answers_equal_fresh_ones_and_trusted_play_equals_validated(seed, players, policy_seed):
    options = Options(players=players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit)
    checked = play_both_ways(lambda: Game.new(options), policy_seed)
    assert checked > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=positions(), policy_seed=st.integers(0, 2**32))
def test_the_same_from_random_positions(scenario, policy_seed):
    """Positions with razed settlements, armies, prophets and events waiting to land (a
    Sandstorm seals the desert for a whole Movement phase)."""
    play_both_ways(lambda: build_game(scenario), policy_seed)


def test_a_position_edited_by_hand_is_seen_after_forget():
    """The turn's facts are kept until the turn ends; a test or a scenario that edits the
    state in the middle of a turn calls `Game.forget()` (here: a Sandstorm lands mid-turn)."""
    game = Game.new(Options(players=4, seed=5, round_limit=DEFAULT_RULES.simulation_round_limit))
    rng = random.Random(5)
    desert = {i for i, h in enumerate(game.world.hexes) if h.terrain == "desert"}
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        into_desert = [a for a in legal if isinstance(a, Move) and game.world.hex_at[(a.q, a.r)] in desert]
        if game.state.phase == 5 and into_desert and not any(e.card == "sandstorm" for e in game.state.events_landed):
            game.state.events_landed.append(LandedEvent(card="sandstorm", terrain="desert"))
            game.forget()
            after = game.legal_actions(seat)
            assert after == [*movement_afresh(game, seat), EndTurn(player=seat)]
            assert not any(a in after for a in into_desert)
            return
        game.apply_legal(rng.choice(legal))
    raise AssertionError("no Movement turn could enter the desert")
