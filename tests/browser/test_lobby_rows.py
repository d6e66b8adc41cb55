"""The lobby as a Board Game Arena regular reads it, in Chromium: every table's row tells it
from the others (its number, round and phase, age, and who sits there: an account's name and rating, a
guest's name, a bot); a guest joining from the lobby says his name first, a player signed in
sits under his account's name."""

from __future__ import annotations

import re
import secrets

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, open_page, watch_console
from browser.support import serve, shot
from browser.test_accounts_by_mail import sign_up
from judges import i18n

SAME = [{"kind": "human", "name": "Reuben"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
OPEN = [{"kind": "human", "name": "Host"}, {"kind": "human", "name": "Free", "open": True}, SAME[2]]


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("lobby")) as base:
        yield base


def create(base: str, seats: list[dict]) -> dict:
    created = httpx.post(base + "/api/games", json={"seats": seats}, timeout=HTTP_TIMEOUT)
    assert created.status_code == 201, created.text
    return created.json()


def test_three_running_games_with_the_same_seats_have_rows_that_differ(browser, lobby_server):
    base = lobby_server
    guests = [create(base, SAME)["id"] for _ in range(2)]  # the same seats, names and bots
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    name = "ruth" + secrets.token_hex(2)
    sign_up(page, base, name)
    mine = page.request.post(base + "/api/games", data={"seats": SAME}).json()["id"]  # signed in
    for lang in ("en", "es", "pt_BR"):
        for size, viewport in {"1400": (1400, 900), "390": (390, 844)}.items():
            page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
            page.goto(f"{base}/?lang={lang}")
            rows = {gid: page.locator(f"#running-games tr[data-running-game='{gid}']") for gid in [*guests, mine]}
            for row in rows.values():
                row.wait_for()
            texts = {gid: row.inner_text() for gid, row in rows.items()}
            assert len(set(texts.values())) == 3, texts
            numbers = set()
            for text in texts.values():
                number = re.search(i18n.gettext(lang, "ui.table_number", n=r"(\d{6})"), text)
                assert number, text
                numbers.add(number.group(1))
                where = i18n.gettext(lang, "ui.round_phase", round=r"\d+", phase=r"\w+")
                assert re.search(where, text), text  # its round and phase, as My games says them
            assert len(numbers) == 3
            assert name in texts[mine] and "Reuben" not in texts[mine]  # the account's name ...
            assert rows[mine].locator(".rating").inner_text().strip() == "0"  # ... and rating (new)
            assert all("Reuben" in texts[g] for g in guests)
            rows[mine].scroll_into_view_if_needed()
            shot(page, f"lobby-running-{lang}-{size}")
    assert errors == [], errors
    page.context.close()


def test_a_guest_says_his_name_when_joining_and_a_player_signed_in_sits_under_his_account(browser, lobby_server):
    base = lobby_server
    first, second = create(base, OPEN)["id"], create(base, OPEN)["id"]
    guest = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(guest)
    guest.goto(base + "/?lang=es")
    row = guest.locator(f"#open-games tr[data-open-game='{first}']")
    row.locator("input[name=name]").fill("Host")  # the host's name: taken at this table
    row.locator("button.join").click()
    row.locator(".join-error:not([hidden])").wait_for()
    assert row.locator(".join-error").inner_text() == i18n.gettext("es", "error.name_at_table")
    shot(guest, "lobby-join-as-es-390")
    row.locator("input[name=name]").fill("Tamar")
    row.locator("button.join").click()
    guest.wait_for_url(f"{base}/games/{first}*")
    guest.locator("#players .player-board[data-seat='1']", has_text="Tamar").wait_for()
    assert [e for e in errors if "409" not in e] == [], errors
    # a player signed in: no name asked, his account's
    player = open_page(browser, viewport={"width": 1400, "height": 900})
    name = "boaz" + secrets.token_hex(2)
    sign_up(player, base, name)
    open_row = player.locator(f"#open-games tr[data-open-game='{second}']")
    open_row.locator("button.join").wait_for()
    # signed in, the row is drawn again without the name's field (the lobby follows the account)
    open_row.locator("input[name=name]").wait_for(state="detached")
    shot(player, "lobby-open-en-1400")
    open_row.locator("button.join").click()
    player.wait_for_url(f"{base}/games/{second}*")
    player.locator("#players .player-board[data-seat='1']", has_text=name).wait_for()
    guest.context.close()
    player.context.close()
