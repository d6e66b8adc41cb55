"""§ 15 What the player sees — Intrigue and the phone:

- in Intrigue the actions panel speaks of playing cards, not of buying; a Tax card (whose target
  is a region) outlines no settlement: the region under the pointer lights its border, and a
  click in it offers the Tax;
- income rising from the coins ("+9") never covers the score beside them;
- on a phone the hint's box closes and keeps the bottom bar under two fifths of the screen;
- on a phone whom the game waits for is never cut to nothing by a long phase name."""

from __future__ import annotations

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, TIMEOUT, new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import BOTS_GENERALS, HOLDINGS
from browser.support import shot
from judges.i18n import catalog

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

# Seat 0 plays its Intrigue turn with a Tax card and an event card; it holds all Naphtali.
TAX = {
    "phase": "intrigue",
    "clear_board": True,
    "settlements": {
        **HOLDINGS,
        **{name: {"owner": 0, "troops": 1} for name in ("Kedesh", "Merom", "Chinnereth", "Hammath")},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "hand": ["tax", "plague"]}],
}

OVERLAP = """([a, b]) => { const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
  return Math.max(0, Math.min(r.right, s.right) - Math.max(r.left, s.left))
       * Math.max(0, Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top)); }"""


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_a_tax_card_names_a_region_and_no_settlement_is_outlined(server, browser, lang):
    words = catalog(lang)
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, seed=3, position=TAX)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    # the panel speaks of cards; nothing is bought in Intrigue
    assert page.locator("#actions .hint-line").inner_text() == words["ui.click_card_targets"]
    # every region may be taxed, yet no settlement is outlined as a target
    assert page.locator("#board [data-settlement].target").count() == 0
    # the pointer over a hex of Naphtali lights Naphtali's border, and only it
    page.locator("#board svg [data-settlement='Kedesh'] .settlement-hex").hover()
    page.locator("#board [data-region-outline='Naphtali'].lit").wait_for()
    assert page.locator("#board .region-outline.lit").count() == 1
    shot(page, f"tax-region-{lang}")
    # a click there offers the Tax of Naphtali; income then rises from the coins
    page.locator("#board svg [data-settlement='Kedesh'] .settlement-hex").click()
    choice = page.locator("#chooser:not([hidden]) .choice[data-type='play_tax']")
    choice.wait_for()
    before = seq(page)
    choice.click()
    wait_change(page, before)
    page.locator("#actions .end-turn").click()
    gain = page.locator("#me .gain")
    gain.wait_for(timeout=TIMEOUT)
    covered = page.evaluate(
        f"() => ({OVERLAP})([document.querySelector('#me .gain'), document.querySelector('#me .my-score')])"
    )
    assert covered == 0, "the income's float covers the score"
    assert errors == []
    page.context.close()


VIEW = "(id) => fetch(`/api/games/${id}/view`, {credentials: 'same-origin'}).then((r) => r.json())"
LONG_HINT = {
    "at": None,  # the decision it is for: [round, phase, step]
    "action": {"type": "end_turn", "player": 0},
    "text": "End the turn",
    "reasons": [{"text": "A reason long enough to fill a line of a phone's screen, and more. " * 3}] * 6,
    "alternatives": [],
}


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_hint_box_closes_and_leaves_the_phone_its_board(server, browser, lang):
    page = open_page(browser, **PHONE)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=TAX, hints=True)

    at: list[int] = []

    def answer(route):  # a long hint, for the decision owed (the strong bot is not asked)
        route.fulfill(json={**LONG_HINT, "at": at})

    page.route("**/hint?*", answer)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    state = page.evaluate(VIEW, data["id"])["state"]
    at.extend([state["round"], state["phase"], state["step"]])
    bar = page.locator("#actions").bounding_box()["height"]
    page.locator("#actions [data-action='hint']").tap()
    box = page.locator("#actions .hint-box")
    box.wait_for()
    # the bar with the hint stays under two fifths of the screen; the hint scrolls inside it
    assert page.locator("#actions").bounding_box()["height"] <= 0.4 * 844
    shot(page, f"phone-hint-{lang}")
    page.locator("#actions [data-action='close-hint']").tap()
    box.wait_for(state="detached")
    assert abs(page.locator("#actions").bounding_box()["height"] - bar) <= 1  # the bar as it was
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_whom_the_game_waits_for_is_never_cut_on_a_phone(server, browser, lang):
    # Seat 1 is a human who never comes: Acquisitions waits for him, under a long phase name.
    seats = [{"kind": "human", "name": "Deborah"}, {"kind": "human", "name": "Barak"}, {"kind": "bot"}]
    spec = {"seats": seats, "seed": 3, "position": {**TAX, "phase": "acquisitions"}}
    data = httpx.post(server + "/api/games", json=spec, timeout=HTTP_TIMEOUT).json()
    page = open_page(browser, **PHONE)
    errors = watch_console(page)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    page.wait_for_function("() => !!document.querySelector('#phases li.current')")
    if page.locator("#actions .end-turn").count():
        page.locator("#actions .end-turn").tap()
    waiting = page.locator("#waiting")
    page.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Barak')")
    assert catalog(lang)["ui.waiting_for"] in waiting.inner_text()
    assert not waiting.evaluate("(n) => n.scrollWidth > n.clientWidth + 1"), "the names are cut"
    assert page.locator("#phases li.current").inner_text() == catalog(lang)["phase.acquisitions"]
    shot(page, f"phone-waiting-{lang}")
    assert errors == []
    page.context.close()
