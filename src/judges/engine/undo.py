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

The game keeps, in memory, the position before the run (`TakeBack.base`, kept as its msgpack
bytes: encoding is a third of a copy's cost and makes no objects for the collector to walk;
they are decoded only when an Undo is sent) and the run's steps; an Undo restores that
position and plays the steps again but the last (free steps roll no die: the same steps give
the same position). `taken_back(log)` reads the same pairing
from a log alone, for the log's display.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

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
from .state import GameState, Options, state_from_bytes, state_to_bytes, upgrade_options

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


class TakeBack:
    """The run of free steps a seat can take back: the position before it (as bytes, never
    changed: clones of a game share them), the number of notifications then, and the steps since."""

    __slots__ = ("seat", "packed", "options", "notes", "steps")

    def __init__(
        self, seat: int, base: GameState | bytes, notes: int, steps: list[Action], options: Options | None = None
    ) -> None:
        self.seat = seat
        self.packed: bytes
        self.options: Options
        if isinstance(base, GameState):
            self.packed, self.options = state_to_bytes(base), base.options
        else:
            assert options is not None, "a base given as bytes needs its options"
            self.packed, self.options = base, options
        self.notes = notes
        self.steps = steps

    @property
    def base(self) -> GameState:
        """The position before the run, a fresh copy each time it is asked for."""
        return state_from_bytes(self.packed, self.options)

    def copy(self) -> TakeBack:
        return TakeBack(self.seat, self.packed, self.notes, list(self.steps), self.options)

    def to_builtins(self) -> dict[str, Any]:
        """As JSON-ready values (a stored snapshot of the game carries its run)."""
        return {
            "seat": self.seat,
            "state": msgspec.to_builtins(self.base),
            "notifications": self.notes,
            "steps": [action_to_dict(a) for a in self.steps],
        }

    @classmethod
    def from_builtins(cls, data: dict[str, Any]) -> TakeBack:
        """The run `to_builtins` wrote (through JSON: the state's integer keys came back as text)."""
        raw = data["state"]
        base = msgspec.convert({**raw, "options": upgrade_options(raw["options"])}, GameState, str_keys=True)
        return cls(data["seat"], base, data["notifications"], [action_from_dict(a) for a in data["steps"]])


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
