"""What the greedy bot's Movement targets are listed from (bots/greedy.py, `GreedyBot._targets`):
the rows of the standing settlements, which a seat's own steps leave as they are, and the
targets last listed in a seat's Movement turn with what they were listed from, reused while
that turn lasts."""

from __future__ import annotations

from typing import Any

from ..engine.state import GameState
from .seat_view import SeatView
from .world_facts import settlement_facts

__all__ = ["TargetRows", "TurnTargets", "target_rows"]


class TargetRows:
    """What a seat's Movement targets are listed from that its own steps leave as they are: per
    standing settlement (index, hex, region, value, besieged, strength needed to take it), and
    the standing settlements of each region. A settlement the seat controls, or comes to control
    during its turn, has only other players' generals to fight there once it is left (the seat
    can empty its garrison, not hand it to another), which is what its need counts."""

    __slots__ = ("rows", "standing")

    def __init__(self, rows: list[tuple[int, int, int, int, bool, float]], standing: list[int]) -> None:
        self.rows = rows
        self.standing = standing


def target_rows(me: SeatView) -> TargetRows:
    world, seat, rules = me.world, me.seat, me.rules
    enemies: dict[int, int] = {}  # hex -> strength of the free generals not mine on it
    for g in me.generals.values():
        if g.captor is None and g.owner != seat:
            enemies[g.hex] = enemies.get(g.hex, 0) + 1 + g.army
    besieged = me.besieged
    standing = [0] * len(world.regions)
    city, village, development = rules.city_income, rules.village_income, rules.development_income
    rows: list[tuple[int, int, int, int, bool, float]] = []
    for i, (s, (region, hex_index, is_city)) in enumerate(zip(me.settlements, settlement_facts(world))):
        if s.razed:
            continue
        standing[region] += 1
        # who would fight here, and whether walls protect them (`SeatView.defenders_at`)
        defenders = enemies.get(hex_index, 0)
        walls = False
        if s.owner is not None and s.owner != seat:
            defenders += s.troops
            walls = s.walls
        value = (city if is_city else village) + development * s.developments
        need = 0.0 if defenders == 0 else 1.6 * defenders * (1.5 if walls else 1.0)
        rows.append((i, hex_index, region, value, i in besieged, need))
    return TargetRows(rows, standing)


class TurnTargets:
    """The targets last listed in a seat's Movement turn and what they were listed from: the
    turn decision and state (while that decision is still owed, only the seat's own steps
    happened since), the Ark, control, the points and the rows."""

    __slots__ = ("decision", "state", "seat", "ark", "control", "targets", "scores", "rows")

    def __init__(
        self,
        decision: Any,
        state: GameState,
        seat: int,
        ark: int | None,
        control: list[int | None],
        targets: dict[int, tuple[float, float]],
        scores: dict[int, int],
        rows: TargetRows,
    ) -> None:
        self.decision = decision
        self.state = state
        self.seat = seat
        self.ark = ark
        self.control = control
        self.targets = targets
        self.scores = scores
        self.rows = rows
