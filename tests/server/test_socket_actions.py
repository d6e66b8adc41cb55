"""A seat's actions over its websocket (server/routes/live.py, `act`): the same validation,
refusals, idempotency and checks as `POST /api/games/{id}/actions`, answered on the socket."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from judges.server.app import create_app
from judges.server.limits import Limits
from judges.server.table.seats import cookie_name
from seats_support import with_tokens

pytestmark = pytest.mark.timeout(120)  # an `act` never answered must fail the test, not hang it

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True, limits=Limits(max_body_bytes=4096))
    with TestClient(app) as c:
        yield c


def create(client, game) -> tuple[str, str]:
    response = client.post("/api/games", json=game.body(game.with_game(SEATS), seed=7))
    assert response.status_code == 201, response.text
    data = with_tokens(client, response.json())
    return data["id"], data["seats"][0]["token"]


def view(client, game_id, token) -> dict:
    return client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()


def owed(client, game_id, token, timeout=20.0) -> dict:
    """The seat's view once it owes a decision (the bots play in the background)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        data = view(client, game_id, token)
        if 0 in data["waiting_for"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


def answer(ws, request_id) -> dict:
    """The socket's answer to the action of `request_id` (the views' updates passed over)."""
    while True:
        message = ws.receive_json()
        if message["type"] in ("acted", "refused"):
            assert message["id"] == request_id
            return message


def test_an_action_sent_over_the_seats_socket_is_applied_once(client, game):
    game_id, token = create(client, game)
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": token}) as ws:
        assert ws.receive_json()["type"] == "full"
        start = owed(client, game_id, token)
        action = game.hurried(start)
        ws.send_json({"type": "act", "id": 1, "action": action, "client_action_id": "sock-1"})
        first = answer(ws, 1)
        ws.send_json({"type": "act", "id": "again", "action": action, "client_action_id": "sock-1"})
        again = answer(ws, "again")
    assert first == {"type": "acted", "id": 1, "seq": start["seq"] + 1, "duplicate": False}
    assert again == {"type": "acted", "id": "again", "seq": start["seq"] + 1, "duplicate": True}
    # the same id by HTTP afterwards is the same action too: one store of ids for both ways
    by_http = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        json={"action": action, "client_action_id": "sock-1"},
    )
    assert by_http.json() == {"seq": start["seq"] + 1, "duplicate": True}


def test_refused_actions_over_the_socket_answer_the_typed_error_and_change_nothing(client, game):
    game_id, token = create(client, game)
    with client.websocket_connect(f"/ws/games/{game_id}?lang=es", headers={"X-Seat-Token": token}) as ws:
        assert ws.receive_json()["type"] == "full"
        before = owed(client, game_id, token)
        ws.send_json({"type": "act", "id": 1, "action": game.illegal()})
        rule = answer(ws, 1)
        ws.send_json({"type": "act", "id": 2, "action": {"type": "teleport"}})
        malformed = answer(ws, 2)
        ws.send_json({"type": "act", "id": 3, "action": {**game.hurried(before), "player": 1}})
        wrong_seat = answer(ws, 3)
        ws.send_json({"type": "act", "id": 4, "action": game.hurried(before), "client_action_id": "x" * 101})
        invalid = answer(ws, 4)
        ws.send_json({"type": "act", "id": 5, "action": "end_turn"})
        not_an_object = answer(ws, 5)
        ws.send_json({"type": "act", "id": 6, "action": {**game.hurried(before), "padding": "x" * 5000}})
        too_large = answer(ws, 6)
        after = view(client, game_id, token)
    # as the HTTP route answers them: the status, the error's type and key, the text in Spanish
    assert rule["status"] == 422 and rule["error"] and rule["rule"] and rule["key"] and rule["text"]
    assert malformed["status"] == 422 and malformed["key"]
    assert wrong_seat["status"] == 403 and wrong_seat["key"] == "error.wrong_seat"
    assert invalid["status"] == 422 and invalid["key"] == "error.request" and invalid["detail"]
    assert not_an_object["status"] == 422 and not_an_object["key"] == "error.request"
    assert too_large["status"] == 413 and too_large["key"] == "error.too_large"
    assert invalid["text"] == "La solicitud no es válida."
    assert after["seq"] == before["seq"] and after["state"] == before["state"]


def test_a_cross_site_pages_socket_never_gets_to_act(client, game):
    """The socket's seat is checked as a request's when it opens: a seat's cookie sent by another
    site's page opens no socket, so no action can ride on it (the HTTP route's 403 error.cross_origin)."""
    game_id, token = create(client, game)
    client.cookies.set(cookie_name(game_id), token)
    try:
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/ws/games/{game_id}", headers={"Origin": "http://evil.example"}) as ws:
                ws.send_json({"type": "act", "id": 1, "action": game.hurried(owed(client, game_id, token))})
                ws.receive_json()
        assert closed.value.code == 4403
    finally:
        client.cookies.clear()
