"""A seat's view with the questions the bots ask of it (who controls a settlement, who
defends a hex, a region's share, the points, the leading rival), each answered by the engine's
own functions and kept for the view's life. `SeatView.of_state` asks them of a state a search
drew itself."""

from __future__ import annotations

from collections import Counter

from ..engine.board import (
    base_value,
    besieged_settlements,
    control_map,
    judge_titles_of,
    living_seats,
    region_share,
)
from ..engine.state import GameState, General
from ..engine.victory import scores_of
from ..engine.view import PlayerView
from ..world import World

__all__ = ["SeatView", "StateSeatView"]


class SeatView:
    """Convenient questions over a player's view, answered by the engine's own functions."""

    def __init__(self, view: PlayerView, world: World) -> None:
        self._setup(view.state, world, view.seat)
        # False: a view, built afresh for each decision. True (`of_state`): a state a search
        # plays on, changed in place from one decision to the next.
        self.in_place = False

    @staticmethod
    def of_state(state: GameState, world: World, seat: int) -> SeatView:
        """The same questions over a state the caller may read whole: a search's own sample,
        whose hidden parts it drew itself (the bot reads nothing a view hides: its own hand,
        never the deck, other hands, ballots or dice)."""
        return StateSeatView(state, world, seat)

    def _setup(self, state: GameState, world: World, seat: int) -> None:
        self.s = state
        self.world = world
        self.seat = seat
        self.settlements = self.s.settlements
        self.rules = self.s.options.rules  # the game's rules, as the view carries them
        self.generals = self.s.generals
        self._controllers: list[int | None] | None = None
        self._shares: dict[int, float] = {}
        self._by_hex: dict[int, list[General]] | None = None
        self._leader: tuple[int | None] | None = None
        self._targets: dict[int, tuple[float, float]] | None = None
        self._scores: dict[int, int] | None = None
        # Built at once (one pass over the invaders, most often none): every phase asks.
        self.besieged: set[int] = besieged_settlements(state)

    def controller(self, i: int) -> int | None:
        if self._controllers is None:
            self._controllers = control_map(self.s, self.world)  # once per view: the bot asks often
        return self._controllers[i]

    def value(self, i: int) -> int:
        return base_value(self.s, self.world, i)

    def free_generals_on(self, hex_index: int) -> list[General]:
        if self._by_hex is None:
            self._by_hex = {}
            for g in self.generals.values():
                if g.captor is None:
                    self._by_hex.setdefault(g.hex, []).append(g)
        return self._by_hex.get(hex_index, [])

    def defenders_at(self, hex_index: int) -> tuple[int, bool]:
        """Everyone not mine who would fight on this hex, and whether walls protect them."""
        total = 0
        walls = False
        i = self.world.hexes[hex_index].settlement
        if i is not None:
            s = self.settlements[i]
            if not s.razed and s.owner is not None and s.owner != self.seat:
                total += s.troops
                walls = s.walls
        for g in self.free_generals_on(hex_index):
            if g.owner != self.seat:
                total += 1 + g.army
        return total, walls

    def region_share(self, region: int) -> float:
        share = self._shares.get(region)
        if share is None:
            self.controller(0)
            share = self._shares[region] = region_share(self.s, self.world, region, self.seat, self._controllers)
        return share

    def is_ruler(self, general: int) -> bool:
        """A judge or the King."""
        return self.s.king == general or bool(judge_titles_of(self.s, general))

    def scores(self) -> dict[int, int]:
        """Each living player's points for judges and the King (the Tabernacle's point, which
        lasts only while the Ark stays, does not count here)."""
        if self._scores is None:
            points = scores_of(self.s, self.world, living_seats(self.s))  # one pass over titles and generals
            self._scores = {seat: p["judges"] + p["king"] for seat, p in points.items()}
        return self._scores

    def leader(self) -> int | None:
        """The rival with the most points, then the most settlements (once per view)."""
        if self._leader is None:
            self._leader = (self._find_leader(),)
        return self._leader[0]

    def _find_leader(self) -> int | None:
        rivals = {k: v for k, v in self.scores().items() if k != self.seat}
        if not rivals:
            return None
        self.controller(0)
        held = Counter(self._controllers)
        return max(rivals, key=lambda k: (rivals[k], held[k]))


class StateSeatView(SeatView):
    """`SeatView.of_state`: the questions over a state read whole."""

    def __init__(self, state: GameState, world: World, seat: int) -> None:  # noqa: D107
        self._setup(state, world, seat)
        self.in_place = True
