"""The rendering of the engine's messages in the reader's language (the package's docstring
says how): each parameter converted by its declared type (`judges.engine.messages`), a report
line, a notification with its lines, a refusal, an action's button. The catalogs, the
languages and `gettext` are the package's (judges/i18n/__init__.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from babel.lists import format_list

from ..engine.messages import MESSAGES, Line, param_type
from . import (
    _VARIANT_TESTS,
    CANAANITES,
    DEFAULT_LANGUAGE,
    VARIANTS,
    _format,
    _strict,
    _template,
    catalog,
    label,
    message_fields,
    normalize_language,
    place_name,
)

if TYPE_CHECKING:
    from msgspec import Struct

    from ..engine.errors import RuleError
    from ..world import SettlementInfo, World


#: Parameter type -> the vocabulary prefix of its value's word (`judges.engine.messages`).
_WORD_TYPES = {
    "card": "card",
    "terrain": "terrain",
    "item": "item",
    "ending": "ending",
    "decision": "decision",
    "action": "action",
    "kingdom": "kingdom",
    "wrath_reason": "wrath_reason",
    "cause": "cause",
    "razed_by": "razed_by",
    "crowned": "crowned",
    "arrival": "arrival",
    "outcome": "outcome",
}
_WORD_LIST_TYPES = {"cards": "card", "terrains": "terrain"}
#: A variant key -> its base key, whose declaration types its parameters.
BASE_OF_VARIANT = {row[0]: base for base, rows in VARIANTS.items() for row in rows}
_PHASE_NAMES = ("announcements", "intrigue", "income", "acquisitions", "movement", "combat", "victory")


def _variant(key: str, params: Mapping[str, Any]) -> str:
    """The specific message for these parameters (see VARIANTS)."""
    for variant, name, test in VARIANTS.get(key, ()):
        if _VARIANT_TESTS[test](params.get(name)):
            return variant
    return key


#: seat -> player name: the seat as an int, or as its text when the mapping came through JSON.
PlayerNames = Mapping[Any, str]


class _Renderer:
    """Renders keys of one language for one game (world + player names)."""

    __slots__ = ("lang", "world", "names", "strict", "strict_values")

    def __init__(
        self,
        lang: str,
        world: World | None,
        names: PlayerNames | None,
        strict: bool | None,
        strict_values: bool = True,
    ) -> None:
        self.lang = normalize_language(lang)
        self.world = world
        self.names = names or {}
        self.strict = _strict(strict)
        self.strict_values = self.strict and strict_values

    # words ------------------------------------------------------------------------------

    def text(self, key: str, **values: Any) -> str:
        template = _template(self.lang, key, self.strict, values)
        if template is None:
            return key
        return _format(key, template, values, self.strict)

    def word(self, prefix: str, value: Any) -> str:
        if value is None:
            return ""
        return label(self.lang, prefix, value, strict=self.strict_values)

    def join(self, items: Iterable[str]) -> str:
        items = [str(i) for i in items]
        if not items:
            return self.text("fmt.none")
        return format_list(items, locale=self.lang)

    def seat(self, value: Any) -> str:
        if value is None:
            return ""
        if value == CANAANITES or value == "canaanites":
            return self.text("party.canaanites")
        if value == "invaders":
            return self.text("party.invaders")
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and value.lstrip("-").isdigit():
                return self.seat(int(value))
            return str(value)
        name = self.names.get(value, self.names.get(str(value)))
        return str(name) if name else self.text("ui.player_n", n=value + 1)

    def general(self, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, int) and not isinstance(value, bool):
            return self.text("fmt.general", n=value)
        return str(value)

    def _place(self, value: Any, places: Any) -> str:
        """A settlement's or region's name: by its index in `places`, or as given."""
        if value is None:
            return ""
        if isinstance(value, int) and places is not None and 0 <= value < len(places):
            return place_name(self.lang, places[value].name)
        return place_name(self.lang, value) if isinstance(value, str) else str(value)

    def settlement(self, value: Any) -> str:
        return self._place(value, self.world.settlements if self.world is not None else None)

    def region(self, value: Any) -> str:
        return self._place(value, self.world.regions if self.world is not None else None)

    def hex(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.hexes):
            hx = world.hexes[value]
            if hx.settlement is not None:
                return place_name(self.lang, world.settlements[hx.settlement].name)
            # a hex with no settlement: its terrain and the nearest settlement, "mountains near Bethel"
            near = world.derived("nearest_settlement", lambda: _nearest_settlements(world))[value]
            return self.text("fmt.hex", terrain=self.word("terrain", hx.terrain), near=place_name(self.lang, near.name))
        return str(value)

    def phase(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(_PHASE_NAMES):
            value = _PHASE_NAMES[value - 1]
        return self.word("phase", value)

    def tally(self, value: Any) -> str:
        if not isinstance(value, list):
            return str(value)
        return "; ".join(
            self.text(
                "fmt.tally_item",
                general=self.general(c.get("general")),
                owner=self.seat(c.get("owner")),
                votes=c.get("votes", 0),
            )
            for c in value
        ) or self.text("fmt.none")

    def events(self, value: Any) -> str:
        if not isinstance(value, list):
            return str(value)
        return self.join(
            self.text(
                "fmt.event_on", card=self.word("card", e.get("card")), terrain=self.word("terrain", e.get("terrain"))
            )
            for e in value
        )

    # parameters ---------------------------------------------------------------------------

    def value(self, key: str, name: str, params: Mapping[str, Any]) -> Any:
        """The parameter `name` of message `key`, converted for the reader by its declared
        type (`judges.engine.messages`: a message's declaration, else `FIELD_TYPES`). A
        parameter of no declared type is shown as it came (a KeyError when strict)."""
        v = params.get(name)
        kind = param_type(BASE_OF_VARIANT.get(key, key), name)
        if kind is None:
            if self.strict:
                raise KeyError(f"message {key!r}: parameter {name!r} has no declared type")
            return "" if v is None else v
        return self.typed(kind, v)

    def typed(self, kind: str, v: Any) -> Any:
        """A value of a parameter type (`judges.engine.messages.PARAM_TYPES`) for the reader."""
        if kind == "player":
            return self.seat(v)
        if kind == "general":
            return self.general(v)
        if kind == "settlement":
            return self.settlement(v)
        if kind == "region":
            return self.region(v)
        if kind == "hex":
            return self.hex(v)
        if kind == "phase":
            return self.phase(v)
        if kind in _WORD_TYPES:
            return self.word(_WORD_TYPES[kind], v) if isinstance(v, str) else ("" if v is None else v)
        if kind in _WORD_LIST_TYPES:
            if isinstance(v, list):
                return self.join(self.word(_WORD_LIST_TYPES[kind], x) for x in v)
            return "" if v is None else v
        if kind == "players":
            return self.join(self.seat(x) for x in v) if isinstance(v, list) else self.seat(v)
        if kind == "generals":
            return self.join(self.general(x) for x in v) if isinstance(v, list) else self.general(v)
        if kind == "revolt_outcome":
            return self.text("outcome.revolt_success" if v else "outcome.revolt_failure")
        if kind == "death_outcome":
            return self.text("outcome.died" if v else "outcome.survived")
        if kind == "tally":
            return self.tally(v)
        if kind == "events":
            return self.events(v)
        return "" if v is None else v

    # lines under a notification's title ----------------------------------------------------

    def lines(self, key: str, params: Mapping[str, Any]) -> list[str]:
        """The lines its declaration puts under a notification's title (before its entries)."""
        declared = MESSAGES.get(key)
        out: list[str] = []
        if declared is None:
            return out
        for line in declared.lines:
            if isinstance(line, Line):
                if line.when is None or params.get(line.when):
                    template = _template(self.lang, line.key, self.strict, params)
                    values = {n: self.value(key, n, params) for n in message_fields(template or "") if n in params}
                    out.append(line.key if template is None else _format(line.key, template, values, self.strict))
            else:
                out.extend(self.items(declared.params[line], params.get(line), params))
        return out

    def items(self, kind: str, v: Any, params: Mapping[str, Any]) -> list[str]:
        """The lines of a parameter shown as lines (`messages.LINE_TYPES`)."""
        if kind == "ballots":
            return [
                self.text(
                    "fmt.ballot",
                    player=self.seat(b.get("player")),
                    candidate=self.general(b.get("candidate")),
                    votes=b.get("votes", 0),
                )
                for b in v or []
            ]
        if kind == "battle_rounds":
            attacker, defender = self.seat(params.get("attacker")), self.seat(params.get("defender"))
            return [
                self.text(
                    "fmt.battle_round",
                    n=i,
                    attacker=attacker,
                    defender=defender,
                    attacker_dice=", ".join(str(f) for f in rnd.get("attacker", [])),
                    defender_dice=", ".join(str(f) for f in rnd.get("defender", [])),
                    attacker_hits=rnd.get("attacker_hits", 0),
                    defender_hits=rnd.get("defender_hits", 0),
                )
                for i, rnd in enumerate(v or [], start=1)
            ]
        if kind == "scores":
            scores = v or {}
            return [
                self.text(
                    "fmt.score",
                    player=self.seat(int(seat)),
                    total=scores[seat].get("total", 0),
                    judges=scores[seat].get("judges", 0),
                    king=scores[seat].get("king", 0),
                    tabernacle=scores[seat].get("tabernacle", 0),
                )
                for seat in sorted(scores, key=lambda s: int(s))
            ]
        if kind == "ending":
            return [self.word("ending_text", v)] if v else []
        raise ValueError(f"a parameter of type {kind!r} is not shown as lines")

    def render(self, key: str, params: Mapping[str, Any]) -> str:
        key = self.pick(key, params)
        template = _template(self.lang, key, self.strict, params)
        if template is None:
            return key
        values = {name: self.value(key, name, params) for name in message_fields(template) if name in params}
        return _format(key, template, values, self.strict)

    def pick(self, key: str, params: Mapping[str, Any]) -> str:
        variant = _variant(key, params)
        if (
            variant != key
            and not self.strict
            and variant not in catalog(self.lang)
            and variant not in catalog(DEFAULT_LANGUAGE)
        ):
            return key
        return variant


def _nearest_settlements(world: World) -> tuple[SettlementInfo, ...]:
    """By hex: the nearest settlement (of the nearest, the lowest index), once per map."""
    return tuple(
        min(world.settlements, key=lambda s: (world.hex_distance(h, s.hex), s.index)) for h in range(len(world.hexes))
    )


def _as_dict(obj: Mapping[str, Any] | Struct) -> dict[str, Any]:
    if isinstance(obj, Mapping):
        return dict(obj)
    import msgspec  # an Entry, Notification or Action Struct

    data: dict[str, Any] = msgspec.to_builtins(obj)
    return data


def render_entry(
    entry: Mapping[str, Any] | Struct,
    lang: str,
    world: World | None = None,
    names: PlayerNames | None = None,
    *,
    strict: bool | None = None,
) -> str:
    """One report line ({"key": ..., "params": {...}}) as a sentence in `lang`."""
    entry = _as_dict(entry)
    return _Renderer(lang, world, names, strict).render(entry["key"], entry.get("params") or {})


def render_notification(
    notification: Mapping[str, Any] | Struct,
    lang: str,
    world: World | None = None,
    names: PlayerNames | None = None,
    *,
    strict: bool | None = None,
) -> dict[str, Any]:
    """A notification (as msgspec.to_builtins(Notification) gives it) as
    {"title": str, "lines": [str]} in `lang`."""
    n = _as_dict(notification)
    r = _Renderer(lang, world, names, strict)
    key = n["key"]
    params = dict(n.get("params") or {})
    params.setdefault("round", n.get("round"))
    params.setdefault("phase", n.get("phase"))
    title = r.render(key, params)
    lines = r.lines(key, params)
    for entry in n.get("entries") or []:
        entry = _as_dict(entry)
        lines.append(r.render(entry["key"], entry.get("params") or {}))
    return {"title": title, "lines": lines}


def render_error(
    error: Mapping[str, Any] | RuleError, lang: str, names: PlayerNames | None = None, *, strict: bool | None = None
) -> str:
    """A refusal (RuleError.to_dict()) as a sentence in `lang`. Values the player sent
    (an unknown card, a misspelt terrain) are shown as they came. An error key with no
    translation at all shows the engine's English message (a KeyError when strict)."""
    if not isinstance(error, Mapping):
        error = error.to_dict()
    key = error.get("key") or ""
    lang = normalize_language(lang)
    if not _strict(strict) and key not in catalog(lang) and key not in catalog(DEFAULT_LANGUAGE):
        return str(error.get("message") or key)
    r = _Renderer(lang, None, names, strict, strict_values=False)
    return r.render(key, error.get("params") or {})


def render_action(
    action: Mapping[str, Any] | Struct,
    lang: str,
    world: World | None = None,
    names: PlayerNames | None = None,
    *,
    owners: Mapping[int, int] | None = None,
    costs: Mapping[str, int] | None = None,
    events: Iterable[str] | None = None,
    strict: bool | None = None,
) -> str:
    """A legal action (as action_to_dict gives it) as the words of its button in `lang`: the
    catalog's ``label.<type>`` entry (variants and plurals as for any message) with the
    action's fields, and `owners` (general id -> seat) for ``{owner}``, `costs` (item -> coins)
    for ``{cost}``, `events` (the Events Area's cards) for a foresight's ``{events}``."""
    params = _as_dict(action)
    kind = params.get("type")
    owners = owners or {}
    who = params.get("target", params.get("candidate", params.get("general")))
    if who is not None and who in owners:
        params["owner"] = owners[who]
    if costs is not None and params.get("item") in costs:
        params["cost"] = costs[params["item"]]
    if kind == "foresee_events":
        params["events"] = [
            {"card": card, "terrain": terrain} for card, terrain in zip(events or (), params.get("terrains") or ())
        ]
    if kind == "move":  # where to, as the reader finds it on the board (Renderer.hex)
        q, r = params.get("q"), params.get("r")
        at = world.hex_at.get((q, r)) if world is not None and isinstance(q, int) and isinstance(r, int) else None
        params["hex"] = at if at is not None else f"({q}, {r})"
    key = f"label.{kind}"
    lang = normalize_language(lang)
    if not _strict(strict) and key not in catalog(lang) and key not in catalog(DEFAULT_LANGUAGE):
        return str(kind)
    return _Renderer(lang, world, names, strict).render(key, params)
