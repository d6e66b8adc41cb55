"""Issue 29, items 1 and 3 — what a click on the board does:

- a click on another of one's own generals selects him (and his tooltip says so); it never
  moves the selected general onto his hex: that is a click on the settlement (or hex) beside
  the token;
- every legal action is reachable: for every action type of the decision registry, a position
  where it is legal, and the control of the screen that sends it (`controls.survey`).

Games start from scenario positions (docs/scenarios.md; tests/browser/positions.py)."""

from __future__ import annotations

import json

import pytest

from browser.controls import press
from browser.play import new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import BOTS_GENERALS, HOLDINGS
from browser.support import shot
from judges.i18n import gettext

# Seat 0 moves first in this Movement phase; its generals 10 (Hazor) and 13 (Chinnereth) can
# each reach the other's settlement.
TWO_OWN_GENERALS = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {**HOLDINGS, "Chinnereth": {"owner": 0, "troops": 1}},
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 13, "owner": 0, "at": "Chinnereth"}, *BOTS_GENERALS],
}

PROFILES = {
    "desktop-en": ({"viewport": {"width": 1400, "height": 900}}, "en"),
    "phone-es": ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}, "es"),
}


def sent_actions(page) -> list[dict]:
    """The actions the page posts from now on (a list that fills as they leave)."""
    out: list[dict] = []

    def seen(request) -> None:
        if request.method == "POST" and "/actions" in request.url:
            out.append(json.loads(request.post_data)["action"])

    page.on("request", seen)
    return out


def general_hex(page, gid: int) -> str:
    return page.locator(f"#board [data-general='{gid}']").get_attribute("data-hex")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_click_on_another_own_general_selects_him_and_moves_nobody(server, browser, profile):
    options, lang = PROFILES[profile]
    touch = options.get("has_touch", False)
    page = open_page(browser, **options)
    errors = watch_console(page)
    open_host_seat(page, server, new_game(server, position=TWO_OWN_GENERALS, seed=3), f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    hazor = page.locator("#board [data-settlement='Hazor']").get_attribute("data-hex")
    chinnereth = page.locator("#board [data-settlement='Chinnereth']").get_attribute("data-hex")
    assert (general_hex(page, 10), general_hex(page, 13)) == (hazor, chinnereth)

    press(page, page.locator("#board [data-general='13']"), touch)
    page.locator("#board [data-general='13'].selected").wait_for()
    # general 10's tooltip says what a click on him does: select him
    ten = page.locator("#board [data-general='10']")
    assert ten.get_attribute("data-hint") == gettext(lang, "ui.select_to_move", general=10)
    shot(page, f"own-general-hint-{profile}")
    posted = sent_actions(page)
    before = seq(page)
    press(page, ten, touch)
    page.wait_for_timeout(500)  # a click handler's request leaves at once
    assert posted == [], f"the click on general 10 sent {posted}"
    page.locator("#board [data-general='10'].selected").wait_for(timeout=10_000)
    assert page.locator("#board [data-general='13'].selected").count() == 0
    assert seq(page) == before and general_hex(page, 13) == chinnereth
    assert page.locator("#chooser").is_hidden()
    shot(page, f"own-general-selected-{profile}")

    # general 10 goes onto general 13's settlement by a click on the settlement beside the token
    settlement = page.locator("#board [data-settlement='Chinnereth']")
    assert settlement.get_attribute("data-hint") == gettext(
        lang, "ui.move_here", general=10, place=gettext(lang, "place.Chinnereth")
    )
    press(page, settlement, touch)
    wait_change(page, before)
    page.wait_for_function(
        f"() => document.querySelector('#board [data-general=\"10\"]').dataset.hex === '{chinnereth}'"
    )
    assert general_hex(page, 13) == chinnereth
    assert errors == []
    page.context.close()
