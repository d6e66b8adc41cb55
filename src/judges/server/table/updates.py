"""What a websocket receives: a full view, then small updates (docs/web.md, "Live updates").

A view is a JSON object built by the table's game (its kit's `views`, server/table/envelope.py):
its fields are the parts (`seq`, `legal_actions`, `state`…); `state` is itself an object of the
game state's fields (the parts named "state.<field>"). Each part is encoded to bytes once (the
builder's `parts`): the public parts once per action for every seat, a seat's private parts once
per seat and language. A message is assembled from those bytes,
never re-encoded per socket:

    {"type": "full", "version": V, "view": {...}}
    {"type": "delta", "version": V, "base": V - 1, "set": {part: value}, "state": {field: value},
     "patch": {part or "state.<field>": edits}, "notifications": [new notifications]}

A delta holds only the parts whose bytes changed since version `base`; the notifications are
appended (the view keeps the latest `max_notifications`). A changed array or object whose
edits are shorter than its new value goes in `patch` instead (`edits`): an array's as
`[[start, end, [items]], ...]` (items [start, end) replaced, ranges increasing and disjoint,
the textdelta format), an object's as `{"set": {key: value}, "drop": [keys]}`. Most steps
change one item of a long array (one settlement of the forty, one line of the round's
log): the whole array each time was ~80 % of a game's bytes. A client whose view is not at
`base` (it missed a message) sends `{"type": "resync"}` and receives a full view.
`apply_update` is the reference of how a client applies a message; the screen's
`applyUpdate` in web/static/js/connection.js does the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from .textdelta import splice

encode = msgspec.json.Encoder().encode

# A part that is a field of the view's `state` is named "state.<field>".
STATE_PREFIX = "state."


def _object(items: Iterable[tuple[str, bytes]]) -> bytes:
    # keys are the parts' names (plain identifiers): no escaping needed
    return b"{" + b",".join(b'"' + k.encode() + b'":' + v for k, v in items) + b"}"


def view_bytes(parts: Mapping[str, bytes], version: int, notifications: bytes) -> bytes:
    """The full view: every part in its order, `state` from its fields (the parts named
    "state.<field>", in their order), the version, the notifications. The same for any game's
    view."""
    state = _object((k[len(STATE_PREFIX) :], v) for k, v in parts.items() if k.startswith(STATE_PREFIX))
    items = [(k, v) for k, v in parts.items() if not k.startswith(STATE_PREFIX)]
    return _object([*items, ("state", state), ("version", encode(version)), ("notifications", notifications)])


def full_message(parts: Mapping[str, bytes], version: int, notifications: bytes) -> bytes:
    return _object(
        [("type", b'"full"'), ("version", encode(version)), ("view", view_bytes(parts, version, notifications))]
    )


def changed(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[str]:
    """The parts whose bytes differ (the shared public parts are the same objects: `is` first)."""
    return [k for k, v in new.items() if not (old.get(k) is v or old.get(k) == v)]


Patches = dict[str, tuple[bytes, bytes, bytes | None]]


def edits(old: bytes, new: bytes) -> bytes | None:
    """The edits from one JSON array (or object) to another, encoded, when they are shorter
    than the new value; None otherwise (the value is sent whole). The values are split into
    their items' bytes (`msgspec.Raw`), not decoded: an item is decoded only where its bytes
    differ, to tell whether it is the same value (`_same`), and the edits carry the new items'
    bytes as they are."""
    if len(new) < 64 or old[:1] != new[:1] or new[:1] not in (b"[", b"{"):
        return None
    a, b = _items(old), _items(new)
    out: Any
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b):  # items changed in place: a run of edits per run of changed items
            out, i = [], 0
            while i < len(b):
                if _same(a[i], b[i]):
                    i += 1
                    continue
                j = i + 1
                while j < len(b) and not _same(a[j], b[j]):
                    j += 1
                out.append([i, j, b[i:j]])
                i = j
        else:  # items added or taken away (a log that grew, a list cleared): one edit
            shortest = min(len(a), len(b))
            head = 0
            while head < shortest and _same(a[head], b[head]):
                head += 1
            tail = 0
            while tail < shortest - head and _same(a[-1 - tail], b[-1 - tail]):
                tail += 1
            out = [[head, len(a) - tail, b[head : len(b) - tail]]]
    elif isinstance(a, dict) and isinstance(b, dict):
        out = {
            "set": {k: v for k, v in b.items() if k not in a or not _same(a[k], v)},
            "drop": [k for k in a if k not in b],
        }
    else:  # pragma: no cover - a part's JSON type never changes
        return None
    data = encode(out)
    return data if len(data) < len(new) else None


_decode = msgspec.json.Decoder().decode
# a JSON array or object as its items' bytes, each item left undecoded
_items = msgspec.json.Decoder(list[msgspec.Raw] | dict[str, msgspec.Raw]).decode


def _same(x: msgspec.Raw, y: msgspec.Raw) -> bool:
    """Whether two items are the same JSON value: the same bytes, or bytes that decode to equal
    values (an object's keys in another order)."""
    return x == y or _decode(x) == _decode(y)


def delta_message(
    names: list[str],
    parts: Mapping[str, bytes],
    version: int,
    notifications: bytes,
    old: Mapping[str, bytes] | None = None,
    patches: Patches | None = None,
) -> bytes:
    """The update from version - 1 to `version`: the changed parts (as edits from the `old`
    parts when shorter), the new notifications. `patches`: the edits computed so far at this
    version, by part (groups that share a part's old and new bytes share its edits)."""
    whole: list[str] = []
    patched: list[tuple[str, bytes]] = []
    for name in names:
        data = None
        if old is not None and name in old:
            before, after = old[name], parts[name]
            known = patches.get(name) if patches is not None else None
            if known is not None and known[0] is before and known[1] is after:
                data = known[2]
            else:
                data = edits(before, after)
                if patches is not None:
                    patches[name] = (before, after, data)
        if data is None:
            whole.append(name)
        else:
            patched.append((name, data))
    top = [(k, parts[k]) for k in whole if not k.startswith(STATE_PREFIX)]
    state = [(k[len(STATE_PREFIX) :], parts[k]) for k in whole if k.startswith(STATE_PREFIX)]
    items = [("type", b'"delta"'), ("version", encode(version)), ("base", encode(version - 1))]
    if top:
        items.append(("set", _object(top)))
    if state:
        items.append(("state", _object(state)))
    if patched:
        items.append(("patch", _object(patched)))
    if notifications != b"[]":
        items.append(("notifications", notifications))
    return _object(items)


def error_message(key: str, text: str) -> bytes:
    return encode({"type": "error", "key": key, "text": text})


def apply_edits(value: Any, change: Any) -> Any:
    """`value` (a JSON array or object) with the edits of a delta's `patch` applied: a new value."""
    if isinstance(change, list):
        return splice(value, change)
    out = {**value, **change["set"]}
    for key in change["drop"]:
        del out[key]
    return out


def apply_update(view: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
    """The view after `message`; None when the message does not follow `view` (ask for a
    full view). The reference of the screen's `applyUpdate(view, message)`."""
    if message["type"] == "full":
        full: dict[str, Any] = message["view"]
        return full
    if message["type"] != "delta" or view is None or view.get("version") != message["base"]:
        return None
    out: dict[str, Any] = {**view, **message.get("set", {}), "version": message["version"]}
    if "state" in message or any(k.startswith(STATE_PREFIX) for k in message.get("patch", {})):
        out["state"] = {**view["state"], **message.get("state", {})}
    for name, change in message.get("patch", {}).items():
        holder, key = (out["state"], name[len(STATE_PREFIX) :]) if name.startswith(STATE_PREFIX) else (out, name)
        holder[key] = apply_edits(holder[key], change)
    if "notifications" in message:
        out["notifications"] = (view["notifications"] + message["notifications"])[-out["max_notifications"] :]
    return out
