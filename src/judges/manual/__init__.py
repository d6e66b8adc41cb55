"""The game's manual, for players, in English, Spanish and Portuguese, served inside the app.

The manual is data: one Markdown file per chapter and language,
``judges/manual/chapters/<lang>/NN-<slug>.md``, the same chapters in every language.
Each file is a Jinja2 template rendered at serve time with the rules-constants module as
``C``, so a number of the rules is never typed into the text: it is written
``{{ C.COSTS.wall }}``, ``{{ C.WRATH_THRESHOLD }}``, and the numbers of a worked example are
computed from the constants too (``{{ C.CITY_INCOME + 2 * C.DEVELOPMENT_INCOME }}``).
Change a constant and the manual changes with it (``tests/test_manual.py`` checks that no
digit is typed outside a template tag).

What a chapter template sees:

- ``C``: `judges.engine.constants`; ``P``: phase name -> its number (``P.income`` = 3);
  ``PHASE_COUNT``; ``W``: the default map (`judges.world.World`); ``die``: the faces of the
  game's dice; ``lang``.
- ``T(key)``: a word of the translation catalogs (``T('terrain.plain')``, ``T('decision.vote')``),
  so the manual names things exactly as the screen does.
- Die helpers that write face ranges with an en dash: ``hits(5)`` "5–6" (a face this high or
  higher), ``low(2)`` "1–2" (this low or lower), ``span(3, 4)`` "3–4", ``faces('plain')`` the
  faces that send an event to a terrain (from ``C.EVENT_TERRAIN_BY_DIE``), ``face_of('desert')``
  the first such face, ``count_hits(roll, at_least)``, ``dice(roll)`` "6, 5, 4, 1",
  ``on_terrain('desert')`` how many settlements of the map stand on a terrain.

A link whose target is a chapter slug (``[Income](income-and-victory)``, optionally with
``#anchor``) points to that chapter in the same language.

Markdown is turned into HTML by a small renderer below (the ``markdown`` package is not a
dependency): ATX headings (with ids), paragraphs, ``-``/``*`` lists, ``#.`` or ``1.``
numbered lists (``#.`` keeps the source free of digits), one level of nested lists, pipe
tables with an alignment row, ``>`` blockquotes, ``---`` rules, fenced code, and inline
``**bold**``, ``*italics*``, code spans and links.

The web pages: `manual_router()` serves ``GET /manual`` (redirects to the reader's
language), ``GET /manual/{lang}`` (contents) and ``GET /manual/{lang}/{slug}``; it is included
in the server app with ``app.include_router(manual_router())``.
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from ..engine import constants as C
from ..engine.dice import Dice
from ..engine.state import PHASES
from ..i18n import LANGUAGE_NAMES, LANGUAGES, gettext, normalize_language
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
]

CHAPTER_DIR = Path(__file__).resolve().parent / "chapters"

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

#: Notification keys (and their variants) -> chapter. Keys of report lines are matched by
#: their first part below (`_ENTRY_PREFIX_CHAPTER`).
_NOTIFICATION_CHAPTER = {
    "notification.announcements": "announcements",
    "notification.announcements.judgment": "wrath-and-invaders",
    "notification.income": "income-and-victory",
    "notification.election": "judges-and-kings",
    "notification.election.tie": "judges-and-kings",
    "notification.battle": "movement-and-combat",
    "notification.battle.none": "movement-and-combat",
    "notification.eliminated": "income-and-victory",
    "notification.round_report": "income-and-victory",
    "notification.game_over": "income-and-victory",
    "notification.game_over.shared": "income-and-victory",
    "notification.game_over.no_winner": "income-and-victory",
    "notification.seat_bot": "screen",
    "notification.seat_back": "screen",
}
_ENTRY_PREFIX_CHAPTER = {
    "wrath": "wrath-and-invaders",
    "wrath_reason": "wrath-and-invaders",
    "invaders": "wrath-and-invaders",
    "arrival": "wrath-and-invaders",
    "razed_by": "wrath-and-invaders",
    "events": "events",
    "plague": "events",
    "intrigue": "intrigue",
    "deck": "intrigue",
    "income": "income-and-victory",
    "player": "income-and-victory",
    "ending": "income-and-victory",
    "ending_text": "income-and-victory",
    "acquisition": "acquisitions",
    "item": "acquisitions",
    "movement": "movement-and-combat",
    "combat": "movement-and-combat",
    "ark": "movement-and-combat",
    "settlement": "movement-and-combat",
    "title": "judges-and-kings",
    "king": "judges-and-kings",
    "election": "judges-and-kings",
    "crowned": "judges-and-kings",
    "prophet": "events",
    "captive": "captives",
    "general": "captives",
    "cause": "captives",
}

#: Decision kinds -> chapter. A "turn" belongs to the phase it is taken in.
_DECISION_CHAPTER = {
    "vote": "judges-and-kings",
    "appoint_judge": "judges-and-kings",
    "claim_judge": "judges-and-kings",
    "succession": "judges-and-kings",
    "foresee_events": "events",
    "foresee_invasion": "wrath-and-invaders",
    "discard": "intrigue",
    "plunder": "movement-and-combat",
    "turn": "round",
}

#: Words of the manual's own pages (the catalogs hold the game's words).
_WORDS = {
    "en": {
        "manual": "Manual",
        "contents": "Contents",
        "previous": "Previous",
        "next": "Next",
        "chapter": "Chapter",
        "intro": "The rules of the game, chapter by chapter. Every number you read "
        "here is the one the game plays with.",
        "home": "New game",
    },
    "es": {
        "manual": "Manual",
        "contents": "Índice",
        "previous": "Anterior",
        "next": "Siguiente",
        "chapter": "Capítulo",
        "intro": "Las reglas del juego, capítulo a capítulo. Cada número que lees "
        "aquí es el mismo con el que juega la partida.",
        "home": "Nueva partida",
    },
    "pt_BR": {
        "manual": "Manual",
        "contents": "Índice",
        "previous": "Anterior",
        "next": "Próximo",
        "chapter": "Capítulo",
        "intro": "As regras do jogo, capítulo por capítulo. Cada número que você "
        "lê aqui é o mesmo com que a partida é jogada.",
        "home": "Nova partida",
    },
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
    (``wrath.reconciled``, ``invaders.besiege``...). Any other notification is explained by the
    bell, in the chapter on the screen; None for a key that is not a notification or a line."""
    if key in _NOTIFICATION_CHAPTER:
        return _NOTIFICATION_CHAPTER[key]
    parts = key.split(".")
    for n in range(len(parts) - 1, 0, -1):  # a variant of a known notification
        base = ".".join(parts[:n])
        if base in _NOTIFICATION_CHAPTER:
            return _NOTIFICATION_CHAPTER[base]
    if parts[0] == "notification":
        return "screen"
    return _ENTRY_PREFIX_CHAPTER.get(parts[0])


def chapter_for_decision(kind: str, phase: str | int | None = None) -> str | None:
    """The chapter that explains a decision window (``vote``, ``appoint_judge``...). A ``turn``
    is explained by its phase's chapter when the phase is given; None for an unknown kind."""
    if kind == "turn" and phase is not None:
        return chapter_for_phase(phase)
    return _DECISION_CHAPTER.get(kind)


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


def _die_faces() -> int:
    default = inspect.signature(Dice.roll).parameters["sides"].default
    return default if isinstance(default, int) else max(C.EVENT_TERRAIN_BY_DIE)


def span(lo: int, hi: int) -> str:
    """Die faces lo..hi: "3–4", "6" when lo == hi, "" when the range is empty."""
    if lo > hi:
        return ""
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _context(lang: str) -> dict:
    die = _die_faces()
    world = load_world()

    def faces_list(terrain: str) -> list[int]:
        return sorted(face for face, t in C.EVENT_TERRAIN_BY_DIE.items() if t == terrain)

    def faces(terrain: str) -> str:
        found = faces_list(terrain)
        if found and found == list(range(found[0], found[-1] + 1)):
            return span(found[0], found[-1])
        return ", ".join(str(f) for f in found)

    def on_terrain(terrain: str) -> int:
        return sum(1 for s in world.settlements if world.settlement_terrain(s.index) == terrain)

    return {
        "C": C,
        "P": {name: i + 1 for i, name in enumerate(PHASES)},
        "PHASE_COUNT": len(PHASES),
        "W": world,
        "die": die,
        "lang": lang,
        "T": lambda key, **params: gettext(lang, key, strict=True, **params),
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
    """The chapter's Markdown with every placeholder filled from the constants (rendered anew
    on every call, so a changed constant shows at once)."""
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

_PAGE = """<!doctype html>
<html lang="{{ html_lang }}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{ title }} — {{ w.manual }} — {{ game }}</title>
  <link rel="stylesheet" href="/static/style.css">
  <style>
    .manual { max-width: 860px; line-height: 1.5; padding-bottom: 40px; }
    .manual table { border-collapse: collapse; margin: 8px 0 14px; }
    .manual th, .manual td { border: 1px solid #d9cdb4; padding: 4px 9px; vertical-align: top; }
    .manual th { background: #efe6d3; }
    .manual blockquote { margin: 10px 0; padding: 6px 14px; background: #faf6ec; border-left: 4px solid #b9ab92; }
    .manual-nav { display: flex; justify-content: space-between; gap: 12px; margin: 14px 0; }
    .manual-chapters li { margin: 6px 0; }
    .manual a { color: var(--accent, #7a4b1e); }
  </style>
</head>
<body>
<main class="home manual" data-manual-lang="{{ lang }}"{% if slug %} data-chapter="{{ slug }}"{% endif %}>
  <header class="home-head">
    <nav class="manual-crumbs">
      <a class="manual-home" href="/?lang={{ lang }}">{{ game }}</a> ·
      {% if slug %}<a class="manual-index" rel="index" href="/manual/{{ lang }}">← {{ w.contents }}</a>
      {% else %}<strong>{{ w.manual }}</strong>{% endif %}
    </nav>
    <nav class="langs manual-langs">{% for l in languages %}<a href="{{ lang_urls[l] }}" hreflang="{{ l|replace('_', '-') }}" data-lang="{{ l }}"{% if l == lang %} class="current"{% endif %}>{{ language_names[l] }}</a>{% endfor %}</nav>
  </header>
  {{ content }}
  {% if slug %}
  <nav class="manual-nav">
    <span>{% if prev %}<a rel="prev" class="manual-prev" href="/manual/{{ lang }}/{{ prev }}">← {{ w.previous }}: {{ prev_title }}</a>{% endif %}</span>
    <a class="manual-index" href="/manual/{{ lang }}">{{ w.contents }}</a>
    <span>{% if next %}<a rel="next" class="manual-next" href="/manual/{{ lang }}/{{ next }}">{{ w.next }}: {{ next_title }} →</a>{% endif %}</span>
  </nav>
  {% endif %}
</main>
</body>
</html>
"""


@lru_cache(maxsize=1)
def _page_template():
    return Environment(autoescape=select_autoescape(default=True, default_for_string=True)).from_string(_PAGE)


def _page(lang: str, slug: str | None, title: str, content: str, **extra) -> str:
    lang_urls = {l: f"/manual/{l}" + (f"/{slug}" if slug else "") for l in LANGUAGES}
    return _page_template().render(
        lang=lang,
        html_lang=lang.replace("_", "-"),
        slug=slug,
        title=title,
        content=Markup(content),
        w=_WORDS[lang],
        game=gettext(lang, "ui.title"),
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
        lang_urls=lang_urls,
        **extra,
    )


def render_chapter(lang: str, slug: str) -> str:
    """A chapter's whole HTML page: the chapter, a link back to the contents, the previous and
    next chapters, a language switcher and the game's style sheet."""
    lang, slug = _language(lang), _slug(slug)
    i = CHAPTERS.index(slug)
    prev = CHAPTERS[i - 1] if i > 0 else None
    nxt = CHAPTERS[i + 1] if i + 1 < len(CHAPTERS) else None
    body = render_chapter_body(lang, slug)
    return _page(
        lang,
        slug,
        chapter_title(lang, slug),
        f'<article class="card manual-chapter">\n{body}</article>',
        prev=prev,
        next=nxt,
        prev_title=chapter_title(lang, prev) if prev else "",
        next_title=chapter_title(lang, nxt) if nxt else "",
    )


def render_index(lang: str) -> str:
    """The contents page of one language: every chapter, numbered, with its title."""
    lang = _language(lang)
    words = _WORDS[lang]
    items = "\n".join(
        f'<li value="{n}"><a href="/manual/{lang}/{slug}" data-chapter="{slug}">{html.escape(chapter_title(lang, slug))}</a></li>'
        for n, slug in enumerate(CHAPTERS, start=1)
    )
    content = (
        f'<article class="card manual-index-page">\n<h1>{html.escape(words["manual"])} — '
        f"{html.escape(gettext(lang, 'ui.title'))}</h1>\n<p>{html.escape(words['intro'])}</p>\n"
        f'<ol class="manual-chapters">\n{items}\n</ol>\n</article>'
    )
    return _page(lang, None, words["contents"], content)


def manual_router() -> APIRouter:
    """The manual's pages, for ``app.include_router(manual_router())``."""
    router = APIRouter()

    @router.get("/manual", include_in_schema=False)
    def manual_home(request: Request, lang: str | None = None):
        header = request.headers.get("accept-language", "")
        return RedirectResponse(f"/manual/{normalize_language(lang or header or None)}", status_code=307)

    @router.get("/manual/{lang}", response_class=HTMLResponse, include_in_schema=False)
    def manual_index(lang: str):
        try:
            return HTMLResponse(render_index(lang))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    @router.get("/manual/{lang}/{slug}", response_class=HTMLResponse, include_in_schema=False)
    def manual_chapter(lang: str, slug: str):
        try:
            return HTMLResponse(render_chapter(lang, slug))
        except ManualNotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc.args[0])) from None

    return router


# --- A small Markdown renderer -------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HR = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_ITEM = re.compile(r"^(\s*)([-*+]|#\.|\d+\.)\s+(.*)$")
_FENCE = re.compile(r"^\s*```")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def markdown_to_html(text: str, link: Callable[[str], str] | None = None) -> str:
    """Markdown -> HTML (the subset the manual uses; see the module's docstring)."""
    ids: dict[str, int] = {}
    return _blocks(text.splitlines(), link or (lambda url: url), ids)


def _is_block_start(lines: list[str], i: int) -> bool:
    line = lines[i]
    return bool(
        _HEADING.match(line)
        or _HR.match(line)
        or _ITEM.match(line)
        or _FENCE.match(line)
        or line.lstrip().startswith(">")
        or _is_table(lines, i)
    )


def _is_table(lines: list[str], i: int) -> bool:
    return lines[i].lstrip().startswith("|") and i + 1 < len(lines) and bool(_TABLE_SEP.match(lines[i + 1]))


def _blocks(lines: list[str], link: Callable[[str], str], ids: dict[str, int]) -> str:
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if _FENCE.match(line):
            j = i + 1
            while j < n and not _FENCE.match(lines[j]):
                j += 1
            out.append("<pre><code>" + html.escape("\n".join(lines[i + 1 : j])) + "</code></pre>")
            i = j + 1
            continue
        m = _HEADING.match(line)
        if m:
            level, text = len(m.group(1)), m.group(2)
            anchor = _anchor(text, ids)
            out.append(f'<h{level} id="{anchor}">{_inline(text, link)}</h{level}>')
            i += 1
            continue
        if _HR.match(line):
            out.append("<hr>")
            i += 1
            continue
        if _is_table(lines, i):
            j = i + 2
            while j < n and lines[j].lstrip().startswith("|"):
                j += 1
            out.append(_table(lines[i], lines[i + 1], lines[i + 2 : j], link))
            i = j
            continue
        if line.lstrip().startswith(">"):
            j = i
            inner = []
            while j < n and lines[j].lstrip().startswith(">"):
                inner.append(re.sub(r"^\s*>\s?", "", lines[j]))
                j += 1
            out.append("<blockquote>\n" + _blocks(inner, link, ids) + "</blockquote>")
            i = j
            continue
        if _ITEM.match(line):
            html_list, i = _list(lines, i, link, ids)
            out.append(html_list)
            continue
        j = i
        para = []
        while j < n and lines[j].strip() and (j == i or not _is_block_start(lines, j)):
            para.append(lines[j])
            j += 1
        out.append("<p>" + _paragraph(para, link) + "</p>")
        i = j
    return "".join(block + "\n" for block in out)


def _paragraph(lines: Iterable[str], link: Callable[[str], str]) -> str:
    """Inline Markdown over the whole paragraph, so emphasis and links may span lines; a line
    ending in two spaces or a backslash breaks the line."""
    parts = []
    for line in lines:
        hard = line.endswith("  ") or line.endswith("\\")
        parts.append(line.rstrip(" \\").strip() + ("\x00" if hard else ""))
    return _inline("\n".join(parts), link).replace("\x00", "<br>")


def _list(lines: list[str], i: int, link: Callable[[str], str], ids: dict[str, int]) -> tuple[str, int]:
    first = _ITEM.match(lines[i])
    indent = len(first.group(1))
    ordered = first.group(2) not in ("-", "*", "+")
    items: list[list[str]] = []
    n = len(lines)
    while i < n:
        line = lines[i]
        m = _ITEM.match(line)
        if m and len(m.group(1)) == indent and (m.group(2) not in ("-", "*", "+")) == ordered:
            items.append([m.group(3)])
            i += 1
            continue
        if not line.strip():
            # a blank line ends the list unless an indented continuation or another item follows
            k = i + 1
            if k < n and (
                lines[k].startswith(" " * (indent + 2))
                or (
                    (mk := _ITEM.match(lines[k]))
                    and len(mk.group(1)) == indent
                    and (mk.group(2) not in ("-", "*", "+")) == ordered
                )
            ):
                items[-1].append("")
                i += 1
                continue
            break
        if len(line) - len(line.lstrip()) > indent:
            items[-1].append(line[min(len(line) - len(line.lstrip()), indent + 2) :])
            i += 1
            continue
        if m or _is_block_start(lines, i):
            break
        items[-1].append(line.strip())  # lazy continuation
        i += 1
    tag = "ol" if ordered else "ul"
    rendered = []
    for item in items:
        head, rest = [item[0]], item[1:]
        while rest and rest[0].strip() and not _ITEM.match(rest[0]):
            head.append(rest.pop(0))
        body = _paragraph(head, link)
        if any(r.strip() for r in rest):
            body += "\n" + _blocks(rest, link, ids)
        rendered.append(f"<li>{body}</li>")
    return f"<{tag}>\n" + "\n".join(rendered) + f"\n</{tag}>", i


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def _table(header: str, sep: str, rows: list[str], link: Callable[[str], str]) -> str:
    aligns = []
    for cell in _cells(sep):
        left, right = cell.startswith(":"), cell.endswith(":")
        aligns.append("center" if left and right else "right" if right else "left" if left else None)

    def row_html(cells: list[str], tag: str) -> str:
        out = []
        for k, cell in enumerate(cells):
            align = aligns[k] if k < len(aligns) else None
            style = f' style="text-align: {align}"' if align else ""
            out.append(f"<{tag}{style}>{_inline(cell, link)}</{tag}>")
        return "<tr>" + "".join(out) + "</tr>"

    head = row_html(_cells(header), "th")
    body = "\n".join(row_html(_cells(r), "td") for r in rows)
    return f"<table>\n<thead>\n{head}\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _anchor(text: str, ids: dict[str, int]) -> str:
    plain = re.sub(r"[*_`\[\]()]", "", text).lower()
    base = re.sub(r"[^\w]+", "-", plain, flags=re.UNICODE).strip("-") or "section"
    ids[base] = ids.get(base, 0) + 1
    return base if ids[base] == 1 else f"{base}-{ids[base]}"


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", re.S)


def _inline(text: str, link: Callable[[str], str]) -> str:
    pieces = re.split(r"(`[^`]+`)", text)
    out = []
    for piece in pieces:
        if len(piece) >= 2 and piece.startswith("`") and piece.endswith("`"):
            out.append("<code>" + html.escape(piece[1:-1], quote=False) + "</code>")
        else:
            out.append(_emphasis(piece, link))
    return "".join(out)


def _emphasis(text: str, link: Callable[[str], str]) -> str:
    text = html.escape(text, quote=False)

    def a(m: re.Match) -> str:
        url = html.escape(link(html.unescape(m.group(2))), quote=True)
        return f'<a href="{url}">{m.group(1)}</a>'

    text = _LINK.sub(a, text)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    text = _EM.sub(r"<em>\1</em>", text)
    return text
