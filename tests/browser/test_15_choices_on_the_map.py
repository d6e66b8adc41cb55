"""§ 15 What the player sees — choices made on the map, and windows that say what a choice means:

- 👁 Foresee the invasion (§ 13) is chosen on the board, as a move is: no window of forty
  buttons opens, the settlements the invaders may strike are lit (and only they), a click on
  one offers the foresight, and the pair then besieges it; on a desktop and on a phone's touch;
- the 🗳 Vote window (§ 10) says what each candidate judges and how many votes each side holds;
- the 👁 Foresee window's terrains start with a capital letter, as each language writes them."""

from __future__ import annotations

import pytest

from browser.controls import press
from browser.gallery import WINDOWS
from browser.play import new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import ELECTION, FORESEE
from browser.support import shot
from judges.i18n import catalog, place_name

VIEW = "(id) => fetch(`/api/games/${id}/view`, {credentials: 'same-origin'}).then((r) => r.json())"
WORLD = "(id) => fetch(`/api/games/${id}/world`).then((r) => r.json())"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1400, "height": 900}}


@pytest.mark.parametrize(
    "lang, profile", [("en", "desktop"), ("es", "desktop"), ("pt_BR", "desktop"), ("en", "phone"), ("es", "phone")]
)
def test_the_invasion_is_foreseen_by_clicking_the_map(server, browser, lang, profile):
    touch = profile == "phone"
    page = open_page(browser, **(PHONE if touch else DESKTOP))
    errors = watch_console(page)
    data = new_game(server, seed=3, position=WINDOWS["foresee_invasion"])
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .on-map[data-kind='foresee_invasion']").wait_for()
    assert page.locator("#modal").is_hidden(), "a window of buttons opened: the choice is the map's"
    view = page.evaluate(VIEW, data["id"])
    places = sorted(a["settlement"] for a in view["legal_actions"] if a["type"] == "foresee_invasion")
    assert len(places) > 10
    # the settlements the invaders may strike are lit, and only they
    lit = page.locator("#board [data-settlement].target").evaluate_all("(ns) => ns.map((n) => n.dataset.settlement)")
    assert sorted(lit) == places
    shot(page, f"foresee-invasion-map-{profile}-{lang}")
    # a click on one of them (Megiddo, a city alone on its hex) offers the foresight; chosen
    place = "Megiddo" if "Megiddo" in places else places[0]
    press(page, page.locator(f"#board svg [data-settlement='{place}']"), touch)
    choice = page.locator("#chooser:not([hidden]) .choice[data-type='foresee_invasion']")
    choice.wait_for()
    assert place_name(lang, place) in choice.inner_text()
    before = seq(page)
    if touch:
        choice.tap()
    else:
        choice.click()
    wait_change(page, before)
    # the pair entered where the prophet said
    world = page.evaluate(WORLD, data["id"])
    index = next(i for i, s in enumerate(world["settlements"]) if s["name"] == place)
    view = page.evaluate(VIEW, data["id"])
    assert not any(d["kind"] == "foresee_invasion" for d in view["my_decisions"])
    assert any(pair["at"] == index for pair in view["state"]["invaders"]), view["state"]["invaders"]
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_the_vote_window_says_what_each_candidate_judges_and_the_votes_held(server, browser, lang):
    words = catalog(lang)
    page = open_page(browser, **DESKTOP)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=ELECTION)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#modal:not([hidden]) h3[data-kind='vote']").wait_for()
    view = page.evaluate(VIEW, data["id"])
    # the votes each side holds: the server's count (§ 10), every side shown
    assert view["votes"] == {"0": 1, "1": 1}  # one Judge title each (Naphtali, Judah), no prophet
    sides = page.locator("#modal .votes-held .vote-side")
    shown = {s.get_attribute("data-seat"): s.get_attribute("data-votes") for s in sides.all()}
    assert shown == {seat: str(n) for seat, n in view["votes"].items()}
    assert words["ui.votes"] in page.locator("#modal .votes-held").inner_text()
    # each candidate: the region he judges
    judged = {
        "10": words["ui.judge_of"].format(region=place_name(lang, "Naphtali")),
        "11": words["ui.judge_of"].format(region=place_name(lang, "Judah")),
    }
    buttons = page.locator("#modal .options button[data-type='vote']")
    assert buttons.count() == 2
    for i in range(2):
        text = buttons.nth(i).inner_text()
        general = "10" if "10" in text.split("\n")[0] else "11"
        assert buttons.nth(i).locator(".choice-help").inner_text() == judged[general]
    assert "null" not in page.locator("#modal-body").inner_text()
    shot(page, f"vote-window-{lang}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_the_foresee_windows_terrains_start_with_a_capital(server, browser, lang):
    words = catalog(lang)
    page = open_page(browser, **DESKTOP)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=FORESEE)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#modal:not([hidden]) h3[data-kind='foresee_events']").wait_for()
    terrains = page.locator("#modal .foresee-row.current .terrain-choice")
    assert terrains.count() >= 2
    for i in range(terrains.count()):
        node = terrains.nth(i)
        word = words["terrain." + node.get_attribute("data-terrain")]
        assert node.inner_text() == word[0].upper() + word[1:], (node.inner_text(), word)
    assert "null" not in page.locator("#modal-body").inner_text()  # no part missing shows as a word
    shot(page, f"foresee-terrains-{lang}")
    assert errors == []
    page.context.close()
