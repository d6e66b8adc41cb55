"""§ 15 What the player sees (rules brief; the manual's statements the screen decides):

- an eliminated player's board leaves the Players panel, and that player reads why;
- automatic phases never open a window (their results go to the bell and the log);
- the ⚖ Appoint Judge and 👁 Foresee windows open by themselves, close, and reopen from the
  bottom bar, under their names in each language (🗳 Vote: test_game_screen.py);
- a vacant title nobody eligible can take is deferred: the screen says so, no window opens;
- a general's move, a battle's dice and a settlement changing hands are animated, and nothing
  moves for a reader who asks for reduced motion.

Games start from scenario positions (tests/browser/positions.py)."""

from __future__ import annotations

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, TIMEOUT, new_game, open_host_seat, open_page, play_to_the_end, watch_console
from browser.positions import APPOINT, BATTLE, DEFERRED, FORESEE, LAST_TURN
from browser.support import shot
from judges.i18n import catalog, gettext

LANGUAGES = ["en", "es", "pt_BR"]

# Records, at every view the page draws and every time a window shows or hides, the phase, the
# window's kind (if one is open) and how many Income reports the log holds.
WATCH_WINDOWS = """
window.__screens = [];
const record = () => {
  const modal = document.querySelector('#modal');
  if (!modal || document.body.dataset.seq === undefined) return;
  const kind = modal.hidden ? null : (modal.querySelector('h3[data-kind]') || {dataset: {kind: '?'}}).dataset.kind;
  const owed = [...document.querySelectorAll('#bottombar .reopen')].map((b) => b.dataset.kind);
  window.__screens.push({seq: document.body.dataset.seq, phase: document.body.dataset.phase, kind, owed,
    income: document.querySelectorAll("[data-log-entry][data-key='notification.income']").length});
};
new MutationObserver(record)
  .observe(document, {subtree: true, attributes: true, attributeFilter: ['hidden', 'data-seq']});
"""


def screens(page) -> list[dict]:
    return page.evaluate("window.__screens")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_eliminated_players_board_leaves_the_players_panel(server, browser, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, position=LAST_TURN, seed=8)
    open_host_seat(page, server, data, f"?lang={lang}")
    players = page.locator("[data-panel='players']")
    # Seat 0 still plays its last Movement turn: its board is in the panel
    page.locator("#actions .end-turn").wait_for()
    assert players.locator("[data-seat='0']").count() == 1
    page.locator("#actions .end-turn").click()
    # the Victory Check eliminates it: its board leaves the panel, the message says why
    message = page.locator("[data-eliminated='true']")
    message.wait_for()
    assert message.locator("h3").inner_text() == catalog(lang)["ui.you_are_eliminated"]
    assert players.locator("[data-seat='0']").count() == 0
    assert sorted(players.locator("[data-seat]").evaluate_all("(rows) => rows.map((r) => r.dataset.seat)")) == [
        "1",
        "2",
    ]
    assert players.locator("[data-out-seat='0']").count() == 1
    assert page.locator("#seat-control").is_hidden() and page.locator("#actions").is_hidden()
    assert errors == []
    page.context.close()


def test_automatic_phases_never_open_a_window(server, browser):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.add_init_script(WATCH_WINDOWS)
    data = new_game(server, seed=11, round_limit=2)
    open_host_seat(page, server, data)
    play_to_the_end(page)
    seen = screens(page)
    # the engine ran its automatic steps while the page watched: Income twice, the Victory Check
    assert seen[-1]["income"] >= 2 and page.evaluate("document.body.dataset.over") == "true"
    for before, now in zip(seen, seen[1:]):
        if now["kind"] is not None:
            # a window shows only for a decision the seat owes (its button is in the bottom bar)
            assert now["kind"] in now["owed"], now
            assert now["phase"] not in ("income", "victory"), now
        if now["income"] > before["income"]:
            # the view that brings an Income report opens no window: the report is in the log
            assert now["kind"] is None or now["kind"] == before["kind"], (before, now)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "kind, position", [("appoint_judge", APPOINT), ("foresee_events", FORESEE)], ids=["appoint", "foresee"]
)
def test_the_window_closes_and_reopens_from_the_bottom_bar(server, browser, kind, position, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    name = catalog(lang)[f"decision.{kind}"]  # "⚖ Nombrar Juez", "👁 Prever"...
    data = new_game(server, position=position, seed=3)
    open_host_seat(page, server, data, f"?lang={lang}")
    window = page.locator("#modal:not([hidden])")
    window.wait_for()  # it opened by itself
    assert window.locator(f"h3[data-kind='{kind}']").inner_text().strip() == name
    page.click("#modal-close")
    assert page.locator("#modal").is_hidden()
    reopen = page.locator(f"#bottombar .reopen[data-kind='{kind}']")
    assert reopen.inner_text().strip() == name
    if lang != "en":
        shot(page, f"bottombar-{kind}-{lang}")
    reopen.click()
    window.wait_for()
    if kind == "foresee_events":  # one card at a time: each click sends the next card's terrain
        rows = page.locator("#modal .foresee-row")
        for row in range(rows.count()):
            rows.nth(row).locator(".terrain-choice").first.click()
            if row + 1 < rows.count():
                rows.nth(row + 1).locator(".terrain-choice").first.wait_for()
                assert rows.nth(row).locator(".terrain-choice.chosen").count() == 1
    else:
        page.locator("#modal .options button").first.click()
    reopen.wait_for(state="detached")  # answered: the button is gone
    assert page.locator(f"#modal h3[data-kind='{kind}']").count() == 0 or page.locator("#modal").is_hidden()
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_vacant_title_nobody_eligible_can_take_is_deferred_without_a_window(server, browser, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.add_init_script(WATCH_WINDOWS)
    data = new_game(server, position=DEFERRED, seed=3)
    open_host_seat(page, server, data, f"?lang={lang}")
    # the Announcements are over: seat 0 plays its Intrigue turn
    page.locator("#actions .end-turn").wait_for()
    region = catalog(lang).get("place.Naphtali", "Naphtali")
    deferred = gettext(lang, "title.deferred", region=region)
    log = page.locator("[data-panel='log']")
    assert log.locator("[data-log-entry] li", has_text=deferred).count() == 1
    assert page.locator("#bottombar .reopen").count() == 0
    assert all(s["kind"] is None for s in screens(page)), screens(page)
    assert page.locator("#modal").is_hidden()
    assert errors == []
    page.context.close()


# Every animation the page starts, by what it moves; every battle's dice shown; every settlement
# marked as having changed hands (marked whether or not it moves).
WATCH_ANIMATIONS = """
window.__animated = {general: 0, settlement: 0, battle: 0, owner_changes: 0};
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.closest('[data-general]')) window.__animated.general += 1;
  if (this.closest('[data-owner-changed]')) window.__animated.settlement += 1;
  return animate.apply(this, args);
};
new MutationObserver((changes) => {
  for (const c of changes) {
    if (c.type === 'attributes') window.__animated.owner_changes += 1;
    for (const n of c.addedNodes)
      if (n.classList && n.classList.contains('battle-overlay')) window.__animated.battle += 1;
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-owner-changed']});
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_battles_and_owner_changes_are_animated_unless_motion_is_reduced(server, browser, motion):
    # Seat 0 ends its Movement turn on an enemy settlement (a battle follows), then a bot plays
    # its seat and the two others to the end of the next round, while the seat's page watches.
    page = open_page(browser, viewport={"width": 1400, "height": 900}, reduced_motion=motion)
    errors = watch_console(page)
    page.add_init_script(WATCH_ANIMATIONS)
    data = new_game(server, seed=3, round_limit=2, position=BATTLE)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").click()
    httpx.post(
        f"{server}/api/games/{data['id']}/seat/away", headers={"X-Seat-Token": data["token"]}, timeout=HTTP_TIMEOUT
    )
    page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=TIMEOUT * 2)
    seen = page.evaluate("window.__animated")
    assert seen["owner_changes"] > 0, seen  # settlements changed hands in both runs
    if motion == "reduce":
        assert (seen["general"], seen["settlement"], seen["battle"]) == (0, 0, 0), seen
    else:
        assert seen["general"] > 0 and seen["settlement"] > 0 and seen["battle"] > 0, seen
    assert errors == []
    page.context.close()
