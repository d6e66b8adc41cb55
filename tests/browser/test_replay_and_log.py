"""The replay and the log as a Board Game Arena regular reads them: the replay plays by itself
(play, pause, a speed), steps by one action, one phase or one round, follows the keyboard's
arrows (Home and End, space to play); a player's same step taken again and again in a row is one
line of the log with its count, at the table and in the replay, in the three languages.
Screenshots: `replay-<lang>-<w>x<h>.png`, `log-grouped-<lang>-<w>x<h>.png`."""

from __future__ import annotations

import time

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, TIMEOUT, new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import BOTS_GENERALS
from browser.support import shot
from browser.test_screen_languages import check_no_english
from judges.i18n import gettext

# Seat 0 shops at Shunem with 9 coins in the only round of the game.
SHOP = {
    "phase": "acquisitions",
    "clear_board": True,
    "settlements": {
        "Shunem": {"owner": 0, "troops": 1},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "coins": 9}],
}


def hand_to_bots_and_wait(server: str, data: dict) -> dict:
    """The creator's seat handed to a bot; the final view once the bots have finished."""
    headers = {"X-Seat-Token": data["token"]}
    httpx.post(f"{server}/api/games/{data['id']}/seat/away", headers=headers, timeout=HTTP_TIMEOUT)
    deadline = time.monotonic() + TIMEOUT / 1000 * 2
    while time.monotonic() < deadline:
        view = httpx.get(f"{server}/api/games/{data['id']}/view", headers=headers, timeout=HTTP_TIMEOUT).json()
        if view["ending"]:
            return view
        time.sleep(0.2)
    raise AssertionError("the bots did not finish the game")


@pytest.fixture(scope="module")
def two_rounds(server):
    """A two-round game the bots played to its end."""
    data = new_game(server, seed=21, round_limit=2)
    hand_to_bots_and_wait(server, data)
    replay = httpx.get(f"{server}/api/games/{data['id']}/replay", timeout=HTTP_TIMEOUT).json()["replay"]
    return data["id"], replay


def where(page) -> int:
    return int(page.locator(".replay-where").get_attribute("data-step"))


def at(page, step: int) -> None:
    page.wait_for_selector(f".replay-where[data-step='{step}']")


def test_the_replay_steps_by_action_phase_and_round_with_buttons_and_arrows(server, page, two_rounds):
    game_id, replay = two_rounds
    steps, rounds, phases = replay["steps"], replay["rounds"], replay["phases"]
    assert set(rounds) == {"1", "2"} and phases[0] == 0 and phases == sorted(set(phases)) and len(phases) >= 8
    errors = watch_console(page)
    page.goto(f"{server}/games/{game_id}/replay")
    at(page, 0)
    page.locator("#board").click(position={"x": 3, "y": 3})  # the focus on the page, not in a field
    page.keyboard.press("ArrowRight")
    at(page, 1)
    page.keyboard.press("ArrowRight")
    at(page, 2)
    page.keyboard.press("ArrowLeft")
    at(page, 1)
    page.keyboard.press("End")
    at(page, steps)
    page.keyboard.press("Home")
    at(page, 0)
    # by phase: each step lands where a phase begins, and the phase shown is that step's
    page.select_option("#replay-unit", "phase")
    page.click("#replay-next")
    at(page, phases[1])
    page.locator("#board").click(position={"x": 3, "y": 3})
    page.keyboard.press("ArrowRight")
    at(page, phases[2])
    page.keyboard.press("ArrowLeft")
    at(page, phases[1])
    # by round: the second round's first step, then the end
    page.select_option("#replay-unit", "round")
    page.click("#replay-first")
    at(page, 0)
    page.click("#replay-next")
    at(page, rounds["2"])
    assert page.locator("#replay-round").input_value() == str(rounds["2"])
    page.click("#replay-next")
    at(page, steps)
    page.click("#replay-prev")
    at(page, rounds["2"])
    assert page.locator("#replay-next").get_attribute("title") == gettext("en", "ui.replay_next_round")
    assert errors == []


def test_the_replay_plays_by_itself_pauses_and_keeps_its_speed(server, page, two_rounds):
    game_id, replay = two_rounds
    errors = watch_console(page)
    page.goto(f"{server}/games/{game_id}/replay")
    at(page, 0)
    page.select_option("#replay-unit", "action")
    page.select_option("#replay-speed", "4")
    page.click("#replay-play")
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => Number(document.querySelector('.replay-where').dataset.step) >= 4")
    page.click("#replay-play")  # pause
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"
    page.wait_for_selector("#replay:not([data-loading='true'])")  # the step on its way when paused lands
    paused = where(page)
    page.wait_for_timeout(1500)  # four steps' time at 4x: nothing moves while paused
    assert where(page) == paused
    # space plays again; a step by hand pauses it
    page.locator("#board").click(position={"x": 3, "y": 3})
    page.keyboard.press(" ")
    page.wait_for_function(f"() => Number(document.querySelector('.replay-where').dataset.step) > {paused}")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"
    # the speed is remembered on the next visit
    page.reload()
    at(page, 0)
    assert page.locator("#replay-speed").input_value() == "4"
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_repeated_steps_are_one_log_line_with_a_count_at_the_table_and_in_the_replay(server, browser, lang, size):
    data = new_game(server, seed=4, round_limit=1, position=SHOP)
    headers = {"X-Seat-Token": data["token"]}
    actions = f"{server}/api/games/{data['id']}/actions"
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    for _ in range(4):
        before = seq(page)
        bought = httpx.post(
            actions,
            headers=headers,
            json={"action": {"type": "buy", "item": "troop", "settlement": "Shunem"}},
            timeout=HTTP_TIMEOUT,
        )
        assert bought.status_code == 200, bought.text
        wait_change(page, before)
    line = page.locator("#log-list .log-action[data-type='buy']")
    line.first.wait_for()
    page.wait_for_selector("#log-list .log-action[data-count='4']")
    assert line.count() == 1  # four purchases, one line
    assert line.first.locator(".log-count").inner_text() == gettext(lang, "ui.log_times", n=4)
    if lang != "en":
        check_no_english(page, lang, "the log")
    line.first.scroll_into_view_if_needed()
    shot(page, f"log-grouped-{lang}-{size[0]}x{size[1]}")
    hand_to_bots_and_wait(server, data)
    page.goto(f"{server}/games/{data['id']}/replay?lang={lang}")
    at(page, 0)
    page.keyboard.press("End")
    page.wait_for_selector("#log-list .log-action[data-type='buy'][data-count='4']")
    if lang != "en":
        check_no_english(page, lang, "the replay's log")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_replay_controls_read_in_every_language_and_size(server, browser, two_rounds, lang, size):
    game_id, replay = two_rounds
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    page.goto(f"{server}/games/{game_id}/replay?lang={lang}")
    at(page, 0)
    page.select_option("#replay-unit", "phase")
    page.click("#replay-next")
    at(page, replay["phases"][1])
    if lang != "en":
        check_no_english(page, lang, "the replay's controls")
    controls = page.locator("#replay")
    controls.scroll_into_view_if_needed()
    for control in ("#replay-first", "#replay-prev", "#replay-play", "#replay-next", "#replay-last", "#replay-unit"):
        box = page.locator(control).bounding_box()
        assert box and box["width"] >= 16 and box["x"] >= 0 and box["x"] + box["width"] <= size[0], control
    shot(page, f"replay-{lang}-{size[0]}x{size[1]}")
    assert errors == []
    page.context.close()
