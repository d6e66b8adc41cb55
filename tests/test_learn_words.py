"""The guided first game's words (server/advice/learn.py) against the game's own catalog: every lesson
text, in every language, names the places, phases, cards, items and titles as the game's windows
do. Three checks, each text against the catalog of its language:

- no word of another language's vocabulary where the language has its own ("Hebrón" in English,
  "Neftalí" for Naphtali);
- every term the English text uses is there in the language's own word ("assentamento" for a
  settlement in Portuguese, not "povoado"), a plural or an agreeing adjective allowed;
- in Spanish and Portuguese, the article before a term agrees with the term, as its catalog entry
  says (`#. article: la`): "la Comprobación de Victoria", "el Área de Eventos", "un Hambre".
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

from judges.i18n import LANGUAGES, LOCALE_DIR, catalog, gettext
from judges.server.advice.learn import LESSONS, TEXTS, lessons_payload
from judges.world import load_world

#: The vocabulary the game's windows use: every entry under these prefixes, and these words.
PREFIXES = ("place.", "phase.", "terrain.", "card.", "item.", "party.", "kingdom.")
UI_TERMS = tuple(
    f"ui.{word}"
    for word in (
        "wrath events_area judgments king judge points_judges prophet anointed captive walls garrison troops army "
        "general generals tabernacle ark invaders settlement settlements village city coins hint"
    ).split()
)
#: Terms that name one thing (a singular and its plural, a card and the token it gives): a text
#: naming it in English names it by any of them in another language.
SAME = (
    {"ui.general", "ui.generals", "item.general"},
    {"ui.settlement", "ui.settlements"},
    {"ui.judge", "ui.points_judges"},
    {"ui.troops", "item.troop"},
    {"ui.walls", "item.wall"},
    {"ui.invaders", "party.invaders"},
    {"ui.prophet", "card.prophet"},
)
#: The articles (and their contractions) and the definite article of the same gender and number.
ARTICLES = {
    "es": {
        **dict.fromkeys(("el", "un", "del", "al"), "el"),
        **dict.fromkeys(("la", "una"), "la"),
        **dict.fromkeys(("los", "unos"), "los"),
        **dict.fromkeys(("las", "unas"), "las"),
    },
    "pt_BR": {
        **dict.fromkeys(("o", "um", "do", "no", "ao", "pelo", "num"), "o"),
        **dict.fromkeys(("a", "uma", "da", "na", "à", "pela", "numa"), "a"),
        **dict.fromkeys(("os", "uns", "dos", "nos", "aos", "pelos"), "os"),
        **dict.fromkeys(("as", "umas", "das", "nas", "às", "pelas"), "as"),
    },
}


@cache
def vocabulary(lang: str) -> dict[str, str]:
    """Term key -> the word the game's windows show in `lang` (a place without an entry of its
    own keeps the map's name, in every language)."""
    words = catalog(lang)
    terms = {key: words[key] for key in words if key.startswith(PREFIXES)}
    terms.update({key: words[key] for key in UI_TERMS})
    world = load_world()
    for name in [s.name for s in world.settlements] + [r.name for r in world.regions]:
        terms.setdefault(f"place.{name}", name)
    return terms


@cache
def articles(lang: str) -> dict[str, str]:
    """Term key -> the definite article its catalog entry names (`#. article: la`)."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        entries = read_po(f)
    out = {}
    for entry in entries:
        for comment in entry.auto_comments:
            if comment.startswith("article:"):
                out[str(entry.id)] = comment.split(":", 1)[1].strip()
    return out


def _pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


def _stem(word: str) -> str:
    """A common noun's stem: its plural ending and last vowel off, for the plural and the
    adjective's other gender ("Cananeus" -> "canane", matching "cananeia")."""
    w = word.lower()
    w = w[:-2] if w.endswith("es") and len(w) > 4 else w[:-1] if w.endswith("s") and len(w) > 3 else w
    return w[:-1] if w[-1:] in "aeiou" and len(w) > 3 else w


def _names(lang: str, key: str, text: str) -> bool:
    """Whether `text` names the term `key` in `lang`'s word."""
    word = vocabulary(lang)[key]
    if key.startswith("place.") or " " in word or "-" in word:
        return bool(_pattern(word).search(text))
    return bool(re.search(rf"(?<!\w){re.escape(_stem(word))}\w*", text, re.IGNORECASE))


def _english_terms(text: str) -> list[str]:
    """The terms an English text uses (a plural or a singular of the catalog's word)."""
    found = []
    for key, word in vocabulary("en").items():
        single = word[:-1] if word.endswith("s") and " " not in word and not key.startswith("place.") else word
        if re.search(rf"(?<!\w){re.escape(single)}(s|es)?(?!\w)", text, re.IGNORECASE):
            found.append(key)
    return found


def term_slips(lang: str, key: str, text: str) -> list[str]:
    """What is wrong with the terms of `text` (the `key` entry in `lang`), as readable lines."""
    slips = []
    own = vocabulary(lang)
    own_words = {w.lower() for w in own.values()}
    for other in LANGUAGES:
        if other == lang:
            continue
        for term, word in vocabulary(other).items():
            if word.lower() not in own_words and _pattern(word).search(text):
                slips.append(f"{key}: {other}'s word {word!r} for {term}; the game says {own[term]!r}")
    if lang != "en":
        english = course_texts("en")[key] if key in course_texts("en") else gettext("en", key, strict=True)
        groups = {frozenset(next((g for g in SAME if term in g), {term})): term for term in _english_terms(english)}
        for group, term in groups.items():
            if not any(_names(lang, t, text) for t in group):
                slips.append(
                    f"{key}: the English names {term} ({vocabulary('en')[term]!r}); the text lacks {own[term]!r}"
                )
    table = ARTICLES.get(lang, {})
    for term, article in articles(lang).items():
        for found in re.finditer(rf"(?<!\w)(\w+)\s+{re.escape(own[term])}(?!\w)", text, re.IGNORECASE):
            before = found.group(1).lower()
            if before in table and table[before] != article:
                slips.append(f"{key}: {found.group(0)!r}: {own[term]!r} takes {article!r}")
    return slips


@cache
def course_texts(lang: str) -> dict[str, str]:
    """Every text of the course in `lang`: the guide's words, each lesson's title and steps."""
    texts = {key: gettext(lang, key, strict=True, n=1, total=2, title="") for key in TEXTS}
    for lesson in lessons_payload(lang)["lessons"]:
        texts[f"learn.{lesson['id']}.title"] = lesson["title"]
        texts.update({step["key"]: step["text"] for step in lesson["steps"]})
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_text_uses_the_catalogs_terms(lang):
    slips = [slip for key, text in course_texts(lang).items() for slip in term_slips(lang, key, text)]
    assert not slips, "\n".join(slips)


def test_the_check_finds_the_slips_it_is_for():
    """The check fails on the slips the course once had, one per rule."""

    def slips(lang: str, key: str, text: str) -> str:
        return "\n".join(term_slips(lang, key, text))

    assert "es's word 'Hebrón' for place.Hebron" in slips("en", "learn.wrath.foresee", "Send them to Hebrón.")
    assert "'Neftalí' for place.Naphtali" in slips("en", "learn.intrigue.tax", "the Tax of its region, Neftalí.")
    assert "'El Comprobación de Victoria'" in slips("es", "learn.victory.title", "El Comprobación de Victoria")
    found = slips("es", "learn.events.landed", "Una Hambre cae; otras esperan en la Área de Eventos.")
    assert "'Una Hambre'" in found and "'la Área de Eventos'" in found
    assert "lacks 'Assentamento" in slips("pt_BR", "learn.combat.hold", "Mantenha o povoado.")
    assert not slips("pt_BR", "learn.combat.hold", gettext("pt_BR", "learn.combat.hold"))
    assert articles("es")["phase.victory"] == "la" and articles("pt_BR")["phase.victory"] == "a"
    assert {step["key"] for lesson in LESSONS for step in lesson["steps"]} <= set(course_texts("en"))
