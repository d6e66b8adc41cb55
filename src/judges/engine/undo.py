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

The game keeps, in memory, what of the position before the run a free step can change
(`TakeBack.packed`: the fields of `CHANGED` as msgpack bytes, and the lengths of the reports,
to which a free step only adds lines; decoded only when an Undo is sent) and the run's steps;
an Undo restores that position and plays the steps again but the last (free steps roll no
die: the same steps give the same position). The rest of the position (the deck, the titles,
the invaders, the decisions owed...) no free step touches, so the position during the run
holds it as it was: `TakeBack.base(state)` is the whole position before the run.
`taken_back(log)` reads the same pairing from a log alone, for the log's display.
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


class TakeBack:
    """The run of free steps a seat can take back: what of the position before it a free step
    can change (as bytes, never changed: clones of a game share them) and its reports' lengths,
    the number of notifications then, and the steps since."""

    __slots__ = ("seat", "packed", "lengths", "notes", "steps")

    def __init__(
        self, seat: int, base: GameState | bytes, notes: int, steps: list[Action], lengths: tuple[int, int] = (0, 0)
    ) -> None:
        self.seat = seat
        self.packed: bytes
        self.lengths: tuple[int, int]
        if isinstance(base, GameState):
            self.packed, self.lengths = _pack(base)
        else:
            self.packed, self.lengths = base, lengths
        self.notes = notes
        self.steps = steps

    def restore(self, state: GameState) -> None:
        """Puts `state`, a position of this run, back where the run began, in place (the dice
        and the game's context hold this state object)."""
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
        ) = _decoder.decode(self.packed)
        del state.report[self.lengths[0] :]
        del state.round_log[self.lengths[1] :]

    def base(self, state: GameState) -> GameState:
        """The whole position before the run, a fresh copy, from `state`, a position of this run."""
        copy = clone_state(state)
        self.restore(copy)
        return copy

    def copy(self) -> TakeBack:
        return TakeBack(self.seat, self.packed, self.notes, list(self.steps), self.lengths)

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
