"""What a websocket receives: a full view, then small updates (docs/web.md, "Live updates").

A view is the JSON object of a `wire.View` (server/wire.py): its fields are the parts (`seq`,
`legal_actions`, `state`…); `state` is itself an object of the game state's fields. Each part
is encoded to bytes once (`wire.parts`): the public parts once per action for every seat, a
seat's private parts once per seat and language. A message is assembled from those bytes,
never re-encoded per socket:

    {"type": "full", "version": V, "view": {...}}
    {"type": "delta", "version": V, "base": V - 1, "set": {part: value}, "state": {field: value},
     "notifications": [new notifications]}

A delta holds only the parts whose bytes changed since version `base`; the notifications are
appended (the view keeps the latest `max_notifications`). A client whose view is not at
`base` (it missed a message) sends `{"type": "resync"}` and receives a full view.
`apply_update` is the reference of how a client applies a message; the screen's
`applyUpdate` in web/static/js/store.js does the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from . import wire

encode = msgspec.json.Encoder().encode

# The view's parts, in the order a full view lists them: the fields of the wire view
# (server/wire.py), `state` made of STATE_FIELDS.
PARTS = wire.PARTS
STATE_FIELDS: tuple[str, ...] = wire.STATE_FIELDS
STATE_PREFIX = wire.STATE_PREFIX


def _object(items: Iterable[tuple[str, bytes]]) -> bytes:
    # keys are the parts' names (plain identifiers): no escaping needed
    return b"{" + b",".join(b'"' + k.encode() + b'":' + v for k, v in items) + b"}"


def view_bytes(parts: Mapping[str, bytes], version: int, notifications: bytes) -> bytes:
    """The full view: every part, `state` from its fields, the version, the notifications."""
    state = _object((f, parts[STATE_PREFIX + f]) for f in STATE_FIELDS)
    items = [(p, parts[p]) for p in PARTS]
    return _object([*items, ("state", state), ("version", encode(version)), ("notifications", notifications)])


def full_message(parts: Mapping[str, bytes], version: int, notifications: bytes) -> bytes:
    return _object(
        [("type", b'"full"'), ("version", encode(version)), ("view", view_bytes(parts, version, notifications))]
    )


def changed(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[str]:
    """The parts whose bytes differ (the shared public parts are the same objects: `is` first)."""
    return [k for k, v in new.items() if not (old.get(k) is v or old.get(k) == v)]


def delta_message(names: list[str], parts: Mapping[str, bytes], version: int, notifications: bytes) -> bytes:
    """The update from version - 1 to `version`: the changed parts, the new notifications."""
    top = [(k, parts[k]) for k in names if not k.startswith(STATE_PREFIX)]
    state = [(k[len(STATE_PREFIX) :], parts[k]) for k in names if k.startswith(STATE_PREFIX)]
    items = [("type", b'"delta"'), ("version", encode(version)), ("base", encode(version - 1))]
    if top:
        items.append(("set", _object(top)))
    if state:
        items.append(("state", _object(state)))
    if notifications != b"[]":
        items.append(("notifications", notifications))
    return _object(items)


def error_message(key: str, text: str) -> bytes:
    return encode({"type": "error", "key": key, "text": text})


def apply_update(view: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
    """The view after `message`; None when the message does not follow `view` (ask for a
    full view). The reference of the screen's `applyUpdate(view, message)`."""
    if message["type"] == "full":
        full: dict[str, Any] = message["view"]
        return full
    if message["type"] != "delta" or view is None or view.get("version") != message["base"]:
        return None
    out: dict[str, Any] = {**view, **message.get("set", {}), "version": message["version"]}
    if "state" in message:
        out["state"] = {**view["state"], **message["state"]}
    if "notifications" in message:
        out["notifications"] = (view["notifications"] + message["notifications"])[-out["max_notifications"] :]
    return out
