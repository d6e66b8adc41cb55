"""The routes the game screen adds (server/table/screen.py): the board drawing, the public log, the
lobby and its open seats, spectators, replays; and a seat's socket that falls behind."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.store import GameStore
from judges.server.table.service import GameService

OPEN_TABLE = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def create(client, seats, game=None) -> dict:
    """A table of seed 7 (`game`: the game's driver, tests/games_support.py; None: J&K's)."""
    body = {"seats": seats, "seed": 7} if game is None else game.body(game.with_game(seats), seed=7)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_an_open_seat_is_taken_once_from_the_lobby_and_stored(client, game):
    table = create(client, OPEN_TABLE, game)
    assert [g["id"] for g in client.get("/api/lobby").json()["open"]] == [table["id"]]
    client.cookies.clear()  # a stranger's browser (the host holds a seat already)
    joined = client.post(f"/api/games/{table['id']}/join")
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    token = joined.json()["token"]
    view = client.get(f"/api/games/{table['id']}/view", headers={"X-Seat-Token": token})
    assert view.status_code == 200 and view.json()["seat"] == 1
    client.cookies.clear()
    assert client.post(f"/api/games/{table['id']}/join").status_code == 409  # no free seat left
    lobby = client.get("/api/lobby").json()
    assert lobby["open"] == [] and [g["id"] for g in lobby["running"]] == [table["id"]]


def test_the_board_the_log_and_the_spectators_view_show_only_public_things(client, game):
    gid = create(client, OPEN_TABLE, game)["id"]
    log = client.get(f"/api/games/{gid}/log").json()
    assert log["seq"] == len(log["entries"])
    if game.name != "judges":  # no board (capability world_map)
        refused = client.get(f"/api/games/{gid}/board.svg")
        assert refused.status_code == 422 and refused.json()["key"] == "error.not_in_game"
        watched = client.get(f"/api/games/{gid}/spectate").json()
        assert watched["seat"] is None and watched["legal_actions"] == [] and not game.leaks(watched, None)
        with client.websocket_connect(f"/ws/games/{gid}/spectate") as socket:
            assert socket.receive_json()["view"]["seq"] == watched["seq"]
        return
    board = client.get(f"/api/games/{gid}/board.svg")
    assert board.status_code == 200 and board.headers["content-type"].startswith("image/svg+xml")
    assert "data-settlement" in board.text
    watched = client.get(f"/api/games/{gid}/spectate").json()
    # a spectator's view is the view of no seat (issue 32: server/games/judges/wire.py)
    assert watched["seat"] is None and watched["legal_actions"] == [] and watched["ballot"] is None
    with client.websocket_connect(f"/ws/games/{gid}/spectate") as socket:
        assert socket.receive_json()["view"]["seq"] == watched["seq"]


def test_a_running_game_is_not_replayed(client):
    game = create(client, OPEN_TABLE)
    response = client.get(f"/api/games/{game['id']}/replay")
    assert response.status_code == 409


def test_a_finished_judges_and_kings_game_is_replayed_with_its_board_and_log_up_to_the_step(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    response = client.post("/api/games", json={"seats": seats, "seed": 7, "round_limit": 1})
    game_id, token = response.json()["id"], response.json()["token"]
    assert client.post(f"/api/games/{game_id}/seat/away", headers={"X-Seat-Token": token}).status_code == 200
    deadline = time.time() + 60
    while not client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()["ending"]:
        assert time.time() < deadline, "the bots never finished the game"
        time.sleep(0.05)
    whole = client.get(f"/api/games/{game_id}/replay").json()
    steps = whole["replay"]["steps"]
    assert whole["replay"]["step"] == steps == len(whole["log"]) > 5 and whole["replay"]["phases"][0] == 0
    at = client.get(f"/api/games/{game_id}/replay", params={"step": 5, "lang": "es"}).json()
    assert at["replay"]["step"] == 5 and [e["seq"] for e in at["log"]] == list(range(5))
    assert at["board_svg"].startswith("<svg") and at["language"] == "es"
    assert all(isinstance(p["hand"], list) for p in at["state"]["players"])  # every hand shown


def test_a_socket_that_falls_behind_is_dropped_and_its_next_one_gets_the_whole_view(tmp_path):
    async def scenario() -> None:
        store = GameStore(f"sqlite:///{tmp_path / 'games.db'}")
        store.migrate()
        service = GameService(store)
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
        live, _, _ = await service.create(seats, seed=7)
        closed: list[int] = []
        sub, first = service.subscribe(live, 0, "en")
        sub.close = lambda code, key: closed.append(code)
        assert first is not None and msgspec.json.decode(first)["type"] == "full"
        for _ in range(sub.queue.maxsize + 1):
            service.hub.push(live)
        # it never holds the others up: it is closed (the screen reconnects) ...
        assert closed == [1013] and sub not in live.subscribers
        # ... and the new socket's first message is the latest view with every notification
        _, again = service.subscribe(live, 0, "en")
        assert again is not None
        latest = msgspec.json.decode(again)
        assert latest["type"] == "full" and latest["view"]["seq"] == len(live.game.log)
        ids = [n["id"] for n in service.payload(live, 0, "en")["notifications"]]
        assert ids and [n["id"] for n in latest["view"]["notifications"]] == ids
        await service.stop()

    # its own thread: the browser tests' Playwright keeps an event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()
