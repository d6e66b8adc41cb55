"""A rematch with the same seats (issue 30, docs/accounts.md "Rematch"): the first player to ask
makes the table, the other account takes the seat kept for him from "My games"."""

from __future__ import annotations

import time

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from judges.server.app import create_app
from seats_support import invitation_code

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.accounts.PasswordHasher", lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def sign_in(client, name, new=False):
    client.cookies.clear()
    body = {"name": name, "password": "a long secret"}
    response = client.post("/api/accounts" if new else "/api/session", json=body)
    assert response.is_success, response.text


def finished_game(client):
    sign_in(client, "ada", new=True)
    data = client.post("/api/games", json={"seats": SEATS, "seed": 5, "round_limit": 1, "turn_timer": 600}).json()
    gid = data["id"]
    sign_in(client, "bo", new=True)
    code = invitation_code(data["seats"][1]["invitation"])
    bo = client.post(f"/api/games/{gid}/claim", json={"invitation": code}).json()["token"]
    client.cookies.clear()
    for token in (data["token"], bo):  # both leave: the bots finish it
        client.post(f"/api/games/{gid}/seat/away", headers={"X-Seat-Token": token})
    stop = time.time() + 120
    while not client.get(f"/api/games/{gid}/spectate").json()["ending"]:
        assert time.time() < stop, "the game did not end"
        time.sleep(0.05)
    return gid, data["token"], bo


def test_a_rematch_keeps_the_seats_and_the_other_account_takes_his(client):
    gid, ada, _ = finished_game(client)
    made = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": ada})
    assert made.status_code == 200, made.text
    new = made.json()
    assert new["made"] and new["seat"] == 0 and new["id"] != gid
    assert [s["name"] for s in new["seats"]][:2] == ["Ada", "Bo"]
    assert new["seats"][1]["kept"] and "invitation" in new["seats"][1] and new["seats"][2]["kind"] == "bot"
    live = client.portal.call(client.app.state.service.get, new["id"])
    assert live.seats[2]["bot"] == "greedy"
    assert client.app.state.service.turn_timers[new["id"]] == 600  # the same options
    # Bo, signed in, finds it under the finished game in "My games" and takes his seat
    sign_in(client, "bo")
    (finished,) = client.get("/api/me/games").json()["finished"]
    assert finished["rematch"] == new["id"]
    taken = client.post(f"/api/games/{gid}/rematch")
    assert taken.status_code == 200, taken.text
    assert taken.json() == {"id": new["id"], "seat": 1, "link": f"http://testserver/games/{new['id']}", "made": False}
    assert client.get(f"/api/games/{new['id']}/view").json()["seat"] == 1
    assert [g["id"] for g in client.get("/api/me/games").json()["running"]] == [new["id"]]
    again = client.post(f"/api/games/{gid}/rematch")  # asked twice: the same seat
    assert again.json()["seat"] == 1
    # a guest's credential of the finished game: no second table is made, no seat kept for him
    client.cookies.clear()
    again = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": ada})
    assert again.status_code == 409 and again.json()["key"] == "error.rematch_made"


def test_a_rematch_is_for_a_finished_game(client):
    sign_in(client, "ada", new=True)
    data = client.post("/api/games", json={"seats": SEATS, "seed": 5}).json()
    refused = client.post(f"/api/games/{data['id']}/rematch", headers={"X-Seat-Token": data["token"]})
    assert refused.status_code == 409 and refused.json()["key"] == "error.rematch_running"
    client.cookies.clear()
    assert client.post(f"/api/games/{data['id']}/rematch").status_code == 401  # not a player
