"""Small holes, each reproduced: a player's record that told accounts from other names, with
no limit; look-alike names that made separate accounts; replays and logs with no limit; a
second server process on the same SQLite file; the views of a game whose commit waits on a
locked database, stalled for the whole wait. (The spectators' places per address and game:
tests/server/test_hardening_spectators.py.)"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from judges.server.app import create_app
from server_process import Server, free_port

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True)) as c:
        yield c


def sign_up(client, name: str):
    client.cookies.clear()
    return client.post("/api/accounts", json={"name": name, "password": "a long secret"})


def test_a_players_record_answers_alike_for_accounts_and_other_names(client):
    assert sign_up(client, "ada").status_code == 201
    client.cookies.clear()
    account, nobody = client.get("/api/players/ada").json(), client.get("/api/players/zoe").json()
    assert account.keys() == nobody.keys()
    assert {**account, "name": "?"} == {**nobody, "name": "?"}  # never played a rated game: alike
    assert client.get("/players/zoe").status_code == client.get("/players/ada").status_code == 200


def test_players_records_replays_and_logs_are_limited_per_address(client):
    game = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()["id"]
    codes = [client.get(f"/api/players/p{i}").status_code for i in range(30)]
    codes += [client.get(f"/api/games/{game}/log").status_code for _ in range(30)]
    codes += [client.get(f"/api/games/{game}/replay").status_code for _ in range(30)]
    assert 429 in codes
    refused = client.get(f"/api/games/{game}/log", headers={"Accept-Language": "es"})
    assert refused.status_code == 429 and refused.json()["key"] == "error.rate_reads"
    assert refused.headers["Retry-After"] and refused.json()["text"] != "error.rate_reads"


@pytest.mark.parametrize("look_alike", ["ａｄａ", "аda", "ΑDA", "Ada "])
def test_a_look_alike_of_an_accounts_name_is_no_new_account(client, look_alike):
    """Full-width `ａｄａ` and Cyrillic `аda` were separate accounts from `ada`."""
    assert sign_up(client, "ada").status_code == 201
    taken = sign_up(client, look_alike)
    assert taken.status_code == 409, taken.text
    assert sign_up(client, "adá").status_code == 201  # another letter, another name


def test_a_second_server_process_on_the_same_sqlite_file_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    first = Server(url, tmp_path / "first.log")
    try:
        second = subprocess.run(
            [sys.executable, "-m", "judges.cli", "serve", "--port", str(free_port()), "--database", url],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert second.returncode == 1
        assert "another server process" in second.stderr
        assert httpx.get(f"{first.base}/api/world", timeout=10).status_code == 200  # the first goes on
    finally:
        first.stop()
    again = Server(url, tmp_path / "again.log")  # the first gone, its lock went with it
    again.stop()


def test_a_view_does_not_wait_for_a_commit_stuck_on_a_locked_database(tmp_path):
    """The views of a game whose commit waited on a locked table stalled as long as the commit
    (its busy timeout, ~10 s) before answering: they now answer at once, 503 with Retry-After."""
    path = tmp_path / "g.db"
    server = Server(f"sqlite:///{path}", tmp_path / "server.log")
    try:
        data = httpx.post(f"{server.base}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        game, token = data["id"], data["token"]
        headers = {"X-Seat-Token": token}
        legal = httpx.get(f"{server.base}/api/games/{game}/view", headers=headers).json()["legal_actions"]
        action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
        lock = sqlite3.connect(path, isolation_level=None, timeout=30)
        lock.execute("BEGIN IMMEDIATE")
        answered: list[int] = []
        try:

            def act() -> None:
                url = f"{server.base}/api/games/{game}/actions"
                answered.append(httpx.post(url, headers=headers, json={"action": action}, timeout=60).status_code)

            acting = threading.Thread(target=act)
            acting.start()
            time.sleep(0.5)  # the commit waits on the lock
            view = httpx.get(f"{server.base}/api/games/{game}/view", headers=headers, timeout=60)
            assert acting.is_alive(), "the view waited for the commit to give up"
            assert view.status_code == 503 and view.headers["Retry-After"]
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        acting.join(60)
        assert answered and answered[0] in (200, 503)
    finally:
        server.stop()
