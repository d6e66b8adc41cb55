"""A guest's seat lives in one browser's cookie; a link brings it to another (Chromium): the
guest opens "Link to play elsewhere" on the game screen, his phone opens the link and plays
the seat there, and the first browser no longer holds it. A player signed in is offered no
such link (his account opens the seat anywhere)."""

from __future__ import annotations

import secrets

import pytest

from browser.play import new_game, open_host_seat, open_page, wait_for_the_seat, watch_console
from browser.support import shot
from browser.test_accounts_by_mail import sign_up
from judges import i18n


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_a_guest_takes_his_seat_to_another_browser_by_its_link(browser, server, lang):
    data = new_game(server, seed=4)
    desk = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(desk)
    open_host_seat(desk, server, data, f"?lang={lang}")
    desk.wait_for_selector("#board")
    resume = desk.locator("#resume")
    resume.locator("summary").click()
    link = resume.locator(".resume-link")
    link.wait_for()
    address = link.input_value()
    assert f"/resume/{data['id']}/" in address
    assert i18n.gettext(lang, "ui.resume_help") in resume.inner_text()
    shot(desk, f"resume-link-{lang}-1400")
    phone = open_page(browser, viewport={"width": 390, "height": 844})
    phone_errors = watch_console(phone)
    phone.goto(f"{address}?lang={lang}")
    assert i18n.gettext(lang, "ui.resume_to", name="Deborah") in phone.locator("#join").inner_text()
    shot(phone, f"resume-page-{lang}-390")
    phone.click("#take-seat")
    phone.wait_for_url(f"{server}/games/{data['id']}")
    phone.wait_for_selector("#board")
    wait_for_the_seat(phone)
    assert phone.locator("#app").get_attribute("data-seat") == "0"
    phone.locator("#resume summary").scroll_into_view_if_needed()
    shot(phone, f"resume-link-{lang}-390")
    # the desk's cookie no longer opens the seat; the link still brings it back (kept, as a key)
    answer = desk.request.get(f"{server}/api/games/{data['id']}/view")
    assert answer.status in (401, 403), answer.status
    assert [e for e in errors if "401" not in e and "1008" not in e] == [], errors
    assert phone_errors == [], phone_errors
    desk.context.close()
    phone.context.close()


def test_a_player_signed_in_is_offered_no_resume_link(browser, server):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    sign_up(page, server, "hannah" + secrets.token_hex(2))
    page.click("#create-game")
    page.wait_for_selector("#link-list .own-seat")
    page.locator("#link-list .own-seat").click()
    page.wait_for_selector("#board")
    page.wait_for_selector("#resume[data-checked='true']", state="attached")  # the screen asked who is signed in
    assert page.locator("#resume").is_hidden()
    page.context.close()
