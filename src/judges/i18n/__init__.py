"""Words for the engine's message keys: English, Spanish and Brazilian Portuguese.

The rules engine never writes sentences: it emits message keys with parameters (report
lines, notifications, errors). This package turns them into text in the reader's language:
the languages, the catalogs and `gettext` here, the rendering of typed parameters in render.py.

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
from collections.abc import Mapping
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel import Locale, negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from ..engine.messages import MESSAGES
from ..settings import load as load_settings

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

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


# The rendering of messages is a module of its own (render.py); it reads the catalogs above.
from .render import (  # noqa: E402
    BASE_OF_VARIANT,
    render_action,
    render_entry,
    render_error,
    render_notification,
)
