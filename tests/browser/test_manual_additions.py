"""What the in-app manual adds to the printed one, in Chromium and in three languages: taking
back (the screen chapter's section, reached from the Actions panel's line) and the discard pile,
face up, which the Events Area panel shows: the deck's size, and opened, every card of the pile
with how many of each."""

from __future__ import annotations

from collections import Counter

import pytest

from browser.play import new_game, open_host_seat, open_page, watch_console
from browser.support import shot
from judges import i18n

LANGS = ("en", "es", "pt_BR")
SIZES = {"1400": {"width": 1400, "height": 900}, "390": {"width": 390, "height": 844}}
PILE = ["plague", "assassin", "assassin", "tax", "abundance"]
POSITION = {"phase": "intrigue", "discard": PILE, "deck": ["revolt", "famine", "prophet"]}


@pytest.mark.parametrize("lang", LANGS)
def test_the_manual_tells_of_taking_back_and_the_face_up_discard_pile(browser, server, lang):
    for size, viewport in SIZES.items():
        page = open_page(browser, viewport=viewport)
        errors = watch_console(page)
        page.goto(f"{server}/manual/{lang}/screen")
        undo = i18n.gettext(lang, "ui.undo")
        page.locator("main a[href*='/screen#']").first.click()  # the Actions panel's line leads there
        heading = page.locator("h2", has_text=undo) if lang != "en" else page.locator("h2#taking-back")
        heading.wait_for()
        heading.scroll_into_view_if_needed()
        assert "Ctrl+Z" in heading.locator("xpath=following-sibling::p[1]").inner_text()
        shot(page, f"manual-taking-back-{lang}-{size}")
        page.goto(f"{server}/manual/{lang}/intrigue")
        pile = i18n.gettext(lang, "ui.discard_pile")
        section = page.locator("h2", has_text=pile)
        section.scroll_into_view_if_needed()
        assert section.is_visible()
        shot(page, f"manual-discard-pile-{lang}-{size}")
        assert errors == [], errors
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_events_area_shows_the_deck_and_the_discard_pile(browser, server, lang):
    data = new_game(server, seed=5, position=POSITION)
    for size, viewport in SIZES.items():
        page = open_page(browser, viewport=viewport)
        errors = watch_console(page)
        open_host_seat(page, server, data, f"?lang={lang}")
        piles = page.locator("#events .card-piles")
        piles.wait_for()
        summary = piles.locator("summary").inner_text()
        assert i18n.gettext(lang, "ui.discard_pile_size", n=len(PILE)) in summary, summary
        piles.locator("summary").click()
        items = piles.locator("li[data-card]")
        shown = {items.nth(i).get_attribute("data-card"): items.nth(i).inner_text() for i in range(items.count())}
        assert set(shown) == set(PILE)
        for card, n in Counter(PILE).items():
            name = i18n.gettext(lang, f"card.{card}")
            assert shown[card] == (f"{name} ×{n}" if n > 1 else name), shown[card]
        piles.scroll_into_view_if_needed()
        shot(page, f"events-discard-pile-{lang}-{size}")
        assert errors == [], errors
        page.context.close()
