"""The probes (server/health.py): `/healthz` says the process lives, `/readyz` that its database
(and Redis, when set) answer; against SQLite, the real PostgreSQL and the real Redis, and against
a database that does not answer. Unauthenticated, never rate-limited, and answered even when the
bare server's connection caps refuse everything else (a real `judges serve`)."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from judges.server.app import create_app
from judges.settings import Settings
from postgres_support import postgres_schema
from redis_support import redis_prefix, redis_url
from server_process import Server, free_port


def probe(client: TestClient) -> tuple[httpx.Response, httpx.Response]:
    return client.get("/healthz"), client.get("/readyz")


def test_sqlite_alive_and_ready(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        alive, ready = probe(client)
    assert alive.status_code == 200 and alive.json() == {"status": "alive"}
    assert ready.status_code == 200 and ready.json() == {"status": "ready", "checks": {"database": "ok"}}
    assert ready.headers["Cache-Control"] == "no-store"


def test_postgres_and_redis_ready():
    url = redis_url()
    settings = Settings(redis_url=url, redis_prefix=redis_prefix("health"))
    with postgres_schema("health") as (_admin, _schema, pg_url), TestClient(create_app(pg_url, settings=settings)) as c:
        alive, ready = probe(c)
    assert alive.status_code == 200
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}


def test_unready_when_the_database_is_gone(tmp_path):
    """The database stops answering under a running server: /readyz says 503 and which check
    failed, /healthz stays 200 (the process itself lives: an orchestrator must not kill it)."""
    with postgres_schema("health") as (_admin, _schema, pg_url), TestClient(create_app(pg_url)) as client:
        assert client.get("/readyz").status_code == 200
        store = client.app.state.service.store  # type: ignore[attr-defined]
        store.engine.dispose()
        # the server's database moved away: the store's connections now reach a closed port
        store.engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test")
        alive, ready = probe(client)
    assert alive.status_code == 200
    assert ready.status_code == 503
    body = ready.json()
    assert body["status"] == "unready" and body["checks"]["database"] != "ok"


def test_unready_when_redis_does_not_answer(tmp_path):
    """JUDGES_REDIS_URL names a Redis that is not there: the process is not ready."""
    settings = Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", settings=settings)) as client:
        ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"]["database"] == "ok" and ready.json()["checks"]["redis"] != "ok"


def test_probes_need_no_credential_and_are_not_rate_limited(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        codes = {client.get(path).status_code for _ in range(100) for path in ("/healthz", "/readyz")}
    assert codes == {200}


def test_probes_pass_the_connection_caps_of_the_bare_server(tmp_path):
    """One HTTP connection allowed and held by a request being served: any other request is
    refused (503), but the probes are answered, then their connection closed."""
    env = {"JUDGES_MAX_CONNECTIONS": "1", "JUDGES_REQUEST_READ_SECONDS": "30"}
    server = Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log", env=env)
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as busy:
            busy.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"
            )
            time.sleep(0.3)
            refused = httpx.get(f"{server.base}/api/world", timeout=10)
            alive = httpx.get(f"{server.base}/healthz", timeout=10)
            ready = httpx.get(f"{server.base}/readyz", timeout=10)
        assert refused.status_code == 503 and refused.json()["key"] == "error.server_busy"
        assert alive.status_code == 200 and alive.json() == {"status": "alive"}
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        assert alive.headers["connection"] == "close"
    finally:
        server.stop()


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes_stay_out_of_the_api_schema(tmp_path, path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        assert path not in client.get("/openapi.json").json()["paths"]
