"""Hints and the rating are decided when the table is created, in the browser: the home page's form
asks (off by default: a rated table), the lobby row says which the table is, the table says it in
its players' panel, and the Hint button says what it costs before it is pressed (an unrated
table); pressed, it shows the hint and counts the decision hinted, and pressed again for the same
decision it shows that same hint, counted once (one hint per decision); a rated table shows no
Hint button."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.play import open_page, watch_console
from browser.support import shot
from judges.i18n import catalog


def create_from_the_form(page, server: str, lang: str, hints: str | None) -> str:
    """A table made with the home page's form (the creator and three greedy bots): its id."""
    page.goto(f"{server}/?lang={lang}")
    page.locator(".seat-row").nth(3).wait_for()
    if hints is not None:
        page.select_option("#hints", hints)
    page.click("#create-game")
    own = page.locator(".own-seat")
    own.wait_for()
    return own.get_attribute("href").split("/games/")[1]


@pytest.mark.parametrize("lang, size", [("en", (1400, 900)), ("es", (390, 844))])
def test_a_table_with_hints_says_so_in_the_lobby_on_the_table_and_on_the_button(server, browser, lang, size):
    words = catalog(lang)
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    page.goto(f"{server}/?lang={lang}")
    assert page.locator("#hints").input_value() == "off"  # a table is rated unless its creator asks for hints
    game_id = create_from_the_form(page, server, lang, "on")
    row = page.locator(f"[data-running-game='{game_id}'] .table-kind")
    row.wait_for()
    assert row.inner_text() == words["ui.table_hints"] and row.get_attribute("data-table-kind") == "hints"
    row.scroll_into_view_if_needed()
    shot(page, f"hints-lobby-{lang}-{size[0]}x{size[1]}")
    page.locator(".own-seat").click()
    label = page.locator("#players .table-kind")
    label.wait_for()
    assert label.inner_text() == words["ui.table_hints"]
    button = page.locator("#actions [data-action='hint']")
    button.wait_for()  # seat 0 opens round 1's Intrigue: its turn, before anything is asked
    assert words["ui.hint"] in button.inner_text() and words["ui.hint_cost"] in button.inner_text()
    assert page.locator("#actions .hint-box").count() == 0  # not pressed
    button.scroll_into_view_if_needed()
    shot(page, f"hints-table-{lang}-{size[0]}x{size[1]}")

    def hints_on_record() -> int:
        view = page.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")
        return view["seats"][view["seat"]]["hints"]

    assert hints_on_record() == 0
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/hint")) as answered:
        button.click()
    assert answered.value.status == 200, answered.value.text()
    hint = answered.value.json()
    shown = page.locator("#actions .hint-box .hint-action")
    expect(shown).to_have_text(hint["text"])  # the hint, in the reader's language
    assert hint["text"].strip() and page.locator("#actions .hint-reasons li").count() == len(hint["reasons"])
    assert hints_on_record() == 1  # the decision is hinted, on the seat's record
    page.locator("#actions .hint-box").scroll_into_view_if_needed()
    shot(page, f"hints-shown-{lang}-{size[0]}x{size[1]}")
    # pressed again for the same decision: the same hint, not a second one
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/hint")) as again:
        page.locator("#actions [data-action='hint']").click()
    assert again.value.status == 200 and again.value.json() == hint
    expect(shown).to_have_text(hint["text"])
    assert page.locator("#actions .hint-box").count() == 1
    assert hints_on_record() == 1
    assert errors == []
    page.context.close()


def test_a_rated_table_says_so_and_offers_no_hint(server, browser):
    words = catalog("pt_BR")
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    game_id = create_from_the_form(page, server, "pt_BR", None)  # the form's default
    row = page.locator(f"[data-running-game='{game_id}'] .table-kind")
    row.wait_for()
    assert row.inner_text() == words["ui.table_rated"] and row.get_attribute("data-table-kind") == "rated"
    page.locator(".own-seat").click()
    page.locator("#actions .end-turn").wait_for()  # the seat's turn: where the button would be
    assert page.locator("#players .table-kind").inner_text() == words["ui.table_rated"]
    assert page.locator("#actions [data-action='hint']").count() == 0
    table = page.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")["table"]
    assert table["hints"] is False
    shot(page, "hints-rated-table-pt_BR-1400x900")
    page.context.close()
