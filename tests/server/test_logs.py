"""The log lines (server/logs.py, docs/operations.md "Logs"): with `JUDGES_LOG_FORMAT=json` each
line is one JSON object naming the game and the seat it was written for: a player's request (a
commit that failed), the recovery of that game, a bot's task; and a real `judges serve` writes
its lines, uvicorn's included, so, while serving its metrics."""

from __future__ import annotations

import io
import json
import logging
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError

from judges.server import logs
from judges.server.app import create_app
from judges.server.table import bot_runner
from judges.settings import Settings
from seats_support import with_tokens
from server_process import Server

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def json_lines():
    """The root logger writing JSON lines to a buffer; restored afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    assert logs.configure(Settings(log_format="json", log_level="warning"), stream) is not None
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.handlers, root.level = handlers, level


def create(client: TestClient) -> dict:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 7})
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def wait_for(check, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)
    return found


def wait_for_human(client: TestClient, game_id: str, token: str) -> dict:
    def owed():
        data = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()
        return data if 0 in data["waiting_for"] else None

    return wait_for(owed)


def test_text_logs_are_left_alone():
    root = logging.getLogger()
    handlers = root.handlers[:]
    assert logs.configure(Settings()) is None
    assert root.handlers == handlers


def test_a_failed_commit_is_logged_with_its_game_and_seat(tmp_path, monkeypatch, json_lines):
    settings = Settings(bot_delay=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, settings=settings)) as client:
        data = create(client)
        game_id, token = data["id"], data["seats"][0]["token"]
        wait_for_human(client, game_id, token)
        store = client.app.state.service.store  # type: ignore[attr-defined]
        append = store.append_action
        failures = [OperationalError("INSERT", {}, Exception("the database went away"))]

        def fails_once(*args, **kwargs):
            if failures:
                raise failures.pop()
            return append(*args, **kwargs)

        monkeypatch.setattr(store, "append_action", fails_once)
        answer = client.post(
            f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": {"type": "end_turn"}}
        )
        assert answer.status_code == 503
        wait_for(lambda: any("reloaded from the store" in line["message"] for line in json_lines()))
    lines = json_lines()
    assert all({"time", "level", "logger", "message", "game", "seat"} <= set(line) for line in lines)
    request = [line for line in lines if line["message"].startswith("database call")]
    not_stored = [line for line in lines if "was not stored" in line["message"]]
    recovered = [line for line in lines if "reloaded from the store" in line["message"]]
    assert len(request) == len(not_stored) == len(recovered) == 1
    # written while the player's request was handled: the game and the player's seat
    assert request[0]["game"] == not_stored[0]["game"] == game_id
    assert request[0]["seat"] == not_stored[0]["seat"] == 0
    assert request[0]["level"] == "warning" and request[0]["logger"] == "judges.server"
    # written by the game's recovery task: the game, no seat
    assert recovered[0]["game"] == game_id and recovered[0]["seat"] is None


def test_a_bots_failure_is_logged_with_its_game_and_seat(tmp_path, monkeypatch, json_lines):
    def broken(*args, **kwargs):
        raise RuntimeError("the bot broke")

    monkeypatch.setattr(bot_runner, "seat_bot", broken)  # the bot a seat plays with (its kit's make_bot)
    settings = Settings(bot_delay=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, settings=settings)) as client:
        data = create(client)
        game_id, token = data["id"], data["seats"][0]["token"]
        wait_for_human(client, game_id, token)
        client.post(
            f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": {"type": "end_turn"}}
        )
        failed = wait_for(lambda: [line for line in json_lines() if "bot task" in line["message"]])
    assert failed[0]["game"] == game_id
    assert failed[0]["seat"] == 1  # the bot's seat, not the player's who woke it
    assert failed[0]["level"] == "error" and "RuntimeError: the bot broke" in failed[0]["exception"]


def test_a_real_server_writes_json_lines_and_serves_its_metrics(tmp_path):
    env = {"JUDGES_LOG_FORMAT": "json", "JUDGES_LOG_LEVEL": "info", "JUDGES_METRICS_PATH": "/metrics"}
    server = Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log", env=env)
    try:
        created = httpx.post(f"{server.base}/api/games", json={"seats": SEATS, "seed": 7}, timeout=10)
        assert created.status_code == 201
        game_id, token = created.json()["id"], created.json()["token"]
        acted = httpx.post(  # seat 0 opens the game
            f"{server.base}/api/games/{game_id}/actions",
            headers={"X-Seat-Token": token},
            json={"action": {"type": "end_turn"}},
            timeout=10,
        )
        assert acted.status_code == 200, acted.text
        text = httpx.get(f"{server.base}/metrics", timeout=10).text
        samples = {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}
        assert samples["judges_games_created_total"] == 1
    finally:
        server.stop()
    printed = server.output(tail=None).splitlines()
    lines = [json.loads(line) for line in printed if line.startswith("{")]
    # what is not a log line is what `judges serve` prints for its operator: the address, the database
    assert [line for line in printed if not line.startswith("{")] == printed[:2]
    assert all("game" in line and "seat" in line for line in lines)
    # uvicorn's access line of the action: written while the request was the game's and the seat's
    access = [line for line in lines if line["logger"] == "uvicorn.access" and "/actions" in line["message"]]
    assert [(line["game"], line["seat"]) for line in access] == [(game_id, 0)]
    started = [line for line in lines if line["logger"] == "uvicorn.error" and "startup complete" in line["message"]]
    assert len(started) == 1 and started[0]["game"] is None and started[0]["seat"] is None
