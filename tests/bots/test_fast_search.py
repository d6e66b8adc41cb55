"""The MCTS bot's fast paths: the distance table, the greedy bot's caches and its view-free
path, and the learned value model (bots/value.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judges.bots import GreedyBot, MCTSBot, RandomBot
from judges.bots.greedy import _by_type
from judges.bots.mcts import position_key
from judges.bots.seat_view import SeatView
from judges.bots.value import FEATURES, ValueModel, default_model, features, fit, load_model, samples_of_game
from judges.engine import Game, Move, Options
from judges.engine.board import base_value, region_share
from judges.engine.search import SearchState, game_from_view
from judges.engine.state import Entry
from judges.engine.victory import score
from judges.world import load_world, parse_world


def random_position(seed: int, players: int, actions: int) -> Game:
    """A standard game after `actions` decisions: greedy ones mixed with random ones (so that
    positions are varied but still look like play)."""
    game = Game.new(Options(players=players, seed=seed, round_limit=40))
    bots = [GreedyBot(), RandomBot(seed)]
    for n in range(actions):
        if game.is_over:
            break
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply(bots[n % 3 == 0].choose(seat, legal, lambda: game.view(seat, notifications=False)))
    return game


positions = st.builds(
    random_position,
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    actions=st.integers(0, 400),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- § 1 the map: the distance table --------------------------------------------------------


def test_the_distance_table_equals_hex_distance_for_every_pair():
    world = load_world("canaan")
    n = len(world.hexes)
    assert len(world.distances) == n and all(len(row) == n for row in world.distances)
    for a in range(n):
        for b in range(n):
            assert world.distances[a][b] == world.hex_distance(a, b)


def test_a_parsed_map_gets_its_own_table():
    tiny = {
        "name": "tiny",
        "tabernacle": "A",
        "ark_start": "B",
        "ring": ["A", "B"],
        "home_regions": {},
        "regions": [{"name": "R", "kingdom": "israel", "settlements": ["A", "B"]}],
        "hexes": [
            {"q": 0, "r": 0, "terrain": "plain", "settlement": "A"},
            {"q": 1, "r": 0, "terrain": "plain"},
            {"q": 2, "r": 0, "terrain": "plain", "settlement": "B"},
        ],
    }
    world = parse_world(tiny)
    assert world.distances == ((0, 1, 2), (1, 0, 1), (2, 1, 0))


# --- the greedy bot's caches answer like the plain code -----------------------------------------


def plain_leader(me: SeatView) -> int | None:
    """The leader as first written: points, then settlements controlled, recounted."""
    rivals = {k: v for k, v in me.scores().items() if k != me.seat}
    if not rivals:
        return None
    return max(rivals, key=lambda k: (rivals[k], len([i for i in range(len(me.settlements)) if me.controller(i) == k])))


def plain_targets(me: SeatView) -> dict[int, tuple[float, float]]:
    """`GreedyBot._targets` as first written, from the engine's functions, without caches."""
    world, s = me.world, me.s
    leader = plain_leader(me)
    out = {}
    for i in range(len(me.settlements)):
        if me.settlements[i].razed or me.controller(i) == me.seat:
            continue
        owner = me.controller(i)
        hex_index = world.settlements[i].hex
        defenders, walls = me.defenders_at(hex_index)
        region = world.settlements[i].region
        share = region_share(s, world, region, me.seat)
        worth = 8 + base_value(s, world, i) + 6 * share + (2 if owner == leader else 0)
        if i in me.besieged:
            worth -= 6
        need = 0.0 if defenders == 0 else 1.6 * defenders * (1.5 if walls else 1.0)
        out[hex_index] = (worth, need)
    if s.ark_hex is not None:
        worth, need = out.get(s.ark_hex, (0.0, 0.0))
        out[s.ark_hex] = (worth + 10, need)
    return out


@SETTINGS
@given(game=positions)
def test_the_greedy_caches_answer_like_the_plain_code(game):
    for seat in range(len(game.state.players)):
        me = SeatView(game.view(seat, notifications=False), game.world)
        assert me.leader() == plain_leader(me)
        bot = GreedyBot()
        first = bot._targets(me)
        assert first == plain_targets(me)
        assert bot._targets(me) is first  # asked again of the same view: the cached answer


def movement_decisions(players: int, seed: int, bot: GreedyBot):
    """(game, seat, legal) at every movement decision of a whole game in which `bot` answers
    every seat's decisions, as a search's rollouts do (one bot, its caches carried along)."""
    game = Game.new(Options(players=players, seed=seed, round_limit=40))
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if game.state.phase == 5 and any(isinstance(a, Move) for a in legal):
            yield game, seat, legal
        game.apply(bot.choose_in_state(seat, legal, game.state, game.world))


@pytest.mark.parametrize("players, seed", [(2, 31), (3, 32), (4, 33)])
def test_targets_kept_across_a_movement_turn_equal_the_plain_code(players, seed):
    """The targets the bot reuses from its last listing (by its key, or within the same Movement
    turn by control and the Ark alone, with the turn's points), are, at every movement decision,
    those the plain code lists afresh — and both reuses do happen."""
    bot = GreedyBot()
    checked = reused = within_turn = 0
    for game, seat, _ in movement_decisions(players, seed, bot):
        kept, turn = bot._kept, bot._turn_targets
        me = SeatView.of_state(game.state, game.world, seat)
        targets = bot._targets(me)
        plain = SeatView(game.view(seat, notifications=False), game.world)
        assert targets == plain_targets(plain)
        assert me.scores() == plain.scores()
        reused += kept is not None and targets is kept[1]
        within_turn += turn is not None and targets is turn.targets
        checked += 1
    assert checked > 20 and reused + within_turn > 5 and within_turn > 0


@pytest.mark.parametrize("players, seed", [(2, 41), (4, 42), (6, 43)])
def test_plans_kept_across_a_movement_turn_equal_a_fresh_bots(players, seed):
    """The plans the bot reuses for generals nothing touched are, at every movement decision,
    those a fresh bot (no kept targets, no kept plans) works out — and the reuse does happen."""
    bot = GreedyBot()
    checked = reused = 0
    for game, seat, legal in movement_decisions(players, seed, bot):
        by_type = _by_type(legal)
        before = {gid: known[3] for gid, known in bot._plans.items()}
        plans = bot.move_plans(SeatView.of_state(game.state, game.world, seat), by_type)
        assert plans == GreedyBot().move_plans(SeatView.of_state(game.state, game.world, seat), by_type)
        full = game.state.options.rules.movement_points  # the generals planned for: not moved yet
        planned = {a.general for a in by_type[Move] if game.state.move_points.get(a.general, 0) >= full}
        reused += sum(1 for gid in planned if gid in before and before[gid] is bot._plans[gid][3])
        checked += 1
    assert checked > 20 and reused > 5


@pytest.mark.parametrize("players, seed", [(2, 61), (3, 62), (4, 63), (6, 64)])
def test_a_purchase_plan_answers_every_purchase_of_a_turn_as_greedy_does(players, seed):
    """At every decision of every Acquisitions turn of a greedy game, the plan made at the
    turn's start (made again only where it says it no longer stands) proposes what the greedy
    bot chooses from the legal actions listed afresh — and it does stand over most purchases."""
    game = Game.new(Options(players=players, seed=seed, round_limit=40))
    bot, fresh = GreedyBot(), GreedyBot()
    plan, decision = None, None
    checked = kept = 0
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        pending = game.state.pending[0]
        if game.state.phase == 4 and pending.kind == "turn" and len(legal) > 1:
            if plan is None or decision is not pending:
                plan, decision = bot.purchase_plan(seat, legal, game.state, game.world), pending
            else:
                kept += 1
            assert plan is not None
            action = plan.next()
            assert action == fresh.choose_in_state(seat, legal, game.state, game.world)
            assert action in legal
            game.apply_legal(action)
            checked += 1
            if not plan.bought(action):
                plan = None
            continue
        plan = None
        game.apply_legal(legal[0] if len(legal) == 1 else bot.choose_in_state(seat, legal, game.state, game.world))
    assert checked > 50 and kept > checked / 3


def test_a_rollout_that_reaches_a_position_met_before_ends_with_its_reward():
    """A search's rollout whose position, once the seat's turn is over, another rollout of the
    search reached ends with that one's reward: the reward it gets when played out to the end —
    and it happens (the same steps in another order)."""
    transposed = 0
    for game in [random_position(seed, 2, 100 + 60 * seed) for seed in range(8)]:
        if game.is_over:
            continue
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if len(legal) < 3:
            continue
        bot = MCTSBot(seed=3)
        view = game.view(seat, notifications=False)
        greedy = bot._greedy.choose(seat, legal, lambda: view)
        cands = bot.candidates(seat, legal, view, greedy)
        base = SearchState(game_from_view(view, 17))
        for k in range(3):
            sample = base.determinize(seat, 100 + k)
            for c in cands:
                before = bot.transposed
                reward = bot._playout(sample.clone(), seat, c, game.state.round)
                if bot.transposed > before:
                    transposed += 1
                    alone = MCTSBot(seed=3)
                    assert alone._playout(sample.clone(), seat, c, game.state.round) == reward
                    assert alone.transposed == 0
    assert transposed > 0


def test_rollouts_that_stop_at_another_round_never_share_a_reward():
    """A bot that plays rollouts for decisions of different rounds (the hint, the review) never
    ends one with the reward of a rollout that stopped at another round."""
    game = random_position(2, 2, 160)
    seat = game.waiting_for()[0]
    view = game.view(seat, notifications=False)
    end = next(a for a in game.legal_actions(seat) if type(a).__name__ == "EndTurn")
    sample = SearchState(game_from_view(view, 17)).determinize(seat, 5)
    bot = MCTSBot(seed=3)
    rewards = [bot._playout(sample.clone(), seat, end, game.state.round + k) for k in (0, 0, 1)]
    assert bot.transposed == 1  # the second rollout, the same as the first
    assert rewards[2] == MCTSBot(seed=3)._playout(sample.clone(), seat, end, game.state.round + 1)


def test_the_position_key_leaves_out_only_what_the_rules_write_and_never_read():
    game = random_position(5, 3, 200)
    state = game.state
    key = position_key(state)
    state.report.append(state.report[0] if state.report else Entry(key="x", params={}))
    state.round_log.append(Entry(key="y", params={}))
    state.spent["troop"] = state.spent.get("troop", 0) + 1
    state.next_notification_id += 1
    assert position_key(state) == key
    state.players[0].coins += 1
    assert position_key(state) != key


@SETTINGS
@given(game=positions)
def test_greedy_decides_the_same_from_the_state_as_from_the_view(game):
    """The search's path (`choose_in_state`, reading its own sample whole) and the view path
    choose alike: the greedy bot reads nothing a view hides."""
    if game.is_over:
        return
    seat = game.waiting_for()[0]
    legal = list(game.legal_actions(seat))
    bot = GreedyBot()
    by_view = bot.choose(seat, legal, lambda: game.view(seat, notifications=False))
    assert bot.choose_in_state(seat, legal, game.state, game.world) == by_view


def test_move_plans_use_the_distance_table_like_hex_distance():
    """Every planned step gets closer to its goal by the engine's own distance."""
    checked = 0
    for seed in range(6):
        game = random_position(seed, 3, 120 + 40 * seed)
        if game.is_over:
            continue
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        by_type: dict = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        if Move not in by_type:
            continue
        me = SeatView(game.view(seat, notifications=False), game.world)
        for _, gid, move, _ in GreedyBot().move_plans(me, by_type, goals_per_general=2):
            assert move in legal and move.general == gid
            checked += 1
    assert checked >= 1


# --- the value model ------------------------------------------------------------------------------


def test_the_packaged_value_model_loads_and_is_deterministic():
    model = default_model()
    assert len(model.weights) == len(FEATURES)
    assert model.trained_on.startswith("judges train-value")
    game = random_position(3, 3, 250)
    first = model.win_chances(game.state, game.world)
    assert model.win_chances(game.state, game.world) == first
    assert load_model().win_chances(game.state, game.world) == first
    assert sum(first) == pytest.approx(1.0) and all(0 < p < 1 for p in first)
    again = ValueModel.from_json(model.to_json())
    assert again == model


def test_points_are_worth_more_than_anything_else_in_the_model():
    """Sanity of the shipped weights: a victory point raises a seat's chance (and it is the
    dominant weight per unit among the counts)."""
    w = dict(zip(FEATURES, default_model().weights))
    assert w["points"] > 0
    assert w["points"] > max(abs(w[k]) for k in ("settlements", "income", "troops", "coins", "generals"))


def test_an_eliminated_seat_has_no_chance_and_no_features():
    game = random_position(4, 3, 200)
    state = game.state.__copy__()
    state.players = [p.__copy__() for p in state.players]
    state.players[1].eliminated = True
    chances = default_model().win_chances(state, game.world)
    assert chances[1] == 0.0 and sum(chances) == pytest.approx(1.0)
    assert features(state, game.world)[1] == [0.0] * len(FEATURES)


def test_the_features_read_the_engine_s_score():
    game = random_position(8, 2, 300)
    rows = features(game.state, game.world)
    for seat in range(2):
        assert rows[seat][FEATURES.index("points")] == score(game.state, game.world, seat)["total"]


def test_a_model_with_the_wrong_features_is_refused():
    text = json.dumps({"features": ["points"], "weights": [1.0]})
    with pytest.raises(ValueError):
        ValueModel.from_json(text)
    with pytest.raises(ValueError):
        ValueModel(weights=(1.0,))


def test_the_fit_finds_the_feature_that_decides_the_winner():
    """Synthetic samples where the seat with more points always wins: the points weight comes
    out positive and larger than every other."""
    samples = []
    for k in range(60):
        a = [0.0] * len(FEATURES)
        b = [0.0] * len(FEATURES)
        a[0], b[0] = k % 3, (k + 1) % 3
        a[7], b[7] = k % 5, (k * 7) % 5  # coins: noise
        label = [1.0, 0.0] if a[0] > b[0] else [0.0, 1.0] if b[0] > a[0] else [0.5, 0.5]
        samples.append(([a, b], [True, True], label))
    w = fit(samples, l2=0.1)
    assert w[0] > 0.5 and all(abs(x) < w[0] for x in w[1:])
    assert fit(samples, l2=0.1) == w  # deterministic


def test_training_samples_come_one_per_round_with_the_game_s_winners():
    samples = samples_of_game(seed=21, players=2)
    assert samples
    labels = {tuple(label) for _, _, label in samples}
    assert len(labels) == 1 and sum(next(iter(labels))) == pytest.approx(1.0)
    rounds = len(samples)
    assert 1 <= rounds <= 60


def test_mcts_scores_a_cut_rollout_with_the_value_model():
    game = random_position(5, 2, 150)
    bot = MCTSBot(seed=1, value=default_model())

    assert bot.evaluate(SearchState(game)) == default_model().win_chances(game.state, game.world)
    assert MCTSBot(seed=1).evaluate(SearchState(game)) != bot.evaluate(SearchState(game))  # default: material


def test_a_search_state_lists_targets_without_the_positions_key():
    """A search's state changes in place between decisions: its targets come from the turn's
    reuse or are listed afresh, with no key of the position kept (a view's are keyed), and they
    are the plain code's."""
    bot = GreedyBot()
    checked = 0
    for game, seat, _ in movement_decisions(2, 51, bot):
        bot._turn_targets = None  # no turn to reuse: the first decision of a turn
        targets = bot._targets(SeatView.of_state(game.state, game.world, seat))
        assert bot._kept is None
        view = SeatView(game.view(seat, notifications=False), game.world)
        assert targets == plain_targets(view)
        bot._turn_targets = None
        assert bot._targets(view) == targets and bot._kept is not None
        checked += 1
    assert checked > 20
