"""§ 5.5 through the server: a prophet's owner facing ten cards in the Events Area gets a small
view, and plays the choice card by card through the API.

Before, the view listed every combination of terrains: 3¹⁰ = 59,049 legal actions with their
labels, 20.1 MB built in seconds, at every request of that seat."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from seats_support import with_tokens

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}, {"kind": "bot", "bot": "greedy"}]
TEN_CARDS = ["plague"] * 3 + ["abundance"] * 4 + ["famine"] * 3
POSITION = {
    "clear_board": True,
    "settlements": {
        "Hazor": {"owner": 0, "troops": 2},
        "Kedesh": {"owner": 1, "troops": 2},
        "Merom": {"owner": 2, "troops": 2},
    },
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor", "prophet": True},
        {"id": 11, "owner": 1, "at": "Kedesh"},
        {"id": 12, "owner": 2, "at": "Merom"},
    ],
    "events_area": TEN_CARDS,
}
MAX_VIEW = 100_000  # bytes


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_scenarios=True, allow_seeds=True)) as c:
        yield c


def test_a_prophet_with_ten_cards_gets_a_small_view_and_chooses_card_by_card(client):
    response = client.post("/api/games", json={"seats": SEATS, "seed": 7, "position": POSITION})
    assert response.status_code == 201, response.text
    data = with_tokens(client, response.json())
    game_id, seer, other = data["id"], data["seats"][0]["token"], data["seats"][1]["token"]

    def view(token):
        response = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token})
        assert response.status_code == 200
        assert len(response.content) < MAX_VIEW
        return response.json()

    chosen: list[str] = []
    for i, terrain in enumerate(["desert", "plain", "mountains"] * 3 + ["desert"]):
        mine = view(seer)
        assert [d["kind"] for d in mine["my_decisions"]] == ["foresee_events"]
        assert sorted(a["terrains"][i] for a in mine["legal_actions"]) == ["desert", "mountains", "plain"]
        assert all(a["terrains"][:i] == chosen for a in mine["legal_actions"])
        assert view(other)["state"]["pending_terrains"] == []  # the choice so far is the seer's
        action = next(a for a in mine["legal_actions"] if a["terrains"][i] == terrain)
        response = client.post(f"/api/games/{game_id}/actions", json={"action": action}, headers={"X-Seat-Token": seer})
        assert response.status_code == 200, response.text
        chosen.append(terrain)
    landed = {e["terrain"]: e["card"] for e in view(other)["state"]["events_landed"]}
    assert landed == {"desert": "famine", "plain": "famine", "mountains": "famine"}  # the newest on each
