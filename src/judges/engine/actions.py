"""Actions a player can take: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it, e.g.
{"type": "vote", "player": 2, "candidate": 7}. Settlements and regions are named
by their map names, generals by their id, hexes by their axial coordinates q, r.
"""

from __future__ import annotations

import msgspec
from msgspec import Struct

from .errors import MalformedAction


class Action(Struct, tag_field="type", kw_only=True, frozen=True):
    player: int


# --- Phase 1 decisions (§ 5, § 10, § 13) ---------------------------------------------------


class ForeseeInvasion(Action, tag="foresee_invasion"):
    """👁 The prophet's owner chooses where an entering invader pair strikes (§ 13)."""

    settlement: str


class ForeseeEvents(Action, tag="foresee_events"):
    """👁 The prophet's owner chooses each card's terrain, in the Events Area's order (§ 5.5)."""

    terrains: list[str]


class ChooseSuccessor(Action, tag="choose_successor"):
    """👑 The dead King's player names one of their generals as King (§ 10)."""

    general: int


class AppointJudge(Action, tag="appoint_judge"):
    """⚖ Fill a vacant Judge title (§ 10)."""

    region: str
    general: int


class Vote(Action, tag="vote"):
    """🗳 Cast all of one's votes for a candidate judge (§ 10)."""

    candidate: int


# --- Phase 2 Intrigue (§ 6) ------------------------------------------------------------------


class Discard(Action, tag="discard"):
    """Discard a card from a hand above the limit."""

    card: str


class PlayTax(Action, tag="play_tax"):
    region: str


class PlayEvent(Action, tag="play_event"):
    """Plague, Abundance, Famine or Sandstorm into the Events Area."""

    card: str


class PlayAssassin(Action, tag="play_assassin"):
    target: int


class PlayRevolt(Action, tag="play_revolt"):
    settlement: str


class PlayProphet(Action, tag="play_prophet"):
    general: int


class PlayAnointing(Action, tag="play_anointing"):
    general: int


class Execute(Action, tag="execute"):
    """Execute one of your captives."""

    general: int


class Release(Action, tag="release"):
    """Release one of your captives."""

    general: int


# --- Phase 4 Acquisitions (§ 8) --------------------------------------------------------------


class Buy(Action, tag="buy"):
    """Buy one item: troop, mercenary, development, wall, general or card.

    Troops go to a settlement's garrison (`settlement`) or a general's army (`general`);
    mercenaries to a general's army; developments, walls and generals to a settlement."""

    item: str
    settlement: str | None = None
    general: int | None = None


# --- Phase 5 Movement (§ 9) ------------------------------------------------------------------


class Move(Action, tag="move"):
    """Move a general to the hex (q, r), along the cheapest path within his points left."""

    general: int
    q: int
    r: int


class TakeTroops(Action, tag="take_troops"):
    general: int
    count: int


class LeaveTroops(Action, tag="leave_troops"):
    general: int
    count: int


class PickUpArk(Action, tag="pick_up_ark"):
    general: int


class DropArk(Action, tag="drop_ark"):
    general: int


# --- Phase 6 Combat (§ 9) --------------------------------------------------------------------


class Plunder(Action, tag="plunder"):
    """The victor's choice at a conquered settlement: plunder it (True) or hold it (False)."""

    settlement: str
    plunder: bool


class ClaimJudge(Action, tag="claim_judge"):
    """Name which of your generals in the region becomes the Judge of a claimed title."""

    region: str
    general: int


class EndTurn(Action, tag="end_turn"):
    """Pass: the player is done with this phase (phases 2, 4, 5)."""


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
ACTION_TYPES: tuple[type, ...] = AnyAction.__args__  # type: ignore[attr-defined]

_json_decoder = msgspec.json.Decoder(AnyAction)
_encoder = msgspec.json.Encoder()


def action_from_json(data: bytes | str) -> Action:
    try:
        return _json_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise MalformedAction(
            "actions", "error.malformed_action", f"malformed action: {exc}", detail=str(exc)
        ) from None
    except msgspec.DecodeError as exc:
        raise MalformedAction(
            "actions", "error.malformed_action", f"action is not valid JSON: {exc}", detail=str(exc)
        ) from None


ACTION_BY_TAG: dict[str, type] = {t.__struct_config__.tag: t for t in ACTION_TYPES}


def action_from_dict(data: dict) -> Action:
    # Converting to the one type its tag names is much faster than to the whole union.
    target = ACTION_BY_TAG.get(data.get("type")) if isinstance(data, dict) else None
    try:
        if target is not None:
            return msgspec.convert({k: v for k, v in data.items() if k != "type"}, target)
        return msgspec.convert(data, AnyAction)
    except msgspec.ValidationError as exc:
        raise MalformedAction(
            "actions", "error.malformed_action", f"malformed action: {exc}", detail=str(exc)
        ) from None


def action_to_dict(action: Action) -> dict:
    return msgspec.to_builtins(action)


def action_to_json(action: Action) -> bytes:
    return _encoder.encode(action)
