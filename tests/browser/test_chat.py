"""Table talk in the browser: two human seats and a spectator on a server of the
test's own (it is restarted). A table message reaches both seats and the spectator; a private
one only its addressee; both histories survive a reload and a server restart; a message with
`<script>` and a right-to-left override shows as text; the rate limit answers clearly; a
settlement named in a message lights up on the board; a muted seat's messages are hidden.
Screenshots at 1400×900 and 390×844 (tests/browser/support.py)."""

from __future__ import annotations

import time

import httpx
import pytest

import server_process
from browser.play import HTTP_TIMEOUT, claim_invitation, open_host_seat, open_page, watch_console
from browser.support import shot
from seats_support import seat_tokens
from server_process import Server

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]
CHAT = "[data-panel='chat']"
BOX = f"{CHAT} textarea"
ENV = {"JUDGES_BOT_DELAY": "0.05", "JUDGES_CREATE_BURST": "100"}


@pytest.fixture
def own_server(tmp_path, monkeypatch):
    """A server of this test's own, and a way to restart it on the same port (the pages'
    sockets reconnect by themselves)."""
    url = f"sqlite:///{tmp_path / 'chat.db'}"
    servers = [Server(url, tmp_path / "server-1.log", ENV)]

    def restart() -> Server:
        port = servers[-1].port
        servers[-1].stop()
        monkeypatch.setattr(server_process, "free_port", lambda: port)
        servers.append(Server(url, tmp_path / f"server-{len(servers) + 1}.log", ENV))
        return servers[-1]

    yield servers[0], restart
    for server in servers:
        server.stop()


def send(page, text: str) -> None:
    page.fill(BOX, text)
    page.press(BOX, "Enter")


def wait_message(page, text: str) -> None:
    page.locator(f"{CHAT} [data-chat-message]", has_text=text).first.wait_for()


def shown_texts(page) -> list[str]:
    return page.locator(f"{CHAT} [data-chat-message] .chat-body").all_inner_texts()


def test_table_talk_between_two_seats_and_a_spectator(own_server, browser):
    server, restart = own_server
    response = httpx.post(server.base + "/api/games", json={"seats": SEATS, "seed": 3}, timeout=HTTP_TIMEOUT)
    assert response.status_code == 201, response.text
    data = response.json()
    gid = data["id"]

    ada = open_page(browser, viewport={"width": 1400, "height": 900})
    bo = open_page(browser, viewport={"width": 390, "height": 844})
    watcher = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = {name: watch_console(p) for name, p in (("ada", ada), ("bo", bo), ("watcher", watcher))}
    open_host_seat(ada, server.base, data)
    claim_invitation(bo, server.base, data, 1)
    watcher.goto(f"{server.base}/games/{gid}/watch")
    bo.locator("#panel-tabs [data-tab='chat']").click()  # on a phone the table talk is a tab beside the log
    for page in (ada, bo, watcher):
        page.locator(CHAT).wait_for()
        page.locator(f"{CHAT} .chat-empty").wait_for()
        # the panel's text box is its only textarea or text input
        assert page.locator(f"{CHAT} textarea, {CHAT} input[type='text'], {CHAT} input:not([type])").count() == 1

    # A table message reaches both seats and the spectator (read-only for them).
    send(ada, "Hello table: shall we share Hebron?")
    for page in (ada, bo, watcher):
        wait_message(page, "shall we share Hebron?")
    assert ada.locator(BOX).input_value() == ""  # acknowledged: the box is emptied
    assert watcher.locator(f"{CHAT} .chat-note").inner_text()  # the table is read-only for a spectator
    assert watcher.locator("#chat-form").is_hidden()

    # The settlement named in it lights up on the board.
    ref = ada.locator(f"{CHAT} .chat-ref[data-settlement='Hebron']")
    ref.click()
    ada.locator("#board [data-settlement='Hebron'].chat-highlight").wait_for()

    # A private message from Bo reaches Ada only: an unread count on its tab.
    bo.locator("#chat-settings summary").click()
    bo.locator("#chat-settings input[type='checkbox'][data-seat='0']").check()
    bo.locator("#chat-settings [data-chat-start]").click()
    assert bo.locator("[data-chat-tab='seats:0.1'][aria-selected='true']").count() == 1
    send(bo, "Only for you, Ada: I vote for your judge")
    wait_message(bo, "Only for you, Ada")
    tab = ada.locator("[data-chat-tab='seats:0.1']")
    tab.wait_for()
    ada.wait_for_function("() => document.querySelector(\"[data-chat-tab='seats:0.1']\").dataset.unread === '1'")
    tab.click()
    wait_message(ada, "Only for you, Ada")
    # the spectator's next message is the next public one: the private one never reached them
    ada.locator("[data-chat-tab='table']").click()
    send(ada, "Back to the table")
    wait_message(watcher, "Back to the table")
    assert "Only for you" not in watcher.locator("#app").inner_text()
    assert watcher.locator("[data-chat-tab^='seats:']").count() == 0

    # A spectator writes in their own channel; the players read it there.
    watcher.locator("[data-chat-tab='spectators']").click()
    send(watcher, "Go Bo!")
    wait_message(watcher, "Go Bo!")
    ada.locator("[data-chat-tab='spectators']").click()
    wait_message(ada, "Go Bo!")
    ada.locator("[data-chat-tab='table']").click()

    # <script> and a right-to-left override show as text; nothing runs, nothing is reordered.
    hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 1"> \u202etxt.exe'
    send(ada, hostile)
    bo.locator("[data-chat-tab='table']").click()
    wait_message(bo, "<script>")
    shown = bo.locator(f"{CHAT} [data-chat-message]", has_text="<script>").first.inner_text()
    assert "<script>window.pwned = 1</script>" in shown and "\u202e" not in shown and "txt.exe" in shown
    assert bo.locator(f"{CHAT} img, {CHAT} script").count() == 0
    assert bo.evaluate("window.pwned === undefined") and ada.evaluate("window.pwned === undefined")
    # the bell does not fill with chat
    assert "Hello table" not in bo.locator("#bell-panel").inner_text()

    # The rate limit answers clearly (and the text stays in the box to send later).
    for i in range(12):
        send(ada, f"flood {i}")
        if ada.locator("[data-chat-error]:not([hidden])").count():
            break
        ada.wait_for_timeout(100)
    error = ada.locator("[data-chat-error]")
    error.wait_for()
    assert "Too many messages" in error.inner_text()
    assert ada.locator(BOX).input_value().startswith("flood")
    shot(ada, "chat-desktop")
    shot(bo, "chat-phone-private")

    # After a reload, both histories are there.
    bo.reload()
    wait_message(bo, "shall we share Hebron?")
    bo.locator("[data-chat-tab='seats:0.1']").click()
    wait_message(bo, "Only for you, Ada")

    # After a server restart too: the pages reconnect, a reload shows the stored history, and
    # new messages flow again.
    restart()
    ada.reload()
    wait_message(ada, "shall we share Hebron?")
    ada.locator("[data-chat-tab='seats:0.1']").click()
    wait_message(ada, "Only for you, Ada")
    send(ada, "Still here after the restart")
    bo.locator("[data-chat-tab='seats:0.1']").click()
    wait_message(bo, "Still here after the restart")
    watcher.reload()
    wait_message(watcher, "Back to the table")
    assert "Only for you" not in watcher.locator("#app").inner_text()

    # Bo mutes Ada: her messages are hidden from Bo (kept after a reload), not from others.
    bo.locator("[data-chat-tab='table']").click()
    bo.locator("#chat-settings summary").click()
    bo.locator("#chat-settings [data-mute='0']").click()
    bo.wait_for_function("() => !document.querySelector(\"[data-panel='chat']\").innerText.includes('share Hebron')")
    assert "Hidden" in bo.locator(f"{CHAT} .chat-note").inner_text()
    bo.reload()
    bo.locator(f"{CHAT} .chat-note").wait_for()
    assert not any("share Hebron" in t for t in shown_texts(bo))
    bo.locator(CHAT).scroll_into_view_if_needed()
    shot(bo, "chat-phone-muted")
    shot(watcher, "chat-spectator")

    # every word of the panel in the reader's language
    ada.goto(f"{server.base}/games/{gid}?lang=es")
    ada.locator(f"{CHAT} h3", has_text="Charla de la mesa").wait_for()
    assert ada.locator("[data-chat-tab='seats:0.1']").inner_text() == "Bo"
    assert ada.locator("[data-chat-tab='table']").inner_text().startswith("Mesa")

    for name, found in errors.items():
        real = [e for e in found if "429" not in e and "WebSocket" not in e and "Failed to load resource" not in e]
        assert not real, (name, real)


def test_a_replay_shows_the_public_talk_and_no_private_word(server, page):
    """The session's server: two seats talk, hand their seats to bots, which end the game
    (one round); the replay shows the table's talk, read-only, and none of the private one."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]
    data = httpx.post(
        server + "/api/games", json={"seats": seats, "seed": 9, "round_limit": 1}, timeout=HTTP_TIMEOUT
    ).json()
    gid = data["id"]
    with httpx.Client(base_url=server, timeout=HTTP_TIMEOUT) as http:
        tokens = seat_tokens(http, data)
        for token, body in (
            (tokens[0], {"text": "Good game, everyone"}),
            (tokens[1], {"text": "Our secret pact", "channel": "private", "to": [0]}),
        ):
            assert http.post(f"/api/games/{gid}/chat", json=body, headers={"X-Seat-Token": token}).status_code == 200
        for token in tokens[:2]:
            http.post(f"/api/games/{gid}/seat/away", headers={"X-Seat-Token": token})
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = http.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": tokens[0]}).json()
            if view["ending"]:
                break
            time.sleep(0.2)
        assert view["ending"] == "round_limit"
    errors = watch_console(page)
    page.goto(f"{server}/games/{gid}/replay")
    wait_message(page, "Good game, everyone")
    assert "secret pact" not in page.locator("#app").inner_text()
    assert page.locator("#chat-form").is_hidden()
    shot(page, "chat-replay")
    assert errors == []
