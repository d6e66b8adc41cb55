"""The actions a game lists again and again, built once per game (`ActionPool`).

Actions are frozen values: the same EndTurn, Move, TakeTroops or Buy serves every turn in
which it is legal, so listing the legal actions allocates almost nothing. The pool belongs to
one game (its `Ctx.actions`) and to the clones a search makes of it; it grows with that game's
seats and generals only, and goes when the game goes.
"""

from __future__ import annotations

from ..world import World
from .actions import Buy, EndTurn, LeaveTroops, Move, TakeTroops

TROOP_ROW = 12  # troop counts kept ready per (seat, general); larger ones are built each time
PLACED = ("troop", "development", "wall", "general")  # what a settlement can receive, in listing order


def take_troops(seat: int, gid: int, n: int) -> list[TakeTroops]:
    return [TakeTroops(player=seat, general=gid, count=c) for c in range(1, n + 1)]


def leave_troops(seat: int, gid: int, n: int) -> list[LeaveTroops]:
    return [LeaveTroops(player=seat, general=gid, count=c) for c in range(1, n + 1)]


class ActionPool:
    __slots__ = ("_end", "_moves", "_troops", "_buys")

    def __init__(self) -> None:
        self._end: dict[int, EndTurn] = {}
        self._moves: dict[tuple[int, int], tuple[Move, ...]] = {}
        self._troops: dict[tuple[int, int], tuple[list[TakeTroops], list[LeaveTroops]]] = {}
        self._buys: dict[tuple[int, str], tuple[Buy, ...]] = {}

    def end_turn(self, seat: int) -> EndTurn:
        end = self._end.get(seat)
        if end is None:
            end = self._end[seat] = EndTurn(player=seat)
        return end

    def moves_row(self, seat: int, gid: int, world: World) -> tuple[Move, ...]:
        """General `gid` of `seat`: his Move to each hex of the map, by hex."""
        row = self._moves.get((seat, gid))
        if row is None:
            row = self._moves[seat, gid] = tuple(Move(player=seat, general=gid, q=h.q, r=h.r) for h in world.hexes)
        return row

    def troops(self, seat: int, gid: int) -> tuple[list[TakeTroops], list[LeaveTroops]]:
        """The first TROOP_ROW troops general `gid` may take, and leave."""
        row = self._troops.get((seat, gid))
        if row is None:
            row = self._troops[seat, gid] = (take_troops(seat, gid, TROOP_ROW), leave_troops(seat, gid, TROOP_ROW))
        return row

    def placed_buys(self, seat: int, settlement: str) -> tuple[Buy, ...]:
        """The purchases placed in a settlement, one of each of PLACED."""
        buys = self._buys.get((seat, settlement))
        if buys is None:
            buys = self._buys[seat, settlement] = tuple(
                Buy(player=seat, item=item, settlement=settlement) for item in PLACED
            )
        return buys
