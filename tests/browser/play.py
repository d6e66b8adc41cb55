"""Playing a seat in the browser by clicking the board: moves by clicking the destination
settlement, purchases by clicking their target, windows answered by their first choice."""

from __future__ import annotations

import json
import time

import httpx

from judges.server.table.seats import cookie_name

# Generous: a heavily loaded machine may take long to draw a view, never forever.
TIMEOUT = 90_000  # ms
HTTP_TIMEOUT = 60.0  # s, for the tests' own requests


def new_game(server: str, **extra) -> dict:
    seats = [{"kind": "human", "name": "Deborah"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    response = httpx.post(server + "/api/games", json={"seats": seats, **extra}, timeout=HTTP_TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def bots_finish_game(server: str, seed: int = 9) -> tuple[dict, dict]:
    """A one-round game the bots play to its end (the creator's seat handed to a bot): the
    creation's answer and the final view."""
    data = new_game(server, seed=seed, round_limit=1)
    game_id, token = data["id"], data["token"]
    httpx.post(f"{server}/api/games/{game_id}/seat/away", headers={"X-Seat-Token": token}, timeout=HTTP_TIMEOUT)
    deadline = time.monotonic() + TIMEOUT / 1000 * 2
    while time.monotonic() < deadline:
        view = httpx.get(
            f"{server}/api/games/{game_id}/view", headers={"X-Seat-Token": token}, timeout=HTTP_TIMEOUT
        ).json()
        if view["ending"]:
            return data, view
        time.sleep(0.2)
    raise AssertionError("the bots did not finish the game")


def open_host_seat(page, server: str, data: dict, query: str = "") -> None:
    """The creator made the game through the API: their browser gets their seat's cookie (as the
    create answer set it) and opens the game's page, whose address holds no secret."""
    page.context.add_cookies([{"name": cookie_name(data["id"]), "value": data["token"], "url": server}])
    page.goto(data["link"] + query)


def claim_invitation(page, server: str, data: dict, seat: int) -> None:
    """Another player opens their invitation and takes the seat: the cookie comes with the redirect."""
    page.goto(data["seats"][seat]["invitation"])
    page.click("#take-seat")
    page.wait_for_url(f"{server}/games/{data['id']}")


class SentActions:
    """Every action the page sends, over its seat's socket (an `act` message, answered `acted`
    or `refused`: connection.js) or by POST /actions, in order, each with its answer's status
    (200, the refusal's, or None while unanswered). Made before the page opens its seat, so
    that its socket is watched from the start."""

    def __init__(self, page) -> None:
        self.sent: list[dict] = []
        self._acts: dict[int, dict] = {}
        page.on("websocket", self._socket)
        page.on("response", self._posted)

    def _socket(self, socket) -> None:
        socket.on("framesent", self._frame_sent)
        socket.on("framereceived", self._frame_received)

    @staticmethod
    def _message(payload) -> dict | None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            return None
        return message if isinstance(message, dict) else None

    def _frame_sent(self, payload) -> None:
        message = self._message(payload)
        if message is not None and message.get("type") == "act":
            entry = {"action": message["action"], "status": None}
            self._acts[message["id"]] = entry
            self.sent.append(entry)

    def _frame_received(self, payload) -> None:
        message = self._message(payload)
        if message is not None and message.get("type") in ("acted", "refused") and message.get("id") in self._acts:
            entry = self._acts.pop(message["id"])
            entry["status"] = 200 if message["type"] == "acted" else message.get("status")

    def _posted(self, response) -> None:
        request = response.request
        if request.method == "POST" and "/actions" in request.url:
            self.sent.append({"action": json.loads(request.post_data)["action"], "status": response.status})

    def actions(self, since: int = 0) -> list[dict]:
        """The actions sent since the `since`-th."""
        return [entry["action"] for entry in self.sent[since:]]


def watch_console(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def seq(page) -> str:
    return page.evaluate("document.body.dataset.seq")


def open_page(browser, **context_options):
    """A page in its own context, waiting TIMEOUT for anything by default."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(TIMEOUT)
    return context.new_page()


def wait_change(page, before: str, timeout: int = TIMEOUT) -> None:
    page.wait_for_function(
        f"() => document.body.dataset.seq !== '{before}' || document.body.dataset.over === 'true'", timeout=timeout
    )


def answer_window(page) -> bool:
    """Answers an open decision window (Foresee: a terrain for the next card, one at a time)."""
    if not page.locator("#modal:not([hidden])").count():
        return False
    before = seq(page)
    if page.locator("#modal .foresee").count():
        page.locator("#modal .foresee-row.current .terrain-choice").first.click()
    else:
        choice = page.locator("#modal:not([hidden]) .options button").first
        try:
            choice.click(timeout=3000)
        except Exception:  # the window closed meanwhile (the view moved on): look again
            return True
    wait_change(page, before)
    return True


def answer_on_map(page) -> bool:
    """Answers a decision chosen on the map (Foresee the invasion): a lit settlement clicked,
    its choice taken in the menu."""
    if not page.locator("#actions:not([hidden]) .on-map").count():
        return False
    before = seq(page)
    page.locator("#board [data-settlement].target").first.click()
    page.locator("#chooser:not([hidden]) .choice:not(.cancel)").first.click()
    wait_change(page, before)
    return True


def click_buy(page, counts: dict) -> bool:
    """Buys by clicking a settlement (or a general) and choosing an item in the chooser."""
    if counts.get("bought", 0) >= 2:
        return False
    for selector in ("#board [data-settlement].target", "#board [data-general].target"):
        targets = page.locator(selector)
        for i in range(min(targets.count(), 4)):
            targets.nth(i).click()
            buy = page.locator("#chooser:not([hidden]) .choice[data-type='buy']")
            if buy.count():
                before = seq(page)
                buy.first.click()
                wait_change(page, before)
                counts["bought"] = counts.get("bought", 0) + 1
                return True
            page.keyboard.press("Escape")
    return False


def click_move(page, counts: dict) -> bool:
    """Selects a general by clicking him, then moves him by clicking a lit settlement (or hex)."""
    if counts.get("moved", 0) >= 3:
        return False
    generals = page.locator("#board [data-general].target")
    for i in range(generals.count()):
        generals.nth(i).click()
        if page.locator("#chooser:not([hidden])").count():
            select = page.locator("#chooser .choice[data-type='select']")
            if not select.count():
                page.keyboard.press("Escape")
                continue
            select.click()
        destination = page.locator("#board [data-settlement].reachable")
        if not destination.count():
            destination = page.locator("#board polygon.hex.reachable")
        if destination.count():
            before = seq(page)
            destination.first.click()
            wait_change(page, before)
            counts["moved"] = counts.get("moved", 0) + 1
            return True
        page.keyboard.press("Escape")
    return False


SEAT_CAN_ACT = """() => document.body.dataset.over === 'true'
  || !document.querySelector('#modal').hidden
  || !!document.querySelector('#actions:not([hidden]) .on-map')
  || !!document.querySelector('#actions:not([hidden]) .end-turn')"""


def wait_for_the_seat(page) -> None:
    """Waits until the seat can act (a window, its turn) or the game is over: the bots play
    meanwhile. A decision owed with no window to answer it fails here, saying so."""
    try:
        page.wait_for_function(SEAT_CAN_ACT, timeout=TIMEOUT)
    except Exception as exc:
        owed = page.evaluate("[...document.querySelectorAll('#bottombar .reopen')].map((b) => b.dataset.kind)")
        waiting = page.locator("#waiting").inner_text()
        raise AssertionError(f"the seat never could act: owed windows {owed}, top bar {waiting!r}") from exc


def play_to_the_end(page, max_steps: int = 3000) -> dict:
    """Plays the human seat until the game is over; returns what was done."""
    done = {"bought": 0, "moved": 0, "windows": 0, "turns": 0}
    turn: dict = {}
    turn_key = None
    for _ in range(max_steps):
        page.wait_for_function("() => document.body.dataset.seq !== undefined")
        if page.evaluate("document.body.dataset.over") == "true":
            return done
        if answer_window(page) or answer_on_map(page):
            done["windows"] += 1
            continue
        end = page.locator("#actions:not([hidden]) .end-turn")
        if not end.count():
            wait_for_the_seat(page)
            continue
        key = (page.locator("#round").inner_text(), page.evaluate("document.body.dataset.phase"))
        if key != turn_key:
            turn_key, turn = key, {}
        phase = key[1]
        if phase == "acquisitions" and click_buy(page, turn):
            done["bought"] += 1
            continue
        if phase == "movement" and click_move(page, turn):
            done["moved"] += 1
            continue
        before = seq(page)
        end.click()
        wait_change(page, before)
        done["turns"] += 1
    raise AssertionError("the game did not end")
