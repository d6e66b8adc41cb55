"""§ 4 Taking back on the server: the seat's view says when it may take back
(`undo`), an Undo is stored and replayed like any action (client ids, restarts from a snapshot
taken inside a run of free steps), the log strikes the step taken back and names it in the
Undo's line, and an Undo after a reveal or another player's action is refused with the rule."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from seats_support import with_tokens

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
BOTS_HOLD = {"Hebron": {"owner": 1, "troops": 2}, "Shechem": {"owner": 2, "troops": 2}}
BOTS_GENERALS = [{"id": 11, "owner": 1, "at": "Hebron"}, {"id": 12, "owner": 2, "at": "Shechem"}]
MOVEMENT = {  # round 1's Movement: Ada plays first
    "phase": "movement",
    "clear_board": True,
    "settlements": {"Shunem": {"owner": 0, "troops": 3}, **BOTS_HOLD},
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, *BOTS_GENERALS],
}
SHOP = {  # round 1's Acquisitions, Ada first, with coins and a deck to draw from
    "phase": "acquisitions",
    "clear_board": True,
    "settlements": {"Shunem": {"owner": 0, "troops": 1}, **BOTS_HOLD},
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "coins": 9}],
}


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_scenarios=True, allow_seeds=True)) as c:
        yield c


def create(client, position) -> tuple[str, str]:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 7, "position": position})
    assert response.status_code == 201, response.text
    data = with_tokens(client, response.json())
    return data["id"], data["seats"][0]["token"]


def view(client, game_id, token, lang="en") -> dict:
    response = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}, params={"lang": lang})
    assert response.status_code == 200, response.text
    return response.json()


def post(client, game_id, token, action, client_id=None, lang="en"):
    return client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        params={"lang": lang},
        json={"action": action, "client_action_id": client_id},
    )


def first_move(v: dict) -> dict:
    return next(a for a in v["legal_actions"] if a["type"] == "move" and a["general"] == 10)


def test_a_move_is_taken_back_through_the_api_and_the_log_says_so(client):
    game_id, token = create(client, MOVEMENT)
    start = view(client, game_id, token)
    assert start["undo"] is False and not any(a["type"] == "undo" for a in start["legal_actions"])
    move = first_move(start)
    assert post(client, game_id, token, move).status_code == 200
    moved = view(client, game_id, token)
    assert moved["undo"] is True
    answer = post(client, game_id, token, {"type": "undo"}, client_id="u-1")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seq": start["seq"] + 2, "duplicate": False}
    again = post(client, game_id, token, {"type": "undo"}, client_id="u-1")  # a retried request
    assert again.json() == {"seq": start["seq"] + 2, "duplicate": True}
    back = view(client, game_id, token)
    assert back["state"]["generals"] == start["state"]["generals"]
    assert back["state"]["settlements"] == start["state"]["settlements"]
    assert back["undo"] is False and back["legal_actions"] == start["legal_actions"]
    for lang, words in (("en", "Ada took back: "), ("es", "Ada deshizo: ")):
        log = client.get(f"/api/games/{game_id}/log", params={"lang": lang, "since": start["seq"] - 1}).json()
        step, undo = log["entries"]
        assert step["type"] == "move" and step["undone"] == undo["seq"]
        assert undo["type"] == "undo" and undo["undoes"] == step["seq"]
        assert undo["text"].startswith(words) and undo["text"].removeprefix(words) in step["text"]


def test_an_undo_after_a_card_is_drawn_is_refused_with_the_rule(client):
    game_id, token = create(client, SHOP)
    assert post(client, game_id, token, {"type": "buy", "item": "troop", "settlement": "Shunem"}).status_code == 200
    assert view(client, game_id, token)["undo"] is True
    assert post(client, game_id, token, {"type": "buy", "item": "card"}).status_code == 200
    before = view(client, game_id, token)
    assert before["undo"] is False
    for lang in ("en", "pt_BR"):
        refused = post(client, game_id, token, {"type": "undo"}, lang=lang)
        assert refused.status_code == 422
        body = refused.json()
        assert body["key"] == "error.undo_revealed" and body["rule"] == "§4 Taking back"
        assert body["text"] and "{" not in body["text"]
    after = view(client, game_id, token)
    assert after["seq"] == before["seq"] and after["state"] == before["state"]


def test_an_undo_after_the_turn_went_on_is_refused(client):
    game_id, token = create(client, MOVEMENT)
    start = view(client, game_id, token)
    post(client, game_id, token, first_move(start))
    post(client, game_id, token, {"type": "end_turn"})  # the bots play their turns now
    refused = post(client, game_id, token, {"type": "undo"})
    assert refused.status_code == 422 and refused.json()["key"] == "error.undo_nothing"
    assert view(client, game_id, token)["undo"] is False


def test_a_server_loading_a_snapshot_taken_mid_run_can_take_back(db_url, monkeypatch):
    """A snapshot written between two free steps carries the run: a restarted server (or
    another process) takes back exactly as the one that wrote it would."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr("judges.server.table.actor.SNAPSHOT_EVERY", 2)
    with TestClient(create_app(db_url, allow_scenarios=True, allow_seeds=True)) as first:
        game_id, token = create(first, MOVEMENT)
        start = view(first, game_id, token)
        assert start["seq"] == 0
        post(first, game_id, token, {"type": "take_troops", "general": 10, "count": 2})
        post(first, game_id, token, first_move(view(first, game_id, token)))  # the second action: a snapshot
        store = first.app.state.service.store
        deadline = time.time() + 10
        while store.load(game_id).snapshot is None and time.time() < deadline:
            time.sleep(0.02)
        assert store.load(game_id).snapshot.seq == 2
        moved = view(first, game_id, token)
    with TestClient(create_app(db_url, allow_scenarios=True, allow_seeds=True)) as second:
        assert view(second, game_id, token)["undo"] is True
        for _ in range(2):
            assert post(second, game_id, token, {"type": "undo"}).status_code == 200
        back = view(second, game_id, token)
        assert back["state"]["generals"] == start["state"]["generals"] != moved["state"]["generals"]
        assert back["state"]["settlements"] == start["state"]["settlements"]
