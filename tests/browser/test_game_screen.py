"""The game screen in the browser: lobby, a whole game played by clicking the board (moves by
clicking the destination settlement, purchases by clicking their target), windows, the bell,
elimination, spectators, replays (languages: test_screen_languages.py). Screenshots: tests/browser/support.py."""

from __future__ import annotations

import re

import httpx
import pytest

from browser.play import (
    HTTP_TIMEOUT,
    bots_finish_game,
    claim_invitation,
    new_game,
    open_host_seat,
    open_page,
    play_to_the_end,
    seq,
    wait_change,
    watch_console,
)
from browser.positions import ELECTION, ELIMINATION
from browser.support import shot


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def check_final_table(page, players: int = 3) -> None:
    final = page.locator("[data-panel='final']")
    final.wait_for()
    rows = final.locator("tbody tr[data-seat]")
    assert rows.count() == players
    for i in range(players):
        for source in ("judges", "king", "tabernacle", "total"):
            assert re.fullmatch(r"\d+", rows.nth(i).locator(f"td[data-source='{source}']").inner_text())
    assert final.locator(".ending").get_attribute("data-ending")
    # the seat's controls are gone once the game is over
    assert page.locator("#seat-control").is_hidden()
    assert page.locator("#actions").is_hidden()


@pytest.mark.parametrize(
    "viewport, limit",
    [({"width": 1400, "height": 900}, None), ({"width": 390, "height": 844}, 2)],
    ids=["desktop-whole-game", "phone-two-rounds"],
)
def test_a_game_against_two_bots_played_to_its_end_by_clicking_the_board(server, browser, viewport, limit):
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    data = new_game(server, seed=11, **({"round_limit": limit} if limit else {}))
    open_host_seat(page, server, data)
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    name = "desktop" if limit is None else "phone"
    # the active seat is marked in the Players panel
    assert page.locator("[data-panel='players'] [data-seat='0'][data-active='true']").count() == 1
    log_before = page.locator("[data-panel='log'] [data-log-entry]").count()
    no_horizontal_scroll(page)
    shot(page, f"{name}-game")
    done = play_to_the_end(page)
    assert done["moved"] > 0 and done["bought"] > 0, done
    assert page.locator("[data-panel='log'] [data-log-entry]").count() > log_before + 10
    check_final_table(page)
    no_horizontal_scroll(page)
    page.locator("[data-panel='final']").scroll_into_view_if_needed()
    shot(page, f"{name}-final")
    assert errors == []
    page.context.close()


def test_the_lobby_lists_an_open_table_and_joining_takes_its_free_seat(server, page):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Ehud"}, {"kind": "human", "open": True}, {"kind": "bot"}],
            "seed": 4,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    # the creator's own credential only; the open seat has neither credential nor invitation
    assert data["seat"] == 0 and data["token"]
    assert [bool(s.get("open")) for s in data["seats"]] == [False, True, False]
    assert not any("invitation" in s for s in data["seats"])
    page.goto(server + "/")
    row = page.locator(f"[data-open-game='{data['id']}']")
    row.wait_for()
    shot(page, "home-lobby")
    row.locator("input[name=name]").fill("Jael")  # a guest says his name when joining
    row.locator("button.join").click()
    # the seat's credential came back as the game's HttpOnly cookie: no secret in the address
    page.wait_for_url(f"{server}/games/{data['id']}")
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("document.body.dataset.seq") is not None
    assert page.locator("[data-panel='players'] [data-seat='1']").inner_text()
    assert (
        httpx.post(f"{server}/api/games/{data['id']}/join", timeout=HTTP_TIMEOUT).status_code == 409
    )  # no free seat left


def test_vote_close_and_reopen_the_window_read_the_bell(server, page):
    data = new_game(server, position=ELECTION, seed=3)
    open_host_seat(page, server, data)
    window = page.locator("#modal:not([hidden])")
    window.wait_for()
    assert page.locator("#modal-body h3[data-kind='vote']").count() == 1
    shot(page, "vote-window")
    page.click("#modal-close")
    assert page.locator("#modal").is_hidden()
    page.locator("#bottombar .reopen[data-kind='vote']").click()
    window.wait_for()
    page.locator("#modal .options button").first.click()
    page.wait_for_selector("#bottombar .reopen[data-kind='vote']", state="detached")
    page.wait_for_function("() => document.querySelector('#unread').textContent !== ''")
    page.click("#bell")
    note = page.locator("#bell-panel details.note").first
    note.wait_for()
    note.locator("summary").click()
    assert note.locator("li").count() >= 1
    shot(page, "bell")
    assert page.locator("#manual-link").get_attribute("href").startswith("/manual/en/")


def test_an_eliminated_player_sees_the_message_then_watches(server, page):
    data = new_game(server, position=ELIMINATION, seed=8)
    open_host_seat(page, server, data)
    message = page.locator("[data-eliminated='true']")
    message.wait_for()
    assert page.locator("#seat-control").is_hidden() and page.locator("#actions").is_hidden()
    assert page.locator("#me").is_hidden()  # no coins nor hand of a seat that is out
    # the eliminated player's board left the Players panel; the two living players' stay
    assert page.locator("[data-panel='players'] [data-seat='0']").count() == 0
    assert page.locator("[data-panel='players'] [data-out-seat='0']").count() == 1
    shot(page, "eliminated")


def test_a_spectator_sees_the_public_view_live_and_no_hand(server, browser):
    data = new_game(server, seed=5)
    watcher = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(watcher)
    received: list[str] = []
    sent: list[str] = []

    def frames(socket):  # the spectator's socket: a full view, then deltas (server/table/hub.py)
        socket.on("framereceived", lambda payload: received.append(str(payload)[:40]))
        socket.on("framesent", lambda payload: sent.append(str(payload)))

    watcher.on("websocket", frames)
    watcher.goto(f"{server}/games/{data['id']}/watch")
    watcher.wait_for_function("() => document.body.dataset.seq !== undefined")
    assert watcher.locator("#me").is_hidden() and watcher.locator(".card-chip").count() == 0
    assert watcher.locator(".spectating").count() == 1
    view = httpx.get(f"{server}/api/games/{data['id']}/spectate", timeout=HTTP_TIMEOUT).json()
    assert all(p["hand"] == [] for p in view["state"]["players"]) and view["ballot"] is None
    # the player acts: the spectator sees it live
    player = open_page(browser)
    open_host_seat(player, server, data)
    player.locator("#actions .end-turn").wait_for()
    before = seq(watcher)
    player.locator("#actions .end-turn").click()
    wait_change(watcher, before)
    shot(watcher, "spectator")
    watcher.set_viewport_size({"width": 390, "height": 844})
    shot(watcher, "spectator-phone")
    # the screen turned the deltas into the view it draws, without asking for a whole one
    assert received[0].startswith('{"type":"full"') and any(f.startswith('{"type":"delta"') for f in received)
    assert [f for f in sent if "resync" in f] == []
    view = httpx.get(f"{server}/api/games/{data['id']}/spectate", timeout=HTTP_TIMEOUT).json()
    watcher.wait_for_function(f"() => Number(document.body.dataset.seq) >= {view['seq']}")
    assert errors == []
    player.context.close()
    watcher.context.close()


def test_a_replay_steps_through_a_finished_game_to_its_final_state(server, page):
    data, view = bots_finish_game(server)  # the bots play it all
    game_id = data["id"]
    assert view["ending"] == "round_limit"
    errors = watch_console(page)
    page.goto(f"{server}/games/{game_id}/replay")
    where = page.locator(".replay-where")
    where.wait_for()
    steps = int(where.get_attribute("data-steps"))
    # it opens at its start (issue 29: the result is not spoiled)
    assert steps == view["seq"] and int(where.get_attribute("data-step")) == 0
    assert page.locator("[data-panel='final']").count() == 0
    page.click("#replay-last")
    page.wait_for_selector(f".replay-where[data-step='{steps}']")
    check_final_table(page)
    page.click("#replay-first")
    page.wait_for_selector(".replay-where[data-step='0']")
    assert page.locator("[data-panel='final']").count() == 0
    assert page.locator(".replay-hand").count() == 3  # every hand shown
    page.click("#replay-next")
    page.wait_for_selector(".replay-where[data-step='1']")
    page.click("#replay-last")
    page.wait_for_selector(f".replay-where[data-step='{steps}']")
    final = httpx.get(f"{server}/api/games/{game_id}/replay", timeout=HTTP_TIMEOUT).json()
    assert final["final"] == view["final"] and final["state"]["round"] == view["round"]
    shot(page, "replay")
    assert errors == []


def test_two_browser_windows_see_each_others_moves_live(server, browser):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Ehud"}, {"kind": "human", "name": "Gideon"}, {"kind": "bot"}],
            "seed": 5,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    first, second = open_page(browser), open_page(browser)
    open_host_seat(first, server, data)
    # Gideon opens his invitation and takes the seat: the page he lands on has no secret in its
    # address, and the credential is his alone (a cookie jar per browser context).
    claim_invitation(second, server, data, 1)
    for p in (first, second):
        p.wait_for_function("() => document.body.dataset.seq !== undefined")
    before = seq(second)
    first.locator("#actions .end-turn").click()  # seat 0 ends the first Intrigue turn
    wait_change(second, before)
    first.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Gideon')")
    second.locator("#actions .end-turn").wait_for()  # now it is seat 1's turn, live
    assert second.locator("[data-panel='players'] [data-seat='1'][data-active='true']").count() == 1
    first.context.close()
    second.context.close()


def test_the_home_page_creates_a_game_with_the_creators_link_and_the_invitations(server, page):
    page.goto(server + "/")
    page.locator(".seat-row").nth(3).wait_for()
    page.click("#remove-seat")  # three seats: me, a second human and a greedy bot
    page.fill(".seat-row:nth-child(1) .seat-name", "Deborah")
    page.select_option(".seat-row:nth-child(2) .seat-kind", "human")
    page.select_option("#turn-timer", "600")
    page.select_option("#takeover-bot", "greedy")
    page.click("#create-game")
    own = page.locator(".own-seat")
    own.wait_for()
    href = own.get_attribute("href")
    assert "?" not in href  # the creator's seat is in an HttpOnly cookie, not in the address
    assert page.evaluate("document.cookie") == ""  # HttpOnly: the page's scripts cannot read it
    invitations = page.locator(".seat-link")
    assert invitations.count() == 1
    assert "/join/" in invitations.first.get_attribute("href")
    game_id = href.split("/games/")[1]
    table = page.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")["table"]
    assert table == {
        "turn_timer": 600,
        "pace_hours": None,
        "takeover_bot": "greedy",
        "hints": False,
    }  # hints: off unless the form says on
    own.click()
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    assert page.locator("[data-panel='players'] [data-seat='0']").count() == 1
