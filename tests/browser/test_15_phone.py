"""§ 15 What the player sees — a phone one can play on, at 390×844 with a
touch screen, in English and in Spanish:

- the status bar (round, phase, Wrath x/13, whose turn) stays on screen while the page scrolls;
- the actions (End turn, the cards to play, whatever the actions panel holds) sit in a bar fixed
  at the bottom, inside the screen without scrolling, and hide nothing at the page's end;
- every control is a touch target of 44 px or more, and a tap on a cluster of tokens opens a
  chooser that names each piece;
- the log and the table talk are two tabs, one shown at a time, as tall as what it holds."""

from __future__ import annotations

import re

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, open_host_seat, open_page, watch_console
from browser.positions import BOTS_GENERALS, HOLDINGS
from browser.support import shot
from judges.i18n import catalog

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LANGUAGES = ["en", "es"]

# Seat 0 plays its Intrigue turn with an event card to play and a Tax card (a button each).
INTRIGUE = {
    "phase": "intrigue",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "hand": ["plague", "tax"]}],
}

# Movement: two of seat 0's generals share Hazor, a third stands alone on Beersheba.
CLUSTER = {
    "phase": "movement",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor", "army": 1},
        {"id": 13, "owner": 0, "at": "Hazor", "army": 2},
        {"id": 14, "owner": 0, "at": "Beersheba"},
        *BOTS_GENERALS,
    ],
}


def start(server, browser, lang, position):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Deborah"}, {"kind": "bot"}, {"kind": "bot"}],
            "seed": 3,
            "position": position,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    page = open_page(browser, **PHONE)
    errors = watch_console(page)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#board svg [data-general]").first.wait_for()
    page.locator("#actions .end-turn").wait_for()
    return page, errors


INSIDE = """(n) => { const r = n.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; }"""


def scroll_to_the_end(page) -> None:
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function(
        "() => window.scrollY > 0 && Math.abs(window.scrollY + innerHeight - document.documentElement.scrollHeight) < 2"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_bar_stays_on_screen(server, browser, lang):
    page, errors = start(server, browser, lang, INTRIGUE)
    words = catalog(lang)
    for where in ("top", "end"):
        if where == "end":
            scroll_to_the_end(page)
        # the round, the current phase, the Wrath as x/13 and whose turn: each shown, on screen
        assert page.locator("#round").evaluate(INSIDE), where
        assert page.locator("#round").inner_text() == words["ui.round_n"].format(n=1)
        current = page.locator("#phases li.current")
        assert current.evaluate(INSIDE) and current.inner_text() == words["phase.intrigue"], where
        wrath = page.locator("#wrath")
        assert wrath.evaluate(INSIDE), where
        assert re.search(r"\b\d+/13\b", wrath.inner_text()), wrath.inner_text()
        waiting = page.locator("#waiting")
        assert waiting.evaluate(INSIDE) and waiting.inner_text() == words["ui.your_turn"], where
    # all four in the status bar, which the page's scrolling leaves at the top of the screen
    status = page.locator("[data-panel=status]")
    assert status.evaluate(INSIDE) and status.bounding_box()["y"] <= 1
    for part in ("#round", "#phases li.current", "#wrath", "#waiting"):
        assert status.locator(part).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"phone-status-scrolled-{lang}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_actions_sit_in_a_bar_at_the_bottom(server, browser, lang):
    page, errors = start(server, browser, lang, INTRIGUE)
    actions = page.locator("#actions")
    buttons = actions.locator("button")
    actions.locator("button.play_event").first.wait_for()
    assert buttons.count() >= 2  # the event to play and End turn
    for where in ("top", "end"):
        if where == "end":
            scroll_to_the_end(page)
        # the bar and each of its buttons inside the screen without scrolling, at its bottom
        assert actions.evaluate(INSIDE), where
        assert abs(actions.bounding_box()["y"] + actions.bounding_box()["height"] - 844) <= 1, where
        for i in range(buttons.count()):
            assert buttons.nth(i).evaluate(INSIDE), (where, buttons.nth(i).inner_text())
    # the page's end is not hidden under the bar: its last panel ends above it
    last = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll('.main .card')].filter((n) => n.id !== 'actions'
             && getComputedStyle(n).display !== 'none' && !n.hidden).map((n) => n.getBoundingClientRect().bottom))"""
    )
    assert last <= actions.bounding_box()["y"] + 1
    assert actions.get_attribute("data-panel") == "actions"
    # End turn answers from the bar
    before = page.evaluate("document.body.dataset.seq")
    actions.locator(".end-turn").tap()
    page.wait_for_function(f"() => document.body.dataset.seq !== '{before}'")
    shot(page, f"phone-actions-bar-{lang}")
    assert errors == []
    page.context.close()


SMALL_TARGETS = """() => {
  const out = [];
  const controls = ['header button', 'header a', '[data-panel=status] button', '[data-panel=actions] button',
                    '#zoom button', '#panel-tabs button', '#bottombar button', '#chooser button'];
  for (const n of document.querySelectorAll(controls.join(', '))) {
    const r = n.getBoundingClientRect();
    if (!r.width || getComputedStyle(n).visibility === 'hidden') continue;
    if (r.width < 44 || r.height < 44) out.push([n.id || n.className, Math.round(r.width), Math.round(r.height)]);
  }
  return out;
}"""


def token_box(page, general: int) -> dict:
    return page.locator(f"#board svg [data-general='{general}'] .token").bounding_box()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_touch_targets_and_a_chooser_for_a_cluster_of_tokens(server, browser, lang):
    page, errors = start(server, browser, lang, CLUSTER)
    assert page.evaluate(SMALL_TARGETS) == []
    # a tap between the two generals on Hazor: a chooser names each, in buttons a finger can press
    a, b = token_box(page, 10), token_box(page, 13)
    x = (a["x"] + a["width"] / 2 + b["x"] + b["width"] / 2) / 2
    y = (a["y"] + a["height"] / 2 + b["y"] + b["height"] / 2) / 2
    page.touchscreen.tap(x, y)
    chooser = page.locator("#chooser:not([hidden])")
    chooser.wait_for()
    named = chooser.locator(".piece-choice[data-general]")
    assert sorted(named.evaluate_all("(ns) => ns.map((n) => n.dataset.general)")) == ["10", "13"]
    words = catalog(lang)
    assert words["ui.general"] in named.first.inner_text()
    assert page.evaluate(SMALL_TARGETS) == []
    shot(page, f"phone-cluster-chooser-{lang}")
    # choosing one selects him (his move targets light up)
    named.filter(has=page.locator("xpath=self::*[@data-general='13']")).tap()
    page.locator("#board svg [data-general='13'].selected").wait_for()
    assert chooser.count() == 0
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#board svg [data-general].selected')")
    # a tap just beside a lone general, outside his token but within a finger's reach, takes him
    lone = token_box(page, 14)
    page.touchscreen.tap(lone["x"] - 12, lone["y"] + lone["height"] / 2)
    page.locator("#board svg [data-general='14'].selected").wait_for()
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_log_and_the_table_talk_are_two_tabs(server, browser, lang):
    page, errors = start(server, browser, lang, INTRIGUE)
    words = catalog(lang)
    tabs = page.locator("#panel-tabs [role=tab]")
    assert tabs.count() == 2
    assert [tabs.nth(i).inner_text().strip() for i in range(2)] == [words["ui.log"], words["ui.chat"]]
    log, chat = page.locator("[data-panel=log]"), page.locator("[data-panel=chat]")
    assert log.is_visible() and not chat.is_visible()
    assert tabs.nth(0).get_attribute("aria-selected") == "true"
    # a panel is as tall as what it holds (no half-empty card), and so is its list
    slack = """(n) => n.getBoundingClientRect().height - [...n.children]
                 .filter((c) => getComputedStyle(c).display !== 'none')
                 .reduce((sum, c) => sum + c.getBoundingClientRect().height, 0)"""
    assert log.evaluate(slack) <= 40 and page.locator("#log-list").evaluate(slack) <= 8
    tabs.nth(1).tap()
    page.wait_for_function("() => getComputedStyle(document.querySelector('[data-panel=log]')).display === 'none'")
    assert chat.is_visible() and not log.is_visible()
    assert tabs.nth(1).get_attribute("aria-selected") == "true"
    assert chat.evaluate(slack) <= 60
    # a message written there shows in the tab, the list no taller than the talk so far
    page.locator("#chat-text").fill("shalom")
    page.locator("#chat-text").press("Enter")
    page.locator("#chat-list .chat-message").wait_for()
    assert chat.evaluate(slack) <= 60 and page.locator("#chat-list").evaluate(slack) <= 20
    shot(page, f"phone-chat-tab-{lang}")
    assert errors == []
    page.context.close()
