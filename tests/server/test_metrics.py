"""The metrics (server/metrics.py, docs/operations.md "Metrics"): off unless a setting serves them,
on the application's port (`JUDGES_METRICS_PATH`) or a listener of their own
(`JUDGES_METRICS_PORT`), in Prometheus' text format; each count moves when its event happens:
actions (the players' and the bots') and their latency, games, sockets, the bots' pool, hints,
database errors and the stale copies recovered, mails, rate-limit refusals.

The counters are the process's (several applications in one test process add up), so each test
compares a scrape after the event with one before it."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError

from judges.server.app import create_app
from judges.server.community.mailer import Mailer, MailError
from judges.server.limits import Limits
from judges.settings import Settings
from mail_support import smtp_server
from seats_support import with_tokens
from server_process import Server, free_port

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
SETTINGS = Settings(metrics_path="/metrics", bot_delay=0)

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: TestClient) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return parse(response.text)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, settings=SETTINGS)) as c:
        yield c


def create(client: TestClient, **extra) -> dict:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 7, **extra})
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def view(client: TestClient, game_id: str, token: str) -> dict:
    return client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()


def wait_for_human(client: TestClient, game_id: str, token: str) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        data = view(client, game_id, token)
        if 0 in data["waiting_for"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


def act(client: TestClient, game_id: str, token: str, action: dict) -> httpx.Response:
    return client.post(f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": action})


def until(check, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the metric never moved"
        time.sleep(0.05)


def test_no_metrics_unless_a_setting_serves_them(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as c:
        assert c.get("/metrics").status_code == 404


def test_actions_latency_games_sockets_and_the_bots_are_counted(client):
    before = scrape(client)
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    start = wait_for_human(client, game_id, token)
    with (
        client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": token}) as ws,
        client.websocket_connect(f"/ws/games/{game_id}/spectate") as watching,
    ):
        assert ws.receive_json()["type"] == "full"
        assert watching.receive_json()["type"] == "full"
        middle = scrape(client)
        assert value(middle, "judges_sockets_open", role="player") == 1
        assert value(middle, "judges_sockets_open", role="spectator") == 1
        assert value(middle, "judges_games_in_memory", state="running") >= 1
        assert act(client, game_id, token, {"type": "vote", "candidate": 99}).status_code == 422
        assert act(client, game_id, token, {"type": "end_turn"}).status_code == 200
        after = scrape(client)
    closed = scrape(client)
    assert [value(closed, "judges_sockets_open", role=role) for role in ("player", "spectator")] == [0, 0]
    assert moved(before, after, "judges_games_created_total") == 1
    assert moved(before, after, "judges_actions_total", by="player") == 1
    assert moved(before, after, "judges_actions_refused_total") == 1
    assert moved(before, after, "judges_action_seconds_count") == 1
    assert moved(before, after, "judges_action_seconds_sum") > 0
    # then the bots move, each move chosen by a job of the bots' pool
    wait_for_human(client, game_id, token)
    later = scrape(client)
    bot_moves = moved(before, later, "judges_actions_total", by="bot")
    assert bot_moves == view(client, game_id, token)["seq"] - start["seq"] - 1 > 0
    assert moved(before, later, "judges_bot_jobs_total", job="bot") >= bot_moves
    assert moved(before, later, "judges_bot_cpu_seconds_total", job="bot") > 0
    assert value(later, "judges_bot_workers") >= 2
    assert value(later, "judges_bot_queue") == 0  # nothing waits once the human's turn came


def test_rate_limit_refusals_are_counted_by_limit(tmp_path):
    limits = Limits(create_burst=1, create_per_minute=0.001)
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits, settings=SETTINGS)
    with TestClient(app) as client:
        before = scrape(client)
        assert client.post("/api/games", json={"seats": SEATS}).status_code == 201
        assert client.post("/api/games", json={"seats": SEATS}).status_code == 429
        after = scrape(client)
    assert moved(before, after, "judges_rate_limited_total", limit="create") == 1
    assert moved(before, after, "judges_games_created_total") == 1


def test_a_failed_commit_counts_a_database_error_and_its_copy_recovered(client, monkeypatch):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_human(client, game_id, token)
    before = scrape(client)
    store = client.app.state.service.store  # type: ignore[attr-defined]
    append = store.append_action
    failures = [OperationalError("INSERT", {}, Exception("the database went away"))]

    def fails_once(*args, **kwargs):
        if failures:
            raise failures.pop()
        return append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", fails_once)
    assert act(client, game_id, token, {"type": "end_turn"}).status_code == 503
    until(lambda: moved(before, scrape(client), "judges_stale_copies_recovered_total") == 1)
    after = scrape(client)
    assert moved(before, after, "judges_database_errors_total") == 1
    assert moved(before, after, "judges_stale_copies_total") == 1
    assert moved(before, after, "judges_actions_total", by="player") == 0


def test_hint_searches_are_counted(tmp_path):
    app = create_app(
        f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=Limits(bot_cpu_seconds=0.1), settings=SETTINGS
    )
    with TestClient(app) as client:
        data = create(client, hints=True)
        game_id, token = data["id"], data["seats"][0]["token"]
        wait_for_human(client, game_id, token)
        before = scrape(client)
        assert client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token}).status_code == 200
        assert client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token}).status_code == 200
        after = scrape(client)
    assert moved(before, after, "judges_hint_searches_total", outcome="found") == 1  # once per decision
    assert moved(before, after, "judges_bot_jobs_total", job="hint") == 1
    assert moved(before, after, "judges_bot_cpu_seconds_total", job="hint") > 0


def test_mails_sent_and_failed_are_counted(client):
    before = scrape(client)
    with smtp_server() as box:
        Mailer.from_url(box.url).send("ada@example.org", "subject", "body")
        box.wait_for("ada@example.org")
    with pytest.raises(MailError):
        Mailer.from_url(f"smtp://127.0.0.1:{free_port()}").send("ada@example.org", "subject", "body")
    after = scrape(client)
    assert moved(before, after, "judges_mails_total", outcome="sent") == 1
    assert moved(before, after, "judges_mails_total", outcome="failed") == 1


def test_the_metrics_on_a_port_of_their_own(tmp_path):
    port = free_port()
    settings = Settings(metrics_port=port, bot_delay=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", settings=settings)) as client:
        assert client.get("/metrics").status_code == 404  # not on the application's port
        response = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert response.status_code == 200
        samples = parse(response.text)
        assert ("judges_games_in_memory", frozenset({("state", "running")})) in samples
    with pytest.raises(httpx.TransportError):  # the listener stops with the application
        httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2)


def test_connections_refused_by_the_bare_servers_caps_are_counted_on_the_metrics_port(tmp_path):
    """A real `judges serve` allowed one HTTP connection, held by a request being served: the
    next request is refused (503) and counted; the metrics' own listener is not behind the caps."""
    port = free_port()
    env = {"JUDGES_MAX_CONNECTIONS": "1", "JUDGES_REQUEST_READ_SECONDS": "30", "JUDGES_METRICS_PORT": str(port)}
    server = Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log", env=env)
    try:
        before = parse(httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text)
        with socket.create_connection(("127.0.0.1", server.port)) as busy:
            busy.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"
            )
            time.sleep(0.3)
            assert httpx.get(f"{server.base}/api/world", timeout=10).status_code == 503
            after = parse(httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text)
    finally:
        server.stop()
    assert moved(before, after, "judges_connections_refused_total", reason="busy") == 1
    assert moved(before, after, "judges_connections_refused_total", reason="address") == 0
