"""Actions a player can take: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it, e.g.
{"type": "vote", "player": 2, "candidate": 7}. Settlements and regions are named
by their map names, generals by their id.
"""

from __future__ import annotations

import msgspec
from msgspec import Struct

from .errors import MalformedAction


class Action(Struct, tag_field="type", kw_only=True, frozen=True):
    player: int


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


class EndTurn(Action, tag="end_turn"):
    """Pass: the player is done with this phase (phases 2, 4, 5, 6)."""


AnyAction = ForeseeInvasion | ForeseeEvents | ChooseSuccessor | AppointJudge | Vote | EndTurn

_json_decoder = msgspec.json.Decoder(AnyAction)
_encoder = msgspec.json.Encoder()


def action_from_json(data: bytes | str) -> Action:
    try:
        return _json_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise MalformedAction("actions", "error.malformed_action", f"malformed action: {exc}", detail=str(exc)) from None
    except msgspec.DecodeError as exc:
        raise MalformedAction("actions", "error.malformed_action", f"action is not valid JSON: {exc}", detail=str(exc)) from None


def action_from_dict(data: dict) -> Action:
    try:
        return msgspec.convert(data, AnyAction)
    except msgspec.ValidationError as exc:
        raise MalformedAction("actions", "error.malformed_action", f"malformed action: {exc}", detail=str(exc)) from None


def action_to_dict(action: Action) -> dict:
    return msgspec.to_builtins(action)


def action_to_json(action: Action) -> bytes:
    return _encoder.encode(action)
