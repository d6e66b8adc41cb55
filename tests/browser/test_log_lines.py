"""The log beside the board, in Chromium: a whole game's action lines name the owner of every
general they name (the buttons did; the log printed "(?)" for a general who had died since),
in English, Spanish and Portuguese."""

from __future__ import annotations

import time

import httpx

from browser.play import HTTP_TIMEOUT, TIMEOUT, open_page, watch_console
from browser.support import shot

SEED = 4  # greedy bots' whole game: assassins, generals killed, appointments
SEATS = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "bot": "greedy"}] * 3


def test_no_log_line_of_a_whole_game_says_question_mark_in_three_languages(browser, server):
    body = {"seats": SEATS, "seed": SEED, "takeover_bot": "greedy"}
    created = httpx.post(server + "/api/games", json=body, timeout=HTTP_TIMEOUT)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    away = f"{server}/api/games/{game_id}/seat/away"
    assert httpx.post(away, headers={"X-Seat-Token": token}, timeout=HTTP_TIMEOUT).is_success  # bots only
    deadline = time.monotonic() + TIMEOUT / 1000 * 3
    while time.monotonic() < deadline:
        view = httpx.get(f"{server}/api/games/{game_id}/spectate", timeout=HTTP_TIMEOUT).json()
        if view["ending"]:
            break
        time.sleep(0.5)
    else:
        raise AssertionError("the bots did not finish the game")
    names = [seat["name"] for seat in view["seats"]]
    actions = httpx.get(f"{server}/api/games/{game_id}/log", timeout=HTTP_TIMEOUT).json()["seq"]
    for lang in ("en", "es", "pt_BR"):
        page = open_page(browser, viewport={"width": 1400, "height": 900})
        errors = watch_console(page)
        page.goto(f"{server}/games/{game_id}/watch?lang={lang}")
        page.wait_for_function(
            f"() => [...document.querySelectorAll('#log-list li.log-action')]"
            f".reduce((n, li) => n + Number(li.dataset.count || 1), 0) >= {actions}"
        )
        lines = page.locator("#log-list li.log-action").all_inner_texts()
        notes = page.locator("#log-list li.log-note").all_inner_texts()
        assert lines and notes
        assert not [line for line in lines + notes if "(?)" in line], lang
        assassins = page.locator("#log-list li.log-action[data-type='play_assassin']").all_inner_texts()
        assert assassins and all(any(f"({n})" in line for n in names) for line in assassins), assassins
        page.locator("#log-list li.log-action[data-type='play_assassin']").first.scroll_into_view_if_needed()
        shot(page, f"log-owners-{lang}-1400")
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: the log is a panel below the board
        page.locator("#log-list li.log-action[data-type='play_assassin']").first.scroll_into_view_if_needed()
        shot(page, f"log-owners-{lang}-390")
        assert errors == [], errors
        page.context.close()
