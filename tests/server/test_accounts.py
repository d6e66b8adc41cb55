"""Accounts (docs/accounts.md): sign up, in and out; sessions stored hashed and rotated;
sign-in rate-limited and answering alike whatever the name; a seat taken while signed in is
played from any browser signed in to the account; my games."""

from __future__ import annotations

import time

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from judges.server.app import create_app
from judges.server.limits import RateLimiter
from judges.server.store import accounts_table, hash_token, sessions_table
from seats_support import invitation_code

TWO_HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]
ONE_HUMAN = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    # argon2's cheapest parameters: the tests check what is done, not how costly it is
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def sign_up(client, name="ruth", password="a long secret", headers=None, **extra):
    return client.post("/api/accounts", json={"name": name, "password": password, **extra}, headers=headers)


def only_session(client) -> str:
    """What a second browser signed in to the same account holds: the session cookie only."""
    session = client.cookies.get("jk_session")
    assert session
    client.cookies.clear()
    client.cookies.set("jk_session", session)
    return session


def store_of(client):
    return client.app.state.service.store


# --- accounts and sessions ------------------------------------------------------------------------


def test_sign_up_answers_201_signed_in_with_a_safe_cookie(client):
    response = sign_up(client, email="ruth@example.org")
    assert response.status_code == 201, response.text
    assert response.json()["account"]["name"] == "ruth"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("jk_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/api/me").json()["account"]["email"] == "ruth@example.org"
    session = client.cookies.get("jk_session")
    with store_of(client).engine.connect() as conn:
        (password_hash,) = conn.execute(select(accounts_table.c.password_hash)).one()
        hashes = conn.execute(select(sessions_table.c.id_hash)).scalars().all()
    assert password_hash.startswith("$argon2id$") and "a long secret" not in password_hash
    assert hashes == [hash_token(session)]  # the session id is stored hashed only


def test_a_name_is_one_account_whatever_its_case(client):
    assert sign_up(client).status_code == 201
    again = sign_up(client, name=" RUTH ")
    assert again.status_code == 409 and again.json()["key"] == "error.name_taken"


@pytest.mark.parametrize(
    "body,key",
    [
        ({"name": "r", "password": "a long secret"}, "error.account_name"),
        ({"name": "ruth", "password": "short"}, "error.password_length"),
        ({"name": "ruth", "password": "a long secret", "email": "not an address"}, "error.email"),
        ({"name": "ruth", "password": "a long secret", "email": "ruth@example.org\u0000"}, "error.email"),
    ],
)
def test_bad_sign_ups_are_refused_with_their_reason(client, body, key):
    response = client.post("/api/accounts", json=body)
    assert response.status_code == 422 and response.json()["key"] == key
    assert client.get("/api/me").json() == {"account": None}


def test_sign_out_ends_the_session_on_the_server(client):
    sign_up(client)
    session = client.cookies.get("jk_session")
    assert client.delete("/api/session").json() == {"account": None}
    client.cookies.set("jk_session", session)  # a copy of the cookie kept somewhere
    assert client.get("/api/me").json() == {"account": None}


def test_sign_in_rotates_the_session_id(client):
    sign_up(client)
    before = client.cookies.get("jk_session")
    response = client.post("/api/session", json={"name": "Ruth", "password": "a long secret"})
    assert response.status_code == 200 and response.json()["account"]["name"] == "ruth"
    after = client.cookies.get("jk_session")
    assert after and after != before
    client.cookies.set("jk_session", before)
    assert client.get("/api/me").json() == {"account": None}  # the old id ended at sign-in
    client.cookies.set("jk_session", after)
    assert client.get("/api/me").json()["account"]["name"] == "ruth"


def test_a_wrong_password_and_an_unknown_name_answer_alike(client):
    sign_up(client)
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "ruth", "password": "not the secret"})
    unknown = client.post("/api/session", json={"name": "nobody", "password": "not the secret"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["key"] == "error.sign_in"
    assert "jk_session" not in client.cookies


def test_sign_in_failures_are_limited_per_name_and_address(client):
    sign_up(client)
    client.cookies.clear()
    accounts = client.app.state.accounts
    limit = accounts.by_pair.burst
    accounts.by_pair = RateLimiter(limit, accounts.by_pair.rate * 60, clock=lambda: 0.0)  # time stands still
    for _ in range(limit):
        assert client.post("/api/session", json={"name": "ruth", "password": "guess"}).status_code == 401
    # the right password too, from the address that spent the name's failures
    refused = client.post("/api/session", json={"name": "ruth", "password": "a long secret"})
    assert refused.status_code == 429 and refused.json()["key"] == "error.rate_sign_in"
    assert int(refused.headers["retry-after"]) >= 1
    assert client.post("/api/session", json={"name": "other", "password": "guess"}).status_code == 401


def test_sign_in_is_rate_limited_per_address(client):
    accounts = client.app.state.accounts
    limit = accounts.by_address.burst
    accounts.by_address = RateLimiter(limit, accounts.by_address.rate * 60, clock=lambda: 0.0)  # time stands still
    codes = [
        client.post("/api/session", json={"name": f"name{i}", "password": "guess"}).status_code
        for i in range(limit + 1)
    ]
    assert codes[:limit] == [401] * limit and codes[limit] == 429


def test_accounts_refuse_another_sites_pages(client):
    response = client.post(
        "/api/accounts", json={"name": "ruth", "password": "a long secret"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403


# --- a seat belongs to its account --------------------------------------------------------------


def test_the_hosts_seat_is_played_from_a_second_browser_signed_in(client, game):
    sign_up(client)
    data = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=7)).json()
    gid = data["id"]
    only_session(client)  # another device: no seat cookie, the account's session
    view = client.get(f"/api/games/{gid}/view")
    assert view.status_code == 200 and view.json()["seat"] == 0
    assert client.get(f"/games/{gid}").status_code == 200
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["view"]["seat"] == 0
    client.cookies.clear()  # a guest's browser
    assert client.get(f"/api/games/{gid}/view").status_code == 401


def test_a_guest_game_is_not_any_accounts(client, game):
    data = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=7)).json()
    sign_up(client)
    only_session(client)
    assert client.get(f"/api/games/{data['id']}/view").status_code == 401


def test_a_claimed_seat_is_the_accounts_until_the_host_hands_it_over(client, game):
    data = client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7)).json()
    gid, host = data["id"], data["token"]
    link = next(s["invitation"] for s in data["seats"] if "invitation" in s)
    client.cookies.clear()
    sign_up(client, name="bo")
    claimed = client.post(f"/api/games/{gid}/claim", json={"invitation": invitation_code(link)})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    only_session(client)
    assert client.get(f"/api/games/{gid}/view").json()["seat"] == 1
    # the host hands the seat over while Bo is away (absent after a while; here: "away")
    client.cookies.clear()
    client.post(f"/api/games/{gid}/seat/away", headers={"X-Seat-Token": claimed.json()["token"]})
    revoked = client.post(f"/api/games/{gid}/seats/1/invitation", headers={"X-Seat-Token": host})
    assert revoked.status_code == 200, revoked.text
    client.post("/api/session", json={"name": "bo", "password": "a long secret"})
    assert client.get(f"/api/games/{gid}/view").status_code == 401  # no longer Bo's


def test_a_seat_taken_from_the_lobby_is_the_accounts(client, game):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}, {"kind": "bot"}]
    gid = client.post("/api/games", json=game.body(seats, seed=7)).json()["id"]
    client.cookies.clear()
    sign_up(client, name="levi")
    assert client.post(f"/api/games/{gid}/join").json()["seat"] == 1
    only_session(client)
    assert client.get(f"/api/games/{gid}/view").json()["seat"] == 1


def test_an_action_is_played_through_the_account(client, game):
    sign_up(client)
    gid = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=7)).json()["id"]
    only_session(client)
    deadline = time.time() + 20
    while time.time() < deadline:
        data = client.get(f"/api/games/{gid}/view").json()
        if 0 in data["waiting_for"]:
            break
        time.sleep(0.05)
    action = data["legal_actions"][0]
    response = client.post(f"/api/games/{gid}/actions", json={"action": action, "client_action_id": "a1"})
    assert response.status_code == 200, response.text


# --- my games ---------------------------------------------------------------------------------


def test_my_games_lists_the_accounts_games_with_your_turn(client, game):
    assert client.get("/api/me/games").status_code == 401
    sign_up(client)
    mine = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=7)).json()["id"]
    client.cookies.clear()
    client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=8))  # a guest's game
    client.post("/api/session", json={"name": "ruth", "password": "a long secret"})
    deadline = time.time() + 20
    while time.time() < deadline:
        games = client.get("/api/me/games").json()
        if games["running"] and games["running"][0]["your_turn"]:
            break
        time.sleep(0.05)
    assert [g["id"] for g in games["running"]] == [mine] and games["finished"] == []
    entry = games["running"][0]
    assert entry["your_turn"] is True and entry["seat"] == 0
    view = client.get(f"/api/games/{mine}/view").json()  # the game waits for her
    assert entry["names"][0] == "ruth" and entry["round"] == game.progress_of(view)  # J&K's round, Rome's turn
    assert entry["phase"] in game.phases  # the phase's name, as the game's catalog has it
    # both in the reader's words: "round 1, Intrigue", "turn 1, Senate phase"
    where = client.get("/api/me/games", params={"lang": "es"}).json()["running"][0]["where"]
    assert f" {entry['round']}, " in where and "phase." not in where and "round" not in where
    assert entry["waiting"] >= 0 and entry["link"] == f"/games/{mine}"


def test_an_account_holds_one_seat_of_a_table(client, game):
    """One seat per player at a table, for accounts: a player seated at a table claims no second seat of it,
    even from a browser holding no seat cookie (signed in only)."""
    sign_up(client)
    data = client.post("/api/games", json=game.body(game.with_game(TWO_HUMANS), seed=7)).json()
    link = next(s["invitation"] for s in data["seats"] if "invitation" in s)
    only_session(client)
    refused = client.post(f"/api/games/{data['id']}/claim", json={"invitation": invitation_code(link)})
    assert refused.status_code == 409 and refused.json()["key"] == "error.seat_held"
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}, {"kind": "bot"}]
    gid = client.post("/api/games", json=game.body(seats, seed=7)).json()["id"]
    only_session(client)
    assert client.post(f"/api/games/{gid}/join").status_code == 409


def test_my_games_lists_a_finished_game_with_its_result_and_replay(client, game):
    sign_up(client)
    data = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=9, **game.short)).json()
    client.post(f"/api/games/{data['id']}/seat/away", headers={"X-Seat-Token": data["token"]})  # bots finish it
    deadline = time.time() + 60
    while time.time() < deadline:
        games = client.get("/api/me/games").json()
        if games["finished"]:
            break
        time.sleep(0.1)
    assert games["running"] == []
    (entry,) = games["finished"]
    view = client.get(f"/api/games/{data['id']}/spectate").json()
    assert entry["id"] == data["id"] and entry["ending"] == view["ending"]
    assert entry["winners"] == view["winners"] and entry["won"] == (0 in view["winners"])
    assert entry["replay"] == f"/games/{data['id']}/replay"
    assert client.get(entry["replay"]).status_code == 200  # the page the link opens


def test_another_sites_page_cannot_act_through_the_session(client, game):
    sign_up(client)
    gid = client.post("/api/games", json=game.body(game.with_game(ONE_HUMAN), seed=7)).json()["id"]
    only_session(client)
    evil = {"Origin": "https://evil.example"}
    refused = client.get(f"/api/games/{gid}/view", headers=evil)
    assert refused.status_code == 403 and refused.json()["key"] == "error.cross_origin"
    assert client.get(f"/api/games/{gid}/view").status_code == 200


def test_a_name_is_read_at_sign_in_as_it_was_cleaned_at_sign_up(client):
    """Control characters (a NUL, which PostgreSQL refuses in text) never reach the database."""
    sign_up(client, name="ru\u0000th\u200b")
    assert client.get("/api/me").json()["account"]["name"] == "ruth"
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "RU\u0000TH", "password": "a long secret"}).status_code == 200


# --- guessing and flooding -------------------------------------------------------------------------


@pytest.fixture
def proxied(tmp_path, monkeypatch):
    """A server behind a trusted proxy: each request's address is its X-Forwarded-For."""
    from judges.server.limits import Limits

    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(trusted_proxies=("*",)))
    with TestClient(app) as c:
        yield c


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def test_a_strangers_guesses_do_not_lock_the_owner_out(proxied):
    """Two wrong guesses a second on a name, from another address: the owner, at the address he
    signed up from, still signs in with his password at every try."""
    client = proxied
    assert sign_up(client, headers=from_address("10.0.0.1")).status_code == 201
    accounts = client.app.state.accounts
    for name in ("by_pair", "by_name", "by_address"):  # time stands still: no allowance refills
        limiter = getattr(accounts, name)
        setattr(accounts, name, RateLimiter(limiter.burst, limiter.rate * 60, clock=lambda: 0.0))
    for _ in range(9):
        client.cookies.clear()
        for _ in range(2):
            wrong = client.post(
                "/api/session", json={"name": "ruth", "password": "guess"}, headers=from_address("10.6.6.6")
            )
            assert wrong.status_code in (401, 429)
        owner = client.post(
            "/api/session", json={"name": "ruth", "password": "a long secret"}, headers=from_address("10.0.0.1")
        )
        assert owner.status_code == 200, owner.text
    assert wrong.status_code == 429  # the stranger is stopped


def test_guesses_spread_over_many_addresses_are_limited_per_name_but_not_for_the_owner(proxied):
    client = proxied
    assert sign_up(client, headers=from_address("10.0.0.1")).status_code == 201
    accounts = client.app.state.accounts
    accounts.by_name = RateLimiter(accounts.by_name.burst, accounts.by_name.rate * 60, clock=lambda: 0.0)
    answers = [
        client.post(
            "/api/session", json={"name": "ruth", "password": "guess"}, headers=from_address(f"10.9.{i}.1")
        ).status_code
        for i in range(accounts.by_name.burst + 5)
    ]
    assert answers.count(401) == accounts.by_name.burst and answers[-1] == 429
    client.cookies.clear()
    new_place = client.post(
        "/api/session", json={"name": "ruth", "password": "a long secret"}, headers=from_address("10.7.7.7")
    )
    assert new_place.status_code == 429  # an address the account never used waits
    home = client.post(
        "/api/session", json={"name": "ruth", "password": "a long secret"}, headers=from_address("10.0.0.1")
    )
    assert home.status_code == 200


def test_password_checks_are_bounded_and_a_flood_gets_503_with_retry_after(proxied, monkeypatch):
    """Twenty sign-ins at once from twenty addresses: at most `password_checks` argon2 runs at a
    time, the queue holds `password_queue`, the rest are told 503 and when to come back."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from judges.server.community.accounts import PasswordChecks

    client = proxied
    accounts = client.app.state.accounts
    accounts.checks = PasswordChecks(workers=2, queue=4, wait=30.0)
    real = accounts.hasher
    running, most, lock = [0], [0], threading.Lock()
    assert accounts.dummy_hash  # made before the flood

    class SlowHasher:
        """argon2 as slow as at its real parameters."""

        def verify(self, hash_, password):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.3)
            with lock:
                running[0] -= 1
            return real.verify(hash_, password)

    monkeypatch.setattr(accounts, "hasher", SlowHasher())

    def attempt(i: int):
        return client.post(
            "/api/session", json={"name": f"name{i}", "password": "guess"}, headers=from_address(f"10.8.{i}.1")
        )

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(attempt, range(20)))
    codes = sorted(a.status_code for a in answers)
    assert set(codes) == {401, 503}, codes
    assert most[0] <= 2 and codes.count(401) >= 2  # never more than two at once; the rest waited or were told
    busy = next(a for a in answers if a.status_code == 503)
    assert busy.json()["key"] == "error.busy_sign_in" and int(busy.headers["retry-after"]) >= 1


def test_the_owners_sign_in_goes_before_a_flood_of_strangers(proxied, monkeypatch):
    """The strangers' lane of the queue is full (503 for one more): the owner, at an address his
    account used before, is still checked, ahead of them, and signs in."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from judges.server.community.accounts import PasswordChecks

    client = proxied
    assert sign_up(client, headers=from_address("10.0.0.1")).status_code == 201
    client.cookies.clear()
    accounts = client.app.state.accounts
    accounts.checks = PasswordChecks(workers=1, queue=3, wait=30.0)
    real = accounts.hasher
    order, lock = [], threading.Lock()
    assert accounts.dummy_hash

    class SlowHasher:
        def verify(self, hash_, password):
            with lock:
                order.append(password)
            time.sleep(0.3)
            return real.verify(hash_, password)

        def check_needs_rehash(self, hash_):
            return False

    monkeypatch.setattr(accounts, "hasher", SlowHasher())

    def stranger(i: int):
        return client.post(
            "/api/session", json={"name": f"name{i}", "password": "guess"}, headers=from_address(f"10.8.{i}.1")
        ).status_code

    with ThreadPoolExecutor(8) as pool:
        strangers = [pool.submit(stranger, i) for i in range(8)]
        time.sleep(0.4)  # the strangers hold the worker and fill their lane
        owner = client.post(
            "/api/session", json={"name": "ruth", "password": "a long secret"}, headers=from_address("10.0.0.1")
        )
        codes = [f.result() for f in strangers]
    assert owner.status_code == 200, owner.text
    assert 503 in codes  # the strangers' lane was full
    assert order.index("a long secret") <= 2  # checked after the one under way, not after the queue
