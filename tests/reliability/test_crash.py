"""Crash safety: a real server process (`python -m judges.cli serve`) under concurrent load is
killed with SIGKILL, restarted on the same database, and must have kept every action it
acknowledged, with every game's state equal to a fresh replay of its stored log.

Loopback only, bounded in time and count. The short version runs in CI; the counts are
environment variables (docs/reliability.md has a long on-demand run):

  JUDGES_CRASH_ROUNDS   kill / restart cycles per backend (default 2)
  JUDGES_CRASH_GAMES    games under load (default 4: three of four humans, one of two humans and two bots)
  JUDGES_CRASH_SECONDS  the longest load before a kill, in seconds (default 3; each kill comes at a
                        random moment between 1 s and this)
  JUDGES_CRASH_SEED     seed of the test's own choices (default: random, printed on failure)

PostgreSQL: JUDGES_TEST_POSTGRES_URL (default postgresql+psycopg://postgres@127.0.0.1:5432/test),
in a schema of its own created and dropped by the test (as tests/server/test_store.py does);
skipped when PostgreSQL cannot be reached, failed instead when the environment variable CI is set.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
import msgspec
import pytest

from judges.server.store import GameStore

ROUNDS = int(os.environ.get("JUDGES_CRASH_ROUNDS", "2"))
GAMES = int(os.environ.get("JUDGES_CRASH_GAMES", "4"))
LOAD_SECONDS = float(os.environ.get("JUDGES_CRASH_SECONDS", "3"))
SEED = int(os.environ.get("JUDGES_CRASH_SEED", str(secrets.randbits(32))))
from games_support import GameDriver  # noqa: E402
from postgres_support import postgres_schema  # noqa: E402
from seats_support import seat_tokens  # noqa: E402
from server_process import Server  # noqa: E402

HUMANS = [{"kind": "human"}] * 4
WITH_BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]

pytestmark = pytest.mark.timeout(int(os.environ.get("JUDGES_CRASH_TIMEOUT", "600")))


# --- databases ------------------------------------------------------------------------------


@pytest.fixture
def postgres_url():
    """A URL whose connections work in a fresh schema of their own (dropped afterwards)."""
    with postgres_schema("judges_crash") as (_, _, url):
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'crash.db'}"
    return request.getfixturevalue("postgres_url")


# --- the load ----------------------------------------------------------------------------------


@dataclass
class Ack:
    game_id: str
    seq: int  # the game's action count after the action (the answer's "seq")
    client_action_id: str
    action: dict


@dataclass
class Load:
    acks: list[Ack] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def play_seat(
    base: str, game_id: str, seat: int, token: str, stop: threading.Event, load: Load, seed: int, game: GameDriver
) -> None:
    """One human seat: reads its view, answers what it owes (mostly ending turns), records each
    acknowledged action. Ends when told to, or when the server is gone."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=10, headers={"X-Seat-Token": token}) as http:
        while not stop.is_set():
            try:
                response = http.get(f"/api/games/{game_id}/view", params={"since": 10**9})
                if response.status_code != 200:
                    with load.lock:
                        load.statuses[response.status_code] = load.statuses.get(response.status_code, 0) + 1
                        if response.status_code >= 500:
                            load.server_errors.append(
                                f"GET view {game_id}: {response.status_code} {response.text[:200]}"
                            )
                    continue
                v = response.json()
                if v["ending"] or seat not in v["waiting_for"] or not v["legal_actions"]:
                    time.sleep(0.01)
                    continue
                action = game.pick(v, rng)
                cid = uuid.uuid4().hex
                response = http.post(f"/api/games/{game_id}/actions", json={"action": action, "client_action_id": cid})
            except httpx.TransportError:
                return  # the server was killed
            with load.lock:
                load.statuses[response.status_code] = load.statuses.get(response.status_code, 0) + 1
                if response.status_code == 200 and not response.json()["duplicate"]:
                    load.acks.append(Ack(game_id, response.json()["seq"], cid, {**action, "player": seat}))
                elif response.status_code >= 500:
                    load.server_errors.append(
                        f"POST {json.dumps(action)} to {game_id}: {response.status_code} {response.text[:200]}"
                    )


def run_load(server: Server, games: list[dict], seconds: float, rng: random.Random, game: GameDriver) -> Load:
    """Every human seat of every game plays from its own thread; the server is SIGKILLed at a
    random moment (after `seconds`, and after at least a few acknowledged actions)."""
    load = Load()
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=play_seat,
            daemon=True,
            args=(server.base, g["id"], seat, token, stop, load, rng.randrange(2**32), game),
        )
        for g in games
        for seat, token in enumerate(g["tokens"])
        if token
    ]
    for t in threads:
        t.start()
    start = time.monotonic()
    while time.monotonic() - start < 30 and (time.monotonic() - start < seconds or len(load.acks) < 10):
        time.sleep(0.02)
    with load.lock:  # nothing is acknowledged between the count and the kill
        acks_before_kill = len(load.acks)
    server.kill()
    stop.set()
    for t in threads:
        t.join(30)
    assert acks_before_kill >= 10, f"only {acks_before_kill} actions were acknowledged in 30 s of load"
    return load


# --- the checks ----------------------------------------------------------------------------------


def normalized(data):
    """As it comes out of the JSON API: integer dict keys become strings."""
    return json.loads(msgspec.json.encode(data))


def wait_until_still(base: str, game: dict, timeout: float = 60.0) -> None:
    """Restarted bots play on by themselves until a human owes a decision: wait for that."""
    humans = {seat for seat, token in enumerate(game["tokens"]) if token}
    token = next(t for t in game["tokens"] if t)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = httpx.get(f"{base}/api/games/{game['id']}/view", headers={"X-Seat-Token": token}, timeout=10).json()
        if v["ending"] or (v["waiting_for"] and set(v["waiting_for"]) <= humans):
            return
        time.sleep(0.05)
    raise AssertionError(f"game {game['id']}: the bots did not hand it back within {timeout} s")


def check_after_restart(db_url: str, base: str, games: list[dict], acks: list[Ack], driver: GameDriver) -> int:
    """Checks the restarted server; returns how many stored actions of human-only games were
    never acknowledged (committed while the server was being killed)."""
    store = GameStore(db_url)
    unacknowledged = 0
    try:
        for game in games:
            stored = store.load(game["id"], all_actions=True)
            mine = [a for a in acks if a.game_id == game["id"]]
            if mine:
                top = max(a.seq for a in mine)
                if all(game["tokens"]):
                    unacknowledged += stored.action_count - top
                assert stored.action_count >= top, (
                    f"game {game['id']}: action {top} was acknowledged, the restarted server has "
                    f"{stored.action_count} actions"
                )
            for ack in mine:
                record = stored.all_actions[ack.seq - 1]
                # client action ids are unique per seat: stored as "<seat>:<id>"
                stored_id = f"{ack.action['player']}:{ack.client_action_id}"
                assert record["client_action_id"] == stored_id and record["action"] == ack.action, (
                    f"game {game['id']}: acknowledged action {ack.seq} was {ack.action} ({ack.client_action_id}); "
                    f"the store has {record['action']} ({record['client_action_id']})"
                )
            wait_until_still(base, game)
            for seat, token in enumerate(game["tokens"]):
                if not token:
                    continue
                response = httpx.get(f"{base}/api/games/{game['id']}/view", headers={"X-Seat-Token": token}, timeout=10)
                assert response.status_code == 200, response.text
                v = response.json()
                stored = store.load(game["id"], all_actions=True)
                records = stored.all_actions[: v["seq"]]
                assert len(records) == v["seq"], (
                    f"game {game['id']}: the view is at seq {v['seq']}, the store has {len(stored.all_actions)}"
                )
                replayed = driver.replay(stored.options, [r["action"] for r in records])
                where = f"game {game['id']} seat {seat} at seq {v['seq']}"
                wrong = driver.differences(v, seat, replayed)
                assert not wrong, f"{where}: {', '.join(wrong)} differ from a replay"
    finally:
        store.close()
    return unacknowledged


def create_games(base: str, count: int, game: GameDriver) -> list[dict]:
    games = []
    for i in range(count):
        seats = WITH_BOTS if i == count - 1 and count > 1 else HUMANS
        response = httpx.post(f"{base}/api/games", json=game.body(game.with_game(seats), seed=100 + i), timeout=10)
        assert response.status_code == 201, response.text
        games.append({"id": response.json()["id"], "tokens": seat_tokens(httpx, response.json(), base)})
    return games


def test_a_killed_server_keeps_every_acknowledged_action(db_url, tmp_path, game):
    rng = random.Random(SEED)
    context = f"({game}, JUDGES_CRASH_SEED={SEED})"
    server = Server(db_url, tmp_path / "server-0.log")
    acks: list[Ack] = []
    unacknowledged = 0
    try:
        games = create_games(server.base, GAMES, game)
        for cycle in range(ROUNDS):
            load = run_load(server, games, rng.uniform(1.0, max(1.0, LOAD_SECONDS)), rng, game)
            assert not load.server_errors, f"{context} server errors under load: {load.server_errors[:5]}"
            acks += load.acks
            server = Server(db_url, tmp_path / f"server-{cycle + 1}.log")
            unacknowledged += check_after_restart(db_url, server.base, games, acks, game)
        with GameStore(db_url) as store:
            counts = {g["id"]: store.load(g["id"]).action_count for g in games}
        print(
            f"{context} {len(acks)} acknowledged actions over {ROUNDS} kills, all kept; "
            f"{unacknowledged} more stored but never acknowledged; actions per game: {counts}"
        )
    except AssertionError as exc:
        raise AssertionError(f"{context} {exc}\n--- server log ---\n{server.output()}") from None
    finally:
        server.stop()
