"""Words for the Rome engine's message keys, in English, Spanish and Brazilian Portuguese.

The catalogs are the game's own gettext files, ``judges/rome/locale/<lang>/LC_MESSAGES/rome.po``
(keys namespaced ``rome.``), read with Babel's ``read_po`` and cached. A report line is
rendered by its declaration (`judges.rome.engine.messages`): each parameter converted by its
type (a senator id becomes his name, a war id its name in the reader's language, a seat its
player's name), then formatted into the text. Errors render from their key and parameters.

    text("es", "rome.war.punic_1")                             # 'Primera Guerra Púnica'
    render_entry(entry, "pt_BR", {0: "Ana", 1: "Bruno"})       # one report line
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from .cards import Deck, load_deck
from .engine.messages import MESSAGES
from .engine.state import Entry

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"
LANGUAGES: tuple[str, ...] = tuple(
    sorted(
        (p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/rome.po")),
        key=lambda lang: (lang != DEFAULT_LANGUAGE, lang),
    )
)


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """The language's texts by key (the catalog's non-empty entries)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "rome.po"
    with path.open("rb") as fh:
        po = read_po(fh)
    return {str(m.id): str(m.string) for m in po if m.id and m.string}


def text(lang: str, key: str, **params: Any) -> str:
    """The key's text in `lang`, formatted with `params` (KeyError when missing)."""
    found = catalog(lang)[key]
    return found.format(**params) if params else found


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def card_name(lang: str, card: str, deck: Deck | None = None) -> str:
    """Any card's name: a senator's family, a statesman's name, the others from the catalog."""
    deck = deck or load_deck()
    kind = deck.kind_of(card)
    if kind == "senator":
        return deck.senators[card].family
    if kind == "statesman":
        return deck.statesmen[card].name
    if kind == "intrigue":
        return text(lang, f"rome.intrigue.{deck.intrigue_kind(card)}")
    if kind == "era_ends":
        return text(lang, "rome.intrigue.era_ends")
    return text(lang, f"rome.{kind}.{card}")


def senator_name(lang: str, senator: str, deck: Deck | None = None) -> str:
    return card_name(lang, senator, deck)


def _faction(lang: str, seat: int, names: Mapping[int, str]) -> str:
    return names.get(seat) or text(lang, "rome.faction", seat=seat + 1)


#: The parameter types rendered as a catalog word: rome.<type>.<value>.
WORDS = ("war", "event", "office", "cause", "phase", "ending", "war_state", "games", "proposal", "result", "province")


def convert(lang: str, kind: str, value: Any, names: Mapping[int, str], deck: Deck) -> str:
    """One parameter as words, by its declared type."""
    if kind in ("senator", "card"):
        return card_name(lang, str(value), deck)
    if kind == "faction":
        return _faction(lang, int(value), names)
    if kind == "factions":
        return ", ".join(_faction(lang, int(v), names) for v in value) or text(lang, "rome.nobody")
    if kind == "senators":
        return ", ".join(card_name(lang, str(v), deck) for v in value)
    if kind in (
        "war",
        "event",
        "office",
        "cause",
        "phase",
        "ending",
        "war_state",
        "games",
        "proposal",
        "result",
        "province",
    ):
        return text(lang, f"rome.{kind}.{value}")
    if kind == "trial":
        return text(lang, f"rome.trial.{'major' if value else 'minor'}")
    if kind == "outcome":
        return text(lang, f"rome.outcome.{'true' if value else 'false'}")
    if kind == "chit":
        return text(lang, f"rome.chit.{value}") if value in ("blank", "draw_two") else card_name(lang, str(value), deck)
    return str(value)


def render_entry(entry: Entry, lang: str, names: Mapping[int, str] | None = None) -> str:
    declared = MESSAGES[entry.key]
    deck = load_deck()
    params = {k: convert(lang, declared[k], v, names or {}, deck) for k, v in entry.params.items()}
    return text(lang, entry.key, **params)


def render_error(error: Mapping[str, Any], lang: str) -> str:
    """A refusal (`RuleError.to_dict()`) in the reader's language; a step is named in words."""
    params = dict(error.get("params") or {})
    if "step" in params:
        params["step"] = text(lang, f"rome.step.{params['step']}")
    template = catalog(lang)[str(error["key"])]
    return template.format(**{k: params.get(k, "?") for k in fields(template)})
