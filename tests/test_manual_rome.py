"""The Republic of Rome manual (judges.manual.rome, judges/manual/rome_chapters/<lang>/NN-<slug>.md).

(a) the same chapters in English, Spanish and Portuguese, each rendering;
(b) no number typed into the text: every digit comes from a placeholder filled from the rules or
    the scenario's cards, so changing a rule changes the manual;
(c) the three languages carry the same numbers, tables and cross-references; every link reaches a
    chapter and anchor that exist; every catalog word it names exists;
(d) the rendered values agree with the rules and the cards; every phase has its chapter.
"""

from __future__ import annotations

import re

import msgspec
import pytest

from judges.manual import ManualNotFound
from judges.manual import rome as manual
from judges.rome import i18n as rome_i18n
from judges.rome.cards import load_deck
from judges.rome.engine.state import PHASES

LANGS = manual.LANGUAGES
CHAPTERS = manual.CHAPTERS
DECK = load_deck()
TEMPLATE_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def all_pages():
    return [(lang, slug) for lang in LANGS for slug in CHAPTERS]


def text_of(body: str) -> str:
    return re.sub(r"<[^>]+>", " ", body)


def set_rules(monkeypatch, **changes) -> None:
    changed = msgspec.structs.replace(manual.rules(), **changes)
    monkeypatch.setattr(manual, "rules", lambda: changed)


def test_the_languages_are_romes_catalogs():
    assert set(LANGS) == set(rome_i18n.LANGUAGES)


def test_the_chapters_cover_setup_every_phase_and_the_end():
    assert CHAPTERS[0] == "setup" and CHAPTERS[-1] == "winning-and-losing"
    assert [manual.PHASE_CHAPTER[p] for p in PHASES[1:]] == list(CHAPTERS[1:-1])


@pytest.mark.parametrize("lang", LANGS)
def test_every_chapter_exists_in_every_language(lang):
    files = sorted(p.name for p in (manual.CHAPTER_DIR / lang).glob("*.md"))
    assert files == [f"{n:02d}-{slug}.md" for n, slug in enumerate(CHAPTERS, start=1)]


@pytest.mark.parametrize("lang, slug", all_pages())
def test_every_chapter_renders_with_a_title(lang, slug):
    body = manual.render_chapter_body(lang, slug)
    assert body.startswith("<h1") and "{{" not in body and "{%" not in body
    title = manual.chapter_title(lang, slug)
    assert title and "{" not in title and title in body


@pytest.mark.parametrize("lang, slug", all_pages())
def test_no_digit_outside_a_placeholder(lang, slug):
    outside = TEMPLATE_TAG.sub(" ", manual.chapter_source(lang, slug))
    bad = [m.group(0) for m in re.finditer(r"\d+", outside)]
    assert not bad, f"{lang}/{slug}: digits typed outside {{{{ }}}}: {bad}"


@pytest.mark.parametrize("lang, slug", all_pages())
def test_links_reach_existing_chapters_and_anchors(lang, slug):
    body = manual.render_chapter_body(lang, slug)
    for href in re.findall(r'<a href="([^"]+)"', body):
        m = re.fullmatch(rf"/manual/{lang}/rome/([a-z-]+)(?:#(.+))?", href)
        assert m, f"{href} is not a link to a Rome chapter of the same language"
        assert m.group(1) in CHAPTERS
        if m.group(2):
            assert f'id="{m.group(2)}"' in manual.render_chapter_body(lang, m.group(1)), href


@pytest.mark.parametrize("slug", CHAPTERS)
def test_translations_carry_the_same_numbers_tables_and_links(slug):
    def numbers(body):
        return sorted(re.findall(r"\d+", text_of(body)))

    def shape(body):
        return (
            body.count("<table>"),
            body.count("<tr>"),
            body.count("<li>"),
            sorted(re.findall(r'href="/manual/[^/]+/rome/([^"#]+)', body)),
        )

    bodies = {lang: manual.render_chapter_body(lang, slug) for lang in LANGS}
    for lang in LANGS:
        assert numbers(bodies[lang]) == numbers(bodies["en"]), lang
        assert shape(bodies[lang]) == shape(bodies["en"]), lang


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_word_the_manual_names_exists(lang):
    """`T(key)` raises on a key missing from Rome's catalog; every chapter renders, so every key
    named is there — and the scan below finds the keys and checks them against the catalog."""
    catalog = rome_i18n.catalog(lang)
    for slug in CHAPTERS:
        for key in re.findall(r"T\('([a-z_.]+)'\)", manual.chapter_source(lang, slug)):
            assert key in catalog, (lang, slug, key)
    with pytest.raises(KeyError):
        rome_i18n.text(lang, "rome.phase.no_such_phase")


@pytest.mark.parametrize("lang", LANGS)
def test_the_phase_names_and_endings_are_the_catalogs(lang):
    setup = text_of(manual.render_chapter_body(lang, "setup"))
    for phase in PHASES[1:]:
        assert rome_i18n.text(lang, f"rome.phase.{phase}") in setup
    end = text_of(manual.render_chapter_body(lang, "winning-and-losing"))
    for ending in ("wars", "people_revolt", "bankruptcy", "era_ends", "consul_for_life", "rebel"):
        assert rome_i18n.text(lang, f"rome.ending.{ending}") in end


@pytest.mark.parametrize("lang", LANGS)
def test_changing_a_rule_changes_the_manual(lang, monkeypatch):
    assert "777" not in manual.render_chapter_body(lang, "revenue")
    set_rules(monkeypatch, state_income=777, war_cost=55)
    text = text_of(manual.render_chapter_body(lang, "revenue"))
    assert "777" in text and "55" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_tables_are_the_cards(lang):
    """The contributions, games and land bills as the scenario's data gives them."""
    revenue = manual.render_chapter_body(lang, "revenue")
    for row in DECK.contributions:
        assert re.search(rf"<td>{row.talents} [^<]+</td>\s*<td>\+{row.influence}</td>", revenue)
    forum = manual.render_chapter_body(lang, "forum")
    for g in DECK.games.values():
        name = rome_i18n.text(lang, f"rome.games.{g.id}")
        assert re.search(rf"<td>{re.escape(name)}</td>\s*<td>{g.cost}</td>", forum), g.id
    senate = manual.render_chapter_body(lang, "senate")
    for b in DECK.land_bills.values():
        assert re.search(rf"<td>{b.type}</td>\s*<td>{b.unrest}</td>\s*<td>\+{b.sponsor}</td>", senate), b.type


@pytest.mark.parametrize("lang", LANGS)
def test_the_manual_quotes_the_rules_numbers(lang):
    rules = manual.rules()
    combat = text_of(manual.render_chapter_body(lang, "combat"))
    assert str(rules.wars_lose_game) in combat
    won = min(r.low for r in DECK.combat if r.result == "victory")
    assert f"{won} " in combat
    end = text_of(manual.render_chapter_body(lang, "winning-and-losing"))
    assert str(rules.consul_for_life_automatic) in end and str(rules.consul_for_life_nominee) in end
    setup = text_of(manual.render_chapter_body(lang, "setup"))
    assert str(DECK.setup.state_treasury) in setup and str(rules.temporary_consul_influence) in setup


def test_unknown_language_or_chapter_raises():
    with pytest.raises(ManualNotFound):
        manual.render_chapter_body("fr", "setup")
    with pytest.raises(ManualNotFound):
        manual.render_chapter_body("en", "no-such-chapter")


# --- (e) the pages: /manual/<lang>/rome and its chapters --------------------------------------------


@pytest.fixture
def client():
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from judges.manual import manual_router

    app = FastAPI()
    app.include_router(manual_router())
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("lang", LANGS)
def test_the_rome_contents_list_every_chapter_and_the_manual_links_to_it(lang, client):
    page = client.get(f"/manual/{lang}/rome")
    assert page.status_code == 200
    for slug in CHAPTERS:
        assert f'href="/manual/{lang}/rome/{slug}"' in page.text
    assert rome_i18n.text(lang, "rome.title") in page.text
    assert f'href="/manual/{lang}/rome"' in client.get(f"/manual/{lang}").text


@pytest.mark.parametrize("lang", LANGS)
def test_rome_chapter_pages_are_served_with_their_neighbours(lang, client):
    page = client.get(f"/manual/{lang}/rome/senate")
    assert page.status_code == 200
    assert manual.chapter_title(lang, "senate") in page.text
    assert f'href="/manual/{lang}/rome/population"' in page.text and f'href="/manual/{lang}/rome/combat"' in page.text
    assert f'class="manual-index" href="/manual/{lang}/rome"' in page.text
    assert client.get(f"/manual/{lang}/rome/no-such-chapter").status_code == 404
    assert client.get(f"/manual/{lang}/world").status_code == 200  # Judges & Kings' chapters as before
