"""`--set NAME=VALUE`: overriding the rules constants (`judges.engine.constants`) for a lab run.

A value is parsed as JSON (`true`, `8`, `[1, 2]`, `{"troop": 2, ...}`); where the constant
holds a string, a bare word is accepted too (`SANDSTORM_TERRAIN=plain`). Dict constants take
one entry at a time with a dot: `COSTS.wall=8`, `EVENT_TERRAIN_BY_DIE.1=plain`, or a whole
dict with exactly the same keys. Every value is checked against the type of the constant it
replaces; unknown names, unknown keys and wrong types are refused with a `OverrideError`.

The engine reads `constants.X` when a rule runs, so overriding the module's attributes
changes the rules of every game played afterwards in that process: a lab worker restores
the defaults and applies its variant's overrides before each game (`overridden`).
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..engine import constants as C


class OverrideError(ValueError):
    """A refused --set / --variant: the message says what is wrong and what would be right."""


def _public_names() -> list[str]:
    return sorted(n for n in vars(C) if n.isupper() and not n.startswith("_"))


DEFAULTS: dict[str, Any] = {name: copy.deepcopy(getattr(C, name)) for name in _public_names()}
FROZEN = {"RULES_VERSION"}  # not a rule: the replay format's version


@dataclass(frozen=True)
class Override:
    name: str
    key: Any  # the dict key for NAME.key=VALUE, else None
    value: Any
    text: str  # as written

    def to_json(self) -> dict:
        return {"name": self.name, "key": self.key, "value": self.value, "text": self.text}


def _type_name(value: Any) -> str:
    return {
        bool: "true/false",
        int: "an integer",
        float: "a number",
        str: "a string",
        dict: "a JSON object",
        list: "a JSON list",
        tuple: "a JSON list",
    }.get(type(value), type(value).__name__)


def _check(expected: Any, value: Any, where: str) -> Any:
    """`value` converted to the type of `expected`, or OverrideError."""
    if isinstance(expected, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(expected, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(expected, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(expected, str):
        if isinstance(value, str):
            return value
    elif isinstance(expected, dict):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                key = _dict_key(expected, k, where)
                out[key] = _check(expected[key], v, f"{where}.{key}")
            missing = [k for k in expected if k not in out]
            if missing:
                raise OverrideError(
                    f"{where}: a whole dict must list every key; missing {missing} "
                    f"(or set one entry with {where}.KEY=VALUE)"
                )
            return out
    elif isinstance(expected, (tuple, list)):
        if isinstance(value, list):
            if expected:
                value = [_check(expected[0], v, f"{where}[{i}]") for i, v in enumerate(value)]
            return tuple(value) if isinstance(expected, tuple) else list(value)
    elif expected is None:
        return value
    raise OverrideError(f"{where} must be {_type_name(expected)} (it is {expected!r}), not {value!r}")


def _dict_key(mapping: dict, key: Any, where: str) -> Any:
    for k in mapping:
        if k == key or str(k) == str(key):
            return k
    raise OverrideError(f"{where} has no key {key!r}; keys: {', '.join(str(k) for k in mapping)}")


def parse_override(text: str) -> Override:
    """`NAME=VALUE` or `NAME.key=VALUE`, validated against the default constants."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise OverrideError(f"{text!r}: expected NAME=VALUE, e.g. WRATH_THRESHOLD=10 or COSTS.wall=8")
    key = None
    if "." in name:
        name, key = name.split(".", 1)
    if name not in DEFAULTS or name in FROZEN:
        close = difflib.get_close_matches(name.upper(), [n for n in DEFAULTS if n not in FROZEN], n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see src/judges/engine/constants.py"
        raise OverrideError(f"unknown constant {name!r}{hint}")
    expected = DEFAULTS[name]
    where = name
    if key is not None:
        if not isinstance(expected, dict):
            raise OverrideError(f"{name} is not a dict: write {name}=VALUE, not {name}.{key}=VALUE")
        key = _dict_key(expected, key, name)
        expected = expected[key]
        where = f"{name}.{key}"
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        if isinstance(expected, str) and raw:
            value = raw  # a bare word for a string constant
        else:
            raise OverrideError(f"{where}: {raw!r} is not a JSON value") from None
    return Override(name=name, key=key, value=_check(expected, value, where), text=text)


def parse_overrides(texts: list[str]) -> list[Override]:
    return [parse_override(t) for t in texts]


@dataclass(frozen=True)
class Variant:
    name: str
    overrides: tuple[Override, ...]

    def to_json(self) -> dict:
        return {"name": self.name, "set": [o.text for o in self.overrides]}


def parse_variant(text: str) -> Variant:
    """`name:NAME=VALUE,NAME=VALUE` (an empty list after the colon is allowed). Commas split
    assignments only where the next one starts (`,NAME=` or `,NAME.key=`), so JSON lists and
    objects may contain commas."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not sep or not name or not all(c.isalnum() or c in "-_." for c in name):
        raise OverrideError(
            f"--variant {text!r}: expected NAME:CONST=VALUE,CONST=VALUE (name of letters, digits, - _ .)"
        )
    parts: list[str] = []
    for piece in rest.split(","):
        head = piece.split("=", 1)[0].strip()
        starts = "=" in piece and head.split(".", 1)[0].isupper() and head.replace(".", "_").replace("_", "").isalnum()
        if parts and not starts:
            parts[-1] += "," + piece
        elif piece.strip():
            parts.append(piece)
    return Variant(name=name, overrides=tuple(parse_override(p) for p in parts))


def apply_overrides(overrides: tuple[Override, ...] | list[Override]) -> None:
    """Restores every constant to its default, then applies `overrides` in order."""
    for name, value in DEFAULTS.items():
        setattr(C, name, copy.deepcopy(value))
    for o in overrides:
        if o.key is None:
            setattr(C, o.name, copy.deepcopy(o.value))
        else:
            getattr(C, o.name)[o.key] = copy.deepcopy(o.value)


@contextmanager
def overridden(overrides: tuple[Override, ...] | list[Override]) -> Iterator[None]:
    """The constants overridden inside the block, restored to the defaults after it."""
    apply_overrides(overrides)
    try:
        yield
    finally:
        apply_overrides(())
