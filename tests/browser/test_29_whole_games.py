"""Whole games finished by clicking only, one at 1400x900 in English,
one on a phone (390x844, touch) in Spanish.

The human seat (Deborah) plays every decision of hers on the screen: the windows' choices, a
card in each Intrigue turn, purchases by clicking a settlement or the Actions panel's button,
moves by selecting a general and clicking where he goes, End turn. The test itself sends no
action: every action of the seat in the game's log is one the page sent (over its socket or by HTTP). The game ends by
its own rules; the final table and the Players panel are then checked against each other."""

from __future__ import annotations

import time
from collections import Counter

import httpx
import pytest

from browser.controls import press, tap
from browser.play import (
    HTTP_TIMEOUT,
    SentActions,
    new_game,
    open_host_seat,
    open_page,
    seq,
    wait_change,
    wait_for_the_seat,
    watch_console,
)
from browser.support import shot


class Clicker:
    """Plays seat 0 by clicking (or tapping) the screen's controls."""

    def __init__(self, page, touch: bool) -> None:
        self.page, self.touch = page, touch
        self.done: Counter[str] = Counter()

    def tap(self, locator, timeout: float | None = None) -> None:
        """A button of the page (a window's choice, the Actions panel, the chooser)."""
        if self.touch:
            locator.wait_for(timeout=timeout)
            tap(self.page, locator)
        else:
            locator.click(timeout=timeout)

    def act(self, locator, what: str) -> None:
        """A control that sends an action: wait until the view it brings is drawn."""
        before = seq(self.page)
        self.tap(locator)
        wait_change(self.page, before)
        self.done[what] += 1

    def board(self, locator) -> None:
        """A piece of the board; a battle's dice shown over it are first tapped away, as a
        player does (a click dismisses them)."""
        overlay = self.page.locator("#board-wrap .battle-overlay")
        if overlay.count():
            try:
                self.tap(overlay.first, timeout=2000)
            except Exception:  # it went by itself meanwhile
                pass
        press(self.page, locator, self.touch)

    def cancel(self) -> None:
        self.page.keyboard.press("Escape")

    # --- one decision -------------------------------------------------------------------

    def answer_window(self) -> bool:
        page = self.page
        if not page.locator("#modal:not([hidden])").count():
            return False
        if page.locator("#modal .foresee").count():
            choice = page.locator("#modal .foresee-row.current .terrain-choice").first
        else:
            choice = page.locator("#modal:not([hidden]) .options button").first
        kind = page.locator("#modal-body h3").get_attribute("data-kind")
        try:
            choice.wait_for(timeout=3000)
        except Exception:  # the window closed meanwhile (the view moved on): look again
            return True
        self.act(choice, f"window:{kind}")
        return True

    def answer_on_map(self) -> bool:
        """A decision chosen on the map (Foresee the invasion): a lit settlement, its choice."""
        page = self.page
        if not page.locator("#actions:not([hidden]) .on-map").count():
            return False
        kind = page.locator("#actions .on-map").get_attribute("data-kind")
        self.board(page.locator("#board svg [data-settlement].target").first)
        choice = page.locator("#chooser:not([hidden]) .choice:not(.cancel)")
        self.act(choice.first, f"map:{kind}")
        return True

    def play_card(self) -> bool:
        """An event from the Actions panel, else the first card a board target offers."""
        page = self.page
        event = page.locator("#actions button.action.play_event")
        if event.count():
            self.act(event.first, "card")
            return True
        targets = page.locator("#board svg [data-hint]")
        for i in range(min(targets.count(), 3)):
            self.board(targets.nth(i))
            choice = page.locator("#chooser:not([hidden]) .choice[data-type^='play_']")
            if choice.count():
                self.act(choice.first, "card")
                return True
            self.cancel()
        return False

    def buy(self) -> bool:
        """The Intrigue card once (the Actions panel's button), else what a settlement offers."""
        page = self.page
        card = page.locator("#actions button.action.buy")
        if card.count() and not self.done["card bought"]:
            self.act(card.first, "card bought")
            return True
        settlements = page.locator("#board svg [data-settlement].target")
        for i in range(min(settlements.count(), 3)):
            self.board(settlements.nth(i))
            choice = page.locator("#chooser:not([hidden]) .choice[data-type='buy']")
            if choice.count():
                self.act(choice.first, "bought")
                return True
            self.cancel()
        return False

    def move(self) -> bool:
        """Selects one of his generals and sends him to a settlement nobody holds (or his own)."""
        page = self.page
        generals = page.locator("#board svg [data-general].target[data-seat='0']")
        for i in range(generals.count()):
            self.board(generals.nth(i))
            select = page.locator("#chooser:not([hidden]) .choice[data-type='select']")
            if select.count():
                self.tap(select)
            if not page.locator("#board [data-general].selected").count():
                self.cancel()
                continue
            for owner in ("", "0"):
                places = page.locator(f"#board svg [data-settlement].reachable[data-owner='{owner}']")
                if places.count():
                    before = seq(page)
                    self.board(places.first)
                    wait_change(page, before)
                    self.done["moved"] += 1
                    return True
            self.cancel()
        return False

    # --- the whole game -----------------------------------------------------------------

    def play(self, deadline: float) -> None:
        page = self.page
        tried: Counter[str] = Counter()
        turn = None
        while time.monotonic() < deadline:
            page.wait_for_function("() => document.body.dataset.seq !== undefined")
            if page.evaluate("document.body.dataset.over") == "true":
                return
            if self.answer_window() or self.answer_on_map():
                continue
            end = page.locator("#actions:not([hidden]) .end-turn")
            if not end.count():
                wait_for_the_seat(page)
                continue
            phase = page.evaluate("document.body.dataset.phase")
            key = (page.locator("#round").inner_text(), phase)
            if key != turn:
                turn, tried = key, Counter()
            tried[phase] += 1
            if phase == "intrigue" and tried[phase] == 1 and self.play_card():
                continue
            if phase == "acquisitions" and tried[phase] <= 2 and self.buy():
                continue
            if phase == "movement" and tried[phase] <= 2 and self.move():
                continue
            self.act(end, "end turn")
        raise AssertionError(f"the game did not end in time: {dict(self.done)}")


def seat_actions(server: str, game_id: str) -> list[dict]:
    entries = httpx.get(f"{server}/api/games/{game_id}/log?since=-1", timeout=HTTP_TIMEOUT).json()["entries"]
    return [e for e in entries if e["player"] == 0]


def final_numbers(page) -> tuple[dict[int, int], dict[int, int]]:
    """Each seat's settlements in the final table, and in the Players panel."""
    table = {
        int(row.get_attribute("data-seat")): int(row.locator("td[data-source='settlements']").inner_text())
        for row in page.locator("[data-panel='final'] tbody tr[data-seat]").all()
    }
    panel = {
        int(row.get_attribute("data-seat")): int(row.locator(".stat[data-stat='settlements']").inner_text())
        for row in page.locator("[data-panel='players'] .player-board[data-seat]").all()
    }
    return table, panel


GAMES = {
    # three players, no round limit: the game ends by the rules' own endings (three points, in
    # round 11, with these seeds and this player)
    "desktop-en": ({"viewport": {"width": 1400, "height": 900}}, "en", {"seed": 11}),
    # the human against one bot, six rounds at most
    "phone-es": (
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
        "es",
        {
            "seed": 5,
            "round_limit": 6,
            "seats": [{"kind": "human", "name": "Deborah"}, {"kind": "bot", "bot": "greedy"}],
        },
    ),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_finished_by_clicking_only(server, browser, name):
    options, lang, game = GAMES[name]
    page = open_page(browser, **options)
    errors = watch_console(page)
    data = new_game(server, **game)
    sent = SentActions(page)  # every action the page sends, with its answer's status
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    shot(page, f"whole-game-start-{name}")
    player = Clicker(page, touch=options.get("has_touch", False))
    started = time.monotonic()
    player.play(deadline=started + 300)
    print(f"{name}: {time.monotonic() - started:.0f} s, {dict(player.done)}")
    print(page.locator("[data-panel='final'] .ending").inner_text())
    final = page.locator("[data-panel='final']")
    final.wait_for()
    final.scroll_into_view_if_needed()
    shot(page, f"whole-game-final-{name}")
    # the seat played every kind of turn by clicking
    assert player.done["card"] and player.done["bought"] and player.done["card bought"] and player.done["moved"]
    # every action of the seat in the game's log is one the page sent, and applied
    applied = [p for p in sent.sent if p["status"] == 200]
    assert [p["action"]["type"] for p in applied] == [e["type"] for e in seat_actions(server, data["id"])]
    table, panel = final_numbers(page)
    living = {seat: n for seat, n in table.items() if seat in panel}
    assert panel == living and len(table) == len(data["seats"])
    assert errors == []
    page.context.close()
