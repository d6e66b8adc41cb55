"""The players' manual of *Republic of Rome* (Early Republic), in English, Spanish and Portuguese.

Data as the *Judges & Kings* manual (`judges.manual`): one Markdown file per chapter and language,
``judges/manual/rome_chapters/<lang>/NN-<slug>.md``, each a Jinja2 template rendered with the
game's numbers, so no number of the rules is typed into the text. What a chapter sees:

- ``C``: the rules (`judges.rome.engine.rules.RomeRules`, the one place the manual reads them,
  `rules()`) under their UPPERCASE names (``C.STATE_INCOME``); ``S``: the scenario's setup
  values (``S.state_treasury``); ``deck``: the scenario's cards and tables
  (`judges.rome.cards.Deck`: ``deck.contributions``, ``deck.games``, ``deck.land_bills``);
  ``P``: phase name -> its number in the turn (``P.senate`` = 5); ``D``: the mark of our own
  decisions ([D] of docs/rome/rules-reference.md); ``lang``.
- ``T(key)``: a word of Rome's catalogs (``T('rome.phase.senate')``), so the manual names
  things as the game does.
- ``span(lo, hi)``: "3–4".

A link whose target is a chapter slug (``[Senate](senate)``, optionally with ``#anchor``) points
to that chapter in the same language. The rules the chapters follow are
docs/rome/rules-reference.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..rome import i18n as rome_i18n
from ..rome.cards import Deck, load_deck
from ..rome.engine.rules import DEFAULT_ROME_RULES, RomeRules
from ..rome.engine.state import PHASES
from . import DESIGNER_MARK, ManualNotFound, markdown_to_html, span

CHAPTER_DIR = Path(__file__).resolve().parent / "rome_chapters"
LANGUAGES: tuple[str, ...] = ("en", "es", "pt_BR")

#: The chapters in reading order; chapter N is file ``NN-<slug>.md`` in every language.
CHAPTERS: tuple[str, ...] = (
    "setup",  # 01 the factions, the board, the first turn's setup; the turn in brief
    "mortality",  # 02 phase 1
    "revenue",  # 03 phase 2
    "forum",  # 04 phase 3
    "population",  # 05 phase 4
    "senate",  # 06 phase 5
    "combat",  # 07 phase 6
    "revolution",  # 08 phase 7
    "winning-and-losing",  # 09
)

#: The chapter that explains each phase of the turn (`judges.rome.engine.state.PHASES`).
PHASE_CHAPTER = {phase: ("setup" if phase == "setup" else phase) for phase in PHASES}


def rules() -> RomeRules:
    """The rules the manual quotes: the one place it reads them."""
    return DEFAULT_ROME_RULES


def _language(lang: str) -> str:
    tag = str(lang).strip().replace("-", "_").lower()
    for code in LANGUAGES:
        if tag == code.lower():
            return code
    raise ManualNotFound(f"the Rome manual has no language {lang!r}")


def _slug(slug: str) -> str:
    s = str(slug).strip().lower()
    if s in CHAPTERS:
        return s
    raise ManualNotFound(f"the Rome manual has no chapter {slug!r}")


def chapter_number(slug: str) -> int:
    return CHAPTERS.index(_slug(slug)) + 1


def chapter_path(lang: str, slug: str) -> Path:
    slug = _slug(slug)
    return CHAPTER_DIR / _language(lang) / f"{chapter_number(slug):02d}-{slug}.md"


def chapter_source(lang: str, slug: str) -> str:
    path = chapter_path(lang, slug)
    if not path.is_file():
        raise ManualNotFound(f"chapter {slug!r} is missing in {lang!r}")
    return path.read_text(encoding="utf-8")


def chapter_title(lang: str, slug: str) -> str:
    """The chapter's first heading, its placeholders filled (plain text)."""
    for line in render_chapter_markdown(lang, slug).splitlines():
        m = re.match(r"#\s+(.+?)\s*#*\s*$", line)
        if m:
            return re.sub(r"[*_`]", "", m.group(1))
    return _slug(slug)


def game_name(lang: str) -> str:
    return rome_i18n.text(_language(lang), "rome.title")


def _context(lang: str) -> dict[str, Any]:
    game_rules = rules()
    deck: Deck = load_deck(game_rules.deck)
    fields: dict[str, Any] = msgspec.structs.asdict(game_rules)
    return {
        "C": SimpleNamespace(**{name.upper(): value for name, value in fields.items()}),
        "S": deck.setup,
        "deck": deck,
        "P": {name: i for i, name in enumerate(PHASES)},  # setup is 0, the turn's phases 1..7
        "D": DESIGNER_MARK,
        "lang": lang,
        "T": lambda key, **params: rome_i18n.text(lang, key, **params),
        "span": span,
    }


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(CHAPTER_DIR)),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_chapter_markdown(lang: str, slug: str) -> str:
    """The chapter's Markdown with every placeholder filled from the rules and the cards."""
    lang, slug = _language(lang), _slug(slug)
    if not chapter_path(lang, slug).is_file():
        raise ManualNotFound(f"chapter {slug!r} is missing in {lang!r}")
    name = f"{lang}/{chapter_number(slug):02d}-{slug}.md"
    return _environment().get_template(name).render(**_context(lang))


def chapter_url(lang: str, slug: str) -> str:
    return f"/manual/{_language(lang)}/rome/{_slug(slug)}"


def _linker(lang: str) -> Callable[[str], str]:
    def link(url: str) -> str:
        target, sep, anchor = url.partition("#")
        if target not in CHAPTERS:
            return url
        return f"{chapter_url(lang, target)}{sep}{anchor}"

    return link


def render_chapter_body(lang: str, slug: str) -> str:
    """The chapter as an HTML fragment; links between chapters point to /manual/<lang>/rome/<slug>."""
    lang = _language(lang)
    return markdown_to_html(render_chapter_markdown(lang, slug), link=_linker(lang))
