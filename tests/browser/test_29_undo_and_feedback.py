"""Taking back and feedback, in the browser.

- **Undo** (§ 4 Taking back): a general moved by clicking comes back with the Undo button or
  Ctrl+Z, and his step is struck through in the log; once something is revealed (a card drawn)
  or the turn went on, Undo is not offered and the server refuses it.
- **Feedback within 100 ms**: every answer (a button of the actions panel, a window's choice, a
  move on the board, Undo) shows a pressed state at once, and keeps it while the server takes its
  time (here 2.5 s, added to every action request), until the view that follows is drawn.
- **The 4 s answer to a window**: a battle's dice, shown with the Plunder window, covered its
  choices (a click took the dice away, not the decision; Playwright waited ~4 s for them to go).
"""

from __future__ import annotations

import time

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import APPOINT, BOTS_GENERALS
from browser.support import shot

MOVEMENT = {  # round 1's Movement, Deborah (seat 0) first; Shunem's garrison lets her take troops
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Shunem": {"owner": 0, "troops": 3},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, *BOTS_GENERALS],
}
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
# Two long battles at once (big armies against big garrisons, one behind walls): their dice
# make a tall box; the Plunder window opens with it.
BATTLES = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Hazor": {"owner": 1, "troops": 9, "walls": True},
        "Kedesh": {"owner": 1, "troops": 6},
        "Shiloh": {"owner": 0, "troops": 1},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor", "army": 14},
        {"id": 13, "owner": 0, "at": "Kedesh", "army": 10},
        *BOTS_GENERALS,
    ],
}

UNDO = "#actions [data-action='undo']"
END_TURN_SHOWN = "!!document.querySelector('#actions:not([hidden]) .end-turn')"


def general_hex(page, gid: int) -> str:
    return page.locator(f"#board [data-general='{gid}']").get_attribute("data-hex")


def move_general(page, gid: int) -> None:
    """Selects the general by clicking him, then clicks the first settlement he can reach."""
    page.locator(f"#board [data-general='{gid}']").click()
    before = seq(page)
    page.locator("#board [data-settlement].reachable").first.click()
    wait_change(page, before)


@pytest.mark.parametrize(
    "viewport,lang,how",
    [
        ({"width": 1400, "height": 900}, "en", "button"),
        ({"width": 390, "height": 844}, "es", "keys"),
    ],
    ids=["desktop-en-button", "phone-es-ctrl-z"],
)
def test_a_move_is_taken_back(server, browser, viewport, lang, how):
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=MOVEMENT)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    undo = page.locator(UNDO)
    assert undo.is_disabled(), "nothing to take back before the first step"
    home = general_hex(page, 10)
    move_general(page, 10)
    assert general_hex(page, 10) != home
    assert undo.is_enabled()
    shot(page, f"undo-offered-{viewport['width']}")
    before = seq(page)
    if how == "keys":
        page.locator("#board").click(position={"x": 3, "y": 3})  # the focus on the page, not in a field
        page.keyboard.press("Control+z")
    else:
        undo.click()
    wait_change(page, before)
    page.wait_for_function(f"() => document.querySelector(\"#board [data-general='10']\").dataset.hex === '{home}'")
    assert undo.is_disabled()
    struck = page.locator("#log-list .log-action[data-undone='true']")
    struck.first.wait_for()
    assert struck.count() == 1 and page.locator("#log-list .log-action[data-type='undo']").count() == 1
    assert "line-through" in struck.first.evaluate("(n) => getComputedStyle(n).textDecorationLine")
    shot(page, f"undo-done-{viewport['width']}")
    assert errors == []
    page.context.close()


def test_after_a_reveal_undo_is_not_offered_and_the_server_refuses_it(server, page):
    errors = watch_console(page)
    data = new_game(server, seed=3, position=SHOP)
    headers = {"X-Seat-Token": data["token"]}
    actions = f"{server}/api/games/{data['id']}/actions"
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").wait_for()
    # a troop bought by clicking Shunem: it can be taken back
    page.locator("#board [data-settlement='Shunem']").click()
    before = seq(page)
    page.locator("#chooser:not([hidden]) .choice[data-type='buy']").first.click()
    wait_change(page, before)
    assert page.locator(UNDO).is_enabled()
    # a card drawn (bought through the API by the same seat): something hidden is revealed
    before = seq(page)
    bought = httpx.post(
        actions, headers=headers, json={"action": {"type": "buy", "item": "card"}}, timeout=HTTP_TIMEOUT
    )
    assert bought.status_code == 200, bought.text
    wait_change(page, before)
    page.wait_for_function(f'() => document.querySelector("{UNDO}").disabled')
    refused = httpx.post(actions, headers=headers, json={"action": {"type": "undo"}}, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 422 and refused.json()["key"] == "error.undo_revealed"
    page.keyboard.press("Control+z")  # the keys do nothing either
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.sending") != "true"
    # the next players act: still nothing to take back
    before = seq(page)
    page.locator("#actions .end-turn").click()
    wait_change(page, before)
    refused = httpx.post(actions, headers=headers, json={"action": {"type": "undo"}}, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 422 and refused.json()["key"] == "error.undo_nothing"
    assert errors == []


# --- feedback within 100 ms ----------------------------------------------------------------------

# Every action waits 2.5 s in the page before it leaves (a slow server), over the socket or by
# HTTP; the page notes when each click happened and when the first pressed state (a control
# with aria-busy, or the top bar's spinner) appeared after it.
SLOW_AND_WATCHED = """
(() => {
  const real = window.fetch;
  window.fetch = (url, init) => String(url).includes('/actions') && init && init.method === 'POST'
    ? new Promise((ok) => setTimeout(ok, 2500)).then(() => real(url, init)) : real(url, init);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && JSON.parse(data).type === 'act') {
      setTimeout(() => send.call(this, data), 2500);
      return;
    }
    return send.call(this, data);
  };
  window.__clicks = [];
  const pressed = () => !!document.querySelector("#app [aria-busy='true']")
    || !!(document.getElementById('sending') && !document.getElementById('sending').hidden);
  const look = () => {
    const last = window.__clicks[window.__clicks.length - 1];
    if (last && last.pressed === null && pressed()) last.pressed = performance.now() - last.at;
  };
  document.addEventListener('click', () => {
    window.__clicks.push({at: performance.now(), pressed: null});
    queueMicrotask(look);
  }, true);
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true,
    attributeFilter: ['aria-busy', 'hidden', 'class']});
})();
"""


def pressed_at_once(page, click, name: str | None = None) -> float:
    """Clicks; returns how long after the click the first pressed state showed (ms), checking
    it is still shown a second later (the answer still on its way) and gone once the view came."""
    before = seq(page)
    click()
    page.wait_for_timeout(1000)
    latest = page.evaluate("window.__clicks[window.__clicks.length - 1]")
    assert latest["pressed"] is not None, "no pressed state after the click"
    assert page.evaluate("document.body.dataset.sending") == "true", "the pressed state went before the answer"
    if name:
        shot(page, name)
    wait_change(page, before)
    page.wait_for_function("() => document.body.dataset.sending === 'false'")
    assert page.locator("#app [aria-busy='true']").count() == 0
    return latest["pressed"]


def test_every_answer_is_pressed_within_100_ms_while_the_server_is_slow(server, browser):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    page.add_init_script(SLOW_AND_WATCHED)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=APPOINT)
    open_host_seat(page, server, data)
    times = {}
    # a window's choice: ⚖ Appoint Judge opens at the Announcements
    choice = page.locator("#modal:not([hidden]) .options button[data-type='appoint_judge']").first
    times["window"] = pressed_at_once(page, choice.click)
    # the actions panel's End turn, through Intrigue and Acquisitions
    for phase in ("intrigue", "acquisitions"):
        page.wait_for_function(f"() => document.body.dataset.phase === '{phase}' && {END_TURN_SHOWN}")
        times[phase] = pressed_at_once(page, page.locator("#actions .end-turn").click)
    # a move on the board, then Undo
    page.wait_for_function(f"() => document.body.dataset.phase === 'movement' && {END_TURN_SHOWN}")
    page.locator("#board [data-general='10']").click()
    times["move"] = pressed_at_once(page, page.locator("#board [data-settlement].reachable").first.click)
    times["undo"] = pressed_at_once(page, page.locator(UNDO).click, "pressed-undo-1400")
    assert all(ms < 100 for ms in times.values()), times
    assert errors == []
    page.context.close()


# --- the battle's dice never take a window's clicks ------------------------------------------------


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 720}, {"width": 390, "height": 844}], ids=["1280", "phone"]
)
def test_a_window_opened_with_a_battle_answers_at_once(server, browser, viewport):
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=BATTLES)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").click()
    page.locator("#modal:not([hidden]) h3[data-kind='plunder']").wait_for()
    page.locator(".battle-overlay").wait_for()  # the dice are shown with the window
    shot(page, f"plunder-with-dice-{viewport['width']}")
    options = page.locator("#modal:not([hidden]) .options button[data-type='plunder']")
    for i in range(options.count()):  # each choice is what a click on it reaches
        hit = options.nth(i).evaluate(
            "(b) => { const r = b.getBoundingClientRect();"
            " return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
        )
        assert hit, f"choice {i} is covered"
    before = seq(page)
    start = time.monotonic()
    options.first.click()
    wait_change(page, before)
    took = time.monotonic() - start
    assert took < 2.5, f"the window's answer took {took:.1f} s"  # it took 3.8 to 4.4 s when covered
    assert errors == []
    page.context.close()
