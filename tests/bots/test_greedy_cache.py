"""The greedy bot's cheaper purchase and movement choices (bots/greedy.py): over played
positions, they equal the plain computations they replaced, kept here as the reference (the
purchase scoring with its full sort, every general's goals sorted, actions grouped one by one)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judges.bots import GreedyBot, RandomBot
from judges.bots.greedy import _by_type
from judges.bots.seat_view import SeatView
from judges.engine import Action, Buy, Game, Move, Options
from judges.world import load_world


def reference_by_type(legal: list[Action]) -> dict[type, list[Action]]:
    by_type: dict[type, list[Action]] = {}
    for a in legal:
        by_type.setdefault(type(a), []).append(a)
    return by_type


# The reference: the purchase scoring and the movement plans as they were computed before.


def reference_ranked_buys(me: SeatView, by_type) -> list[tuple[float, Buy]]:
    """Every legal purchase with its score, best first (stable: ties keep legal order)."""
    buys = by_type.get(Buy, [])
    if not buys:
        return []
    world = me.world
    coins = me.s.players[me.seat].coins
    my_generals = [g for g in me.generals.values() if g.owner == me.seat]
    enemy_hexes = [g.hex for g in me.generals.values() if g.owner != me.seat and g.captor is None]

    threats: dict[int, int] = {}  # a settlement's troops and walls ask the same question

    def threat(i: int) -> int:
        known = threats.get(i)
        if known is None:
            far = world.distances[world.settlements[i].hex]
            near = sum(1 for h in enemy_hexes if far[h] <= 3)
            known = threats[i] = near + (3 if i in me.besieged else 0)
        return known

    def score(a: Buy) -> float:
        i = world.settlement_by_name[a.settlement] if a.settlement else None
        if a.item == "general":
            return 9 if len(my_generals) < 3 else 2 if len(my_generals) < 5 else -1
        if a.item == "troop" and i is not None:
            troops = me.settlements[i].troops
            return 4 + 2 * threat(i) - troops
        if a.item == "troop" and a.general is not None:
            return 5 - me.generals[a.general].army / 2
        if a.item == "card":
            hand = me.s.players[me.seat].hand
            return 3 if len(hand) < 2 else 0
        if i is None:
            return -1  # mercenaries anger God
        if a.item == "development":
            return 6 if world.settlements[i].is_city else 3
        if a.item == "wall":
            return 3 + threat(i) if coins >= 14 else -1
        return -1

    scored = [(score(a), n, a) for n, a in enumerate(buys)]
    scored.sort(key=lambda t: (-t[0], t[1]))  # max() kept the first of equal scores
    return [(sc, a) for sc, _, a in scored]


def reference_move_plans(
    bot: GreedyBot, me: SeatView, by_type, goals_per_general: int = 1
) -> list[tuple[float, int, Move, int]]:
    """(value, general, move, spare troops to take) for each general that has not moved yet,
    best first: each general walks toward its most valuable goal it can beat (the Ark's
    carrier toward the Tabernacle). With `goals_per_general` > 1, also the steps toward
    its next-best goals (for searches that weigh alternatives)."""
    world = me.world
    distances, hex_at = world.distances, world.hex_at
    points = me.s.move_points
    tabernacle = world.tabernacle_hex
    moves: dict[int, list[Move]] = {}
    for a in by_type.get(Move, []):
        moves.setdefault(a.general, []).append(a)
    targets = bot._targets(me)
    plans: list[tuple[float, int, int, Move, int]] = []
    for gid, options in moves.items():
        g = me.generals[gid]
        if points.get(gid, 0) < me.rules.movement_points:
            continue  # each general makes one considered move per phase
        here = world.hexes[g.hex].settlement
        spare = 0
        if here is not None and me.settlements[here].owner == me.seat:
            spare = max(0, me.settlements[here].troops - 1)
        strength = 1 + g.army + spare
        if g.ark:
            if g.hex == tabernacle:
                continue  # the carrier stays on the Tabernacle: a point each round
            goals = [(30.0, tabernacle)]
        else:
            far = distances[g.hex]
            goals = []
            for hex_index, (worth, need) in targets.items():
                if strength < need:
                    continue
                score = worth - 2 * far[hex_index]
                if score > 0:
                    goals.append((score, hex_index))
            # max() over the targets kept the first of equal scores: sort stably by value
            goals.sort(key=lambda t: -t[0])
        for rank, (value, goal) in enumerate(goals[:goals_per_general]):
            # Step to the goal if it is in reach, else to the reachable hex nearest to it
            # (never stopping short on a hex that would start a fight elsewhere).
            to_goal = distances[goal]

            def closeness(a: Move, goal=goal, to_goal=to_goal) -> tuple[Any, ...]:
                h = hex_at[(a.q, a.r)]
                contact = h != goal and h in targets
                return (contact, to_goal[h])

            move = min(options, key=closeness)
            step = hex_at[(move.q, move.r)]
            if to_goal[step] >= to_goal[g.hex]:
                continue
            plans.append((value, rank, gid, move, spare if step == goal or not g.ark else 0))
    # Best goals first; the first general with the highest value wins ties.
    best = [p for p in plans if p[1] == 0]
    rest = [p for p in plans if p[1] > 0]
    best.sort(key=lambda t: -t[0])
    rest.sort(key=lambda t: -t[0])
    return [(v, gid, move, spare) for v, _, gid, move, spare in best + rest]


def played_decisions(seed: int, players: int, limit: int = 1500):
    """(game, seat, legal) at each decision of a game played by greedy bots with random ones
    mixed in (varied positions that still look like play)."""
    game = Game.new(Options(players=players, seed=seed, round_limit=40))
    bots = [GreedyBot(), RandomBot(seed)]
    for n in range(limit):
        if game.is_over:
            return
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        yield game, seat, legal
        game.apply(bots[n % 4 == 0].choose(seat, legal, lambda: game.view(seat, notifications=False)))


SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_acquisitions_and_movement_choose_as_the_plain_computation(seed: int, players: int) -> None:
    bot = GreedyBot()
    world = load_world("canaan")
    checked = {Buy: 0, Move: 0}
    for game, seat, legal in played_decisions(seed, players):
        by_type = _by_type(legal)
        assert by_type == reference_by_type(legal)
        if Buy in by_type:
            me = SeatView.of_state(game.state, world, seat)
            ranked = bot.ranked_buys(me, by_type)
            assert ranked == reference_ranked_buys(me, by_type)
            best = ranked[0][1] if ranked[0][0] > 0 else None
            assert bot._acquisitions(me, by_type) is best
            checked[Buy] += 1
        if Move in by_type:
            for goals in (1, 2, 3):
                me = SeatView.of_state(game.state, world, seat)
                plans: list[Any] = bot.move_plans(me, by_type, goals)
                assert plans == reference_move_plans(bot, me, by_type, goals)
            checked[Move] += 1
    assert checked[Buy] and checked[Move]  # both kinds of decision were compared
