"""§ 15 What the player sees — the clock of a decision, in Chromium:

- on a table with a turn timer, the seat that owes a decision sees its time left count down in
  the top bar, on its player's board and over the map; the deadline is the server's (the view's
  `deadline`, on the server's clock), not the screen's guess;
- before the takeover the seat is warned; when the time runs out, the takeover is announced (a
  message, the top bar says a bot plays for you, the banner offers the seat back);
- a paced table shows the decision's deadline (day and hour) instead of a countdown."""

from __future__ import annotations

import re

import pytest

from browser.play import new_game, open_host_seat, open_page, watch_console
from browser.positions import BOTS_GENERALS, HOLDINGS
from browser.support import shot
from judges.i18n import catalog

# Seat 0 owes its Intrigue turn at once.
INTRIGUE = {
    "phase": "intrigue",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "hand": ["plague"]}],
}
TIMER = 10  # seconds: the server's least turn timer (limits.min_turn_timer)

VIEW = "(id) => fetch(`/api/games/${id}/view`, {credentials: 'same-origin'}).then((r) => r.json())"


def seconds(text: str) -> int:
    m = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert m, text
    return int(m[1]) * 60 + int(m[2])


def toast_says(page, text: str) -> None:
    page.wait_for_function(
        "(text) => { const t = document.querySelector('#toast'); return !t.hidden && t.textContent.includes(text); }",
        arg=text,
        timeout=30_000,
    )


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_the_clock_counts_down_and_the_takeover_is_announced(server, browser, lang):
    words = catalog(lang)
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, seed=3, position=INTRIGUE, turn_timer=TIMER)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    # the deadline is the server's: when the decision passes to a bot, on the server's clock
    view = page.evaluate(VIEW, data["id"])
    assert view["table"]["turn_timer"] == TIMER
    left = view["seats"][0]["deadline"] - view["server_time"]
    assert 0 < left <= TIMER, view["seats"][0]
    assert all(s["deadline"] is None for s in view["seats"][1:])  # the bots owe nothing now
    # the top bar: "Your turn" and the countdown; the player's board and the map show it too
    top = page.locator("#waiting .clock[data-clock='0'] .clock-time")
    top.wait_for()
    assert words["ui.your_turn"] in page.locator("#waiting").inner_text()
    first = seconds(top.inner_text())
    assert 0 < first <= TIMER
    assert page.locator("#players [data-seat='0'] .clock[data-clock='0']").is_visible()
    assert page.locator("#board-clock .clock[data-clock='0']").is_visible()
    shot(page, f"clock-countdown-{lang}")
    page.wait_for_timeout(2200)
    assert seconds(top.inner_text()) <= first - 2  # it counts down
    # the warning before the takeover, the clock marked
    toast_says(page, words["ui.clock_warning"].split("{left}")[1].strip())
    assert "urgent" in (top.locator("xpath=..").get_attribute("class") or "")
    # the takeover, announced: a message, the top bar, the banner with the seat to take back
    toast_says(page, words["ui.bot_took_your_seat"])
    page.locator("#banner [data-away='true']").wait_for()
    page.wait_for_function(
        "(text) => document.querySelector('#waiting').textContent.includes(text)"
        " || document.body.dataset.phase !== 'intrigue'",
        arg=words["ui.bot_plays_for_you"],
    )
    assert page.locator("#seat-control").inner_text() == words["ui.take_back"]
    shot(page, f"clock-takeover-{lang}")
    view = page.evaluate(VIEW, data["id"])
    assert view["seats"][0]["away"] and view["seats"][0]["deadline"] is None
    assert errors == []
    page.context.close()


def test_a_paced_table_shows_the_deadline(server, browser):
    words = catalog("en")
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, seed=3, position=INTRIGUE, pace={"hours": 24})
    open_host_seat(page, server, data, "?lang=en")
    page.locator("#actions .end-turn").wait_for()
    # the server's upkeep starts the deadline within seconds, and the view carries it
    clock = page.locator("#waiting .clock[data-clock='0'] .clock-time")
    clock.wait_for(timeout=30_000)
    until = words["ui.clock_until"].split("{when}")[0]
    page.wait_for_function(
        "(until) => document.querySelector('#waiting .clock-time').textContent.startsWith(until)", arg=until
    )
    view = page.evaluate(VIEW, data["id"])
    assert view["table"]["pace_hours"] == 24
    assert abs(view["seats"][0]["deadline"] - view["server_time"] - 24 * 3600) < 120
    shot(page, "clock-paced-en")
    assert errors == []
    page.context.close()
