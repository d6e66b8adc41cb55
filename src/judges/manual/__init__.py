"""The game's manual, for players, in English, Spanish and Portuguese, served inside the app.

The manual is data: one Markdown file per chapter and language,
``judges/manual/chapters/<lang>/NN-<slug>.md``, the same chapters in every language.
Each file is a Jinja2 template rendered at serve time with the rules (`rules()`, the one
place the manual reads them) as ``C``, under their UPPERCASE names
(`Rules.constant_names()`), so a number of the rules is never typed into the text: it is written
``{{ C.COSTS.wall }}``, ``{{ C.WRATH_THRESHOLD }}``, and the numbers of a worked example are
computed from the rules too (``{{ C.CITY_INCOME + 2 * C.DEVELOPMENT_INCOME }}``).
Change a rule and the manual changes with it (``tests/test_manual.py`` checks that no
digit is typed outside a template tag).

What a chapter template sees:

- ``C``: the rules, from `rules()` (UPPERCASE names); ``P``: phase name -> its number (``P.income`` = 3);
  ``PHASE_COUNT``; ``W``: the default map (`judges.world.World`); ``die``: the faces of the
  game's dice; ``lang``.
- ``place(name)``: a settlement's or region's name as the language spells it
  (``place(W.name)``, ``place(W.settlements[i].name)``).
- ``T(key)``: a word of the translation catalogs (``T('terrain.plain')``, ``T('decision.vote')``),
  so the manual names things exactly as the screen does.
- Die helpers that write face ranges with an en dash: ``hits(5)`` "5–6" (a face this high or
  higher), ``low(2)`` "1–2" (this low or lower), ``span(3, 4)`` "3–4", ``faces('plain')`` the
  faces that send an event to a terrain (from ``C.EVENT_TERRAIN_BY_DIE``), ``face_of('desert')``
  the first such face, ``count_hits(roll, at_least)``, ``dice(roll)`` "6, 5, 4, 1",
  ``on_terrain('desert')`` how many settlements of the map stand on a terrain.

A link whose target is a chapter slug (``[Income](income-and-victory)``, optionally with
``#anchor``) points to that chapter in the same language.

Markdown is turned into HTML by markdown-it-py (CommonMark with pipe tables); headings get
ids, chapter links are resolved, and a numbered item may be written ``#.`` (read as ``1.``)
to keep the source free of digits.

The web pages are Jinja templates in ``judges/manual/templates/`` with the words of the
catalogs (``manual.*`` keys): `manual_router()` serves ``GET /manual`` (redirects to the
reader's language, negotiated as everywhere by `judges.i18n.request_language`),
``GET /manual/{lang}`` (contents) and ``GET /manual/{lang}/{slug}``; it is included in the
server app with ``app.include_router(manual_router())``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup

from ..engine.decisions import KINDS as DECISION_KINDS
from ..engine.dice import Dice
from ..engine.messages import MESSAGES
from ..engine.rules import DEFAULT_RULES, Rules
from ..engine.state import PHASES
from ..i18n import BASE_OF_VARIANT, LANGUAGE_NAMES, LANGUAGES, gettext, place_name, request_language
from ..world import load_world

__all__ = [
    "CHAPTERS",
    "CHAPTER_DIR",
    "LANGUAGES",
    "ManualNotFound",
    "chapter_path",
    "chapter_number",
    "chapter_title",
    "chapter_for_phase",
    "chapter_for_notification",
    "chapter_for_decision",
    "chapter_source",
    "render_chapter_markdown",
    "render_chapter_body",
    "render_chapter",
    "render_index",
    "markdown_to_html",
    "manual_router",
    "rules",
]

CHAPTER_DIR = Path(__file__).resolve().parent / "chapters"
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


def rules() -> Rules:
    """The rules the manual quotes (the default rules, `DEFAULT_RULES`): the one place it
    reads them."""
    return DEFAULT_RULES


#: The chapters in reading order; chapter N is file ``NN-<slug>.md`` in every language.
CHAPTERS: tuple[str, ...] = (
    "world",  # 01 the world and the pieces
    "round",  # 02 the round and its seven phases
    "announcements",  # 03 phase 1
    "intrigue",  # 04 phase 2
    "income-and-victory",  # 05 the automatic phases 3 and 7
    "acquisitions",  # 06 phase 4
    "movement-and-combat",  # 07 phases 5 and 6
    "judges-and-kings",  # 08
    "wrath-and-invaders",  # 09
    "events",  # 10
    "captives",  # 11
    "screen",  # 12 bell, decision windows, Players panel, languages
)

_PHASE_CHAPTER = {
    "announcements": "announcements",
    "intrigue": "intrigue",
    "income": "income-and-victory",
    "acquisitions": "acquisitions",
    "movement": "movement-and-combat",
    "combat": "movement-and-combat",
    "victory": "income-and-victory",
}


class ManualNotFound(KeyError):
    """No such language or chapter (the web pages answer 404)."""


# --- Chapters, languages, and where to read about things ----------------------------------


def _language(lang: str) -> str:
    """The manual's code for a language: "pt-BR", "pt_br" -> "pt_BR"; unknown -> ManualNotFound."""
    tag = str(lang).strip().replace("-", "_").lower()
    for code in LANGUAGES:
        if tag == code.lower():
            return code
    raise ManualNotFound(f"the manual has no language {lang!r}")


def _slug(slug: str) -> str:
    """A chapter slug; "05-income-and-victory" and "05" are accepted too."""
    s = str(slug).strip().lower()
    if s in CHAPTERS:
        return s
    m = re.fullmatch(r"(\d{1,2})(?:-(.+))?", s)
    if m:
        n = int(m.group(1))
        if 1 <= n <= len(CHAPTERS) and m.group(2) in (None, CHAPTERS[n - 1]):
            return CHAPTERS[n - 1]
    raise ManualNotFound(f"the manual has no chapter {slug!r}")


def chapter_number(slug: str) -> int:
    """1 for the first chapter."""
    return CHAPTERS.index(_slug(slug)) + 1


def chapter_path(lang: str, slug: str) -> Path:
    slug = _slug(slug)
    return CHAPTER_DIR / _language(lang) / f"{chapter_number(slug):02d}-{slug}.md"


def chapter_for_phase(phase: str | int) -> str:
    """The chapter that explains a phase, by name (`judges.engine.state.PHASES`) or number 1..7."""
    if isinstance(phase, int) and not isinstance(phase, bool):
        if not 1 <= phase <= len(PHASES):
            raise KeyError(f"there is no phase {phase}")
        phase = PHASES[phase - 1]
    name = str(phase).strip().lower().replace(" ", "_")
    name = {"victory_check": "victory"}.get(name, name)
    if name not in _PHASE_CHAPTER:
        raise KeyError(f"there is no phase {phase!r}")
    return _PHASE_CHAPTER[name]


def chapter_for_notification(key: str) -> str | None:
    """The chapter that explains a notification (``notification.income``...) or a report line
    (``wrath.reconciled``, ``invaders.besiege``...): its declaration's (`judges.engine.messages`;
    a variant, its base key's). None for a key that is no declared message."""
    declared = MESSAGES.get(BASE_OF_VARIANT.get(key, key))
    return declared.chapter if declared is not None else None


def chapter_for_decision(kind: str, phase: str | int | None = None) -> str | None:
    """The chapter that explains a decision window (``vote``, ``appoint_judge``...). A ``turn``
    is explained by its phase's chapter when the phase is given; None for an unknown kind."""
    if kind == "turn" and phase is not None:
        return chapter_for_phase(phase)
    entry = DECISION_KINDS.get(kind)  # the registry names each kind's chapter
    return entry.chapter if entry is not None else None


def chapter_source(lang: str, slug: str) -> str:
    """The raw template text of a chapter."""
    path = chapter_path(lang, slug)
    if not path.is_file():
        raise ManualNotFound(f"chapter {slug!r} is missing in {lang!r}")
    return path.read_text(encoding="utf-8")


def chapter_title(lang: str, slug: str) -> str:
    """The chapter's first heading (plain text)."""
    for line in chapter_source(lang, slug).splitlines():
        m = re.match(r"#\s+(.+?)\s*#*\s*$", line)
        if m:
            return re.sub(r"[*_`]", "", m.group(1))
    return _slug(slug)


# --- The template context --------------------------------------------------------------------


def _die_faces(game_rules: Rules) -> int:
    default = inspect.signature(Dice.roll).parameters["sides"].default
    return default if isinstance(default, int) else max(game_rules.event_terrain_by_die)


def span(lo: int, hi: int) -> str:
    """Die faces lo..hi: "3–4", "6" when lo == hi, "" when the range is empty."""
    if lo > hi:
        return ""
    return str(lo) if lo == hi else f"{lo}–{hi}"


#: The visible marker of a designer's addition: a rule of this edition the owner's manual does
#: not state (`{{ D }}` after the sentence; the chapter ends with `manual.designer_legend`).
DESIGNER_MARK = "◆"


def _context(lang: str) -> dict[str, Any]:
    game_rules = rules()
    names = SimpleNamespace(**game_rules.constant_names())  # the rules under their UPPERCASE names
    die = _die_faces(game_rules)
    world = load_world()

    def faces_list(terrain: str) -> list[int]:
        return sorted(face for face, t in game_rules.event_terrain_by_die.items() if t == terrain)

    def faces(terrain: str) -> str:
        found = faces_list(terrain)
        if found and found == list(range(found[0], found[-1] + 1)):
            return span(found[0], found[-1])
        return ", ".join(str(f) for f in found)

    def on_terrain(terrain: str) -> int:
        return sum(1 for s in world.settlements if world.settlement_terrain(s.index) == terrain)

    return {
        "C": names,
        "P": {name: i + 1 for i, name in enumerate(PHASES)},
        "D": DESIGNER_MARK,
        "PHASE_COUNT": len(PHASES),
        "W": world,
        "die": die,
        "lang": lang,
        "T": lambda key, **params: gettext(lang, key, strict=True, **params),
        "place": lambda name: place_name(lang, name),
        "span": span,
        "hits": lambda at_least: span(at_least, die),
        "low": lambda at_most: span(1, at_most),
        "faces": faces,
        "face_of": lambda terrain: (faces_list(terrain) or [0])[0],
        "count_hits": lambda roll, at_least: sum(1 for face in roll if face >= at_least),
        "dice": lambda roll: ", ".join(str(face) for face in roll),
        "on_terrain": on_terrain,
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
    """The chapter's Markdown with every placeholder filled from the rules (rendered anew
    on every call, so a changed rule shows at once)."""
    lang, slug = _language(lang), _slug(slug)
    if not chapter_path(lang, slug).is_file():
        raise ManualNotFound(f"chapter {slug!r} is missing in {lang!r}")
    name = f"{lang}/{chapter_number(slug):02d}-{slug}.md"
    return _environment().get_template(name).render(**_context(lang))


def render_chapter_body(lang: str, slug: str) -> str:
    """The chapter as an HTML fragment (no page around it), e.g. for a help window."""
    lang = _language(lang)
    return markdown_to_html(render_chapter_markdown(lang, slug), link=_chapter_linker(lang))


def _chapter_linker(lang: str) -> Callable[[str], str]:
    def link(url: str) -> str:
        target, sep, anchor = url.partition("#")
        try:
            slug = _slug(target) if target else None
        except ManualNotFound:
            return url
        return f"/manual/{lang}/{slug}{sep}{anchor}" if slug else url

    return link


# --- Pages ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _pages() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _page(template: str, lang: str, slug: str | None, title: str, game: str | None = None, **extra: Any) -> str:
    lang_urls = {code: f"/manual/{code}" + (f"/{slug}" if slug else "") for code in LANGUAGES}
    return (
        _pages()
        .get_template(template)
        .render(
            lang=lang,
            html_lang=lang.replace("_", "-"),
            slug=slug,
            title=title,
            t=lambda key, **params: gettext(lang, key, **params),
            game=game if game is not None else gettext(lang, "ui.title"),
            languages=LANGUAGES,
            language_names=LANGUAGE_NAMES,
            lang_urls=lang_urls,
            **extra,
        )
    )


def render_chapter(lang: str, slug: str) -> str:
    """A chapter's whole HTML page: the chapter, a link back to the contents, the previous and
    next chapters, a language switcher and the game's style sheet."""
    lang, slug = _language(lang), _slug(slug)
    i = CHAPTERS.index(slug)
    prev = CHAPTERS[i - 1] if i > 0 else None
    nxt = CHAPTERS[i + 1] if i + 1 < len(CHAPTERS) else None
    return _page(
        "chapter.html",
        lang,
        slug,
        chapter_title(lang, slug),
        body=Markup(render_chapter_body(lang, slug)),
        prev=prev,
        next=nxt,
        prev_title=chapter_title(lang, prev) if prev else "",
        next_title=chapter_title(lang, nxt) if nxt else "",
    )


def render_index(lang: str) -> str:
    """The contents page of one language: every chapter, numbered, with its title."""
    lang = _language(lang)
    chapters = [(n, slug, chapter_title(lang, slug)) for n, slug in enumerate(CHAPTERS, start=1)]
    from . import rome

    return _page(
        "index.html", lang, None, gettext(lang, "manual.contents"), chapters=chapters, other_manual=rome.game_name(lang)
    )


def render_rome_index(lang: str) -> str:
    """The contents page of the *Republic of Rome* manual (`judges.manual.rome`)."""
    from . import rome

    lang = _language(lang)
    chapters = [(n, f"rome/{slug}", rome.chapter_title(lang, slug)) for n, slug in enumerate(rome.CHAPTERS, start=1)]
    game = rome.game_name(lang)
    return _page("index.html", lang, "rome", gettext(lang, "manual.contents"), game=game, chapters=chapters)


def render_rome_chapter(lang: str, slug: str) -> str:
    """A *Republic of Rome* chapter's whole page, its navigation within the Rome manual."""
    from . import rome

    lang = _language(lang)
    slug = rome.CHAPTERS[rome.chapter_number(slug) - 1]
    i = rome.CHAPTERS.index(slug)
    prev = rome.CHAPTERS[i - 1] if i > 0 else None
    nxt = rome.CHAPTERS[i + 1] if i + 1 < len(rome.CHAPTERS) else None
    return _page(
        "chapter.html",
        lang,
        f"rome/{slug}",
        rome.chapter_title(lang, slug),
        game=rome.game_name(lang),
        body=Markup(rome.render_chapter_body(lang, slug)),
        prev=f"rome/{prev}" if prev else None,
        next=f"rome/{nxt}" if nxt else None,
        prev_title=rome.chapter_title(lang, prev) if prev else "",
        next_title=rome.chapter_title(lang, nxt) if nxt else "",
        contents="rome",
    )


def manual_router() -> APIRouter:
    """The manual's pages, for ``app.include_router(manual_router())``."""
    router = APIRouter()

    @router.get("/manual", include_in_schema=False)
    def manual_home(request: Request, lang: str | None = None) -> RedirectResponse:
        return RedirectResponse(f"/manual/{request_language(request, lang)}", status_code=307)

    @router.get("/manual/{lang}", response_class=HTMLResponse, include_in_schema=False)
    def manual_index(lang: str) -> HTMLResponse:
        try:
            return HTMLResponse(render_index(lang))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    @router.get("/manual/{lang}/rome", response_class=HTMLResponse, include_in_schema=False)
    def rome_index(lang: str) -> HTMLResponse:
        try:
            return HTMLResponse(render_rome_index(lang))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    @router.get("/manual/{lang}/rome/{slug}", response_class=HTMLResponse, include_in_schema=False)
    def rome_chapter(lang: str, slug: str) -> HTMLResponse:
        try:
            return HTMLResponse(render_rome_chapter(lang, slug))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    @router.get("/manual/{lang}/{slug}", response_class=HTMLResponse, include_in_schema=False)
    def manual_chapter(lang: str, slug: str) -> HTMLResponse:
        try:
            return HTMLResponse(render_chapter(lang, slug))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    return router


# --- Markdown, by markdown-it-py ---------------------------------------------------------------

_NUMBERED = re.compile(r"^((?:[ \t]*>)*[ \t]*)#\.(?=\s)", re.M)  # "#. item": a numbered item without a digit


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_to_html(text: str, link: Callable[[str], str] | None = None) -> str:
    """Markdown -> HTML by markdown-it-py: CommonMark with pipe tables, an id on every heading
    (from its words, numbered when repeated), every link's target passed through `link`, and
    ``#.`` numbered items."""
    md = _markdown()
    env: dict[str, Any] = {}
    tokens = md.parse(_NUMBERED.sub(r"\g<1>1.", text), env)
    ids: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            token.attrSet("id", _anchor(tokens[i + 1].content, ids))
        if link is not None and token.type == "inline":
            for child in token.children or ():
                if child.type == "link_open":
                    child.attrSet("href", link(str(child.attrGet("href") or "")))
    html: str = md.renderer.render(tokens, md.options, env)
    return html


def _anchor(text: str, ids: dict[str, int]) -> str:
    plain = re.sub(r"[*_`\[\]()]", "", text).lower()
    base = re.sub(r"[^\w]+", "-", plain, flags=re.UNICODE).strip("-") or "section"
    ids[base] = ids.get(base, 0) + 1
    return base if ids[base] == 1 else f"{base}-{ids[base]}"
