"""The actions games list again and again, built once per map (`ActionPool`, `action_pool`).

Actions are frozen values: the same EndTurn, Move, TakeTroops or Buy serves every turn and
every game in which it is legal, so listing the legal actions allocates almost nothing. The
pool is a fact of the World (`World.derived`): every game on that map and every clone a search
makes share it, and it goes when the World goes. It is bounded: rows are kept by seat and
general id (a game's ids start at 0 and are at most a few dozen) up to `POOL_ROWS` rows of
each kind; a row past that is built each time it is asked for, never kept.
"""

from __future__ import annotations

from typing import Final

from ..world import World
from .actions import Action, Buy, EndTurn, LeaveTroops, Move, TakeTroops

POOL_ROWS = 4096  # rows kept of each kind per map (6 seats x 100 generals of moves fit with room)
TROOP_ROW: Final = 12  # troop counts kept ready per (seat, general); larger ones are built each time
PLACED = ("troop", "development", "wall", "general")  # what a settlement can receive, in listing order


def take_troops(seat: int, gid: int, n: int) -> list[TakeTroops]:
    return [TakeTroops(player=seat, general=gid, count=c) for c in range(1, n + 1)]


def leave_troops(seat: int, gid: int, n: int) -> list[LeaveTroops]:
    return [LeaveTroops(player=seat, general=gid, count=c) for c in range(1, n + 1)]


def _move(row: list[Move | None], seat: int, gid: int, h: int, world: World) -> Move:
    """A general's Move to hex `h`, kept in his row."""
    target = world.hexes[h]
    move = row[h] = Move(player=seat, general=gid, q=target.q, r=target.r)
    return move


class ActionPool:
    __slots__ = ("_end", "_moves", "_troops", "_buys")

    def __init__(self) -> None:
        self._end: dict[int, EndTurn] = {}
        self._moves: dict[tuple[int, int], list[Move | None]] = {}
        self._troops: dict[tuple[int, int], tuple[list[TakeTroops], list[LeaveTroops]]] = {}
        self._buys: dict[tuple[int, str], tuple[Buy, ...]] = {}

    def end_turn(self, seat: int) -> EndTurn:
        end = self._end.get(seat)
        if end is None:
            end = self._end[seat] = EndTurn(player=seat)
        return end

    def moves(self, seat: int, gid: int, hexes: tuple[int, ...], world: World) -> list[Action]:
        """General `gid` of `seat`: his Move to each of `hexes` (a fresh list). His row holds his
        Move to each hex of the map, by hex, each built when first asked for: a general reaches
        a part of the map only, and a row of every hex cost more to build than the games spent
        listing moves."""
        row = self._moves.get((seat, gid))
        if row is None:
            row = [None] * len(world.hexes)
            if len(self._moves) < POOL_ROWS:
                self._moves[seat, gid] = row
        return [row[h] or _move(row, seat, gid, h, world) for h in hexes]

    def troops(self, seat: int, gid: int) -> tuple[list[TakeTroops], list[LeaveTroops]]:
        """The first TROOP_ROW troops general `gid` may take, and leave."""
        row = self._troops.get((seat, gid))
        if row is None:
            row = (take_troops(seat, gid, TROOP_ROW), leave_troops(seat, gid, TROOP_ROW))
            if len(self._troops) < POOL_ROWS:
                self._troops[seat, gid] = row
        return row

    def placed_buys(self, seat: int, settlement: str) -> tuple[Buy, ...]:
        """The purchases placed in a settlement, one of each of PLACED."""
        buys = self._buys.get((seat, settlement))
        if buys is None:
            buys = tuple(Buy(player=seat, item=item, settlement=settlement) for item in PLACED)
            if len(self._buys) < POOL_ROWS:
                self._buys[seat, settlement] = buys
        return buys

    def rows(self) -> int:
        """How many rows the pool keeps (each kind at most POOL_ROWS)."""
        return len(self._end) + len(self._moves) + len(self._troops) + len(self._buys)


def action_pool(world: World) -> ActionPool:
    """The pool of the games played on `world`: one per map."""
    return world.derived("actions", ActionPool)
