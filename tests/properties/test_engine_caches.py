"""Property tests of the engine's shortcuts (docs/performance.md): what it caches during a
turn, and the trusted path that skips the checks an enumeration already made.

- The legal actions of every Acquisitions and Movement turn, at every step of random games,
  equal those worked out afresh the slow way: every candidate purchase asked of `refusal`
  (which builds its own control map each time), every general's reachable hexes searched
  anew with the contact hexes of the moment (`reachable`), garrisons read through
  `settlement_controller`. The control map equals each settlement's controller asked alone.
- A game moved through `apply_legal` and one moved through the validating `apply` by the
  same choices reach the same state, the same notifications and the same log, step by step.
- The legal actions of every Intrigue turn equal those listed the slow way (each card's
  targets from the plain functions, Revolt's through the control map); the control map kept
  for a round's Income and Acquisitions equals a fresh one; the Victory Check's scores, the
  regions sustaining a judge, the contested hexes and the income lines equal the plain
  computations; Movement's reach (shared per map, or searched with contact in the way)
  equals the cheapest paths worked out from the map alone.
"""

from __future__ import annotations

import heapq
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_invariants import positions

from judges.engine import DEFAULT_RULES, Game, Options, combat, income, intrigue
from judges.engine.acquisitions import refusal
from judges.engine.actions import (
    Buy,
    DropArk,
    EndTurn,
    Execute,
    LeaveTroops,
    Move,
    PickUpArk,
    PlayAnointing,
    PlayAssassin,
    PlayEvent,
    PlayProphet,
    PlayRevolt,
    PlayTax,
    Release,
    TakeTroops,
)
from judges.engine.board import (
    CANAANITES,
    control_map,
    controlled_settlements,
    settlement_controller,
    standing_in_region,
    sustaining_regions,
)
from judges.engine.cards import EVENT_CARDS
from judges.engine.movement import _garrison_here, _walk, contact_hexes, map_moves, reachable
from judges.engine.scenario import build_game
from judges.engine.state import LandedEvent, state_to_json
from judges.engine.victory import score, scores_of
from judges.world import load_world

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


def revolt_afresh(game: Game, seat: int) -> list[int]:
    """§ 6 Revolt's targets through the control map: another player's garrison with none of
    his free generals there, in a region where `seat` controls a settlement."""
    state, world = game.state, game.world
    regions = {world.settlements[s].region for s in controlled_settlements(state, world, seat)}
    out = []
    for s, held in enumerate(state.settlements):
        if held.razed or held.owner is None or held.owner in (CANAANITES, seat):
            continue
        if world.settlements[s].region not in regions:
            continue
        here = world.settlements[s].hex
        if any(g.hex == here and g.owner == held.owner and g.captor is None for g in state.generals.values()):
            continue
        out.append(s)
    return out


def intrigue_afresh(game: Game, seat: int) -> list:
    """Each card in hand (while the turn may still play one) with its targets, then captives."""
    ctx, state, world = game._ctx, game.state, game.world
    hand = state.players[seat].hand
    out: list = []
    if state.cards_played < state.options.rules.cards_per_turn:
        if "tax" in hand:
            out += [PlayTax(player=seat, region=world.regions[r].name) for r in intrigue.taxable_regions(ctx)]
        out += [PlayEvent(player=seat, card=card) for card in EVENT_CARDS if card in hand]
        if "assassin" in hand:
            out += [PlayAssassin(player=seat, target=g.id) for g in state.generals.values() if g.owner != seat]
        if "revolt" in hand:
            out += [PlayRevolt(player=seat, settlement=world.settlements[s].name) for s in revolt_afresh(game, seat)]
        if "prophet" in hand:
            out += [PlayProphet(player=seat, general=gid) for gid in intrigue.prophet_targets(ctx, seat)]
        if "anointing" in hand:
            out += [PlayAnointing(player=seat, general=gid) for gid in intrigue.anointing_targets(ctx, seat)]
    for g in state.generals.values():
        if g.captor == seat:
            out += [Execute(player=seat, general=g.id), Release(player=seat, general=g.id)]
    return out


def check_position(game: Game) -> None:
    """The answers worked out in one pass or kept for a phase equal the plain computations."""
    state, world, ctx = game.state, game.world, game._ctx
    fresh = control_map(state, world)
    if state.phase in (3, 4):
        assert ctx.economy_control_map() == fresh
        assert income.compute_income(state, world, ctx.economy_control_map()) == income.compute_income(state, world)
    living = [p.seat for p in state.players if not p.eliminated]
    assert scores_of(state, world, living) == {seat: score(state, world, seat) for seat in living}
    need = state.options.rules.settlements_to_sustain_judge
    assert sustaining_regions(state, world, need) == sum(
        1 for r in range(len(world.regions)) if standing_in_region(state, world, r) >= need
    )
    contested = []
    for h in sorted({g.hex for g in state.generals.values() if g.captor is None}):
        garrison_owner, generals = combat._parties_at(ctx, h)
        if len(set(generals) | ({garrison_owner} if garrison_owner is not None else set())) >= 2:
            contested.append(h)
    assert combat.contested_hexes(ctx) == contested
    for seat in living:
        assert intrigue.revolt_targets(ctx, seat) == revolt_afresh(game, seat)


def check_against_fresh_answers(game: Game, seat: int, legal: list) -> int:
    """Compares the cached answers with fresh ones; returns 1 when a turn was checked."""
    state, world = game.state, game.world
    assert control_map(state, world) == [settlement_controller(state, world, s) for s in range(len(world.settlements))]
    check_position(game)
    if not any(d.player == seat and d.kind == "turn" for d in state.pending):
        return 0
    if state.phase == 2:
        expected = intrigue_afresh(game, seat)
    elif state.phase == 4:
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


@settings(max_examples=200, deadline=None)
@given(
    start=st.integers(0, 159),
    points=st.integers(1, 4),
    sealed=st.booleans(),
    contact=st.sets(st.integers(0, 159), max_size=12),
)
def test_movement_reach_equals_the_cheapest_paths_on_the_map(start, points, sealed, contact):
    """`MapMoves.reach` answers from its contact-free search shared per map when no contact
    hex is in its way, else by a search with the contact hexes: either equals Dijkstra's
    cheapest paths on the map (asked twice: the second answer comes from the shared one)."""
    world = load_world()
    moves = map_moves(world, DEFAULT_RULES)
    for asked in (contact, contact | {start}, set(contact)):
        best, order = moves.reach(start, points, asked, sealed)
        expected = cheapest_paths(world, start, points, asked, sealed)
        assert best == expected
        assert list(order) == sorted(expected)
        assert _walk(moves.tables[sealed], start, points, asked) == expected


def cheapest_paths(world, start: int, points: int, contact: set[int], sealed: bool) -> dict[int, int]:
    """§ 9 from the map alone (Dijkstra): entering a hex costs its terrain's points, a contact
    hex is entered but never crossed, the Sandstorm seals the desert; the start excluded."""
    costs = DEFAULT_RULES.terrain_move_cost
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here] or (here != start and here in contact):
            continue
        for nxt in world.neighbours[here]:
            terrain = world.hexes[nxt].terrain
            if sealed and terrain == "desert":
                continue
            new = cost + costs[terrain]
            if new <= points and new < best.get(nxt, points + 1):
                best[nxt] = new
                heapq.heappush(queue, (new, nxt))
    del best[start]
    return best


# --- who owns the caches -----------------------------------------------------------------------


def _module_containers() -> dict[str, int]:
    """Every dict, list and set held at module level in the engine and the bots, and every
    functools cache there, by name, with its size."""
    import functools
    import importlib
    import pkgutil

    import judges.bots
    import judges.engine

    sizes: dict[str, int] = {}
    for package in (judges.engine, judges.bots):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, (dict, list, set)):
                    sizes[f"{info.name}.{name}"] = len(value)
                elif isinstance(value, functools._lru_cache_wrapper):
                    sizes[f"{info.name}.{name}()"] = value.cache_info().currsize
    return sizes


def test_no_module_level_container_grows_during_games():
    """The engine's and the bots' caches belong to what they describe: a map's facts to its
    World, prices to the Rules, the actions a game lists again and again to that game
    (`Ctx.actions`). Playing games under new Rules values, greedy and MCTS, grows nothing held
    by a module (a process serving games for weeks would grow it without end)."""
    import msgspec

    from judges.bots import make_bot

    def play(seed: int, rules) -> None:
        game = Game.new(Options(players=3, seed=seed, rules=rules, round_limit=3))
        bots = [make_bot("greedy", seed), make_bot("mcts:4:1", seed), make_bot("random", seed)]
        while not game.is_over:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            game.apply(bots[seat].choose(seat, legal, lambda s=seat: game.view(s)))

    play(1, DEFAULT_RULES)  # the first game fills what is built once per process (imports, tables)
    before = _module_containers()
    for seed in range(2, 5):
        play(seed, msgspec.structs.replace(DEFAULT_RULES, wrath_threshold=10 + seed, movement_points=2 + seed))
    grown = {
        name: (size, _module_containers()[name]) for name, size in before.items() if _module_containers()[name] != size
    }
    assert not grown, grown


def test_action_pool_is_the_maps_and_bounded(monkeypatch):
    """The actions games list again and again belong to the map (one pool per World, shared by
    its games and their clones), and the pool keeps at most POOL_ROWS rows of a kind: a row
    past that is built when asked for (equal to a kept one) and not kept."""
    from judges.engine import interned

    world = load_world()
    a = Game.new(Options(players=4, seed=1), world=world, undoable=False)
    b = Game.new(Options(players=3, seed=2), world=world, undoable=False)
    assert a._ctx.actions is b._ctx.actions is interned.action_pool(world)
    assert a.clone()._ctx.actions is a._ctx.actions
    pool = interned.ActionPool()
    monkeypatch.setattr(interned, "POOL_ROWS", 2)
    rows = [pool.moves(0, gid, (3, 7), world) for gid in range(5)]
    assert all(a is b for a, b in zip(pool.moves(0, 1, (3, 7), world), rows[1], strict=True))  # kept
    again = pool.moves(0, 4, (3, 7), world)
    assert again == rows[4] and again[0] is not rows[4][0]  # not kept
    hexes = world.hexes
    assert pool.moves(0, 1, (7, 0, 3), world) == [
        Move(player=0, general=1, q=hexes[h].q, r=hexes[h].r) for h in (7, 0, 3)
    ]
    assert pool.moves(0, 1, (7,), world)[0] is rows[1][1]  # each Move built once, when first asked for
    for gid in range(5):
        pool.troops(1, gid)
        pool.placed_buys(gid, world.settlements[gid].name)
    assert pool.rows() == 6
