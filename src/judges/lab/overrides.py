"""`--set NAME=VALUE`: a lab run's rules, built as a `Rules` value from overrides.

NAME is a field of `judges.engine.rules.Rules` (`wrath_threshold`; the UPPERCASE name of the
old constants module, `WRATH_THRESHOLD`, is accepted too). A value is parsed as JSON (`true`,
`8`, `[1, 2]`, `{"troop": 2, ...}`); where the rule holds a string, a bare word is accepted
too (`sandstorm_terrain=plain`). Dict rules take one entry at a time with a dot:
`costs.wall=8`, `event_terrain_by_die.1=plain`, or a whole dict with exactly the same keys.
Every value is checked against the type of the rule it replaces, and the resulting `Rules`
is validated; unknown names, unknown keys, wrong types and rules no game could be played
under are refused with an `OverrideError`.

Overrides build a new `Rules` (`rules_with`), carried by each game's options: nothing is
patched, so games of different variants can run side by side in one process.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

import msgspec

from ..engine.rules import DEFAULT_RULES, Rules, RulesError


class OverrideError(ValueError):
    """A refused --set / --variant: the message says what is wrong and what would be right."""


DEFAULTS: dict[str, Any] = {name: getattr(DEFAULT_RULES, name) for name in Rules.__struct_fields__}


@dataclass(frozen=True)
class Override:
    name: str
    key: Any  # the dict key for NAME.key=VALUE, else None
    value: Any
    text: str  # as written

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "key": self.key, "value": self.value, "text": self.text}


def _type_name(value: Any) -> str:
    for kind, name in (
        (bool, "true/false"),
        (int, "an integer"),
        (float, "a number"),
        (str, "a string"),
        (dict, "a JSON object"),
        (list, "a JSON list"),
        (tuple, "a JSON list"),
    ):
        if isinstance(value, kind):
            return name
    return type(value).__name__


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


def _dict_key(mapping: dict[str, Any], key: Any, where: str) -> Any:
    for k in mapping:
        if k == key or str(k) == str(key):
            return k
    raise OverrideError(f"{where} has no key {key!r}; keys: {', '.join(str(k) for k in mapping)}")


def parse_override(text: str) -> Override:
    """`NAME=VALUE` or `NAME.key=VALUE`, validated against the type of the default rule."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise OverrideError(f"{text!r}: expected NAME=VALUE, e.g. wrath_threshold=10 or costs.wall=8")
    key = None
    if "." in name:
        name, key = name.split(".", 1)
    written = name  # errors speak of the rule as it was written (old UPPERCASE names too)
    name = name.lower()
    if name not in DEFAULTS:
        close = difflib.get_close_matches(name, list(DEFAULTS), n=3)
        if written.isupper():
            close = [c.upper() for c in close]
        hint = f"; did you mean {', '.join(close)}?" if close else "; see src/judges/engine/rules.py"
        raise OverrideError(f"unknown rule {written!r}{hint}")
    expected = DEFAULTS[name]
    where = written
    if key is not None:
        if not isinstance(expected, dict):
            raise OverrideError(f"{written} is not a dict: write {written}=VALUE, not {written}.{key}=VALUE")
        key = _dict_key(expected, key, written)
        expected = expected[key]
        where = f"{written}.{key}"
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        if isinstance(expected, str) and raw:
            value = raw  # a bare word for a string rule
        else:
            raise OverrideError(f"{where}: {raw!r} is not a JSON value") from None
    return Override(name=name, key=key, value=_check(expected, value, where), text=text)


def parse_overrides(texts: list[str]) -> list[Override]:
    return [parse_override(t) for t in texts]


@dataclass(frozen=True)
class Variant:
    name: str
    overrides: tuple[Override, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "set": [o.text for o in self.overrides]}

    @property
    def rules(self) -> Rules:
        """The rules this variant's games are played under (OverrideError if invalid)."""
        return rules_with(self.overrides)


def parse_variant(text: str) -> Variant:
    """`name:NAME=VALUE,NAME=VALUE` (an empty list after the colon is allowed). Commas split
    assignments only where the next one starts (`,NAME=` or `,NAME.key=`), so JSON lists and
    objects may contain commas."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not sep or not name or not all(c.isalnum() or c in "-_." for c in name):
        raise OverrideError(f"--variant {text!r}: expected NAME:RULE=VALUE,RULE=VALUE (name of letters, digits, - _ .)")
    parts: list[str] = []
    for piece in rest.split(","):
        head = piece.split("=", 1)[0].strip()
        rule = head.split(".", 1)[0]
        starts = (
            "=" in piece
            and (rule.isupper() or rule.lower() in DEFAULTS)
            and head.replace(".", "_").replace("_", "").isalnum()
        )
        if parts and not starts:
            parts[-1] += "," + piece
        elif piece.strip():
            parts.append(piece)
    return Variant(name=name, overrides=tuple(parse_override(p) for p in parts))


def rules_with(overrides: tuple[Override, ...] | list[Override], base: Rules = DEFAULT_RULES) -> Rules:
    """`base` with `overrides` applied in order: a new, validated Rules (base is unchanged)."""
    changes: dict[str, Any] = {}
    for o in overrides:
        if o.key is None:
            changes[o.name] = o.value
        else:
            changes[o.name] = {**changes.get(o.name, getattr(base, o.name)), o.key: o.value}
    try:
        return msgspec.structs.replace(base, **changes)
    except RulesError as exc:
        written = ", ".join(o.text for o in overrides)
        raise OverrideError(f"{written}: {exc}") from None
