"""Actions a player can take: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it, e.g.
{"type": "vote", "player": 2, "candidate": 7}. Settlements and regions are named
by their map names, generals by their id, hexes by their axial coordinates q, r.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from .errors import MalformedAction


class Action(Struct, tag_field="type", kw_only=True, frozen=True):
    player: int


# --- Phase 1 decisions (§ 5, § 10, § 13) ---------------------------------------------------


class ForeseeInvasion(Action, tag="foresee_invasion", frozen=True):
    """👁 The prophet's owner chooses where an entering invader pair strikes (§ 13)."""

    settlement: str


class ForeseeEvents(Action, tag="foresee_events", frozen=True):
    """👁 The prophet's owner chooses each card's terrain, in the Events Area's order (§ 5.5)."""

    terrains: list[str]


class ChooseSuccessor(Action, tag="choose_successor", frozen=True):
    """👑 The dead King's player names one of their generals as King (§ 10)."""

    general: int


class AppointJudge(Action, tag="appoint_judge", frozen=True):
    """⚖ Fill a vacant Judge title (§ 10)."""

    region: str
    general: int


class Vote(Action, tag="vote", frozen=True):
    """🗳 Cast all of one's votes for a candidate judge (§ 10)."""

    candidate: int


# --- Phase 2 Intrigue (§ 6) ------------------------------------------------------------------


class Discard(Action, tag="discard", frozen=True):
    """Discard a card from a hand above the limit."""

    card: str


class PlayTax(Action, tag="play_tax", frozen=True):
    region: str


class PlayEvent(Action, tag="play_event", frozen=True):
    """Plague, Abundance, Famine or Sandstorm into the Events Area."""

    card: str


class PlayAssassin(Action, tag="play_assassin", frozen=True):
    target: int


class PlayRevolt(Action, tag="play_revolt", frozen=True):
    settlement: str


class PlayProphet(Action, tag="play_prophet", frozen=True):
    general: int


class PlayAnointing(Action, tag="play_anointing", frozen=True):
    general: int


class Execute(Action, tag="execute", frozen=True):
    """Execute one of your captives."""

    general: int


class Release(Action, tag="release", frozen=True):
    """Release one of your captives."""

    general: int


# --- Phase 4 Acquisitions (§ 8) --------------------------------------------------------------


class Buy(Action, tag="buy", frozen=True):
    """Buy one item: troop, mercenary, development, wall, general or card.

    Troops go to a settlement's garrison (`settlement`) or a general's army (`general`);
    mercenaries to a general's army; developments, walls and generals to a settlement."""

    item: str
    settlement: str | None = None
    general: int | None = None


# --- Phase 5 Movement (§ 9) ------------------------------------------------------------------


class Move(Action, tag="move", frozen=True):
    """Move a general to the hex (q, r), along the cheapest path within his points left."""

    general: int
    q: int
    r: int


class TakeTroops(Action, tag="take_troops", frozen=True):
    general: int
    count: int


class LeaveTroops(Action, tag="leave_troops", frozen=True):
    general: int
    count: int


class PickUpArk(Action, tag="pick_up_ark", frozen=True):
    general: int


class DropArk(Action, tag="drop_ark", frozen=True):
    general: int


# --- Phase 6 Combat (§ 9) --------------------------------------------------------------------


class Plunder(Action, tag="plunder", frozen=True):
    """The victor's choice at a conquered settlement: plunder it (True) or hold it (False)."""

    settlement: str
    plunder: bool


class ClaimJudge(Action, tag="claim_judge", frozen=True):
    """Name which of your generals in the region becomes the Judge of a claimed title."""

    region: str
    general: int


class EndTurn(Action, tag="end_turn", frozen=True):
    """Pass: the player is done with this phase (phases 2, 4, 5)."""


class Undo(Action, tag="undo", frozen=True):
    """↶ Take back one's last free step of this turn (§ 4 Taking back): not the answer to a
    decision but an act of the game itself (`engine/undo.py`), never among the legal actions."""


AnyAction = (
    ForeseeInvasion
    | ForeseeEvents
    | ChooseSuccessor
    | AppointJudge
    | Vote
    | Discard
    | PlayTax
    | PlayEvent
    | PlayAssassin
    | PlayRevolt
    | PlayProphet
    | PlayAnointing
    | Execute
    | Release
    | Buy
    | Move
    | TakeTroops
    | LeaveTroops
    | PickUpArk
    | DropArk
    | Plunder
    | ClaimJudge
    | EndTurn
)
ACTION_TYPES: tuple[type[Action], ...] = AnyAction.__args__  # the answers to decisions (Undo is none)

_encoder = msgspec.json.Encoder()

#: tag -> action type of every action a registered decision kind accepts: filled by the
#: registry (`decisions._index`), so an action type defined with a new kind is decoded too.
ACTION_BY_TAG: dict[str, type[Action]] = {}


def action_tag(action_type: type[Action]) -> str:
    """The "type" that names an action type on the wire (its Struct tag)."""
    tag = action_type.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"action type {action_type.__name__} has no tag")
    return tag


def _malformed(detail: str) -> MalformedAction:
    return MalformedAction("actions", "error.malformed_action", f"malformed action: {detail}", detail=detail)


def action_from_json(data: bytes | str) -> Action:
    try:
        decoded = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise MalformedAction(
            "actions", "error.malformed_action", f"action is not valid JSON: {exc}", detail=str(exc)
        ) from None
    return action_from_dict(decoded)


def action_from_dict(data: Any) -> Action:
    """The typed action a wire dict names by its "type" (MalformedAction otherwise)."""
    if not isinstance(data, dict):
        raise _malformed(f'expected an object with a "type", got {type(data).__name__}')
    target = ACTION_BY_TAG.get(data.get("type"))  # type: ignore[arg-type]
    if target is None:
        raise _malformed(f"unknown action type {data.get('type')!r}; expected one of {sorted(ACTION_BY_TAG)}")
    try:
        action: Action = msgspec.convert({k: v for k, v in data.items() if k != "type"}, target)
    except msgspec.ValidationError as exc:
        raise _malformed(str(exc)) from None
    return action


def action_to_dict(action: Action) -> dict[str, Any]:
    wire: dict[str, Any] = msgspec.to_builtins(action)
    return wire


def action_to_json(action: Action) -> bytes:
    return _encoder.encode(action)
