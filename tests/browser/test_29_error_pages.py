"""Errors are pages, not JSON. A bad game address, a spent invitation and the
replay of a game still running answer a page in the reader's language with a way back home
(at 1400x900 and on a phone, in English and Spanish); a replay opens at step 0. A game without
a screen (Republic of Rome) answers its pages with its API routes."""

from __future__ import annotations

import httpx
import pytest

from browser.play import bots_finish_game, claim_invitation, new_game, open_page, watch_console
from browser.support import shot
from judges import i18n

PROFILES = {
    "desktop": {"viewport": {"width": 1400, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def check_error_page(page, response, status: int, key: str, lang: str) -> None:
    assert response is not None and response.status == status
    assert response.headers["content-type"].startswith("text/html")
    box = page.locator(f".error-page[data-error='{key}']")
    box.wait_for()
    assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
    assert box.locator("h2").inner_text() == i18n.gettext(lang, "ui.error_title")
    assert box.locator(".error-text").inner_text().strip()
    # readable and whole on the screen: nothing runs off its right edge
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    home = page.locator("#back-home")
    assert home.inner_text() == i18n.gettext(lang, "ui.back_home")
    box_of = home.bounding_box()
    assert box_of is not None and box_of["x"] >= 0 and box_of["x"] + box_of["width"] <= width
    assert box_of["y"] + box_of["height"] <= page.viewport_size["height"]  # in sight without scrolling


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_29_8_errors_met_while_browsing_are_pages_with_a_way_home(server, browser, profile, lang):
    page = open_page(browser, locale=lang, **PROFILES[profile])
    errors = watch_console(page)
    # a bad game address
    response = page.goto(f"{server}/games/no-such-game")
    check_error_page(page, response, 404, "error.no_game", lang)
    assert page.locator(".error-text").inner_text() == i18n.gettext(lang, "error.no_game")
    shot(page, f"error-no-game-{profile}-{lang}")
    page.locator("#back-home").click()
    page.wait_for_url(f"{server}/")
    page.locator("#home").wait_for()
    # the replay of a game still running: a page saying so, not a blank screen
    running = new_game(server)
    response = page.goto(f"{server}/games/{running['id']}/replay")
    check_error_page(page, response, 409, "error.replay_running", lang)
    assert page.locator(".error-text").inner_text() == i18n.gettext(lang, "error.replay_running")
    # a spent invitation: Bo's browser took the seat; another browser opens the same link
    data = new_game(server, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot"}])
    taker = open_page(browser, locale=lang)
    claim_invitation(taker, server, data, 1)
    taker.context.close()
    response = page.goto(data["seats"][1]["invitation"])
    check_error_page(page, response, 404, "error.invitation", lang)
    shot(page, f"error-invitation-{profile}-{lang}")
    assert errors == [] or all("404" in e or "409" in e for e in errors)  # the pages' own status only
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_29_8_a_replay_opens_at_step_0(server, browser, lang):
    data, view = bots_finish_game(server)
    page = open_page(browser, locale=lang, **PROFILES["desktop"])
    errors = watch_console(page)
    page.goto(f"{server}/games/{data['id']}/replay")
    where = page.locator(".replay-where")
    where.wait_for()
    assert where.get_attribute("data-step") == "0" and where.get_attribute("data-steps") == str(view["seq"])
    assert page.locator("[data-panel='final']").count() == 0  # the result is not spoiled
    assert page.evaluate("document.body.dataset.over") == "false"
    shot(page, f"replay-step-0-{lang}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_a_rome_tables_screen_pages_name_the_game_and_its_api_routes(server, browser, profile, lang):
    """Republic of Rome has no screen here: its watch page is a page in the reader's language
    naming the game and the table's API routes, whole on a desktop and a phone, its links
    working (the spectator's view, home); never J&K's screen."""
    from judges.rome.i18n import text as rome_text

    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "neutral"}]
    created = httpx.post(f"{server}/api/games", json={"game": "rome", "seats": seats}, timeout=30)
    assert created.status_code == 201, created.text
    game_id, invitation = created.json()["id"], created.json()["seats"][1]["invitation"]
    page = open_page(browser, locale=lang, **PROFILES[profile])
    errors = watch_console(page)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    response = page.goto(f"{server}/games/{game_id}/watch")
    assert response is not None and response.status == 200
    box = page.locator(".no-screen[data-error='error.no_screen']")
    box.wait_for()
    assert page.locator("#board").count() == 0
    assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
    title = rome_text(lang, "rome.title")
    assert box.locator("h2").inner_text() == title
    assert box.locator(".error-text").inner_text() == i18n.gettext(lang, "error.no_screen", game=title)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing runs off the right edge
    for link in ("#back-home", ".api-routes a"):
        found = page.locator(link).first.bounding_box()
        assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= width
    shot(page, f"rome-no-screen-{profile}-{lang}")
    spectate = page.locator(f".api-routes a[href^='/api/games/{game_id}/spectate']")
    with page.expect_response(lambda r: "/spectate" in r.url) as answer:
        spectate.click()
    assert answer.value.status == 200 and answer.value.json()["game"] == "rome"
    # Bo's invitation: the claim through the API, its code whole on the screen
    response = page.goto(invitation)
    assert response is not None and response.status == 200
    claim = page.locator(".api-routes code", has_text="/claim")
    assert invitation.rsplit("/", 1)[1] in claim.inner_text() and page.locator("#take-seat").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"rome-no-screen-invitation-{profile}-{lang}")
    assert all("404" in e for e in errors) and all(url.endswith("/favicon.ico") for url in missing), missing
    page.context.close()
