"""Players who come back in the browser: the game page's title and the browser's
notification say it is your turn; a rematch from "My games"; the leaderboard and player pages."""

from __future__ import annotations

import secrets
import time

from browser.play import TIMEOUT, open_page, watch_console
from judges.games.registry import SERVED

# Before the page's scripts: the tab is out of sight, and the browser's Notification records
# what it is asked to show (the permission granted).
HIDDEN_TAB = """
Object.defineProperty(document, "hidden", {get: () => true});
window.__notes = [];
window.Notification = class { constructor(title, options) { window.__notes.push([title, options.body]); }
  static get permission() { return "granted"; } static requestPermission() { return Promise.resolve("granted"); } };
"""


def test_the_title_and_a_notification_say_it_is_your_turn(browser, server):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.add_init_script(HIDDEN_TAB)
    page.goto(server + "/?lang=en")
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}]
    created = page.request.post(server + "/api/games", data={"seats": seats, "pace": {"hours": 24}})
    assert created.status == 201, created.text()
    page.goto(f"{server}/games/{created.json()['id']}?lang=en")
    page.wait_for_function("() => document.title.startsWith('● Your turn')", timeout=TIMEOUT)
    assert page.evaluate("document.querySelector('#app').dataset.yourTurn") == "true"
    assert page.evaluate("window.__notes") == [["Judges & Kings", "Your turn"]]
    assert not errors, errors
    page.context.close()


def test_a_rematch_from_my_games_and_the_ratings_pages(browser, server):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.goto(server + "/?lang=en")
    name = "ada" + secrets.token_hex(3)
    signed = page.request.post(server + "/api/accounts", data={"name": name, "password": "a long secret"})
    assert signed.status == 201
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    # a game long enough to be rated, played by its player (a seat the bot plays is not rated)
    created = page.request.post(
        server + "/api/games", data={"seats": seats, "round_limit": SERVED["judges"].rating.min_progress}
    )
    game_id = created.json()["id"]
    stop = time.time() + 4 * TIMEOUT / 1000
    while True:
        view = page.request.get(f"{server}/api/games/{game_id}/view").json()
        if view.get("ending"):
            break
        assert time.time() < stop, "the game did not end"
        if 0 in view["waiting_for"] and view["legal_actions"]:
            page.request.post(f"{server}/api/games/{game_id}/actions", data={"action": view["legal_actions"][0]})
        else:
            time.sleep(0.05)
    page.reload()
    button = page.locator(f"#my-finished tr[data-my-game='{game_id}'] button.rematch")
    button.click()
    page.wait_for_url(f"{server}/games/**")
    assert game_id not in page.url
    page.wait_for_selector("#board")
    # the game was rated (an account against two anchored bots): the leaderboard and his page
    page.goto(server + "/ratings?lang=en")
    page.wait_for_selector(f"[data-player='{name}']")
    page.click(f"[data-player='{name}'] a")
    page.wait_for_selector(f"#player [data-game='{game_id}']")
    page.wait_for_selector("#player-ratings [data-game='judges']")  # his rating, game by game
    # one leaderboard a game: the reader picks Rome's, where he has no rating
    page.goto(server + "/ratings?lang=en")
    page.click("#rating-games a[data-game='rome']")
    page.wait_for_selector("#rating-games [data-game='rome'][aria-current='page']")
    assert page.locator(f"[data-player='{name}']").count() == 0
    assert not [e for e in errors if "favicon" not in e], errors
    page.context.close()
