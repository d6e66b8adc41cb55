"""GET /api/games/{id}/hint (issue 31): the seat's credential, a legal action of the seat's
decision, reasons in the reader's language, its use counted in the seat, refused by a table
that plays without hints."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from judges.engine import action_from_dict
from judges.server.app import create_app
from judges.server.limits import Limits
from seats_support import with_tokens

SEATS = [{"kind": "human", "name": "Ada", "language": "es"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    limits = Limits(bot_cpu_seconds=0.1)  # a small budget: the test measures nothing
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as c:
        yield c


def create(client, **extra) -> dict:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 11, **extra})
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def view(client, game_id, token):
    return client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()


def wait_for_human(client, game_id, token) -> dict:
    deadline = time.time() + 30
    while time.time() < deadline:
        data = view(client, game_id, token)
        if 0 in data["waiting_for"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


def test_a_hint_is_a_legal_action_with_reasons_in_the_seats_language(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    assert client.get(f"/api/games/{game_id}/hint").status_code == 401  # the seat's credential
    assert client.get(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": "nope"}).status_code == 403
    before = wait_for_human(client, game_id, token)
    assert before["table"]["hints"] is True and before["seats"][0]["hints"] == 0
    response = client.get(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    hint = response.json()
    live = client.app.state.service.games[game_id]
    assert action_from_dict(hint["action"]) in list(live.game.legal_actions(0))
    assert hint["reasons"] and all(r["key"].startswith("hint.") and r["text"] for r in hint["reasons"])
    english = client.get(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token}, params={"lang": "en"}).json()
    assert [r["key"] for r in english["reasons"]][:1] == [r["key"] for r in hint["reasons"]][:1]
    assert english["reasons"][0]["text"] != hint["reasons"][0]["text"]  # Spanish, the seat's language
    assert len(hint["alternatives"]) <= 2
    assert english["action"] == hint["action"]  # the same position: the same search, once
    assert view(client, game_id, token)["seats"][0]["hints"] == 1  # one position hinted, on record


def test_a_table_may_refuse_hints(client):
    data = create(client, hints=False)
    game_id, token = data["id"], data["seats"][0]["token"]
    assert wait_for_human(client, game_id, token)["table"]["hints"] is False
    response = client.get(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})
    assert response.status_code == 403
    assert response.json()["key"] == "error.hints_off" and response.json()["text"]


def test_a_tables_refusal_of_hints_survives_a_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(url, allow_seeds=True)) as c:
        data = create(c, hints=False)
    with TestClient(create_app(url, allow_seeds=True)) as c:
        token = data["seats"][0]["token"]
        assert view(c, data["id"], token)["table"]["hints"] is False
        assert c.get(f"/api/games/{data['id']}/hint", headers={"X-Seat-Token": token}).status_code == 403
