"""The hint in the browser: the Hint button of the actions panel asks the server for the
strong bot's choice (a POST from the game's page), lists its reasons in the reader's language and
rings its target on the board; the hint stays for the whole decision, free steps included, and is
counted once; a table without hints shows no button."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from browser.play import new_game, open_host_seat, open_page, watch_console
from browser.positions import BOTS_GENERALS
from browser.support import shot

SHOP = {  # round 1's Acquisitions, Deborah (seat 0) first, an enemy general near Shunem
    "phase": "acquisitions",
    "clear_board": True,
    "settlements": {
        "Shunem": {"owner": 0, "troops": 1},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "coins": 9}],
}


@pytest.mark.parametrize("lang, size", [("es", (1400, 900)), ("pt_BR", (390, 844)), ("en", (1400, 900))])
def test_the_hint_button_lists_reasons_and_rings_the_target(server, browser, lang, size):
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    data = new_game(server, seed=3, position=SHOP, hints=True)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    with page.expect_request(lambda r: r.url.split("?")[0].endswith("/hint")) as asked:
        page.locator("#actions [data-action='hint']").click()
    assert asked.value.method == "POST", asked.value.url
    page.locator("#actions .hint-box li").first.wait_for()
    reasons = page.locator("#actions .hint-reasons li").all_inner_texts()
    assert reasons and all(r.strip() for r in reasons)
    if lang != "en":
        assert not any("the search" in r or "You hold" in r for r in reasons), reasons
    assert page.locator("#board .hinted").count() >= 1  # the target is ringed on the board
    page.locator("#actions .hint-box").scroll_into_view_if_needed()
    shot(page, f"31-hint-{lang}-{size[0]}x{size[1]}")
    assert errors == []
    page.context.close()


def test_a_table_without_hints_shows_no_button(server, page):
    data = new_game(server, seed=3, position=SHOP, hints=False)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").wait_for()
    assert page.locator("#actions [data-action='hint']").count() == 0


def test_the_hint_stays_for_the_whole_decision_and_is_counted_once(server, page):
    data = new_game(server, seed=3, position=SHOP, hints=True)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").wait_for()
    page.locator("#actions [data-action='hint']").click()
    page.locator("#actions .hint-box li").first.wait_for()
    first = page.locator("#actions .hint-action").inner_text()
    headers = {"X-Seat-Token": data["token"]}
    seq = httpx.get(f"{server}/api/games/{data['id']}/view", headers=headers).json()["seq"]
    step = {"type": "buy", "item": "troop", "settlement": "Shunem"}  # a free step: the same decision
    bought = httpx.post(f"{server}/api/games/{data['id']}/actions", headers=headers, json={"action": step})
    assert bought.status_code == 200, bought.text
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq + 1))  # the step drawn
    assert page.locator("#actions .hint-box").is_visible()  # the hint still shown: the same decision
    page.locator("#actions [data-action='hint']").click()  # asked again: the same hint
    page.wait_for_timeout(300)
    assert page.locator("#actions .hint-action").inner_text() == first
    view = httpx.get(f"{server}/api/games/{data['id']}/view", headers=headers).json()
    assert view["seq"] == seq + 1 and view["seats"][0]["hints"] == 1
