"""The numbers agree: the Players panel and the final table count a
player's settlements the same way, those the player controls (§ 2: a garrison's owner, else
the one player whose free generals stand there; the count the tie-break compares), both from
the engine's `victory.standings`."""

from __future__ import annotations

import pytest

from browser.play import new_game, open_host_seat, open_page, watch_console
from browser.positions import BOTS_GENERALS, HOLDINGS
from browser.support import shot
from browser.test_29_targets import PROFILES

# At this Victory Check seat 0 holds Hazor by its garrison and Kedesh by general 10 alone
# (no garrison there): it controls two settlements; seats 1 and 2 one each.
GENERAL_HOLDS_KEDESH = {
    "phase": "victory",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Kedesh"}, *BOTS_GENERALS],
}
CONTROLLED = {0: 2, 1: 1, 2: 1}


def panel_settlements(page) -> dict[int, int]:
    rows = page.locator("[data-panel='players'] .player-board[data-seat]")
    return {
        int(rows.nth(i).get_attribute("data-seat")): int(
            rows.nth(i).locator(".stat[data-stat='settlements']").inner_text()
        )
        for i in range(rows.count())
    }


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_players_panel_counts_the_settlements_a_player_controls(server, browser, profile):
    options, lang = PROFILES[profile]
    page = open_page(browser, **options)
    errors = watch_console(page)
    open_host_seat(page, server, new_game(server, position=GENERAL_HOLDS_KEDESH, seed=3), f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()  # round 2 goes on
    assert panel_settlements(page) == CONTROLLED
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_players_panel_and_the_final_table_agree(server, browser, profile):
    options, lang = PROFILES[profile]
    page = open_page(browser, **options)
    errors = watch_console(page)
    data = new_game(server, position=GENERAL_HOLDS_KEDESH, seed=3, round_limit=1)  # over at once
    open_host_seat(page, server, data, f"?lang={lang}")
    final = page.locator("[data-panel='final']")
    final.wait_for()
    table = {
        int(row.get_attribute("data-seat")): int(row.locator("td[data-source='settlements']").inner_text())
        for row in final.locator("tbody tr[data-seat]").all()
    }
    assert table == CONTROLLED
    assert panel_settlements(page) == table
    page.locator("[data-panel='players']").scroll_into_view_if_needed()
    shot(page, f"numbers-agree-{profile}")
    assert errors == []
    page.context.close()
