"""POST /api/games/{id}/hint: the seat's credential, a legal action of the seat's decision,
reasons in the reader's language, its use counted in the seat, refused by a table that plays
without hints; one hint per decision owed, a limit per address, every table's hints one share
of the bots' pool, and no hint asked by another site's page."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from judges.engine import action_from_dict
from judges.server.advice import hints as hints_module
from judges.server.app import create_app
from judges.server.limits import Limits
from judges.server.table.seats import cookie_name
from seats_support import with_tokens

SEATS = [{"kind": "human", "name": "Ada", "language": "es"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]
LIMITS = Limits(bot_cpu_seconds=0.1)  # a small budget: the tests measure nothing
# the search replaced by the test's own function, which only this process knows: the pool's threads
THREADS = Limits(bot_cpu_seconds=0.1, bot_processes=0)


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=LIMITS)) as c:
        yield c


def create(client, **extra) -> dict:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 11, "hints": True, **extra})
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
    assert client.post(f"/api/games/{game_id}/hint").status_code == 401  # the seat's credential
    assert client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": "nope"}).status_code == 403
    before = wait_for_human(client, game_id, token)
    assert before["table"]["hints"] is True and before["seats"][0]["hints"] == 0
    response = client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    hint = response.json()
    live = client.app.state.service.games[game_id]
    assert action_from_dict(hint["action"]) in list(live.game.legal_actions(0))
    assert hint["reasons"] and all(r["key"].startswith("hint.") and r["text"] for r in hint["reasons"])
    english = client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token}, params={"lang": "en"}).json()
    assert [r["key"] for r in english["reasons"]][:1] == [r["key"] for r in hint["reasons"]][:1]
    assert english["reasons"][0]["text"] != hint["reasons"][0]["text"]  # Spanish, the seat's language
    assert len(hint["alternatives"]) <= 2
    assert english["action"] == hint["action"]  # the same decision: the same search, once
    assert view(client, game_id, token)["seats"][0]["hints"] == 1  # one decision hinted, on record


def test_a_table_may_refuse_hints(client):
    data = create(client, hints=False)
    game_id, token = data["id"], data["seats"][0]["token"]
    assert wait_for_human(client, game_id, token)["table"]["hints"] is False
    response = client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})
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
        assert c.post(f"/api/games/{data['id']}/hint", headers={"X-Seat-Token": token}).status_code == 403


MOVEMENT = {  # round 1's Movement: Ada plays first
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Shunem": {"owner": 0, "troops": 3},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, {"id": 11, "owner": 1, "at": "Hebron"}],
}
SEARCH = hints_module.hint_for


def hint_of(client, game_id, token, **headers):
    return client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token, **headers})


def act(client, game_id, token, action):
    answer = client.post(f"/api/games/{game_id}/actions", json={"action": action}, headers={"X-Seat-Token": token})
    assert answer.status_code == 200, answer.text


def test_one_hint_per_decision_owed_through_free_steps_and_undo(tmp_path, monkeypatch):
    """12 seats asking a hint after every free step and Undo took the bots' pool from the honest
    tables: a turn is one decision, hinted once, whatever its player moves and takes back."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    searched = []
    monkeypatch.setattr(hints_module, "hint_for", lambda *a: searched.append(a[3]) or SEARCH(*a))
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, allow_scenarios=True, limits=THREADS)
    with TestClient(app) as client:
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
        data = client.post("/api/games", json={"seats": seats, "seed": 7, "position": MOVEMENT, "hints": True}).json()
        game_id, token = data["id"], data["token"]
        first = hint_of(client, game_id, token)
        assert first.status_code == 200, first.text
        move = next(a for a in view(client, game_id, token)["legal_actions"] if a["type"] == "move")
        for action in (move, {"type": "undo"}, move):
            act(client, game_id, token, action)
            again = hint_of(client, game_id, token)
            assert again.status_code == 200 and again.json()["action"] == first.json()["action"]
            assert again.json()["seq"] == first.json()["seq"]  # the position it was searched for
        assert len(searched) == 1 and view(client, game_id, token)["seats"][0]["hints"] == 1
        act(client, game_id, token, {"type": "end_turn"})  # the turn answered: the next decision
        wait_for_human(client, game_id, token)
        assert hint_of(client, game_id, token).status_code == 200
        assert len(searched) == 2 and view(client, game_id, token)["seats"][0]["hints"] == 2


def test_another_sites_page_cannot_ask_a_hint_with_the_players_cookie(client):
    """A link or an image on another site (a GET with the seat's SameSite=Lax cookie and no
    Origin) counted a hint, and so unrated the game: hints are a POST, behind the origin check."""
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_human(client, game_id, token)
    client.cookies.set(cookie_name(game_id), token)  # the browser's cookie of the seat
    assert client.get(f"/api/games/{game_id}/hint").status_code == 405
    refused = client.post(f"/api/games/{game_id}/hint", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.json()["key"] == "error.cross_origin"
    assert view(client, game_id, token)["seats"][0]["hints"] == 0  # nothing counted, still rated
    mine = client.post(f"/api/games/{game_id}/hint", headers={"Origin": "http://testserver"})
    assert mine.status_code == 200, mine.text  # the site's own page


def test_hints_are_limited_per_address(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    limits = Limits(bot_cpu_seconds=0.05, hint_burst=2, hint_per_minute=1.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as client:
        answers = []
        for _ in range(3):
            data = create(client)
            token = data["seats"][0]["token"]
            wait_for_human(client, data["id"], token)
            answers.append(hint_of(client, data["id"], token, **{"Accept-Language": "pt-BR"}))
        assert [a.status_code for a in answers] == [200, 200, 429]
        body = answers[2].json()
        assert body["key"] == "error.rate_hint" and "dicas" in body["text"].lower()
        assert int(answers[2].headers["Retry-After"]) >= 1


def test_every_tables_hints_take_one_share_of_the_bots_pool(tmp_path, monkeypatch):
    """Hints asked at many tables at once (each a table of its own for the pool's fairness)
    went ahead of an honest table's bots, whose tables had used more CPU: all hints now take
    the share of one table, and the honest bots wait for at most two of them."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")

    def burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    def slow(*args):
        burn(0.1)
        return SEARCH(*args)

    monkeypatch.setattr(hints_module, "hint_for", slow)
    limits = Limits(bot_cpu_seconds=0.02, bot_workers=2, bot_processes=0, hint_burst=100, hint_queue=100)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as client:
        tables = []
        for _ in range(6):
            data = create(client)
            wait_for_human(client, data["id"], data["seats"][0]["token"])
            tables.append((data["id"], data["seats"][0]["token"]))
        pool = client.app.state.service.bot_pool
        pool._charge("honest", 0.15)  # an honest table whose MCTS bots thought lately
        threads = [threading.Thread(target=hint_of, args=(client, g, t)) for g, t in tables]
        for thread in threads:
            thread.start()
        deadline = time.time() + 30
        while pool.pending() < 4 and time.time() < deadline:
            time.sleep(0.005)
        before = len(pool.started)
        client.portal.call(pool.run, "honest", True, burn, 0.001)
        starts = [game for game, _ in pool.started[before:]]
        for thread in threads:
            thread.join(60)
        assert starts.index("honest") <= 2, starts
