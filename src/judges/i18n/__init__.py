"""Words for the engine's message keys: English, Spanish and Brazilian Portuguese.

The rules engine never writes sentences: it emits message keys with parameters (report
lines, notifications, errors). This module turns them into text in the reader's language.

Catalogs are the gettext files ``judges/locale/<lang>/LC_MESSAGES/messages.po``, read at run
time with Babel's ``read_po`` (no compiled ``.mo``, no build step) and cached. A msgid is a
message key (``wrath.reconciled``, ``notification.income``, ``error.cannot_buy``, ``card.tax``,
``ui.bell``...); its msgstr is the text, with ``str.format`` fields named after the key's
parameters (``{before}``, ``{settlement}``...).

    gettext("es", "phase.announcements")                       # 'Anuncios'
    ui_strings("pt_BR")                                        # every word a screen needs
    render_entry(entry, "pt_BR", world, {0: "Ana", 1: "Bruno"})  # one report line
    render_notification(n, "es", world, names)                 # {"title": ..., "lines": [...]}
    render_error(exc.to_dict(), "es")

Before formatting, ``render_entry`` converts the parameters that name things: settlement and
region indices become their names, seats become player names (``names``; -1 the Canaanites),
general ids "General #N", hexes the settlement on them or "(q, r)", cards, terrains, items,
endings... their translated words, lists a readable enumeration. Unknown parameters pass
through unchanged.

Missing translations: in strict mode (tests: ``STRICT = True`` or the environment variable
``JUDGES_I18N_STRICT=1``, or ``strict=True`` per call) a missing key or format field raises
``KeyError``; otherwise the text falls back to English, then to the key itself, and a missing
field shows as "?".
"""

from __future__ import annotations

import os
import string
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.lists import format_list
from babel.messages.pofile import read_po

__all__ = [
    "LANGUAGES",
    "DEFAULT_LANGUAGE",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "STRICT",
    "VARIANTS",
    "normalize_language",
    "catalog",
    "messages",
    "ui_strings",
    "has_message",
    "message_fields",
    "gettext",
    "label",
    "render_entry",
    "render_notification",
    "render_error",
]

LANGUAGES = ("en", "es", "pt_BR")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "es": "Español", "pt_BR": "Português (Brasil)"}
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"

#: Raise KeyError on a missing translation or format field instead of falling back.
STRICT = os.environ.get("JUDGES_I18N_STRICT", "").strip().lower() not in ("", "0", "false", "no")

#: Message keys rendered through a more specific variant, chosen from the parameters
#: (see `_variant`): base key -> its variants. Each variant uses the base key's parameters.
VARIANTS: dict[str, tuple[str, ...]] = {
    "combat.battle": ("combat.battle.none",),
    "notification.battle": ("notification.battle.none",),
    "title.claimed": ("title.claimed.from",),
    "acquisition": ("acquisition.settlement", "acquisition.general"),
    "income.settlement": ("income.settlement.modified",),
    "income.tax": ("income.tax.modified",),
    "notification.announcements": ("notification.announcements.judgment",),
    "notification.election": ("notification.election.tie",),
    "notification.game_over": ("notification.game_over.shared", "notification.game_over.no_winner"),
}

CANAANITES = -1  # the engine's garrison owner value for Canaanite-held settlements


# --- Languages and catalogs ---------------------------------------------------------------


def normalize_language(code: str | None) -> str:
    """A supported language for a code: "pt", "pt-BR", "pt_br" -> "pt_BR"; "es-ES", "es_MX"
    -> "es"; "en-GB" -> "en". Accepts an Accept-Language header ("es-ES,es;q=0.9,en;q=0.8":
    the first supported one wins). Anything else: the default language, English."""
    if not code:
        return DEFAULT_LANGUAGE
    for part in str(code).split(","):
        tag = part.split(";")[0].strip().replace("-", "_")
        if not tag:
            continue
        lowered = tag.lower()
        for lang in LANGUAGES:
            if lowered == lang.lower():
                return lang
        base = lowered.split("_")[0]
        for lang in LANGUAGES:
            if lang.lower().split("_")[0] == base:
                return lang
    return DEFAULT_LANGUAGE


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _read_catalog(lang: str):
    with _po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """key -> text for one language (translated, non-fuzzy messages only). Cached."""
    lang = normalize_language(lang)
    out = {}
    for msg in _read_catalog(lang):
        if msg.id and isinstance(msg.id, str) and isinstance(msg.string, str) and msg.string and not msg.fuzzy:
            out[msg.id] = msg.string
    return out


def messages(lang: str, prefix: str = "") -> dict[str, str]:
    """Every text of a language whose key starts with `prefix` (English filling any gap),
    e.g. ``messages("es", "ui.")`` for a screen."""
    lang = normalize_language(lang)
    out = {k: v for k, v in catalog(DEFAULT_LANGUAGE).items() if k.startswith(prefix)}
    out.update({k: v for k, v in catalog(lang).items() if k.startswith(prefix)})
    return out


#: Key prefixes a screen needs: its own strings and the game's vocabulary.
SCREEN_PREFIXES = (
    "ui.",
    "phase.",
    "terrain.",
    "kingdom.",
    "card.",
    "item.",
    "ending.",
    "ending_text.",
    "decision.",
    "decision_help.",
    "action.",
    "party.",
    "outcome.",
    "fmt.",
)


def ui_strings(lang: str) -> dict[str, str]:
    """Every string a screen needs in one language (the ui. keys and the game's words,
    English filling any gap): what the web client fetches once."""
    lang = normalize_language(lang)
    english, own = catalog(DEFAULT_LANGUAGE), catalog(lang)
    return {k: own.get(k, v) for k, v in english.items() if k.startswith(SCREEN_PREFIXES)}


def has_message(lang: str, key: str) -> bool:
    return key in catalog(normalize_language(lang))


@lru_cache(maxsize=4096)
def _parse(template: str) -> tuple[tuple[str, str | None, str, str | None], ...]:
    return tuple(string.Formatter().parse(template))


def message_fields(text: str) -> set[str]:
    """The format fields of a text: {"before", "after"} for "{before} → {after}"."""
    return {field for _, field, _, _ in _parse(text) if field is not None}


def _strict(strict: bool | None) -> bool:
    return STRICT if strict is None else strict


def _template(lang: str, key: str, strict: bool) -> str | None:
    """The text of a key; None when only the key itself is left (non-strict)."""
    text = catalog(lang).get(key)
    if text is not None:
        return text
    if strict:
        raise KeyError(f"no {lang} translation for message key {key!r}")
    return catalog(DEFAULT_LANGUAGE).get(key)


def _format(key: str, template: str, values: Mapping[str, Any], strict: bool) -> str:
    """str.format with plain names only (no attribute or index access in fields)."""
    out = []
    for literal, field, spec, conversion in _parse(template):
        out.append(literal)
        if field is None:
            continue
        if field in values:
            value = values[field]
        elif strict:
            raise KeyError(f"message {key!r} needs the parameter {field!r}")
        else:
            value = "?"
        if conversion == "r":
            value = repr(value)
        elif conversion in ("s", "a"):
            value = str(value)
        out.append(format(value, spec) if spec else str(value))
    return "".join(out)


def gettext(lang: str, key: str, *, strict: bool | None = None, **params: Any) -> str:
    """The text of `key` in `lang` with its format fields filled from `params` (as given:
    no conversion). Missing key: KeyError when strict, else English, else the key itself."""
    lang = normalize_language(lang)
    strict = _strict(strict)
    template = _template(lang, key, strict)
    if template is None:
        return key
    return _format(key, template, params, strict)


def label(lang: str, prefix: str, value: Any, *, strict: bool | None = None) -> str:
    """The word for a vocabulary value: label("es", "card", "tax") -> "Impuesto". A value
    with no translation is returned as it is (a KeyError when strict)."""
    key = f"{prefix}.{value}"
    lang = normalize_language(lang)
    if key in catalog(lang):
        return catalog(lang)[key]
    if _strict(strict):
        raise KeyError(f"no {lang} translation for {key!r}")
    return catalog(DEFAULT_LANGUAGE).get(key, str(value))


# --- Rendering ---------------------------------------------------------------------------

_SEAT_PARAMS = frozenset({"player", "owner", "captor", "collector", "previous_owner", "attacker", "defender"})
_GENERAL_PARAMS = frozenset({"general", "target", "candidate", "previous_holder"})
_GENERAL_LIST_PARAMS = frozenset({"candidates", "tied", "captured", "killed"})
_SEAT_LIST_PARAMS = frozenset({"winners", "eliminated"})
# parameter -> vocabulary prefix of its value
_VOCABULARY_PARAMS = {
    "card": "card",
    "terrain": "terrain",
    "item": "item",
    "ending": "ending",
    "kind": "decision",
    "reason": "wrath_reason",
    "cause": "cause",
    "outcome": "outcome",
    "action": "action",
    "kingdom": "kingdom",
}
_VOCABULARY_LIST_PARAMS = {"cards": "card", "terrains": "terrain", "modifiers": "card"}
_PHASE_NAMES = ("announcements", "intrigue", "income", "acquisitions", "movement", "combat", "victory")


def _variant(key: str, params: Mapping[str, Any]) -> str:
    """The specific message for these parameters (see VARIANTS)."""
    if key in ("combat.battle", "notification.battle"):
        return key + ".none" if params.get("winner") is None else key
    if key == "title.claimed":
        return key + ".from" if params.get("previous_owner") is not None else key
    if key == "acquisition":
        if params.get("settlement") is not None:
            return key + ".settlement"
        if params.get("general") is not None:
            return key + ".general"
        return key
    if key in ("income.settlement", "income.tax"):
        return key + ".modified" if params.get("modifiers") else key
    if key == "notification.announcements":
        return key + ".judgment" if params.get("judgment") else key
    if key == "notification.election":
        return key + ".tie" if params.get("winner") is None else key
    if key == "notification.game_over":
        winners = params.get("winners") or []
        if not winners:
            return key + ".no_winner"
        return key + ".shared" if len(winners) > 1 else key
    return key


class _Renderer:
    """Renders keys of one language for one game (world + player names)."""

    __slots__ = ("lang", "world", "names", "strict", "strict_values")

    def __init__(
        self, lang: str, world, names: Mapping | None, strict: bool | None, strict_values: bool = True
    ) -> None:
        self.lang = normalize_language(lang)
        self.world = world
        self.names = names or {}
        self.strict = _strict(strict)
        self.strict_values = self.strict and strict_values

    # words ------------------------------------------------------------------------------

    def text(self, key: str, **values: Any) -> str:
        template = _template(self.lang, key, self.strict)
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

    def settlement(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.settlements):
            return world.settlements[value].name
        return str(value)

    def region(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.regions):
            return world.regions[value].name
        return str(value)

    def hex(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.hexes):
            hx = world.hexes[value]
            if hx.settlement is not None:
                return world.settlements[hx.settlement].name
            return self.text("fmt.hex", q=hx.q, r=hx.r)
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
        """The parameter `name` of message `key`, converted for the reader."""
        v = params.get(name)
        if name in _SEAT_PARAMS:
            return self.seat(v)
        if name == "winner":
            # a party in a battle, a general in an election
            return self.seat(v) if "battle" in key else self.general(v)
        if name in _GENERAL_PARAMS:
            return self.general(v)
        if name == "settlement":
            return self.settlement(v)
        if name == "region":
            return self.region(v)
        if name == "hex":
            return self.hex(v)
        if name == "phase":
            return self.phase(v)
        if name == "by":
            if isinstance(v, int) and not isinstance(v, bool):
                return self.seat(v)
            if isinstance(v, str) and has_message(self.lang, f"card.{v}"):
                return self.word("card", v)
            return self.word("razed_by", v)
        if name == "how":
            return self.word("crowned" if key.startswith("king.") else "arrival", v)
        if name == "success":
            return self.text("outcome.revolt_success" if v else "outcome.revolt_failure")
        if name == "died":
            return self.text("outcome.died" if v else "outcome.survived")
        if name in _VOCABULARY_PARAMS:
            if isinstance(v, str):
                return self.word(_VOCABULARY_PARAMS[name], v)
            return "" if v is None else v
        if name in _VOCABULARY_LIST_PARAMS:
            if isinstance(v, list):
                return self.join(self.word(_VOCABULARY_LIST_PARAMS[name], x) for x in v)
            return "" if v is None else v  # deck.reshuffled: `cards` is a count
        if name in _GENERAL_LIST_PARAMS:
            return self.join(self.general(x) for x in v) if isinstance(v, list) else self.general(v)
        if name in _SEAT_LIST_PARAMS:
            return self.join(self.seat(x) for x in v) if isinstance(v, list) else self.seat(v)
        if name == "tally":
            return self.tally(v)
        if name == "events":
            return self.events(v)
        if v is None:
            return ""
        return v

    def render(self, key: str, params: Mapping[str, Any]) -> str:
        key = self.pick(key, params)
        template = _template(self.lang, key, self.strict)
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


def _as_dict(obj: Any) -> dict:
    if isinstance(obj, Mapping):
        return dict(obj)
    import msgspec  # an Entry or Notification Struct

    return msgspec.to_builtins(obj)


def render_entry(
    entry: Mapping | Any, lang: str, world=None, names: Mapping | None = None, *, strict: bool | None = None
) -> str:
    """One report line ({"key": ..., "params": {...}}) as a sentence in `lang`."""
    entry = _as_dict(entry)
    return _Renderer(lang, world, names, strict).render(entry["key"], entry.get("params") or {})


def render_notification(
    notification: Mapping | Any, lang: str, world=None, names: Mapping | None = None, *, strict: bool | None = None
) -> dict:
    """A notification (as msgspec.to_builtins(Notification) gives it) as
    {"title": str, "lines": [str]} in `lang`."""
    n = _as_dict(notification)
    r = _Renderer(lang, world, names, strict)
    key = n["key"]
    params = dict(n.get("params") or {})
    params.setdefault("round", n.get("round"))
    params.setdefault("phase", n.get("phase"))
    title = r.render(key, params)
    lines: list[str] = []
    if key == "notification.election":
        for ballot in params.get("ballots") or []:
            lines.append(
                r.text(
                    "fmt.ballot",
                    player=r.seat(ballot.get("player")),
                    candidate=r.general(ballot.get("candidate")),
                    votes=ballot.get("votes", 0),
                )
            )
    elif key == "notification.battle":
        attacker, defender = r.seat(params.get("attacker")), r.seat(params.get("defender"))
        for i, rnd in enumerate(params.get("rounds") or [], start=1):
            lines.append(
                r.text(
                    "fmt.battle_round",
                    n=i,
                    attacker=attacker,
                    defender=defender,
                    attacker_dice=", ".join(str(f) for f in rnd.get("attacker", [])),
                    defender_dice=", ".join(str(f) for f in rnd.get("defender", [])),
                    attacker_hits=rnd.get("attacker_hits", 0),
                    defender_hits=rnd.get("defender_hits", 0),
                )
            )
        lines.append(
            r.text(
                "fmt.battle_losses",
                attacker=attacker,
                defender=defender,
                attacker_losses=params.get("attacker_losses", 0),
                defender_losses=params.get("defender_losses", 0),
            )
        )
        if params.get("captured"):
            lines.append(r.text("fmt.captured", generals=r.join(r.general(g) for g in params["captured"])))
        if params.get("killed"):
            lines.append(r.text("fmt.killed", generals=r.join(r.general(g) for g in params["killed"])))
    elif key == "notification.round_report":
        scores = params.get("scores") or {}
        for seat in sorted(scores, key=lambda s: int(s)):
            sc = scores[seat]
            lines.append(
                r.text(
                    "fmt.score",
                    player=r.seat(int(seat)),
                    total=sc.get("total", 0),
                    judges=sc.get("judges", 0),
                    king=sc.get("king", 0),
                    tabernacle=sc.get("tabernacle", 0),
                )
            )
        if params.get("eliminated"):
            lines.append(r.text("fmt.eliminated_now", players=r.join(r.seat(s) for s in params["eliminated"])))
    elif key == "notification.game_over" and params.get("ending"):
        lines.append(r.word("ending_text", params["ending"]))
    for entry in n.get("entries") or []:
        entry = _as_dict(entry)
        lines.append(r.render(entry["key"], entry.get("params") or {}))
    return {"title": title, "lines": lines}


def render_error(error: Mapping | Any, lang: str, names: Mapping | None = None, *, strict: bool | None = None) -> str:
    """A refusal (RuleError.to_dict()) as a sentence in `lang`. Values the player sent
    (an unknown card, a misspelt terrain) are shown as they came. An error key with no
    translation at all shows the engine's English message (a KeyError when strict)."""
    if not isinstance(error, Mapping) and hasattr(error, "to_dict"):
        error = error.to_dict()
    key = error.get("key") or ""
    lang = normalize_language(lang)
    if not _strict(strict) and key not in catalog(lang) and key not in catalog(DEFAULT_LANGUAGE):
        return str(error.get("message") or key)
    r = _Renderer(lang, None, names, strict, strict_values=False)
    return r.render(key, error.get("params") or {})
