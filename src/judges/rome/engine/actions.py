"""What a player can do in Republic of Rome: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it:
{"type": "choose_leader", "player": 2, "senator": "7"}. Senators are named by their family id,
cards by their card id. Which decision each answers: `decisions.KINDS`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from ...engine.errors import MalformedAction


class Action(Struct, tag_field="type", kw_only=True, frozen=True):
    player: int


class Done(Action, tag="done", frozen=True):
    """Ends one's part of a step that allows several actions (playing cards, moving money)."""


class ChooseLeader(Action, tag="choose_leader", frozen=True):
    """Put the faction-leader marker on one of one's senators (setup)."""

    senator: str


class PlayStatesman(Action, tag="play_statesman", frozen=True):
    """Put a statesman from one's hand into play (setup, Revolution phase)."""

    card: str


class PlayConcession(Action, tag="play_concession", frozen=True):
    """Put a concession from one's hand under one of one's senators (setup, Revolution phase)."""

    card: str
    senator: str


class Transfer(Action, tag="transfer", frozen=True):
    """Redistribution (Revenue phase): move talents between one's faction treasury
    ("treasury") and one's senators' personal treasuries (their ids), or give them to another
    player's faction treasury ("faction:<seat>", as a target only)."""

    source: str
    target: str
    talents: int


class Contribute(Action, tag="contribute", frozen=True):
    """A senator gives talents from his personal treasury to the State (Revenue phase)."""

    senator: str
    talents: int


ACTION_TYPES: tuple[type[Action], ...] = (Done, ChooseLeader, PlayStatesman, PlayConcession, Transfer, Contribute)
_DECODER = msgspec.json.Decoder(Done | ChooseLeader | PlayStatesman | PlayConcession | Transfer | Contribute)


def action_from_dict(data: dict[str, Any]) -> Action:
    try:
        action: Action = _DECODER.decode(msgspec.json.encode(data))
        return action
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise MalformedAction(
            "actions", "rome.error.malformed_action", f"not an action: {exc}", detail=str(exc)
        ) from None


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(action)
    return out
