"""After the game, GET /api/games/{id}/review gives a human seat its costliest decisions (three at
most, bots/review.py): each one the seat's own action in the game's log, with the hint's action
there ahead beyond its noise, costliest first, the title counting what it lists, its words in the
reader's language (three catalogs); refused until the game is over, searched once."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from judges.bots import make_bot
from judges.bots.paired import Z
from judges.bots.review import KEPT, SAMPLES, review
from judges.engine import action_from_dict, action_to_dict
from judges.i18n import LANGUAGES
from judges.server.app import create_app
from judges.server.limits import Limits
from judges.verify import new_game

SEATS = [{"kind": "human", "name": "Ada", "language": "es"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    limits = Limits(bot_cpu_seconds=0.1)  # a small budget: the test measures nothing
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as c:
        yield c


def test_the_review_names_the_seats_costliest_decisions_in_its_language(client):
    data = client.post("/api/games", json={"seats": SEATS, "seed": 5, "round_limit": 2}).json()
    game_id, token = data["id"], data["token"]
    auth = {"X-Seat-Token": token}
    refused = client.get(f"/api/games/{game_id}/review", headers=auth)
    assert refused.status_code == 409 and refused.json()["key"] == "error.not_over"
    client.post(f"/api/games/{game_id}/seat/away", headers=auth)  # the takeover bot plays the seat
    deadline = time.time() + 120
    while not client.get(f"/api/games/{game_id}/view", headers=auth).json()["ending"]:
        assert time.time() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    answers = {
        lang: client.get(f"/api/games/{game_id}/review", headers=auth, params={"lang": lang}) for lang in LANGUAGES
    }
    assert all(a.status_code == 200 for a in answers.values()), answers["en"].text
    es = answers["es"].json()
    log = client.app.state.service.games[game_id].game.log
    assert len(es["decisions"]) <= KEPT
    costs = [d["cost"] for d in es["decisions"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    for d in es["decisions"]:
        assert action_to_dict(log[d["seq"]]) == d["played"]["action"] and log[d["seq"]].player == 0
        assert d["best"]["action"] != d["played"]["action"] and d["cost"] > Z * d["error"] > 0
        assert d["samples"] == SAMPLES and 97 <= d["sure"] <= 100
    count = len(es["decisions"])
    english = answers["en"].json()["title"]
    assert english == {0: "Your decisions, reviewed", 1: "1 costly decision"}.get(count, f"{count} costly decisions")
    texts = {
        lang: a.json()["title"] + " ".join(d["text"] for d in a.json()["decisions"]) for lang, a in answers.items()
    }
    assert len(set(texts.values())) == 3 and not any("review." in t for t in texts.values())
    # the same review each time (searched once)
    assert client.get(f"/api/games/{game_id}/review", headers=auth, params={"lang": "es"}).json() == es


def test_a_decision_that_lost_ground_is_found():
    # a game the random bot plays for seat 0 against greedy: some of its choices cost
    options = {"players": 3, "seed": 5, "round_limit": 3}
    game = new_game(options)
    bots = {0: make_bot("random", 0), 1: make_bot("greedy", 1), 2: make_bot("greedy", 2)}
    while not game.is_over:
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: game.view(seat)))
    found = review(new_game(options), list(game.log), 0, 7)
    assert 1 <= len(found) <= KEPT
    for item in found:
        assert action_from_dict(item.played) == game.log[item.seq] and item.cost > Z * item.error > 0
