"""Private seats (server/table/seats.py) and the server's limits (server/limits.py).
Each limit answers with a clear, translated error."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from judges import i18n
from judges.server.app import create_app
from judges.server.games.registry import KITS
from judges.server.limits import FairPool, RateLimiter, clean_name
from judges.server.table.seats import cookie_name
from seats_support import app_clients, invitation_code

TWO_HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


def run_apart(coroutine):
    """asyncio.run on a thread of its own: the browser tests' Playwright keeps an event loop
    running on the main thread for the whole session."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def make_client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with app_clients(f"sqlite:///{tmp_path / 'games.db'}") as make:
        yield make


@pytest.fixture
def client(make_client):
    return make_client()


def create(client, seats=TWO_HUMANS, game=None, **extra):
    """A table of seed 7 (`game`: the game's driver, tests/games_support.py; None: J&K's)."""
    if game is not None and extra.get("takeover_bot") == "greedy":
        extra["takeover_bot"] = game.bot
    body = {"seats": seats, "seed": 7, **extra} if game is None else game.body(game.with_game(seats), seed=7, **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(client, game_id, token, seat, timeout=20.0) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()
        if seat in v["waiting_for"]:
            return v
        time.sleep(0.05)
    raise AssertionError(f"seat {seat} was never owed a decision")


# --- private seats --------------------------------------------------------------------------------


def test_the_hosts_answer_holds_no_other_seats_credential(client, game):
    data = create(client, game=game)
    assert data["seat"] == 0 and data["token"]
    assert data["link"].endswith(f"/games/{data['id']}")  # the host's page: no secret in its address
    invited = [s for s in data["seats"] if "invitation" in s]
    assert [s["seat"] for s in invited] == [1]
    assert "token" not in str(data["seats"])
    # The invitation is not a credential: it opens no view until it is claimed.
    code = invitation_code(invited[0]["invitation"])
    client.cookies.clear()
    assert client.get(f"/api/games/{data['id']}/view", headers={"X-Seat-Token": code}).status_code == 403
    # The claimer's credential is one the host never saw.
    claimed = client.post(f"/api/games/{data['id']}/claim", json={"invitation": code}).json()
    assert claimed["seat"] == 1 and claimed["token"] not in (data["token"], code)
    assert claimed["token"] not in str(data)


def test_the_host_seat_is_the_creators_choice_among_human_seats(client, game):
    data = create(client, game=game, host_seat=1)
    assert data["seat"] == 1 and [s["seat"] for s in data["seats"] if "invitation" in s] == [0]
    refused = client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7, host_seat=2))
    assert refused.status_code == 422 and refused.json()["key"] == "error.host_seat"


def test_the_creators_browser_gets_an_httponly_cookie(client, game):
    response = client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7))
    cookie = response.headers["set-cookie"]
    game_id = response.json()["id"]
    assert cookie.startswith(cookie_name(game_id) + "=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    page = client.get(f"/games/{game_id}")  # the cookie alone opens the page
    assert page.status_code == 200 and 'data-seat="0"' in page.text and response.json()["token"] not in page.text


def test_claiming_an_invitation_sets_the_cookie_and_leaves_no_token_in_the_url(client, game):
    data = create(client, game=game)
    client.cookies.clear()
    link = data["seats"][1]["invitation"]
    path = "/" + link.split("/", 3)[3]
    page = client.get(path)  # opening the link shows a button (no screen: the claim); it claims nothing yet
    shown = 'method="post"' if "screen" in game.served.capabilities else f"/api/games/{data['id']}/claim"
    assert page.status_code == 200 and shown in page.text
    assert not client.cookies
    taken = client.post(path, follow_redirects=False)
    assert taken.status_code == 303 and taken.headers["location"] == f"/games/{data['id']}"
    assert "?" not in taken.headers["location"]
    cookie = taken.headers["set-cookie"]
    assert cookie.startswith(cookie_name(data["id"]) + "=") and "HttpOnly" in cookie
    game = client.get(taken.headers["location"])
    assert game.status_code == 200 and 'data-seat="1"' in game.text
    # The seat's view by cookie; the invitation is spent.
    assert client.get(f"/api/games/{data['id']}/view").json()["seat"] == 1
    client.cookies.clear()
    again = client.post(path, follow_redirects=False)
    assert again.status_code == 404 and 'data-error="error.invitation"' in again.text  # a page (issue 29)
    assert client.get(path).status_code == 404


def test_a_page_without_a_seat_says_so_in_the_readers_language(client, game):
    data = create(client, game=game)
    client.cookies.clear()
    page = client.get(f"/games/{data['id']}", params={"lang": "es"})
    assert page.status_code == 401 and i18n.gettext("es", "ui.no_seat") in page.text


def test_a_cookie_from_another_sites_page_is_refused(client, game):
    data = create(client, game=game)  # the client holds the host's cookie
    foreign = client.get(f"/api/games/{data['id']}/view", headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["key"] == "error.cross_origin"
    ours = client.get(f"/api/games/{data['id']}/view", headers={"Origin": "http://testserver"})
    assert ours.status_code == 200


# What browsers send (fetch metadata, Origin, Referer) for a request carrying the seat's cookie.
# Chromium's form on a page of `Referrer-Policy: no-referrer` said `Origin: null` with
# `Sec-Fetch-Site: same-origin`: the site's own page, to be accepted.
OURS = {
    "chromium, this site's page": {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    "chromium, this site's page under no-referrer": {"Sec-Fetch-Site": "same-origin", "Origin": "null"},
    "typed or from a mail program": {"Sec-Fetch-Site": "none"},
    "a browser without fetch metadata": {"Origin": "http://testserver"},
    "an old browser, Referer only": {"Referer": "http://testserver/games/x"},
    "an API client": {},
}
THEIRS = {
    "another port of this host (same-site)": {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver:1"},
    "another site": {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    "another site hiding itself": {"Sec-Fetch-Site": "cross-site", "Origin": "null"},
    "a sandboxed frame, no fetch metadata": {"Origin": "null"},
    "another site, no fetch metadata": {"Origin": "https://evil.example"},
    "an old browser, another site's Referer": {"Referer": "https://evil.example/"},
}


@pytest.mark.parametrize("headers", OURS.values(), ids=OURS.keys())
def test_this_sites_pages_use_the_seats_cookie(client, headers, game):
    data = create(client, game=game)
    chat = client.post(f"/api/games/{data['id']}/chat", json={"text": "hi"}, headers=headers)
    assert chat.status_code == 200, chat.text


@pytest.mark.parametrize("headers", THEIRS.values(), ids=THEIRS.keys())
def test_other_sites_pages_do_not_use_the_seats_cookie(client, headers, game):
    data = create(client, game=game)
    chat = client.post(f"/api/games/{data['id']}/chat", json={"text": "hi"}, headers=headers)
    assert chat.status_code == 403 and chat.json()["key"] == "error.cross_origin"
    away = client.post(f"/api/games/{data['id']}/seat/away", headers=headers)
    assert away.status_code == 403 and away.json()["key"] == "error.cross_origin"


def test_a_link_from_another_site_opens_the_seats_page(client, game):
    """A top-level navigation changes nothing: a link in a web mail opens the player's page."""
    data = create(client, game=game)
    navigation = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    assert client.get(f"/games/{data['id']}", headers=navigation).status_code == 200
    fetched = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}
    assert client.get(f"/api/games/{data['id']}/view", headers=fetched).status_code == 403


def test_the_host_revokes_a_seat_and_reissues_its_invitation(client, game):
    data = create(client, game=game, takeover_bot="greedy")
    game_id, host = data["id"], data["token"]
    code = invitation_code(data["seats"][1]["invitation"])
    client.cookies.clear()
    guest = client.post(f"/api/games/{game_id}/claim", json={"invitation": code}).json()["token"]
    client.cookies.clear()
    guest_headers = {"X-Seat-Token": guest}
    # The guest cannot revoke anyone: only the host.
    refused = client.post(f"/api/games/{game_id}/seats/0/revoke", headers=guest_headers)
    assert refused.status_code == 403 and refused.json()["key"] == "error.not_host"
    with client.websocket_connect(f"/ws/games/{game_id}", headers=guest_headers) as ws:
        assert ws.receive_json()["type"] == "full"
        # a player at the table keeps the seat (tests/server/test_seat_secrets.py); one who
        # left it to a bot may lose it
        assert client.post(f"/api/games/{game_id}/seat/away", headers=guest_headers).status_code == 200
        revoked = client.post(f"/api/games/{game_id}/seats/1/revoke", headers={"X-Seat-Token": host})
        assert revoked.status_code == 200 and revoked.json() == {"seat": 1, "away": True}
        message = ws.receive_json()
        while message["type"] != "error":
            message = ws.receive_json()
        assert message["key"] == "error.seat_revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    assert client.get(f"/api/games/{game_id}/view", headers=guest_headers).status_code == 403
    host_view = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": host}).json()
    assert host_view["seats"][1]["away"] is True  # the takeover bot plays it
    # A new invitation: the new player takes the seat back from the bot.
    new = client.post(f"/api/games/{game_id}/seats/1/invitation", headers={"X-Seat-Token": host}).json()
    assert client.post(f"/api/games/{game_id}/claim", json={"invitation": code}).status_code == 404
    token = client.post(f"/api/games/{game_id}/claim", json={"invitation": invitation_code(new["invitation"])})
    client.cookies.clear()
    mine = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token.json()["token"]}).json()
    assert mine["seat"] == 1 and mine["seats"][1]["away"] is False


def test_client_action_ids_are_unique_per_seat(client, game):
    """Seat 1 reusing seat 0's client action id is a new action, not a duplicate."""
    data = create(client, game=game, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    game_id = data["id"]
    tokens = [data["token"]]
    for seat in data["seats"][1:]:
        code = invitation_code(seat["invitation"])
        client.cookies.clear()  # each player in their own browser
        tokens.append(client.post(f"/api/games/{game_id}/claim", json={"invitation": code}).json()["token"])
    client.cookies.clear()
    used: list[int] = []
    sent: dict[int, dict] = {}  # the action each seat sent under "same-id"
    for _ in range(50):
        v = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()
        fresh = [s for s in v["waiting_for"] if s not in used]
        seat = fresh[0] if fresh else v["waiting_for"][0]
        mine = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[seat]}).json()
        answer = client.post(
            f"/api/games/{game_id}/actions",
            headers={"X-Seat-Token": tokens[seat]},
            json={"action": mine["legal_actions"][-1], "client_action_id": None if seat in used else "same-id"},
        ).json()
        assert answer == {"seq": v["seq"] + 1, "duplicate": False}, answer
        if seat not in used:
            used.append(seat)
            sent[seat] = mine["legal_actions"][-1]
        if len(used) == 2:
            break
    assert len(used) == 2, "two seats never got to act"
    # The same seat reusing its own id is a duplicate, as before: applied once.
    before = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()["seq"]
    again = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": tokens[used[0]]},
        json={"action": sent[used[0]], "client_action_id": "same-id"},
    ).json()
    assert again["duplicate"] is True
    assert client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()["seq"] == before


def test_client_action_ids_per_seat_survive_a_restart(tmp_path, monkeypatch, game):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(url, allow_seeds=True)) as first:
        # J&K: two humans; Rome: one human and two bots (the host's seat is owed in turn)
        seats = [{"kind": "human"}, {"kind": "human"}] if game.name == "judges" else game.seats(1, bots=2)
        data = first.post("/api/games", json=game.body(seats, seed=7)).json()
        first.cookies.clear()
        token = data["token"]
        v = wait_for(first, data["id"], token, 0)
        body = {"action": v["legal_actions"][-1], "client_action_id": "x"}
        answer = first.post(f"/api/games/{data['id']}/actions", headers={"X-Seat-Token": token}, json=body).json()
        assert answer["duplicate"] is False
    with TestClient(create_app(url, allow_seeds=True)) as second:
        again = second.post(f"/api/games/{data['id']}/actions", headers={"X-Seat-Token": token}, json=body).json()
        assert again == {"seq": answer["seq"], "duplicate": True}


# --- limits ----------------------------------------------------------------------------------------


def test_a_large_body_is_refused_with_413_in_the_readers_language(make_client, game):
    client = make_client(max_body_bytes=1024)
    big = game.body(game.with_game(TWO_HUMANS), seed=7, rules={"x": "a" * 2000})
    response = client.post("/api/games?lang=pt_BR", json=big)
    assert response.status_code == 413
    assert response.json()["key"] == "error.too_large"
    assert response.json()["text"] == i18n.gettext("pt_BR", "error.too_large")

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"seats": ['
        for _ in range(200):
            yield b'{"kind": "human"},'
        yield b'{"kind": "human"}]}'

    chunked = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert chunked.status_code == 413


def test_game_creation_is_rate_limited_per_address(make_client, game):
    client = make_client(create_burst=3, create_per_minute=1)
    codes = [
        client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7)).status_code for _ in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    refused = client.post("/api/games?lang=es", json=game.body(game.with_game(TWO_HUMANS), seed=7))
    assert refused.json()["key"] == "error.rate_create"
    assert refused.json()["text"] == i18n.gettext("es", "error.rate_create")
    assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_the_rate_limiter_refills_and_forgets_old_keys():
    now = [0.0]
    limiter = RateLimiter(burst=2, per_minute=60, max_keys=3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [None, None, pytest.approx(1.0)]
    now[0] += 1.0
    assert limiter.take("a") is None
    for key in "bcde":
        limiter.take(key)
    assert len(limiter._buckets) == 3  # bounded


def test_away_and_back_are_rate_limited(make_client, game):
    client = make_client(away_burst=4, away_per_minute=1)
    data = create(client, game=game)
    headers = {"X-Seat-Token": data["token"]}
    codes = [
        client.post(f"/api/games/{data['id']}/seat/{m}", headers=headers).status_code for m in ["away", "back"] * 3
    ]
    assert codes == [200, 200, 200, 200, 429, 429]
    refused = client.post(f"/api/games/{data['id']}/seat/away", headers=headers)
    assert refused.json()["key"] == "error.rate_away" and int(refused.headers["retry-after"]) >= 1


def test_the_takeovers_a_view_lists_are_bounded(make_client, game):
    client = make_client(away_burst=100, max_seat_history=4)
    data = create(client, game=game)
    headers = {"X-Seat-Token": data["token"]}
    for move in ["away", "back"] * 10:
        client.post(f"/api/games/{data['id']}/seat/{move}", headers=headers)
    v = client.get(f"/api/games/{data['id']}/view", headers=headers).json()
    assert len(v["seat_events"]) == 4


def test_the_notifications_a_view_holds_are_bounded(make_client, game):
    client = make_client(max_view_notifications=3)
    seats, options = game.quick_finish([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    if game.name == "judges":
        options = {"round_limit": 2}
    data = create(client, game=game, seats=seats, **options)
    headers = {"X-Seat-Token": data["token"]}
    client.post(f"/api/games/{data['id']}/seat/away", headers=headers)
    deadline = time.time() + 30
    while time.time() < deadline:
        v = client.get(f"/api/games/{data['id']}/view", headers=headers).json()
        if v["ending"]:
            break
        time.sleep(0.05)
    assert v["ending"] and v["max_notifications"] == 3
    assert len(v["notifications"]) == 3
    ids = [n["id"] for n in v["notifications"]]
    assert ids == sorted(ids) and ids[-1] == max(n["id"] for n in v["notifications"])  # the latest ones


def test_a_turn_timer_has_a_floor(client, game):
    refused = client.post("/api/games?lang=es", json=game.body(game.with_game(TWO_HUMANS), seed=7, turn_timer=1e-6))
    assert refused.status_code == 422 and refused.json()["key"] == "error.turn_timer"
    assert refused.json()["text"] == i18n.gettext("es", "error.turn_timer")
    assert (
        client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7, turn_timer=10)).status_code == 201
    )


@pytest.mark.parametrize(
    "raw,clean",
    [
        ("Ada", "Ada"),
        ("  Ada \n Lovelace\t", "Ada Lovelace"),
        ("evil\u202eegassem", "evilegassem"),  # right-to-left override
        ("a\u2066b\u2069c\u200bd", "abcd"),  # isolates and a zero-width space
        ("bell\x07\x1b[31mred", "bell[31mred"),
        ("x" * 100, "x" * 40),
        ("\u202e\u202e", ""),
    ],
)
def test_names_are_cleaned_of_control_and_bidi_characters(raw, clean):
    assert clean_name(raw) == clean


def test_a_seat_named_with_controls_is_shown_clean(client, game):
    seats = [{"kind": "human", "name": "\u202eAda\x00"}, {"kind": "bot", "bot": "greedy"}]
    data = create(client, game=game, seats=seats)
    assert data["seats"][0]["name"] == "Ada"
    nameless = create(client, game=game, seats=[{"kind": "human", "name": "\u202e"}, {"kind": "bot", "bot": "greedy"}])
    assert nameless["seats"][0]["name"] == KITS[game.name].seat_name(0, "en")  # nothing left: the default name
    assert nameless["seats"][0]["name"] == {"judges": "Reuben", "rome": "Faction 1"}[game.name]


def test_security_headers_on_pages_and_api(client):
    for path in ("/", "/api/world", "/manual"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert (
            "script-src 'self'" in csp
            and "frame-ancestors 'none'" in csp
            and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        )
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert headers["x-frame-options"] == "DENY"


def test_pages_run_no_inline_script(client, game):
    data = create(client, game=game)
    for page in (client.get("/").text, client.get(f"/games/{data['id']}").text):
        for tag in page.split("<script")[1:]:
            head = tag.split(">", 1)[0]
            assert 'src="' in head or 'type="application/json"' in head, head


def test_a_binary_frame_is_answered_with_close_code_1003(client, game):
    data = create(client, game=game)
    with client.websocket_connect(f"/ws/games/{data['id']}", headers={"X-Seat-Token": data["token"]}) as ws:
        assert ws.receive_json()["type"] == "full"
        ws.send_bytes(b"\x00\x01")
        message = ws.receive_json()
        while message["type"] != "error":
            message = ws.receive_json()
        assert message["key"] == "error.binary_frame" and message["text"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003


def test_a_seat_has_at_most_so_many_websockets_the_oldest_is_closed(make_client, game):
    client = make_client(sockets_per_seat=2)
    data = create(client, game=game)
    headers = {"X-Seat-Token": data["token"]}
    url = f"/ws/games/{data['id']}"
    with client.websocket_connect(url, headers=headers) as first:
        assert first.receive_json()["type"] == "full"
        with client.websocket_connect(url, headers=headers) as second:
            assert second.receive_json()["type"] == "full"
            with client.websocket_connect(url, headers=headers) as third:
                assert third.receive_json()["type"] == "full"
                message = first.receive_json()
                while message["type"] != "error":
                    message = first.receive_json()
                assert message["key"] == "error.too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    first.receive_json()
                assert closed.value.code == 1008
                live = client.app.state.service.games[data["id"]]
                assert len([s for s in live.subscribers if s.seat == 0]) == 2


def test_a_socket_that_falls_behind_is_dropped_not_waited_for(make_client, game):
    client = make_client(socket_queue=1, away_burst=100)
    data = create(client, game=game)
    service = client.app.state.service
    live = service.games[data["id"]]
    closed = []

    async def attach():
        async with live.lock:
            sub, _ = service.subscribe(live, 0, "en")
        sub.close = lambda code, key: closed.append((code, key))
        service.hub.push(live)  # one message waits: the queue is full
        service.hub.push(live)  # the next one drops the socket
        return sub

    sub = client.portal.call(attach)
    assert closed == [(1013, "error.socket_slow")] and sub not in live.subscribers


# --- the bots' pool ------------------------------------------------------------------------------------


def test_the_bot_pool_serves_games_in_turn_and_keeps_a_worker_for_light_bots():
    """Twenty hostile games queue three search jobs each; an honest game's greedy job starts
    at once (a worker stays free for light jobs), and the heavy jobs start game after game,
    not one game's backlog first. Counts, not times."""

    async def scenario():
        pool = FairPool(workers=2)
        release = threading.Event()
        order: list[str] = []

        def heavy(game):
            order.append(game)
            release.wait(10)

        jobs = [asyncio.create_task(pool.run(f"h{g}", True, heavy, f"h{g}")) for g in range(20) for _ in range(3)]
        await asyncio.sleep(0)
        honest = asyncio.create_task(pool.run("honest", False, lambda: "greedy move"))
        assert await asyncio.wait_for(honest, 5) == "greedy move"
        heavy_started_before = sum(1 for _, h in pool.started if h)
        release.set()
        await asyncio.gather(*jobs)
        return order, heavy_started_before, pool

    order, heavy_started_before, pool = run_apart(scenario())
    assert heavy_started_before == 1  # one heavy job ran; the honest job did not wait behind it
    # after the job already running, every game's next job comes in turn (first in, first out
    # would run h0's backlog, then h1's: seven games in those twenty starts)
    assert len(set(order[1:21])) == 20
    assert len(order) == 60 and pool.pending() == 0


def test_a_resume_link_brings_the_seat_to_another_browser(client, game):
    """A guest's seat lives in one cookie: its resume link gives it to another browser, whose
    new credential replaces the old one; a newer link spends the older."""
    data = create(client, game=game)
    game_id, host = data["id"], data["token"]
    old = client.post(f"/api/games/{game_id}/resume", headers={"X-Seat-Token": host}).json()["link"]
    new = client.post(f"/api/games/{game_id}/resume", headers={"X-Seat-Token": host}).json()["link"]
    assert old != new and f"/resume/{game_id}/" in new
    client.cookies.clear()
    path = new.removeprefix("http://testserver")
    assert client.get(old.removeprefix("http://testserver")).status_code == 404  # replaced
    page = client.get(path)
    assert page.status_code == 200 and 'id="take-seat"' in page.text  # opening it takes nothing
    assert client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": host}).status_code == 200
    taken = client.post(path, follow_redirects=False)
    assert taken.status_code == 303 and taken.headers["location"] == f"/games/{game_id}"
    assert client.get(f"/api/games/{game_id}/view").json()["seat"] == 0  # the new cookie
    refused = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": host})
    assert refused.status_code in (401, 403)  # the other browser's credential stopped
    assert "resume_hash" not in str(client.get("/api/lobby").json())
