"""A rematch with the same seats (docs/accounts.md "Rematch"): the first player to ask
makes the table, the other account takes the seat kept for him from "My games"."""

from __future__ import annotations

import time

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from judges.server.app import create_app
from seats_support import invitation_code

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


def seats_of(game):
    """Ada, Bo and a bot of the game's."""
    return game.with_game(SEATS)


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def sign_in(client, name, new=False):
    client.cookies.clear()
    body = {"name": name, "password": "a long secret"}
    response = client.post("/api/accounts" if new else "/api/session", json=body)
    assert response.is_success, response.text


def finished_game(client, game):
    """A short game of Ada's and Bo's accounts and a bot, finished by the bots."""
    sign_in(client, "ada", new=True)
    data = client.post("/api/games", json=game.body(seats_of(game), seed=5, turn_timer=600, **game.short)).json()
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


def test_a_rematch_keeps_the_seats_and_the_other_account_takes_his(client, game):
    gid, ada, _ = finished_game(client, game)
    made = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": ada})
    assert made.status_code == 200, made.text
    new = made.json()
    assert new["made"] and new["seat"] == 0 and new["id"] != gid
    assert [s["name"] for s in new["seats"]][:2] == ["ada", "bo"]  # the accounts' names
    assert new["seats"][1]["kept"] and "invitation" in new["seats"][1] and new["seats"][2]["kind"] == "bot"
    live = client.portal.call(client.app.state.service.get, new["id"])
    old = client.portal.call(client.app.state.service.get, gid)
    assert live.kind == game.name and live.seats[2]["bot"] == game.bot
    assert client.app.state.service.turn_timers[new["id"]] == 600  # the same options
    assert live.game.state.options.rules == old.game.state.options.rules  # the same rules
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


def test_a_rematch_is_for_a_finished_game(client, game):
    sign_in(client, "ada", new=True)
    data = client.post("/api/games", json=game.body(seats_of(game), seed=5)).json()
    refused = client.post(f"/api/games/{data['id']}/rematch", headers={"X-Seat-Token": data["token"]})
    assert refused.status_code == 409 and refused.json()["key"] == "error.rematch_running"
    client.cookies.clear()
    assert client.post(f"/api/games/{data['id']}/rematch").status_code == 401  # not a player


# --- one rematch, however many ask at once -----------------------------------------------------


def games_stored(client) -> int:
    from sqlalchemy import func, select

    from judges.server.store import games_table

    with client.app.state.service.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(games_table)).scalar_one())


def test_concurrent_rematch_requests_make_one_table(client, game):
    """Twelve requests for the rematch of one game at the same moment make one table: the first
    claims it in the store, the others are told of (or seated in) the same one."""
    from concurrent.futures import ThreadPoolExecutor

    gid, ada, bo = finished_game(client, game)
    client.cookies.clear()
    before = games_stored(client)

    def ask(i: int):
        return client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": ada if i % 2 else bo})

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(ask, range(12)))
    made = [a.json() for a in answers if a.status_code == 200 and a.json()["made"]]
    assert len(made) == 1, [a.status_code for a in answers]
    assert games_stored(client) == before + 1
    for answer in answers:  # the others: the table made (a guest's credential keeps no seat)
        assert answer.status_code in (200, 409), answer.text
        if answer.status_code == 409:
            assert answer.json()["key"] in ("error.rematch_made", "error.rematch_making")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_rematch_is_claimed_once_across_processes(tmp_path, backend):
    """Two processes (two stores on one database) claiming the same game's rematch: one wins; a
    claim whose table never came is free again after a while; a failed making releases it."""
    from contextlib import ExitStack

    from test_store import new_game

    from judges.server.community.rematch import RematchClaims
    from judges.server.store import GameStore
    from postgres_support import postgres_schema

    with ExitStack() as stack:
        if backend == "sqlite":
            url = f"sqlite:///{tmp_path / 'games.db'}"
        else:
            url = stack.enter_context(postgres_schema("judges_rematch"))[2]
        one, two = GameStore(url), GameStore(url)
        stack.callback(one.close)
        stack.callback(two.close)
        one.migrate()
        new_game(one)
        first, second = RematchClaims(one), RematchClaims(two)
        assert first.claim("g1") == (True, None)
        assert second.claim("g1") == (False, None)  # being made by the first
        first.done("g1", "g2")
        assert second.claim("g1") == (False, "g2") and second.made("g1") == "g2"
        new_game(one, "g3")
        assert first.claim("g3") == (True, None)
        assert second.claim("g3", stale=0.0) == (True, None)  # the first never made it: taken over
        second.release("g3")
        assert first.claim("g3") == (True, None)


def test_a_rematch_counts_as_a_new_game_for_the_creation_limit(client, game):
    from judges.server.deps import Rates
    from judges.server.limits import RateLimiter

    gid, ada, _ = finished_game(client, game)
    client.cookies.clear()
    rates = client.app.state.rates
    client.app.state.rates = Rates(RateLimiter(1, 6.0, clock=lambda: 0.0), rates.away, rates.view)  # time stands still
    assert client.post("/api/games", json=game.body(seats_of(game), seed=5)).status_code == 201  # the one allowed
    refused = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": ada})
    assert refused.status_code == 429 and refused.json()["key"] == "error.rate_create"
    assert int(refused.headers["retry-after"]) >= 1


def test_a_lessons_table_takes_from_the_same_allowance(client):
    from judges.server.deps import Rates
    from judges.server.limits import RateLimiter

    rates = client.app.state.rates
    client.app.state.rates = Rates(RateLimiter(1, 6.0, clock=lambda: 0.0), rates.away, rates.view)
    assert client.post("/api/games", json={"seats": SEATS, "seed": 5}).status_code == 201
    refused = client.post("/api/learn/games/round")
    assert refused.status_code == 429 and refused.json()["key"] == "error.rate_create"


def test_a_lessons_rematch_starts_no_scenario_on_a_server_without_scenarios(client):
    """A lesson's table starts from a scenario position the server chose; its rematch would start
    that position again (with dice of the player's asking) on a server that allows none."""
    lesson = client.post("/api/learn/games/round")
    assert lesson.status_code == 201, lesson.text
    gid = lesson.json()["id"]
    client.post(f"/api/games/{gid}/seat/away")  # the bots finish the one-round game
    stop = time.time() + 120
    while not client.get(f"/api/games/{gid}/spectate").json()["ending"]:
        assert time.time() < stop, "the lesson's game did not end"
        time.sleep(0.05)
    refused = client.post(f"/api/games/{gid}/rematch")
    assert refused.status_code == 403 and refused.json()["key"] == "error.scenarios_off"
