"""Server hardening: each test plays an attack and would fail on a server without its defence.

- Spectators and resyncs (4): spectator sockets are limited per client address and per game,
  their public view is built once per version and language, a seat socket's resyncs are
  rate-limited;
- memory that grows with requests (5): no cache keyed by a request's value grows with it;
- small leaks and spoofs (8): the discard pile and the log agree, a spectator's tag cannot be
  forged, a reused client action id for another action is a 409, and `X-Forwarded-For` counts
  from configured proxies only.
"""

from __future__ import annotations

import functools
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

import judges
from conftest import make_game
from judges import i18n
from judges.engine import Discard
from judges.server.community.chat import spectator_tag
from judges.server.limits import DEFAULT_LIMITS, Limits
from judges.server.table import updates
from judges.server.table.screen import log_entries, public_payload
from judges.server.table.service import LiveGame
from judges.server.table.tables import SPECTATOR
from judges.server.table.views import Views
from seats_support import THREE_HUMANS, app_clients, new_table
from server_process import Server


@pytest.fixture
def make_client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with app_clients(f"sqlite:///{tmp_path / 'games.db'}") as make:
        yield make


@pytest.fixture
def client(make_client):
    return make_client()


def table(client, seats=THREE_HUMANS, game=None) -> tuple[str, list[str | None]]:
    return new_table(client, seats, game)


def owed_seat(client, game_id: str, tokens: list) -> tuple[int, dict]:
    """A human seat owed a decision, and its view."""
    for _ in range(200):
        v = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()
        for seat in v["waiting_for"]:
            if tokens[seat]:
                return seat, client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[seat]}).json()
        time.sleep(0.05)
    raise AssertionError("no human seat was ever owed a decision")


def act(client, game_id: str, token: str, action: dict, cid: str | None = None, lang: str = "en"):
    body: dict = {"action": action}
    if cid is not None:
        body["client_action_id"] = cid
    return client.post(f"/api/games/{game_id}/actions?lang={lang}", headers={"X-Seat-Token": token}, json=body)


def refused(ws) -> tuple[dict, int]:
    """The error message a socket receives before it is closed, and the close code."""
    message = ws.receive_json()
    while message["type"] != "error":
        message = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return message, closed.value.code


# --- 4. spectators and resyncs ---------------------------------------------------------------------


def test_a_client_address_holds_at_most_so_many_spectator_sockets(client, game):
    """The attack: hundreds of spectator sockets from one address. The one past the limit is
    told why (in the reader's language) and closed with 4429; one that leaves frees a place."""
    limit = DEFAULT_LIMITS.spectators_per_address
    per_game = DEFAULT_LIMITS.spectators_per_address_per_game
    urls = [f"/ws/games/{table(client, game=game)[0]}/spectate" for _ in range(limit // per_game + 1)]
    url = urls[-1]
    sockets = [client.websocket_connect(urls[i // per_game]) for i in range(limit)]
    try:
        for ws in sockets:
            ws.__enter__()
            assert ws.receive_json()["type"] == "full"
        with client.websocket_connect(url + "?lang=es") as extra:
            message, code = refused(extra)
        assert code == 4429
        assert message["key"] == "error.too_many_spectators"
        assert message["text"] == i18n.gettext("es", "error.too_many_spectators", limit=limit)
        sockets.pop().__exit__(None, None, None)
        with client.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "full"
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    service = client.app.state.service
    assert not service.watchers  # the last one gone, nothing is kept for the games


def test_a_game_has_at_most_so_many_spectators(make_client, game):
    client = make_client(spectators_per_game=3, spectators_per_address=100, spectators_per_address_per_game=100)
    game_id, _ = table(client, game=game)
    url = f"/ws/games/{game_id}/spectate"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b, client.websocket_connect(url) as c:
        for ws in (a, b, c):
            assert ws.receive_json()["type"] == "full"
        with client.websocket_connect(url) as extra:
            message, code = refused(extra)
    assert (message["key"], code) == ("error.spectators_full", 4429)
    assert message["text"] == i18n.gettext("en", "error.spectators_full", limit=3)


def test_a_few_addresses_cannot_fill_a_games_spectator_places(make_client, game):
    """25 addresses of 8 sockets each filled a game's 200 places: an address takes at most 2
    places in one game (its other sockets may watch other games)."""
    client = make_client(trusted_proxies=("*",))  # each socket's address from X-Forwarded-For
    game_id, _ = table(client, game=game)
    url = f"/ws/games/{game_id}/spectate"
    opened, refusals = [], []
    try:
        for a in range(25):
            for _ in range(DEFAULT_LIMITS.spectators_per_address):
                ws = client.websocket_connect(url, headers={"X-Forwarded-For": f"10.0.0.{a + 1}"})
                ws.__enter__()
                first = ws.receive_json()
                if first["type"] == "full":
                    opened.append(ws)
                else:
                    refusals.append(first["key"])
                    ws.__exit__(None, None, None)
        assert len(opened) == 25 * DEFAULT_LIMITS.spectators_per_address_per_game
        assert set(refusals) == {"error.too_many_spectators"}
        with client.websocket_connect(url, headers={"X-Forwarded-For": "10.0.1.1"}) as newcomer:
            assert newcomer.receive_json()["type"] == "full"  # the game still has places
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)


def test_spectators_share_one_public_view_per_version_and_language(make_client, monkeypatch, game):
    """The attack: every broadcast built the public view anew for each spectator (300 of them
    took an honest player's action from 4.6 ms to 340 ms). It is built once per language, and
    sent as a seat's is: a full view, then a delta that turns it into the next public view."""
    built: list[str] = []
    original = Views.seat_parts

    def counting(self, live, public, seat, language):
        if seat == SPECTATOR:  # the view of no seat, whichever game's
            built.append(language)
        return original(self, live, public, seat, language)

    monkeypatch.setattr(Views, "seat_parts", counting)
    client = make_client(spectators_per_address_per_game=7)
    game_id, tokens = table(client, game=game)
    url = f"/ws/games/{game_id}/spectate"
    languages = ["en"] * 5 + ["es"] * 2
    sockets = [client.websocket_connect(f"{url}?lang={lang}") for lang in languages]
    try:
        firsts = []
        for ws in sockets:
            ws.__enter__()
            firsts.append(ws.receive_json())
        assert {m["type"] for m in firsts} == {"full"}
        assert sorted(built) == ["en", "es"]
        built.clear()
        seat, mine = owed_seat(client, game_id, tokens)
        assert act(client, game_id, tokens[seat], mine["legal_actions"][-1]).status_code == 200
        seconds = [ws.receive_json() for ws in sockets]
        assert sorted(built) == ["en", "es"], built
        assert all(m == seconds[0] for m in seconds[:5]) and seconds[5] == seconds[6]
        assert {m["type"] for m in seconds} == {"delta"}
        assert len(json.dumps(seconds[0])) * 5 < len(json.dumps(firsts[0]))  # a delta, not the view again
        after = [updates.apply_update(first["view"], second) for first, second in zip(firsts, seconds, strict=True)]
        assert after[0] is not None and after[5] is not None
        assert after[0]["seq"] == mine["seq"] + 1 and after[5]["language"] == "es"
        public = client.get(f"/api/games/{game_id}/spectate?lang=es").json()
        # the version and the clock's reading when the view was made aside, the same view
        assert {k: v for k, v in after[5].items() if k not in ("version", "server_time")} == {
            k: v for k, v in public.items() if k not in ("version", "server_time")
        }
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_a_spectator_out_of_step_asks_for_a_full_view(make_client, game):
    """A screen that missed a delta asks for a resync: it gets the full view, within its
    address's allowance; past it the socket is closed with 1013 (the screen reconnects)."""
    client = make_client(resync_burst=2, resync_per_minute=1)
    game_id, _ = table(client, game=game)
    with client.websocket_connect(f"/ws/games/{game_id}/spectate") as ws:
        first = ws.receive_json()
        ws.send_json({"type": "resync"})
        again = ws.receive_json()
        assert again["type"] == "full"
        assert again["view"] == first["view"] | {"server_time": again["view"]["server_time"]}
        ws.send_json({"type": "resync"})
        assert ws.receive_json()["type"] == "full"
        ws.send_json({"type": "resync"})
        message, code = refused(ws)
    assert (message["key"], code) == ("error.rate_resync", 1013)
    assert not client.app.state.service.games[game_id].subscribers


def test_a_resync_flood_is_answered_at_the_limit_then_closed(make_client, game):
    """The attack: 512 resyncs a second from a seat, each a whole view built and sent. Past
    `resync_burst` they wait for the seat's allowance; a flood meanwhile closes the socket."""
    client = make_client(resync_burst=5, resync_per_minute=6, resync_abuse=30)
    game_id, tokens = table(client, game=game)
    service = client.app.state.service
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": tokens[0]}) as ws:
        assert ws.receive_json()["type"] == "full"  # the opening took one of the five
        for _ in range(4 + 31 + 1):
            ws.send_json({"type": "resync"})
        fulls = 0
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                message = ws.receive_json()
                if message["type"] == "full":
                    fulls += 1
                elif message["type"] == "error":
                    assert message["key"] == "error.rate_resync"
    assert closed.value.code == 1008
    assert fulls == 4  # the rest of the burst; the one owed later died with the socket
    assert not service.games[game_id].subscribers


def test_a_seat_reopening_its_socket_in_a_loop_gets_no_more_full_views(make_client, game):
    """The same attack by reconnecting: every new socket's first message is a whole view. The
    openings share the seat's allowance: past it a socket is closed at once (1013)."""
    client = make_client(resync_burst=3, resync_per_minute=1)
    game_id, tokens = table(client, game=game)
    url, headers = f"/ws/games/{game_id}", {"X-Seat-Token": tokens[0]}
    for _ in range(3):
        with client.websocket_connect(url, headers=headers) as ws:
            assert ws.receive_json()["type"] == "full"
    with client.websocket_connect(url + "?lang=pt_BR", headers=headers) as ws:
        message, code = refused(ws)
    assert (message["key"], code) == ("error.rate_resync", 1013)
    assert message["text"] == i18n.gettext("pt_BR", "error.rate_resync")
    # another seat has its own allowance
    with client.websocket_connect(url, headers={"X-Seat-Token": tokens[1]}) as ws:
        assert ws.receive_json()["type"] == "full"


def test_a_resync_over_the_limit_is_sent_later_in_the_latest_language(make_client, game):
    """An honest client is never left without its view: the resync over the limit comes
    when the allowance refills (here 0.1 s), once, in the language it asked for last."""
    client = make_client(resync_burst=2, resync_per_minute=600)
    game_id, tokens = table(client, game=game)
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": tokens[0]}) as ws:
        assert ws.receive_json()["view"]["language"] == "en"
        ws.send_json({"type": "language", "lang": "es"})
        ws.send_json({"type": "language", "lang": "pt"})
        ws.send_json({"type": "resync"})
        assert ws.receive_json()["view"]["language"] == "es"
        late = ws.receive_json()
        assert late["type"] == "full" and late["view"]["language"] == "pt_BR"
        ws.send_json({"type": "language"})  # no "lang": the default, not a crash
        assert ws.receive_json()["view"]["language"] == "en"


# --- 5. memory that grows with requests ------------------------------------------------------------


def unbounded_caches() -> dict[str, object]:
    """Every functools cache without a size bound in the judges package."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "judges" or module is None:
            continue
        for attr, value in list(vars(module).items()):
            # functools' caches only (SQLAlchemy's `func` answers any attribute, cache_info too)
            if isinstance(value, functools._lru_cache_wrapper) and value.cache_info().maxsize is None:
                found[f"{name}.{attr}"] = value
    return found


def flood(client, n: int, start: int = 0) -> None:
    """Requests whose every value is new: maps, languages, manual pages, headers."""
    for i in range(start, start + n):
        assert client.get(f"/api/world?map=m{i}").status_code == 404
        assert client.get(f"/api/i18n/x{i}").status_code == 200
        assert client.get(f"/api/world?lang=x{i}", headers={"accept-language": f"y{i}"}).status_code == 200
        assert client.get(f"/manual/z{i}").status_code == 404


def test_requests_with_new_values_leave_every_cache_bounded(make_client):
    """The attack: `/api/world?map=` kept 402 bytes for every distinct value (some 0.85 GB an
    hour from one client). No unbounded cache of the package grows with a request's value."""
    client = make_client(create_burst=1000)
    flood(client, 5)
    rules = {"map": "nowhere"}
    client.post("/api/games", json={"seats": THREE_HUMANS, "seed": 7, "rules": rules})
    before = {name: cache.cache_info().currsize for name, cache in unbounded_caches().items()}  # type: ignore[attr-defined]
    flood(client, 300, start=5)
    for i in range(30):
        rules = {"map": f"nowhere{i}"}
        assert client.post("/api/games", json={"seats": THREE_HUMANS, "seed": 7, "rules": rules}).status_code == 422
    grown = {
        name: cache.cache_info().currsize - before.get(name, 0)  # type: ignore[attr-defined]
        for name, cache in unbounded_caches().items()
    }
    assert {name: n for name, n in grown.items() if n > 3} == {}


def test_the_world_route_keeps_no_memory_per_map_name(client):
    """Traced from the start, the second thousand of new map names keeps no more memory than
    the first: bounded caches (the client's URL parsing...) are full after the first."""
    names = iter(range(10**6))

    def batch() -> int:
        for _ in range(1000):
            assert client.get(f"/api/world?map=w{next(names)}").status_code == 404
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    tracemalloc.start()
    try:
        first = batch()
        grown = batch() - first
    finally:
        tracemalloc.stop()
    assert grown < 40_000, f"{grown} bytes kept for 1000 more map names"  # was 402 bytes each


# --- 8. small leaks and spoofs -------------------------------------------------------------------------


def test_the_log_names_a_discard_as_the_face_up_pile_shows_it():
    """The discard pile is face up (docs/rules-reference.md § 6): the public view shows the card
    discarded, so the log names it too; a vote stays secret in both."""
    hands = ["tax", "tax", "plague", "assassin", "prophet"]
    position = {
        "clear_board": True,
        "round": 1,
        "phase": "intrigue",
        "settlements": {
            "Lachish": {"owner": 0, "troops": 1},
            "Tamar": {"owner": 1, "troops": 1},
            "Succoth": {"owner": 2, "troops": 1},
        },
        "players": [{"seat": 0, "hand": hands}, {"seat": 1, "hand": []}, {"seat": 2, "hand": []}],
        "deck": ["famine", "famine", "revolt"],
    }
    game = make_game(position, dice=[])
    game.apply(Discard(player=0, card="plague"))
    seats = [{"name": n, "kind": "human", "bot": None} for n in ("Ada", "Bo", "Cy")]
    live = LiveGame(id="g", game=game, seats=seats)
    public = public_payload(live, "en")
    assert public.state.discard == ["plague"] and public.hand_sizes[0] == 5
    [entry] = log_entries(live, "es")
    assert entry["type"] == "discard"
    plague = i18n.label("es", "card", "plague")
    assert plague in entry["text"], entry
    assert entry["text"] != i18n.gettext("es", "log.secret_action", player="Ada")


def test_a_spectators_tag_cannot_be_found_by_trying_keys(client, game):
    """The attack: a spectator's 4-hex-digit tag was matched by another key in 0.02 s, and the
    impostor wrote under it. A million tries (4 hex digits: found after ~65 536) find nothing."""
    game_id, _ = table(client, game=game)
    answer = client.post(f"/api/games/{game_id}/chat/spectate", json={"text": "hi", "key": "the-victims-browser"})
    assert answer.status_code == 200, answer.text
    [message] = client.get(f"/api/games/{game_id}/chat/public").json()["messages"]
    tag = message["name"]
    assert len(tag) >= 16
    assert not any(spectator_tag(game_id, f"impostor-{i}") == tag for i in range(1_000_000))


def test_a_client_action_id_reused_for_another_action_is_a_409(client, game):
    game_id, tokens = table(client, game=game)
    seat, mine = owed_seat(client, game_id, tokens)
    action = mine["legal_actions"][-1]
    first = act(client, game_id, tokens[seat], action, cid="mine-1")
    assert first.json() == {"seq": mine["seq"] + 1, "duplicate": False}
    other = {"type": "discard", "card": "tax"} if action["type"] != "discard" else {"type": "end_turn"}
    for lang in ("en", "es", "pt_BR"):
        reused = act(client, game_id, tokens[seat], other, cid="mine-1", lang=lang)
        assert reused.status_code == 409, reused.text
        assert reused.json()["key"] == "error.client_id_reused"
        assert reused.json()["text"] == i18n.gettext(lang, "error.client_id_reused")
    # the same action again is a retry, applied once
    assert act(client, game_id, tokens[seat], action, cid="mine-1").json() == {
        "seq": mine["seq"] + 1,
        "duplicate": True,
    }
    after = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()
    assert after["seq"] == mine["seq"] + 1


def test_x_forwarded_for_counts_only_from_a_configured_proxy(make_client):
    """Behind a trusted proxy each client is counted by its own address; anyone else's
    X-Forwarded-For is ignored."""
    body = {"seats": THREE_HUMANS, "seed": 7}
    proxied = make_client(client_address=("10.0.0.7", 40000), trusted_proxies=("10.0.0.0/24",), create_burst=2)
    for i in range(4):  # four clients behind the proxy: each its own allowance
        answer = proxied.post("/api/games", json=body, headers={"x-forwarded-for": f"203.0.113.{i}, 10.0.0.3"})
        assert answer.status_code == 201, answer.text
    codes = [
        proxied.post("/api/games", json=body, headers={"x-forwarded-for": "198.51.100.9"}).status_code for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    direct = make_client(client_address=("192.0.2.1", 40000), trusted_proxies=("10.0.0.0/24",), create_burst=2)
    codes = [
        direct.post("/api/games", json=body, headers={"x-forwarded-for": f"203.0.113.{i}"}).status_code
        for i in range(3)
    ]
    assert codes == [201, 201, 429]
    with pytest.raises(ValueError, match="not-an-address"):
        Limits(trusted_proxies=("not-an-address",))


def test_x_forwarded_for_from_loopback_is_not_believed_by_default(tmp_path):
    """The attack: `judges serve` (uvicorn's default) believed X-Forwarded-For from any loopback
    peer, so a local client escaped the creation limit with a new header value each time."""
    env = {
        "JUDGES_CREATE_BURST": "2",
        "JUDGES_CREATE_PER_MINUTE": "0.1",
        "PYTHONPATH": str(Path(judges.__file__).resolve().parents[1]),  # the code under test
    }
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log", env=env)
    try:
        body = {"seats": THREE_HUMANS, "seed": 7}
        codes = [
            httpx.post(
                f"{server.base}/api/games", json=body, headers={"x-forwarded-for": f"203.0.113.{i}"}, timeout=30
            ).status_code
            for i in range(3)
        ]
    finally:
        server.stop()
    assert codes == [201, 201, 429], server.output()
