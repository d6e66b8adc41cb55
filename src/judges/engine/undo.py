"""§ 4 Taking back [D]: a player may take back the free steps of their turn.

A step is *free* when it rolls no die, draws or shows no card, and tells nobody anything that
could not be unlearned: a move, troops taken or left, the Ark picked up or dropped, and a
purchase that draws nothing (every item but an intrigue card, `Item.draws`). The free steps a
player takes one after the other form a *run*; `Undo` takes back the last step of the run,
then the one before, back to where the run began. Anything else (a card bought or played, the
end of a turn, any other player's action, and so every automatic step and phase change, which
only follow those) ends the run: what came before can no longer be taken back.

`Undo` is an action of the log like any other (seed + log = the game, `Game.replay`), but it
answers no decision and is never among the legal actions: bots, the search and the lab never
consider it. `Game.can_undo(seat)` says whether the seat may send it now; the server's view
says it as `undo`.

The game keeps, in memory, the run's steps and, for each, the few values of the position it
overwrote (`overwritten`, read just before it is applied: a general's hex, points and arrival,
a garrison and an army, the Ark, a purchase's coins, garrison, general and Wrath, the reports'
lengths, since a free step only adds lines to them); an Undo writes the last step's back
(`put_back`). A run read from a stored snapshot has the whole position before it instead: its
first Undo restores that position and plays the steps again but the last (free steps roll no
die: the same steps give the same position). `TakeBack.base(state)` is the whole position
before the run (what a stored snapshot carries).
`taken_back(log)` reads the same pairing from a log alone, for the log's display.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..world import World
from .actions import (
    Action,
    Buy,
    DropArk,
    EndTurn,
    LeaveTroops,
    Move,
    PickUpArk,
    TakeTroops,
    Undo,
    action_from_dict,
    action_tag,
    action_to_dict,
)
from .errors import IllegalAction
from .items import ITEMS
from .state import GameState, General, Player, SettlementState, clone_state, upgrade_options

RULE = "§4 Taking back"

#: The free steps of Movement: nothing in them is hidden or left to chance.
FREE_MOVEMENT: tuple[type[Action], ...] = (Move, TakeTroops, LeaveTroops, PickUpArk, DropArk)
_FREE = frozenset(FREE_MOVEMENT)


def is_free(action: Action) -> bool:
    """Whether `action` is a free step, one that can be taken back (see the module docstring)."""
    kind = type(action)
    if kind in _FREE:
        return True
    if kind is Buy:
        item = ITEMS.get(action.item)  # type: ignore[attr-defined]
        return item is not None and not item.draws
    return False


#: The fields of the position a free step may change (a Move: the general's hex, his points
#: and the order of arrival; troops: a general's army and a garrison; the Ark; a purchase: the
#: buyer's coins, the coins spent, a garrison, a wall, a development, a general's army, a new
#: general, the Wrath a mercenary registers). Everything else stands during a run.
CHANGED = (
    "players",
    "settlements",
    "generals",
    "next_general_id",
    "ark_hex",
    "move_points",
    "arrivals",
    "arrival_counter",
    "spent",
    "wrath_registered",
)
#: The reports a free step only adds lines to (the Ark, purchases): kept as their lengths.
APPENDED = ("report", "round_log")

#: What one free step overwrites, read before it is applied (`overwritten`), by kind of step.
Overwritten = tuple[Any, ...]


def overwritten(state: GameState, world: World, action: Action) -> Overwritten:
    """The values of the position that `action`, a free step about to be applied, may
    overwrite: `put_back` writes them back. A few values a step, where the whole position is
    copied only for a position stored with its run (`TakeBack.from_builtins`)."""
    kind = type(action)
    if kind is Move:
        gid = action.general  # type: ignore[attr-defined]
        g = state.generals.get(gid)
        if g is None:
            return _NOTHING  # a refused step (no such general): it changes nothing
        return (0, gid, g.hex, state.move_points.get(gid), state.arrivals.get(gid), state.arrival_counter)
    if kind is TakeTroops or kind is LeaveTroops:
        gid = action.general  # type: ignore[attr-defined]
        g = state.generals.get(gid)
        if g is None:
            return _NOTHING
        where = world.hexes[g.hex].settlement
        if where is None:
            return (1, gid, g.army, None, None, 0)
        s = state.settlements[where]
        return (1, gid, g.army, where, s.owner, s.troops)
    if kind is PickUpArk or kind is DropArk:
        gid = action.general  # type: ignore[attr-defined]
        g = state.generals.get(gid)
        if g is None:
            return _NOTHING
        return (2, gid, g.ark, state.ark_hex, len(state.round_log))
    buy: Buy = action  # type: ignore[assignment]
    gid = buy.general
    army = state.generals[gid].army if gid is not None and gid in state.generals else None
    where = world.settlement_by_name.get(buy.settlement) if buy.settlement is not None else None
    garrison = None
    if where is not None:
        s = state.settlements[where]
        garrison = (s.owner, s.troops, s.walls, s.developments)
    return (
        3,
        gid,
        army,
        where,
        garrison,
        state.players[buy.player].coins,
        buy.item,
        state.spent.get(buy.item),
        state.next_general_id,
        state.wrath_registered,
        len(state.report),
        len(state.round_log),
    )


_NOTHING: Overwritten = (4,)


def put_back(state: GameState, action: Action, before: Overwritten) -> None:
    """Writes back what `overwritten` read before `action` was applied: the position as it was."""
    kind = before[0]
    if kind == 4:
        return
    if kind == 0:  # a move
        _, gid, where, points, arrival, counter = before
        state.generals[gid].hex = where
        if points is None:
            state.move_points.pop(gid, None)
        else:
            state.move_points[gid] = points
        if arrival is None:
            state.arrivals.pop(gid, None)
        else:
            state.arrivals[gid] = arrival
        state.arrival_counter = counter
    elif kind == 1:  # troops taken or left
        _, gid, army, where, owner, troops = before
        state.generals[gid].army = army
        if where is not None:
            s = state.settlements[where]
            s.owner, s.troops = owner, troops
    elif kind == 2:  # the Ark
        _, gid, ark, ark_hex, lines = before
        state.generals[gid].ark = ark
        state.ark_hex = ark_hex
        del state.round_log[lines:]
    else:  # a purchase
        _, gid, army, where, garrison, coins, item, spent, next_id, wrath, reported, lines = before
        for new in range(next_id, state.next_general_id):  # a general bought
            del state.generals[new]
        state.next_general_id = next_id
        if army is not None:
            state.generals[gid].army = army
        if garrison is not None:
            s = state.settlements[where]
            s.owner, s.troops, s.walls, s.developments = garrison
        state.players[action.player].coins = coins
        if spent is None:
            state.spent.pop(item, None)
        else:
            state.spent[item] = spent
        state.wrath_registered = wrath
        del state.report[reported:]
        del state.round_log[lines:]


_Changed = tuple[
    list[Player],
    list[SettlementState],
    dict[int, General],
    int,
    int | None,
    dict[int, int],
    dict[int, int],
    int,
    dict[str, int],
    int,
]
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_Changed)


def _pack(state: GameState) -> tuple[bytes, tuple[int, int]]:
    s = state
    changed = (
        s.players,
        s.settlements,
        s.generals,
        s.next_general_id,
        s.ark_hex,
        s.move_points,
        s.arrivals,
        s.arrival_counter,
        s.spent,
        s.wrath_registered,
    )
    return _encoder.encode(changed), (len(s.report), len(s.round_log))


def _unpack(state: GameState, packed: bytes, lengths: tuple[int, int]) -> None:
    (
        state.players,
        state.settlements,
        state.generals,
        state.next_general_id,
        state.ark_hex,
        state.move_points,
        state.arrivals,
        state.arrival_counter,
        state.spent,
        state.wrath_registered,
    ) = _decoder.decode(packed)
    del state.report[lengths[0] :]
    del state.round_log[lengths[1] :]


class TakeBack:
    """The run of free steps a seat can take back: the steps, and for each what it overwrote
    (`overwritten`, read just before it: an Undo writes the last step's back), the number of
    notifications when the run began. A run read from a stored snapshot has the position
    before it instead (`packed`: the fields of `CHANGED` as msgpack and the reports' lengths),
    restored, with its steps played again, at its first Undo."""

    __slots__ = ("seat", "notes", "steps", "before", "packed", "lengths")

    def __init__(self, seat: int, notes: int, steps: list[Action] | None = None) -> None:
        self.seat = seat
        self.notes = notes
        self.steps: list[Action] = steps if steps is not None else []
        self.before: list[Overwritten] = []
        self.packed: bytes | None = None
        self.lengths = (0, 0)

    def restore(self, state: GameState) -> None:
        """Puts `state` where a run read from a snapshot began (its `packed` position), in
        place, and makes the run one of overwritten values again (none yet: no step)."""
        assert self.packed is not None, "only a run read from a snapshot keeps the position"
        _unpack(state, self.packed, self.lengths)
        self.packed = None

    def add(self, action: Action, before: Overwritten) -> None:
        """A free step joins the run (`before`: what it overwrote)."""
        self.steps.append(action)
        self.before.append(before)

    def base(self, state: GameState) -> GameState:
        """The whole position before the run, a fresh copy, from `state`, a position of this run."""
        copy = clone_state(state)
        if self.packed is not None:
            _unpack(copy, self.packed, self.lengths)
            return copy
        for step, before in zip(reversed(self.steps), reversed(self.before), strict=True):
            put_back(copy, step, before)
        return copy

    def copy(self) -> TakeBack:
        run = TakeBack(self.seat, self.notes, list(self.steps))
        run.before = list(self.before)
        run.packed, run.lengths = self.packed, self.lengths
        return run

    def to_builtins(self, state: GameState) -> dict[str, Any]:
        """As JSON-ready values (a stored snapshot of the game carries its run), given the
        game's position `state`: the whole position before the run."""
        return {
            "seat": self.seat,
            "state": msgspec.to_builtins(self.base(state)),
            "notifications": self.notes,
            "steps": [action_to_dict(a) for a in self.steps],
        }

    @classmethod
    def from_builtins(cls, data: dict[str, Any]) -> TakeBack:
        """The run `to_builtins` wrote (through JSON: the state's integer keys came back as text)."""
        raw = data["state"]
        base = msgspec.convert({**raw, "options": upgrade_options(raw["options"])}, GameState, str_keys=True)
        run = cls(data["seat"], data["notifications"], [action_from_dict(a) for a in data["steps"]])
        run.packed, run.lengths = _pack(base)
        return run


def taken_back(log: Sequence[Action]) -> dict[int, int]:
    """Index of each action of `log` that an Undo took back -> index of that Undo. The same
    pairing as the game's: free steps of one seat pile up, an Undo takes the last one off, any
    other action (or a free step of another seat) starts afresh."""
    out: dict[int, int] = {}
    run: list[int] = []
    seat: int | None = None
    for index, action in enumerate(log):
        if type(action) is Undo:
            if run and action.player == seat:
                out[run.pop()] = index
        elif is_free(action):
            if action.player != seat:
                run, seat = [], action.player
            run.append(index)
        else:
            run, seat = [], None
    return out


def refusal(log: Sequence[Action], seat: int) -> IllegalAction:
    """Why `seat` may not take anything back now (the game has nothing of theirs to take back):
    `error.undo_revealed` when their last step still standing is one that cannot be taken back
    any more (it drew or showed a card, or, being free, something was revealed or another player
    acted since), `error.undo_nothing` otherwise (nothing done yet, or only ended a turn)."""
    last = _last_standing(log, seat)
    if last is None or type(last) is EndTurn:
        return IllegalAction(
            RULE,
            "error.undo_nothing",
            f"player {seat} has nothing to take back: only moves, troops, the Ark and purchases that "
            "draw no card, since their turn began",
            player=seat,
        )
    tag = action_tag(type(last))
    return IllegalAction(
        RULE,
        "error.undo_revealed",
        f"player {seat}'s {tag} cannot be taken back: something was revealed or another player acted since",
        player=seat,
        action=tag,
    )


def _last_standing(log: Sequence[Action], seat: int) -> Action | None:
    """The seat's latest action of the log that no Undo took back (Undos excluded)."""
    undone = taken_back(log)
    for index in range(len(log) - 1, -1, -1):
        action = log[index]
        if action.player == seat and type(action) is not Undo and index not in undone:
            return action
    return None
