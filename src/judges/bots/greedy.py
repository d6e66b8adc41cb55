"""The greedy bot: simple, explainable heuristics, one decision at a time, from its view.

- Phase 1: votes for its own judge (else the candidate of the weakest rival); appoints its
  own generals; the prophet sends invaders and Famine/Plague toward the leading rival,
  Abundance toward itself.
- Intrigue: taxes the region that pays it most, makes prophets and the Anointed, sends
  assassins at rival judges and kings, revolts against thin garrisons, executes captive
  judges and kings.
- Acquisitions: troops where threatened, a general while it has fewer than three,
  developments in cities, walls when rich.
- Movement: takes free settlements, attacks weaker neighbours and Canaanites it can beat,
  pursues whole regions, carries the Ark to the Tabernacle.
- Combat: holds conquests in regions it pursues, plunders the rest unless it would cost a
  region its judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from itertools import compress, groupby, product
from operator import attrgetter, is_, ne
from typing import Any, TypeVar

import msgspec

from ..engine import (
    Action,
    AppointJudge,
    Buy,
    ChooseSuccessor,
    ClaimJudge,
    Discard,
    EndTurn,
    Execute,
    ForeseeEvents,
    ForeseeInvasion,
    LeaveTroops,
    Move,
    PickUpArk,
    PlayAnointing,
    PlayAssassin,
    PlayEvent,
    PlayProphet,
    PlayRevolt,
    PlayTax,
    Plunder,
    TakeTroops,
    Vote,
)
from ..engine.acquisitions import development_cap
from ..engine.board import (
    judge_titles_of,
    standing_in_region,
)
from ..engine.decisions import KIND_OF_ACTION, KINDS
from ..engine.events import allowed_terrains
from ..engine.state import PHASES, GameState
from ..engine.view import PlayerView
from ..world import TERRAINS, World, load_world
from .movement_targets import TargetRows, TurnTargets, target_rows
from .seat_view import SeatView
from .world_facts import near_settlements, settlement_facts

#: decision kind (`judges.engine.decisions.KINDS`) -> the method that answers it
CHOOSERS = {
    "vote": "_vote",
    "appoint_judge": "_appoint",
    "succession": "_successor",
    "foresee_invasion": "_foresee_invasion",
    "foresee_events": "_foresee_events",
    "discard": "_discard",
    "plunder": "_plunder",
    "claim_judge": "_claim",
    "turn": "_turn",
}
CARD_VALUE = {
    "tax": 5,
    "prophet": 5,
    "anointing": 4,
    "assassin": 4,
    "abundance": 3,
    "revolt": 3,
    "famine": 2,
    "plague": 2,
    "sandstorm": 1,
}

#: coins from which walls are worth buying (`GreedyBot._buy_scores`)
RICH = 14

#: the bytes `GreedyBot._targets` compares the settlements, generals and titles it reads by
_encode = msgspec.msgpack.Encoder().encode

K = TypeVar("K")
T = TypeVar("T")


def _grouped(items: Iterable[T], key: Callable[[T], K]) -> dict[K, list[T]]:
    """`items` grouped by `key`, each group in their order. Most lists come in runs (actions
    by type, moves by general): the runs are gathered at C speed (`itertools.groupby`), a key
    met again joins its group."""
    out: dict[K, list[T]] = {}
    for k, run in groupby(items, key):
        known = out.get(k)
        if known is None:
            out[k] = list(run)
        else:
            known.extend(run)
    return out


def _by_type(legal: list[Action]) -> dict[type, list[Action]]:
    """The legal actions grouped by type, each group in legal order (most decisions offer one
    or two types, each in one run: the purchases, then the end of the turn)."""
    return _grouped(legal, type)


_GENERAL = attrgetter("general")


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        """The seed is taken like every bot's; the greedy bot throws no dice."""
        # The last movement targets listed and everything they were listed from (`_targets`).
        self._kept: tuple[tuple[Any, ...], dict[int, tuple[float, float]]] | None = None
        # general -> (targets, his hex/strength/Ark/spare troops, his moves, his plans): the plan
        # of a general nothing has touched since, reused by the next decision of the turn.
        self._plans: dict[int, tuple[Any, tuple[Any, ...], list[Move], list[Any]]] = {}
        # The targets last listed in a Movement turn and what they were listed from (`_targets`):
        # while that turn lasts, the same control and Ark give the same targets.
        self._turn_targets: TurnTargets | None = None
        # The threat to each settlement (`_buy_scores`) and what it was counted from.
        self._threats: tuple[tuple[Any, ...], dict[int, int]] | None = None

    def choose(self, seat: int, legal: list[Action], view: Callable[[], PlayerView]) -> Action:
        if len(legal) == 1:
            return legal[0]
        v = view()
        return self._decide(SeatView(v, load_world(v.state.options.rules.map)), legal, v.phase_name)

    def choose_in_state(self, seat: int, legal: list[Action], state: GameState, world: World) -> Action:
        """The same choice as `choose`, read from a state the caller may read whole (a search's
        own sample) without building a view of it: the greedy bot reads nothing a view hides."""
        if len(legal) == 1:
            return legal[0]
        return self._decide(SeatView.of_state(state, world, seat), legal, PHASES[state.phase - 1])

    def _decide(self, me: SeatView, legal: list[Action], phase: str) -> Action:
        by_type = _by_type(legal)
        owed = {KIND_OF_ACTION[t].name for t in by_type}
        # the registry's order: the order a seat answers several decisions (most often one is owed)
        for kind in KINDS if len(owed) > 1 else owed:
            chooser = CHOOSERS.get(kind)
            if kind in owed and chooser is not None:  # a kind with no heuristic yet: a legal action below
                choice = getattr(self, chooser)(me, by_type, phase)
                if choice is not None:
                    return choice
        return by_type[EndTurn][0] if EndTurn in by_type else legal[0]

    def _turn(self, me: SeatView, by_type, phase: str) -> Action | None:
        """A turn: the phase's own heuristics; None ends the turn."""
        if phase == "intrigue":
            return self._intrigue(me, by_type)
        if phase == "acquisitions":
            return self._acquisitions(me, by_type)
        if phase == "movement":
            return self._movement(me, by_type)
        return None

    # --- Phase 1 decisions -------------------------------------------------------------

    def _vote(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        votes = by_type.get(Vote)
        if not votes:
            return None
        own = [a for a in votes if me.generals[a.candidate].owner == me.seat]
        if own:
            return own[0]
        scores = me.scores()
        return min(votes, key=lambda a: (scores.get(me.generals[a.candidate].owner, 0), a.candidate))

    def _appoint(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(AppointJudge)
        if not options:
            return None
        # A general may hold several titles, but his death would vacate them all: an own free
        # general without a title first, then any own free general, then an own captive (he
        # scores but neither votes nor stands, and his captor may execute him), then another
        # tribe's.
        own = [a for a in options if me.generals[a.general].owner == me.seat]
        if own:
            return min(
                own, key=lambda a: (me.generals[a.general].captor is not None, bool(judge_titles_of(me.s, a.general)))
            )
        return options[0]

    def _successor(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(ChooseSuccessor)
        if not options:
            return None
        # Any own general may succeed; a free one first (a captive King reigns but may die
        # by his captor's hand).
        free = [a for a in options if me.generals[a.general].captor is None]
        return free[0] if free else options[0]

    def _foresee_invasion(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(ForeseeInvasion)
        if not options:
            return None
        leader = me.leader()

        def harm(a):
            i = me.world.settlement_by_name[a.settlement]
            owner = me.controller(i)
            if owner == me.seat:
                return -10
            return (5 if owner == leader else 2 if owner is not None else 0) + me.value(i)

        return max(options, key=harm)

    def _foresee_events(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        # The engine asks one card at a time (each option: the terrains chosen so far and one
        # more); the bot plays the next terrain of the best whole choice, so the cards land where
        # the best of all the combinations would send them.
        options = by_type.get(ForeseeEvents)
        if not options:
            return None
        cards = me.s.events_area
        mine_by_terrain = {t: 0 for t in TERRAINS}
        others_by_terrain = {t: 0 for t in TERRAINS}
        for i in range(len(me.settlements)):
            owner = me.controller(i)
            terrain = me.world.settlement_terrain(i)
            if owner == me.seat:
                mine_by_terrain[terrain] += 1
            elif owner is not None:
                others_by_terrain[terrain] += 1

        def value(card: str, terrain: str) -> float:
            if card == "abundance":
                return mine_by_terrain[terrain] - others_by_terrain[terrain] / 3
            if card in ("famine", "plague"):
                return others_by_terrain[terrain] / 3 - mine_by_terrain[terrain]
            return 0

        k = len(options[0].terrains) - 1  # the card to choose for
        if len(cards) > len(TERRAINS):
            # Some card is displaced whatever the choice (as many wasted as it may be, a point
            # each: no better than one): each card goes where it does most.
            return max(options, key=lambda a: value(cards[k], a.terrains[k]))

        def gain(terrains: list[str]) -> float:
            total = 0.0
            for card, terrain in zip(cards, terrains):
                total += value(card, terrain)
            if len(set(terrains)) < len(terrains):
                total -= 1  # a card displaced is a card wasted
            return total

        # Few cards (27 combinations at most): the best whole choice, in the engine's order.
        rest = [allowed_terrains(me.rules, card) for card in cards[k + 1 :]]
        best = max(((a, [*a.terrains, *tail]) for a in options for tail in product(*rest)), key=lambda x: gain(x[1]))
        return best[0]

    def _discard(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(Discard)
        if not options:
            return None
        return min(options, key=lambda a: CARD_VALUE.get(a.card, 0))

    def _plunder(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(Plunder)
        if not options:
            return None
        i = me.world.settlement_by_name[options[0].settlement]
        region = me.world.settlements[i].region
        standing = standing_in_region(me.s, me.world, region)
        keep = me.region_share(region) >= 0.4 or standing <= me.rules.settlements_to_sustain_judge
        return next(a for a in options if a.plunder is (not keep))

    def _claim(self, me: SeatView, by_type, phase: str = "") -> Action | None:
        options = by_type.get(ClaimJudge)
        return options[0] if options else None

    # --- Intrigue ------------------------------------------------------------------------

    def _intrigue(self, me: SeatView, by_type) -> Action | None:
        world = me.world
        for a in by_type.get(Execute, []):
            if me.is_ruler(a.general):
                return a
        taxes = by_type.get(PlayTax, [])
        if taxes:

            def tax_gain(a):
                region = world.region_by_name[a.region]
                total = 0
                for i in world.regions[region].settlements:
                    if me.settlements[i].razed or i in me.besieged:
                        continue
                    total += 2 * me.value(i) - (me.value(i) if me.controller(i) == me.seat else 0)
                return total

            best = max(taxes, key=tax_gain)
            if tax_gain(best) >= 6:
                return best
        for kind in (PlayProphet, PlayAnointing):
            if by_type.get(kind):
                return by_type[kind][0]
        assassins = by_type.get(PlayAssassin, [])
        targets = [a for a in assassins if me.is_ruler(a.target)]
        if targets:
            return targets[0]
        revolts = by_type.get(PlayRevolt, [])
        if revolts:
            best = min(revolts, key=lambda a: me.settlements[world.settlement_by_name[a.settlement]].troops)
            if me.settlements[world.settlement_by_name[best.settlement]].troops <= 2:
                return best
        for a in by_type.get(PlayEvent, []):
            if a.card == "abundance":
                return a
        return None

    # --- Acquisitions ----------------------------------------------------------------------

    def _acquisitions(self, me: SeatView, by_type) -> Action | None:
        buys = by_type.get(Buy)
        if not buys:
            return None
        # `ranked_buys`'s first, without sorting them all: the first of the highest scores
        scores = self._buy_scores(me, buys)
        best = max(range(len(scores)), key=scores.__getitem__)
        return buys[best] if scores[best] > 0 else None

    def purchase_plan(self, seat: int, legal: list[Action], state: GameState, world: World) -> PurchasePlan | None:
        """An Acquisitions turn offered whole (purchases and ending the turn, nothing else) as a
        plan that answers its decisions one after the other (`PurchasePlan`); None for any other
        decision."""
        end = legal[-1]
        if state.phase != 4 or type(end) is not EndTurn or len(legal) < 2:
            return None
        buys: list[Buy] = []
        for a in legal[:-1]:
            if not isinstance(a, Buy):
                return None
            buys.append(a)
        me = SeatView.of_state(state, world, seat)
        return PurchasePlan(state, world, seat, buys, self._buy_scores(me, buys), end)

    def ranked_buys(self, me: SeatView, by_type) -> list[tuple[float, Buy]]:
        """Every legal purchase with its score, best first (stable: ties keep legal order)."""
        buys = by_type.get(Buy, [])
        if not buys:
            return []
        scores = self._buy_scores(me, buys)
        order = sorted(range(len(buys)), key=lambda n: -scores[n])  # max() kept the first of equal scores
        return [(scores[n], buys[n]) for n in order]

    def _buy_scores(self, me: SeatView, buys: list[Buy]) -> list[float]:
        """Each purchase's score, in legal order: troops where threatened, a general while it
        has fewer than three, developments in cities, walls when rich."""
        world = me.world
        seat = me.seat
        settlements = me.settlements
        generals = me.generals
        by_name = world.settlement_by_name
        player = me.s.players[seat]
        mine = 0
        enemy_hexes = []  # the free generals not mine
        for g in generals.values():
            if g.owner == seat:
                mine += 1
            elif g.captor is None:
                enemy_hexes.append(g.hex)
        general = 9 if mine < 3 else 2 if mine < 5 else -1
        card = 3 if len(player.hand) < 2 else 0
        rich = player.coins >= RICH
        facts = settlement_facts(world)
        within = near_settlements(world)
        besieged = me.besieged

        # A settlement's troops and walls ask the same question, and so does the next purchase:
        # the threats stand while the free generals not mine and the sieges stay where they are.
        key = (world, tuple(enemy_hexes), frozenset(besieged))
        memo = self._threats
        if memo is not None and memo[0] == key:
            threats = memo[1]
        else:
            threats = {}
            self._threats = (key, threats)

        def threat(i: int) -> int:
            near = sum(map(within[i].__contains__, enemy_hexes))  # the free generals not mine near it
            known = threats[i] = near + (3 if i in besieged else 0)
            return known

        out: list[float] = []
        for a in buys:
            item = a.item
            i = by_name[a.settlement] if a.settlement else None
            if item == "general":
                out.append(general)
            elif item == "troop" and i is not None:
                near = threats.get(i)
                out.append(4 + 2 * (threat(i) if near is None else near) - settlements[i].troops)
            elif item == "troop" and a.general is not None:
                out.append(5 - generals[a.general].army / 2)
            elif item == "card":
                out.append(card)
            elif i is None:
                out.append(-1)  # mercenaries anger God
            elif item == "development":
                out.append(6 if facts[i][2] else 3)
            elif item == "wall":
                near = threats.get(i)
                out.append(3 + (threat(i) if near is None else near) if rich else -1)
            else:
                out.append(-1)
        return out

    # --- Movement ------------------------------------------------------------------------------

    def _targets(self, me: SeatView) -> dict[int, tuple[float, float]]:
        """Hexes worth walking to: hex -> (worth, strength needed to take it). Once per view:
        movement asks for every general, and searches ask again for their candidates."""
        if me._targets is not None:
            return me._targets
        world = me.world
        seat = me.seat
        me.controller(0)
        control = me._controllers
        assert control is not None
        besieged = me.besieged
        rules = me.rules
        # Everything the targets are listed from: the settlements not mine, the generals not mine,
        # control, sieges, titles, the Ark. A general's step, the troops he takes from a garrison
        # of mine, change none of it, so the next decision of a movement turn reuses the list.
        state = me.s
        # Within one Movement turn (the same turn decision of the same state still owed), only
        # the seat's free steps happened since: they move its own generals, its own garrisons
        # and the Ark, and change nothing else the targets read (other players' generals, titles,
        # the King, sieges, eliminations). What they can change is control (a settlement taken
        # by presence or left) and where the unattended Ark lies; a settlement not controlled
        # by the seat then and now holds what it held (its garrison was the seat's to change only
        # while the seat controlled it). So the same control and Ark give the same targets.
        turn = self._turn_targets
        pending = state.pending
        rows: TargetRows | None = None
        key: tuple[Any, ...] | None = None
        if turn is not None and len(pending) == 1 and pending[0] is turn.decision and turn.state is state:
            if turn.seat == seat:
                if turn.ark == state.ark_hex and turn.control == control:
                    me._targets = turn.targets
                    return turn.targets
                # the turn goes on with other control or Ark: the rows stand, nor do the points
                # change in a Movement turn (titles, the King, captives stay)
                rows = turn.rows
                me._scores = turn.scores
        if rows is None and me.in_place:
            # A search's state, changed in place: within a Movement turn the turn's targets
            # serve (above), and a position seen before comes back too seldom across its samples
            # to pay for the key (under one in ninety first decisions of a turn in MCTS games).
            rows = target_rows(me)
        elif rows is None:
            # The structs are compared by their msgpack bytes (encoded at C speed); with control
            # equal, the settlements not controlled by the seat are the same ones in both lists.
            key = (
                world,
                rules,
                seat,
                state.ark_hex,
                state.king,
                tuple(control),
                _encode(list(compress(me.settlements, map(partial(ne, seat), control)))),
                _encode([g for g in me.generals.values() if g.owner != seat]),
                _encode(state.titles),
                tuple([p.eliminated for p in state.players]),
                tuple(sorted(besieged)),
            )
            kept = self._kept
            if kept is not None and kept[0] == key:
                me._targets = kept[1]
                self._remember_turn(me, None, control, kept[1])
                return kept[1]
            rows = target_rows(me)
        leader = me.leader()
        # One pass over the settlements: every region's share (`SeatView.region_share`) is counted
        # while the targets are listed, and added to their worth once it is known.
        held = [0] * len(world.regions)
        for i, _, region, _, _, _ in rows.rows:
            if control[i] == seat:
                held[region] += 1
        standing = rows.standing
        out: dict[int, tuple[float, float]] = {}
        for i, hex_index, region, value, sieged, need in rows.rows:
            owner = control[i]
            if owner == seat:
                continue
            n = standing[region]
            worth = 8 + value + 6 * (held[region] / n if n else 0.0) + (2 if owner == leader else 0)
            if sieged:
                worth -= 6
            out[hex_index] = (worth, need)
        if me.s.ark_hex is not None:
            worth, need = out.get(me.s.ark_hex, (0.0, 0.0))
            out[me.s.ark_hex] = (worth + 10, need)
        me._targets = out
        self._kept = (key, out) if key is not None else None
        self._remember_turn(me, rows, control, out)
        return out

    def _remember_turn(
        self,
        me: SeatView,
        rows: TargetRows | None,
        control: list[int | None],
        targets: dict[int, tuple[float, float]],
    ) -> None:
        """Keeps what `targets` were listed from for the rest of the seat's Movement turn."""
        state, seat = me.s, me.seat
        pending = state.pending
        if state.phase == 5 and len(pending) == 1 and pending[0].kind == "turn" and pending[0].player == seat:
            self._turn_targets = TurnTargets(
                pending[0], state, seat, state.ark_hex, list(control), targets, me.scores(), rows or target_rows(me)
            )
        else:
            self._turn_targets = None

    def _movement(self, me: SeatView, by_type) -> Action | None:
        world = me.world
        points = me.s.move_points
        for a in by_type.get(PickUpArk, []):
            return a
        for a in by_type.get(LeaveTroops, []):
            g = me.generals[a.general]
            here = world.hexes[g.hex].settlement
            # A general who has moved leaves one troop to hold a settlement he took.
            if (
                points.get(a.general, 0) < me.rules.movement_points
                and a.count == 1
                and here is not None
                and me.settlements[here].owner is None
            ):
                return a
        plans = self.move_plans(me, by_type)
        if not plans:
            return None
        _, gid, move, spare = plans[0]
        if spare > 0:
            take = [a for a in by_type.get(TakeTroops, []) if a.general == gid and a.count == spare]
            if take:
                return take[0]
        return move

    def move_plans(self, me: SeatView, by_type, goals_per_general: int = 1) -> list[tuple[float, int, Move, int]]:
        """(value, general, move, spare troops to take) for each general that has not moved yet,
        best first: each general walks toward its most valuable goal it can beat (the Ark's
        carrier toward the Tabernacle). With `goals_per_general` > 1, also the steps toward
        its next-best goals (for searches that weigh alternatives)."""
        world = me.world
        distances, hex_at = world.distances, world.hex_at
        points = me.s.move_points
        tabernacle = world.tabernacle_hex
        moves: dict[int, list[Move]] = _grouped(by_type.get(Move, ()), _GENERAL)  # a run per general
        targets = self._targets(me)
        plans: list[tuple[float, int, int, Move, int]] = []
        # A general's plan depends on the targets, his hex, strength, Ark, spare troops and moves
        # only: while all are the same objects and values, the last plan stands (one goal each;
        # the Move values are shared by every listing of the map, so `is` compares them).
        kept = self._plans if goals_per_general == 1 else None
        for gid, options in moves.items():
            g = me.generals[gid]
            if points.get(gid, 0) < me.rules.movement_points:
                continue  # each general makes one considered move per phase
            here = world.hexes[g.hex].settlement
            spare = 0
            if here is not None and me.settlements[here].owner == me.seat:
                spare = max(0, me.settlements[here].troops - 1)
            strength = 1 + g.army + spare
            facts = (g.hex, strength, g.ark, spare)
            if kept is not None:
                known = kept.get(gid)
                if (
                    known is not None
                    and known[0] is targets
                    and known[1] == facts
                    and len(known[2]) == len(options)
                    and all(map(is_, known[2], options))
                ):
                    plans += known[3]
                    continue
            start = len(plans)
            if g.ark:
                if g.hex == tabernacle:
                    continue  # the carrier stays on the Tabernacle: a point each round
                goals = [(30.0, tabernacle)]
            else:
                far = distances[g.hex]
                goals = []
                if goals_per_general == 1:  # the first of the highest scores, without a sort
                    top, top_hex = 0.0, -1
                    for hex_index, (worth, need) in targets.items():
                        if strength >= need:
                            score = worth - 2 * far[hex_index]
                            if score > top:
                                top, top_hex = score, hex_index
                    if top_hex >= 0:
                        goals.append((top, top_hex))
                else:
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
            if kept is not None:
                kept[gid] = (targets, facts, options, plans[start:])
        # Best goals first; the first general with the highest value wins ties.
        best = [p for p in plans if p[1] == 0]
        rest = [p for p in plans if p[1] > 0]
        best.sort(key=lambda t: -t[0])
        rest.sort(key=lambda t: -t[0])
        return [(v, gid, move, spare) for v, _, gid, move, spare in best + rest]


class PurchasePlan:
    """The greedy bot's purchases of one Acquisitions turn, played one after the other on a state
    changed in place (a search's rollout): the purchases scored once (`GreedyBot._buy_scores`),
    then after each one only what it changed. `next` is `choose_in_state`'s answer to the turn's
    next decision, as long as `bought` says the plan still stands.

    What a troop, a development or a wall changes: the buyer's coins (the purchases the seat
    can still afford: the legal list less those it cannot pay, in the same order) and that
    purchase alone (a troop's score falls with one troop more in that settlement or army; a
    settlement's walls, or its last development, can no longer be bought). Nothing else a score
    reads (threats, the generals, the hand, control) moves, unless the coins fall below what
    makes walls worth buying. A general or a card changes more: the plan ends, and the caller
    lists the legal actions again."""

    __slots__ = ("state", "world", "seat", "rows", "end", "rich")

    def __init__(
        self, state: GameState, world: World, seat: int, buys: list[Buy], scores: list[float], end: Action
    ) -> None:
        price = state.options.rules.prices[0]
        self.state = state
        self.world = world
        self.seat = seat
        # (score, price, purchase) in legal order; a score of 0 or less is never chosen, and
        # scores only fall while the plan stands
        self.rows: list[list[Any]] = [[score, price[a.item], a] for score, a in zip(scores, buys) if score > 0]
        self.end = end
        self.rich = state.players[seat].coins >= RICH

    def next(self) -> Action:
        """The purchase greedy makes now (the first of the highest scores it can pay, above 0),
        else the end of the turn."""
        coins = self.state.players[self.seat].coins
        best: list[Any] | None = None
        top = 0.0
        for row in self.rows:
            if row[0] > top and row[1] <= coins:
                best, top = row, row[0]
        return self.end if best is None else best[2]

    def bought(self, action: Action) -> bool:
        """After `action` (from `next`) was applied: whether the plan still stands."""
        if not isinstance(action, Buy):
            return False
        item = action.item
        if item != "troop" and item != "development" and item != "wall":
            return False
        state = self.state
        if self.rich and state.players[self.seat].coins < RICH:
            return False  # walls are no longer worth buying
        for row in self.rows:
            if row[2] is action:
                if item == "wall":
                    row[0] = 0  # the settlement has its walls
                elif item == "development":
                    i = self.world.settlement_by_name[action.settlement or ""]
                    if state.settlements[i].developments >= development_cap(state.options.rules, self.world, i):
                        row[0] = 0
                elif action.general is None:
                    row[0] -= 1  # 4 + 2 x threat - troops: one troop more
                else:
                    row[0] = 5 - state.generals[action.general].army / 2
                if row[0] <= 0:
                    self.rows.remove(row)
                break
        return True
