"""A server that survives its database (docs/reliability.md):

- a commit that fails (the database's write lock held elsewhere, past the lock timeout)
  answers 503 with Retry-After, never shows the uncommitted action, resyncs every socket
  with the stored game, and restarts the bots that were playing;
- a connection pool with no free connection answers 503 with Retry-After in time, while
  the games in memory go on answering.

SQLite (a second connection holding BEGIN IMMEDIATE) and PostgreSQL (LOCK TABLE in
EXCLUSIVE mode: reads go on, writes wait) in a schema of the test's own; PostgreSQL is
skipped when missing, failed instead when CI is set.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager

import httpx
import pytest
from fastapi.testclient import TestClient

from cluster_support import Socket, wait_for, wait_until_still
from judges.server.app import create_app
from postgres_support import postgres_schema
from seats_support import seat_tokens
from server_process import Server

pytestmark = pytest.mark.timeout(300)

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """(URL, a context manager that holds the game tables' write lock)."""
    if request.param == "sqlite":
        path = tmp_path / "games.db"

        @contextmanager
        def write_lock():
            conn = sqlite3.connect(path, isolation_level=None, timeout=30)
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                conn.execute("ROLLBACK")
                conn.close()

        yield f"sqlite:///{path}", write_lock
        return
    with postgres_schema("judges_dbfail") as (admin, schema, url):

        @contextmanager
        def write_lock():
            with admin.connect() as conn, conn.begin():
                conn.exec_driver_sql(f'LOCK TABLE "{schema}".games IN EXCLUSIVE MODE')
                yield

        yield url, write_lock


def owed_action(base: str, game_id: str, token: str, game) -> dict:
    v = httpx.get(f"{base}/api/games/{game_id}/view", headers={"X-Seat-Token": token}, timeout=30).json()
    return game.hurried(v)


def test_a_failed_commit_resyncs_the_sockets_and_restarts_the_bots(database, tmp_path, game):
    url, write_lock = database
    # short lock waits; bots slow enough for the test to take the lock before they commit
    env = {"JUDGES_DB_BUSY_TIMEOUT_MS": "300", "JUDGES_DB_LOCK_TIMEOUT_MS": "300", "JUDGES_BOT_DELAY": "0.8"}
    server = Server(url, tmp_path / "server.log", env)
    socket = None
    try:
        body = game.body(game.with_game(SEATS), seed=9)
        created = httpx.post(f"{server.base}/api/games", json=body, timeout=30).json()
        table = {"id": created["id"], "tokens": seat_tokens(httpx, created, server.base)}
        gid, token = table["id"], table["tokens"][0]
        start = wait_until_still(server.base, table)["seq"]
        socket = Socket(server.ws_base, gid, token, "seat0")
        wait_for(lambda: socket.last_seq == start, 10, "the socket's first frame")

        # 1. the human's commit fails: 503 + Retry-After, nothing shown, every socket resynced
        action, cid = owed_action(server.base, gid, token, game), uuid.uuid4().hex
        with write_lock():
            frames = len(socket.frames)
            response = httpx.post(
                f"{server.base}/api/games/{gid}/actions",
                json={"action": action, "client_action_id": cid},
                headers={"X-Seat-Token": token},
                timeout=30,
            )
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"] and response.json()["key"] == "error.store_busy"
            assert response.json()["text"]
            wait_for(lambda: len(socket.frames) > frames, 15, "a resync frame after the failed commit")
            view = httpx.get(f"{server.base}/api/games/{gid}/view", headers={"X-Seat-Token": token}, timeout=30)
            assert view.status_code == 200 and view.json()["seq"] == start, "the uncommitted action is shown"
        assert max(seq for _, seq in socket.frames) == start, "a socket was shown the uncommitted action"
        # the client retries with the same id: it was never stored, so it is applied now
        response = httpx.post(
            f"{server.base}/api/games/{gid}/actions",
            json={"action": action, "client_action_id": cid},
            headers={"X-Seat-Token": token},
            timeout=30,
        )
        assert response.status_code == 200 and response.json() == {"seq": start + 1, "duplicate": False}

        # 2. the bots now owe moves: their commits fail while the lock is held...
        failed, reloaded = (
            server.output(None).count("was not stored"),
            server.output(None).count("reloaded from the store"),
        )
        # (On a loaded machine the bots may meet the lock on their lease rather than on a
        # commit: hold it until the database has refused one of their calls.)
        lease_failed = server.output(None).count("take_bot_leases failed")
        with write_lock():
            time.sleep(2.5)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (
                server.output(None).count("was not stored") > failed
                or server.output(None).count("take_bot_leases failed") > lease_failed
            ):
                time.sleep(0.2)
        commit_failed = server.output(None).count("was not stored") > failed
        assert commit_failed or server.output(None).count("take_bot_leases failed") > lease_failed, (
            "no bot call failed under the lock"
        )
        if commit_failed:
            wait_for(
                lambda: server.output(None).count("reloaded from the store") > reloaded,
                30,
                "the failed bot commit recovered (reloaded from the store)",
            )
        # ...and once it is released they play on by themselves, and the socket follows
        final = wait_until_still(server.base, table, timeout=60)
        assert final["seq"] > start + 1, "the bots did not play after the database came back"
        assert socket.wait_for_seq(final["seq"], 10), f"the socket is silent at {socket.last_seq}"
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- server log ---\n{server.output()}") from None
    finally:
        if socket is not None:
            socket.close()
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    with postgres_schema("judges_pool") as (_, _, url):
        yield url


def test_an_exhausted_connection_pool_answers_503_with_retry_after(db_url, monkeypatch, game):
    monkeypatch.setenv("JUDGES_DB_POOL_SIZE", "1")
    monkeypatch.setenv("JUDGES_DB_POOL_OVERFLOW", "0")
    monkeypatch.setenv("JUDGES_DB_POOL_TIMEOUT", "0.3")
    app = create_app(db_url, allow_seeds=True)
    seats = game.with_game(SEATS)
    with TestClient(app) as client:
        created = client.post("/api/games", json=game.body(seats, seed=4))
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["token"]  # the host's seat
        held = app.state.service.store.engine.connect()  # the pool's only connection, stuck
        try:
            done = threading.Event()
            answers = []

            def create_one() -> None:
                answers.append(client.post("/api/games?lang=es", json=game.body(seats, seed=5)))
                done.set()

            threading.Thread(target=create_one, daemon=True).start()
            assert done.wait(60), "a request for a connection waited without bound"
            response = answers[0]
            assert response.status_code == 503, response.text
            assert int(response.headers["retry-after"]) > 0
            body = response.json()
            assert body["key"] == "error.store_busy" and body["message"]
            assert "base de datos" in body["text"]  # in the reader's language
            # the game in memory answers without the database
            view = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token})
            assert view.status_code == 200
        finally:
            held.close()
        assert client.post("/api/games", json=game.body(seats, seed=5)).status_code == 201
