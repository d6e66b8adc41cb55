"""Playing in the browser: create a game, play rounds by clicking, decisions, bell, languages."""

from __future__ import annotations

import httpx

from browser.support import shot
from judges.server.seats import cookie_name

ELECTION = {  # two judges stand: an election opens at once (players 0 and 1 vote)
    "clear_board": True,
    "settlements": {
        "Hazor": {"owner": 0, "troops": 2},
        "Kedesh": {"owner": 0, "troops": 1},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor"},
        {"id": 11, "owner": 1, "at": "Hebron"},
        {"id": 12, "owner": 2, "at": "Shechem"},
    ],
    "titles": {"Naphtali": {"holder": 10}, "Judah": {"holder": 11}},
}


def play_until_round(page, target_round: int, max_clicks: int = 200) -> None:
    """Plays the human seat by clicking: ends turns and answers decision windows."""
    for _ in range(max_clicks):
        page.wait_for_function("() => document.body.dataset.seq !== undefined")
        if int(page.evaluate("document.querySelector('#round').textContent.match(/\\d+/)[0]")) >= target_round:
            return
        modal = page.locator("#modal:not([hidden]) .options button")
        end = page.locator("#actions .end-turn")
        seq = page.evaluate("document.body.dataset.seq")
        if modal.count():
            modal.first.click()
        elif end.count():
            end.click()
        else:
            page.wait_for_timeout(150)
            continue
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=15000)
    raise AssertionError(f"round {target_round} not reached")


def open_as_host(page, server: str, data: dict) -> None:
    """The host created the game through the API: its browser gets the seat's cookie."""
    page.context.add_cookies([{"name": cookie_name(data["id"]), "value": data["token"], "url": server}])
    page.goto(data["link"])


def test_create_a_game_against_bots_and_play_two_rounds_by_clicking(server, page):
    page.goto(server + "/")
    page.locator(".seat-row").nth(3).wait_for()
    page.click("#remove-seat")  # three seats: me and two greedy bots
    page.fill(".seat-row:nth-child(1) .seat-name", "Deborah")
    page.select_option("#turn-timer", "600")
    page.select_option("#takeover-bot", "greedy")
    page.click("#create-game")
    link = page.locator(".own-seat").first
    link.wait_for()
    shot(page, "home")
    href = link.get_attribute("href")
    assert "?" not in href  # the creator's seat is in an HttpOnly cookie, not in the address
    game_id = href.split("/games/")[1]
    assert page.evaluate("document.cookie") == ""  # HttpOnly: the page's scripts cannot read it
    table = page.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")["table"]
    assert table == {"turn_timer": 600, "takeover_bot": "greedy"}
    link.click()
    page.wait_for_selector("#board polygon")
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    shot(page, "game-round-1")
    play_until_round(page, 3)
    assert page.locator("#players .player-board").count() >= 2
    shot(page, "game-round-3")


def test_vote_close_and_reopen_the_window_read_the_bell_switch_language(server, page):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [
                {"kind": "human", "name": "Deborah"},
                {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "greedy"},
            ],
            "position": ELECTION,
            "seed": 3,
        },
    ).json()
    open_as_host(page, server, data)
    # The vote window opens by itself.
    window = page.locator("#modal:not([hidden])")
    window.wait_for()
    assert page.locator("#modal-body h3[data-kind='vote']").count() == 1
    shot(page, "vote-window")
    page.click("#modal-close")
    assert page.locator("#modal").is_hidden()
    reopen = page.locator("#bottombar .reopen[data-kind='vote']")
    reopen.click()
    window.wait_for()
    page.locator("#modal .options button").first.click()  # vote for my own judge (listed first)
    page.wait_for_selector("#bottombar .reopen[data-kind='vote']", state="detached")
    # The election tally arrives in the bell.
    page.wait_for_function("() => document.querySelector('#unread').textContent !== ''")
    page.click("#bell")
    note = page.locator("#bell-panel details.note").first
    note.wait_for()
    note.locator("summary").click()
    assert note.locator("li").count() >= 1
    shot(page, "bell")
    page.click("#bell")
    # The manual opens at the chapter of the current phase, in the player's language.
    href = page.locator("#manual-link").get_attribute("href")
    assert href.startswith("/manual/en/")
    # Switch to Spanish, then Portuguese: the board and the bell are in that language.
    for lang, word in (("es", "Anuncios"), ("pt_BR", "Anúncios")):
        page.click(f"#langs button[data-lang='{lang}']")
        page.wait_for_selector("#phases li")
        assert word in page.locator("#phases").inner_text()
        page.click("#bell")
        page.locator("#bell-panel details.note").first.wait_for()
        shot(page, f"game-{lang}")
        page.click("#bell")


def test_two_browser_windows_see_each_others_moves_live(server, browser):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [
                {"kind": "human", "name": "Ehud"},
                {"kind": "human", "name": "Gideon"},
                {"kind": "bot", "bot": "greedy"},
            ],
            "seed": 5,
        },
    ).json()
    first, second = browser.new_page(), browser.new_page()  # two browsers: a cookie jar each
    open_as_host(first, server, data)
    # Gideon opens his invitation and takes the seat: the page he lands on has no secret in
    # its address, and the credential is his alone.
    second.goto(data["seats"][1]["invitation"])
    second.click("#take-seat")
    second.wait_for_url(f"{server}/games/{data['id']}")
    assert second.url == f"{server}/games/{data['id']}"
    for p in (first, second):
        p.wait_for_function("() => document.body.dataset.seq !== undefined")
    seq = second.evaluate("document.body.dataset.seq")
    first.locator("#actions .end-turn").click()  # seat 0 ends the first Intrigue turn
    second.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=10000)
    first.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Gideon')", timeout=10000)
    second.locator("#actions .end-turn").wait_for(timeout=10000)  # now it is seat 1's turn, live
    first.close()
    second.close()


def test_the_end_of_a_game_is_shown_with_its_winner(server, page):
    # Three Judge titles held at the Victory Check: Deborah wins at once.
    position = {
        "phase": "victory",
        "clear_board": True,
        "settlements": {
            "Hazor": {"owner": 0, "troops": 1},
            "Hebron": {"owner": 1, "troops": 1},
            "Shechem": {"owner": 2, "troops": 1},
        },
        "generals": [
            {"id": 10, "owner": 0, "at": "Hazor"},
            {"id": 11, "owner": 0, "at": "Hazor"},
            {"id": 12, "owner": 0, "at": "Hazor"},
        ],
        "titles": {"Naphtali": {"holder": 10}, "Asher": {"holder": 11}, "Jezreel": {"holder": 12}},
    }
    data = httpx.post(
        server + "/api/games",
        json={"seats": [{"kind": "human", "name": "Deborah"}, {"kind": "bot"}, {"kind": "bot"}], "position": position},
    ).json()
    open_as_host(page, server, data)
    page.wait_for_selector("#actions .ending")
    assert page.locator("#actions .ending").get_attribute("data-ending") == "three_points"
    assert "Deborah" in page.locator("#actions .winners").inner_text()
    shot(page, "game-over")
