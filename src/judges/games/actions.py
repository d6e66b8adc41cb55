"""The action encoding both games share: an action is a tagged msgspec Struct naming its seat
(`player`); on the wire a JSON object whose "type" is its tag. Each game keeps its own action
types and its own tag table (the same tag, "vote", means different things in the two games);
`ActionCodec` turns wire dicts into typed actions and back for either."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec
from msgspec import Struct

if TYPE_CHECKING:
    from ..engine.errors import MalformedAction


class PlayerAction(Struct, tag_field="type", kw_only=True, frozen=True):
    """What every action of every game carries: the seat that takes it."""

    player: int


A = TypeVar("A", bound=PlayerAction)

_encoder = msgspec.json.Encoder()


def action_tag(action_type: type[PlayerAction]) -> str:
    """The "type" that names an action type on the wire (its Struct tag)."""
    tag = action_type.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"action type {action_type.__name__} has no tag")
    return tag


class ActionCodec(Generic[A]):
    """Wire dicts and JSON to one game's typed actions and back. `by_tag` (tag -> type) is the
    game's table, shared by reference so the game may fill it as its decision kinds register;
    `error_key` is the message key of a malformed action in that game's catalogs."""

    __slots__ = ("base", "by_tag", "error_key")

    def __init__(self, base: type[A], by_tag: dict[str, type[A]], error_key: str) -> None:
        self.base = base
        self.by_tag = by_tag
        self.error_key = error_key

    def register(self, *types: type[A]) -> None:
        for action_type in types:
            self.by_tag[action_tag(action_type)] = action_type

    def malformed(self, detail: str) -> MalformedAction:
        from ..engine.errors import MalformedAction

        return MalformedAction("actions", self.error_key, f"malformed action: {detail}", detail=detail)

    def from_json(self, data: bytes | str) -> A:
        from ..engine.errors import MalformedAction

        try:
            decoded = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise MalformedAction(
                "actions", self.error_key, f"action is not valid JSON: {exc}", detail=str(exc)
            ) from None
        return self.from_dict(decoded)

    def from_dict(self, data: Any) -> A:
        """The typed action a wire dict names by its "type" (MalformedAction otherwise)."""
        if not isinstance(data, dict):
            raise self.malformed(f'expected an object with a "type", got {type(data).__name__}')
        target = self.by_tag.get(data.get("type"))  # type: ignore[arg-type]
        if target is None:
            raise self.malformed(f"unknown action type {data.get('type')!r}; expected one of {sorted(self.by_tag)}")
        try:
            action: A = msgspec.convert({k: v for k, v in data.items() if k != "type"}, target)
        except msgspec.ValidationError as exc:
            raise self.malformed(str(exc)) from None
        return action

    def to_dict(self, action: A) -> dict[str, Any]:
        wire: dict[str, Any] = msgspec.to_builtins(action)
        return wire

    def to_json(self, action: A) -> bytes:
        return _encoder.encode(action)
