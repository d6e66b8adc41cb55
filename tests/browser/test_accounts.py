"""Accounts in the browser: a player signs up and creates a game in one browser; a
second browser (another device) signs in to the same account, finds the game under "My games"
with its turn marked, opens it and plays the same seat."""

from __future__ import annotations

import secrets

from browser.play import TIMEOUT, answer_window, open_page, seq, wait_change, wait_for_the_seat, watch_console
from browser.support import shot


def test_a_seat_follows_its_account_to_a_second_browser(browser, server):
    name, password = "ruth" + secrets.token_hex(3), "a long secret"
    first = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(first)
    first.goto(server + "/?lang=en")
    form = first.locator("#account-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(password)
    first.click("#sign-up")
    first.wait_for_selector("#signed-in:not([hidden])")
    assert name in first.locator("#account-name").inner_text()
    first.click("#create-game")
    first.wait_for_selector("#link-list .own-seat")
    game_id = first.locator("#link-list .own-seat").get_attribute("href").rsplit("/", 1)[1]

    second = open_page(browser, viewport={"width": 390, "height": 844})
    errors += watch_console(second)
    second.goto(server + "/?lang=en")
    second.wait_for_selector("#account-form:not([hidden])")
    shot(second, "accounts-sign-in-390")
    assert second.context.cookies() == [] or all(not c["name"].startswith("jk_seat_") for c in second.context.cookies())
    second.locator("#account-form input[name=name]").fill(name)
    second.locator("#account-form input[name=password]").fill(password)
    second.click("#sign-in")
    row = second.locator(f"#my-running tr[data-my-game='{game_id}']")
    row.wait_for()
    second.wait_for_selector(f"#my-running tr[data-my-game='{game_id}'][data-your-turn='true']", timeout=TIMEOUT)
    shot(second, "accounts-my-games-390")
    first.reload()
    first.wait_for_selector(f"#my-running tr[data-my-game='{game_id}']")
    shot(first, "accounts-my-games-1400")

    row.locator("a.play").click()
    second.wait_for_selector("#board")
    wait_for_the_seat(second)
    before = seq(second)
    if not answer_window(second):
        second.locator("#actions .end-turn").click()
        wait_change(second, before)
    assert seq(second) != before  # the second browser played the seat
    assert not [e for e in errors if "favicon" not in e], errors
    first.context.close()
    second.context.close()


def test_the_host_reissues_an_invitation_from_the_screen(browser, server):
    """A seat whose invitation was lost: the host opens a new one from the players' panel; the
    old link stops working and the new one takes the seat."""
    import httpx

    from browser.play import HTTP_TIMEOUT
    from seats_support import invitation_code

    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.goto(server + "/?lang=en")
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]
    created = page.request.post(server + "/api/games", data={"seats": seats})  # the host's cookie lands here
    assert created.status == 201
    data = created.json()
    old = next(s["invitation"] for s in data["seats"] if "invitation" in s)
    page.goto(f"{server}/games/{data['id']}?lang=en")
    button = page.locator("#players .player-board[data-seat='1'] button[data-action=reissue]")
    button.click()
    link = page.locator("#players .player-board[data-seat='1'] .reissued-link")
    link.wait_for()
    new = link.input_value()
    assert new != old and f"/join/{data['id']}/" in new
    shot(page, "accounts-reissue-1400")
    claim = f"{server}/api/games/{data['id']}/claim"
    spent = httpx.post(claim, json={"invitation": invitation_code(old)}, timeout=HTTP_TIMEOUT)
    assert spent.status_code == 404
    taken = httpx.post(claim, json={"invitation": invitation_code(new)}, timeout=HTTP_TIMEOUT)
    assert taken.status_code == 200 and taken.json()["seat"] == 1
    # only the host sees the button: not the seat's new player
    assert page.locator("#players .player-board[data-seat='0'] button[data-action=reissue]").count() == 0
    assert not [e for e in errors if "favicon" not in e], errors
    page.context.close()


def test_the_account_panels_show_no_english_word(browser, server):
    """§ 15 Languages for the account's panels: signed in, with a running and a finished game,
    in Spanish and in Portuguese (browser/test_screen_languages.py's check)."""
    import time

    from browser.test_screen_languages import LANGUAGES, check_no_english

    for lang in LANGUAGES:
        page = open_page(browser, viewport={"width": 1400, "height": 900})
        errors = watch_console(page)
        page.goto(f"{server}/?lang={lang}")
        page.locator("#account-form input[name=name]").fill("levi" + secrets.token_hex(3))
        page.locator("#account-form input[name=password]").fill("a long secret")
        page.click("#sign-up")
        page.wait_for_selector("#signed-in:not([hidden])")
        seats = [{"kind": "human", "name": "Ehud"}, {"kind": "bot"}, {"kind": "bot"}]
        running = page.request.post(server + "/api/games", data={"seats": seats, "seed": 5}).json()
        done = page.request.post(server + "/api/games", data={"seats": seats, "seed": 9, "round_limit": 1}).json()
        page.request.post(f"{server}/api/games/{done['id']}/seat/away")
        deadline = time.monotonic() + TIMEOUT / 1000
        while time.monotonic() < deadline:
            if page.request.get(server + "/api/me/games").json()["finished"]:
                break
            time.sleep(0.5)
        page.reload()
        page.wait_for_selector(f"#my-running tr[data-my-game='{running['id']}']")
        page.wait_for_selector(f"#my-finished tr[data-my-game='{done['id']}']")
        check_no_english(page, lang, "my games")
        shot(page, f"accounts-my-games-{lang}")
        page.click("#sign-out")
        page.wait_for_selector("#account-form:not([hidden])")
        check_no_english(page, lang, "sign in")
        assert errors == [], errors
        page.context.close()
