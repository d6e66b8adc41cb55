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

Before formatting, each parameter is converted by its declared type
(`judges.engine.messages`: a report line's or notification's declaration beside its emitter;
`FIELD_TYPES` for a refusal's or an action label's parameters), never guessed from its name:
settlement and region indices become their names, seats player names (``names``; -1 the
Canaanites), general ids "General #N", hexes the settlement on them or its terrain and the
nearest settlement, cards, terrains, items, endings... their translated words, lists a readable
enumeration. A parameter of no declared type is shown as it came (a KeyError when strict). A
notification's lines under its title are those its declaration names (a battle's rolls, an
election's ballots, the scores...), then one per entry.

Plurals: a message with a count is a gettext plural entry. Its ``msgid`` is the key, its
``msgid_plural`` names the parameter that counts, as a field (``"{coins}"``), and its
``msgstr[n]`` are the forms the catalog's ``Plural-Forms`` header numbers::

    msgid "combat.plunder"
    msgid_plural "{coins}"
    msgstr[0] "{player} plunders {settlement} for {coins} coin."
    msgstr[1] "{player} plunders {settlement} for {coins} coins."

The form is chosen by Babel's ``Translations.ngettext`` over the catalog compiled in memory
(``write_mo`` into a buffer: still no ``.mo`` file). A list parameter counts its items
(``{winners}``: one winner, or a shared victory).

Variants: a few keys name a genuinely different sentence for some parameters (a battle both
sides lost, a title taken from another player). `VARIANTS` lists them as data: base key ->
``(variant key, parameter, test)`` rows, tried in order, the first whose test holds wins;
the tests are "missing" (None or absent), "given" (not None), "empty" and "nonempty".

Place names: settlement and region names are the map's (English) names; a language that
spells one differently has a ``place.<name>`` entry (``place.Shechem`` -> "Siquem").

Languages: `negotiate_language` is the one way a language is chosen: an explicit choice
(``?lang=``), then a cookie, then the Accept-Language header with its q-values (Babel's
``negotiate_locale``), then a fallback; `request_language` reads them from a request.

Missing translations: in strict mode (tests: ``STRICT = True`` or the environment variable
``JUDGES_I18N_STRICT=1``, or ``strict=True`` per call) a missing key or format field raises
``KeyError``; otherwise the text falls back to English, then to the key itself, and a missing
field shows as "?".
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel import Locale, negotiate_locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from ..engine.messages import MESSAGES, Line, param_type
from ..settings import load as load_settings

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog
    from msgspec import Struct

    from ..engine.errors import RuleError
    from ..world import World

__all__ = [
    "LANGUAGES",
    "DEFAULT_LANGUAGE",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "STRICT",
    "VARIANTS",
    "BASE_OF_VARIANT",
    "normalize_language",
    "negotiate_language",
    "request_language",
    "parse_accept_language",
    "catalog",
    "plurals",
    "place_name",
    "render_action",
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

DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The languages are the catalogs present (`locale/<lang>/LC_MESSAGES/messages.po`): adding a
#: language is adding its catalog (and its manual chapters). The default comes first.
LANGUAGES: tuple[str, ...] = tuple(
    sorted(
        (path.parent.parent.name for path in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")),
        key=lambda lang: (lang != DEFAULT_LANGUAGE, lang),
    )
)
#: Each language's name in itself, from Babel's locale data ("Español", "Português (Brasil)").
LANGUAGE_NAMES: dict[str, str] = {
    lang: (lambda name: name[:1].upper() + name[1:])(Locale.parse(lang).get_display_name(lang) or lang)
    for lang in LANGUAGES
}
DOMAIN = "messages"

#: Raise KeyError on a missing translation or format field instead of falling back.
STRICT = load_settings().strict_i18n

#: Keys rendered through a different sentence for some parameters: base key -> rows (variant
#: key, parameter, test), tried in order; the first whose test holds is used, else the base key.
#: Tests: "missing" (None or absent), "given" (not None), "empty" (no items, or falsy),
#: "nonempty". Each variant uses the base key's parameters. A message's variants are its
#: declaration's (`judges.engine.messages`); an action's button's are listed here. Counts are
#: not variants: they are plural entries (see the module's docstring).
VARIANTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    **{key: m.variants for key, m in MESSAGES.items() if m.variants},
    "label.buy": (("label.buy.settlement", "settlement", "given"), ("label.buy.general", "general", "given")),
    "label.plunder": (("label.hold", "plunder", "empty"),),
}
_VARIANT_TESTS = {
    "missing": lambda v: v is None,
    "given": lambda v: v is not None,
    "empty": lambda v: not v,
    "nonempty": lambda v: bool(v),
}

CANAANITES = -1  # the engine's garrison owner value for Canaanite-held settlements


# --- Languages and catalogs ---------------------------------------------------------------


def parse_accept_language(header: str | None) -> list[str]:
    """The language tags of an Accept-Language header, most wanted first (q-values honoured,
    ties keep their order, ``q=0`` and ``*`` left out): "fr-FR,es;q=0.9" -> ["fr_FR", "es"]."""
    ranked = []
    for i, part in enumerate(str(header or "").split(",")):
        tag, *options = (piece.strip() for piece in part.split(";"))
        q = 1.0
        for option in options:
            name, _, value = option.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            ranked.append((-q, i, tag.replace("-", "_")))
    return [tag for _, _, tag in sorted(ranked)]


#: A bare language -> the supported language that speaks it ("pt" -> "pt_BR").
_BY_BASE = {lang.split("_")[0].lower(): lang for lang in reversed(LANGUAGES)}


@lru_cache(maxsize=1024)
def _supported(tag: str) -> str | None:
    """The supported language of one tag by Babel's negotiation, a regional variant falling
    back to its language ("pt_PT" -> "pt" -> "pt_BR"); None for an unsupported language."""
    available = list(LANGUAGES) + [base for base in _BY_BASE if base not in LANGUAGES]
    found = negotiate_locale([tag], available, sep="_", aliases={}) or negotiate_locale(
        [tag.split("_")[0]], available, sep="_", aliases={}
    )
    if found is None:
        return None
    found = found.lower()
    for lang in LANGUAGES:
        if lang.lower() == found:
            return lang
    return _BY_BASE.get(found.split("_")[0])


def negotiate_language(*choices: str | None, accept_language: str | None = None) -> str:
    """The one way a language is chosen: the explicit `choices` in order (``?lang=``, a cookie,
    a seat's language; empty or unsupported ones skipped), then the Accept-Language header by
    q-value ("fr-FR,es;q=0.9" -> "es"), then English."""
    for choice in choices:
        if choice:
            found = _supported(str(choice).strip().replace("-", "_"))
            if found:
                return found
    for tag in parse_accept_language(accept_language):
        found = _supported(tag)
        if found:
            return found
    return DEFAULT_LANGUAGE


def request_language(connection: Any, explicit: str | None = None, seat: str | None = None) -> str:
    """`negotiate_language` for a web request or websocket (anything with ``query_params``,
    ``cookies`` and ``headers``): ``?lang=`` (or `explicit`), the ``lang`` cookie, the seat's
    language when its game set one, then the Accept-Language header."""
    return negotiate_language(
        explicit or connection.query_params.get("lang"),
        connection.cookies.get("lang"),
        seat,
        accept_language=connection.headers.get("accept-language"),
    )


def normalize_language(code: str | None) -> str:
    """A supported language for a code: "pt", "pt-BR", "pt_br" -> "pt_BR"; "es-ES", "es_MX"
    -> "es"; "en-GB" -> "en". Accepts an Accept-Language header ("fr-FR,es;q=0.9": by
    q-value, see `negotiate_language`). Anything else: the default language, English."""
    if not code:
        return DEFAULT_LANGUAGE
    if code in _LANGUAGE_SET:  # already one (every rendered word asks: the fast path)
        return code
    return negotiate_language(accept_language=str(code))


_LANGUAGE_SET = frozenset(LANGUAGES)


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _read_catalog(lang: str) -> Catalog:
    with _po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """key -> text for one language (translated, non-fuzzy messages only). Cached. A plural
    entry's text here is its last form (the general plural); `gettext` picks by the count."""
    lang = normalize_language(lang)
    out = {}
    for msg in _read_catalog(lang):
        if msg.fuzzy or not msg.id:
            continue
        if isinstance(msg.id, str) and isinstance(msg.string, str) and msg.string:
            out[msg.id] = msg.string
        elif msg.pluralizable and isinstance(msg.string, (tuple, list)) and all(msg.string):
            out[msg.id[0]] = msg.string[-1]
    return out


@cache
def plurals(lang: str) -> Mapping[str, tuple[str, str]]:
    """key -> (the parameter that counts, the msgid_plural) of each plural entry of a language."""
    lang = normalize_language(lang)
    out = {}
    for msg in _read_catalog(lang):
        if msg.pluralizable and not msg.fuzzy and isinstance(msg.string, (tuple, list)) and all(msg.string):
            fields = message_fields(msg.id[1])
            if len(fields) != 1:
                raise ValueError(f"{lang}: the msgid_plural of {msg.id[0]!r} must name its count, as {{count}}")
            out[msg.id[0]] = (next(iter(fields)), msg.id[1])
    return out


@cache
def _translations(lang: str) -> Translations:
    """Babel's gettext machinery over the catalog compiled in memory (no .mo on disk)."""
    buffer = BytesIO()
    write_mo(buffer, _read_catalog(lang))
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def _count(value: Any) -> int:
    if isinstance(value, (list, tuple, set, dict)):
        return len(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _plural_template(lang: str, key: str, params: Mapping[str, Any] | None, strict: bool) -> str | None:
    """The form of a plural entry for the count among `params`; None if `key` is no plural
    entry of `lang`."""
    entry = plurals(lang).get(key)
    if entry is None:
        return None
    field, plural_id = entry
    if params is None or field not in params:
        if strict:
            raise KeyError(f"message {key!r} needs its count {field!r}")
        return catalog(lang)[key]
    return _translations(lang).ngettext(key, plural_id, _count(params[field]))


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
    "card_help.",
    "item.",
    "ending.",
    "ending_text.",
    "decision.",
    "decision_help.",
    "action.",
    "party.",
    "outcome.",
    "fmt.",
    "log.",
    "place.",
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
def _parse(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(string.Formatter().parse(template))


def message_fields(text: str) -> set[str]:
    """The format fields of a text: {"before", "after"} for "{before} → {after}"."""
    return {field for _, field, _, _ in _parse(text) if field is not None}


def _strict(strict: bool | None) -> bool:
    return STRICT if strict is None else strict


def _template(lang: str, key: str, strict: bool, params: Mapping[str, Any] | None = None) -> str | None:
    """The text of a key (for a plural entry, the form for the count in `params`); None when
    only the key itself is left (non-strict)."""
    text = catalog(lang).get(key)
    if text is not None:
        return _plural_template(lang, key, params, strict) or text
    if strict:
        raise KeyError(f"no {lang} translation for message key {key!r}")
    if key in catalog(DEFAULT_LANGUAGE):
        return _plural_template(DEFAULT_LANGUAGE, key, params, strict) or catalog(DEFAULT_LANGUAGE)[key]
    return None


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
    template = _template(lang, key, strict, params)
    if template is None:
        return key
    return _format(key, template, params, strict)


def place_name(lang: str, name: str) -> str:
    """A settlement's or region's name in `lang`: the ``place.<name>`` entry where the language
    spells it differently ("Shechem" -> "Siquem" in Spanish), else the map's name."""
    key = f"place.{name}"
    return catalog(normalize_language(lang)).get(key) or catalog(DEFAULT_LANGUAGE).get(key) or str(name)


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

    def settlement(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.settlements):
            return place_name(self.lang, world.settlements[value].name)
        return place_name(self.lang, value) if isinstance(value, str) else str(value)

    def region(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.regions):
            return place_name(self.lang, world.regions[value].name)
        return place_name(self.lang, value) if isinstance(value, str) else str(value)

    def hex(self, value: Any) -> str:
        if value is None:
            return ""
        world = self.world
        if isinstance(value, int) and world is not None and 0 <= value < len(world.hexes):
            hx = world.hexes[value]
            if hx.settlement is not None:
                return place_name(self.lang, world.settlements[hx.settlement].name)
            # a hex with no settlement: its terrain and the nearest settlement, "mountains near Bethel"
            near = min(world.settlements, key=lambda s: (world.hex_distance(value, s.hex), s.index))
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
