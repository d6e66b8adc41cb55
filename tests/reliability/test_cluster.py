"""Many processes, one database (docs/deploy.md): two real `judges serve` processes on one
PostgreSQL schema serve one game whose seats are split across them.

- each seat's websocket, on either process, sees every action within DELIVERY seconds;
- the stored log replays under the rules (no action applied twice, no duplicate bot move);
- SIGKILL of either process (the bots' lease holder, or the other) loses no acknowledged
  action, and the survivor takes the game over: its bots play on;
- the same through Redis pub/sub (JUDGES_REDIS_URL) instead of LISTEN/NOTIFY;
- seat flags (away / back) set through both processes at once are all kept;
- a seat the host revokes through one process loses its websockets and its credential on
  the other, and its new invitation can be claimed through either; its player, present
  through the other process, keeps it until the other player present agrees (through
  that process too);
- a seat bound to an account through one process is played, signed in only, through the
  other at once;
- the database failing under the servers (`pg_terminate_backend` in a loop, then a long
  `LOCK TABLE games` taken while a human seat owes a decision, so that its action meets it)
  leaves no socket silent and no game stuck once it answers again.

Real PostgreSQL and Redis (JUDGES_TEST_POSTGRES_URL, JUDGES_TEST_REDIS_URL): skipped when
missing, failed instead when CI is set. Every loop is bounded; the only timing figures are
the delivery bound of the issue and generous liveness deadlines.

  JUDGES_CLUSTER_DELIVERY      seconds within which a socket must see an action (default 1)
  JUDGES_CHAOS_LOCK_SECONDS    how long the table lock is held (default 20)
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.sync.client import connect as ws_connect

from cluster_support import (
    Player,
    Socket,
    Traffic,
    check_delivery,
    check_log,
    create_game,
    wait_for,
    wait_until_still,
)
from judges.server.store import GameStore
from postgres_support import postgres_schema
from redis_support import redis_prefix, redis_url
from seats_support import invitation_code
from server_process import Server

DELIVERY = float(os.environ.get("JUDGES_CLUSTER_DELIVERY", "1.0"))
LOCK_SECONDS = float(os.environ.get("JUDGES_CHAOS_LOCK_SECONDS", "20"))
SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
# Quick takeovers, so that the test waits seconds, not minutes.
CLUSTER_ENV = {"JUDGES_BOT_DELAY": "0.02", "JUDGES_BOT_LEASE_SECONDS": "2", "JUDGES_WATCH_SECONDS": "0.3"}

pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def pg():
    """(admin engine, schema, URL) of a fresh schema; the URL names an application of the
    test's own, so that the chaos test terminates only its servers' connections."""
    with postgres_schema("judges_cluster") as (admin, schema, url):
        app = f"judges_test_{secrets.token_hex(4)}"
        yield admin, schema, make_url(url).update_query_dict({"application_name": app}).render_as_string(False), app


def start_pair(url: str, tmp_path, env: dict[str, str]) -> list[Server]:
    servers = []
    try:
        for name in "ab":
            servers.append(Server(url, tmp_path / f"server-{name}.log", {**CLUSTER_ENV, **env}))
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


def logs(servers: list[Server]) -> str:
    return "\n".join(f"--- server {i} log ---\n{s.output()}" for i, s in enumerate(servers))


def play_until(players_traffic: Traffic, condition, timeout: float, what: str) -> None:
    wait_for(condition, timeout, what)


@pytest.mark.parametrize("fanout, victim", [("postgresql", "holder"), ("redis", "other")])
def test_two_processes_serve_one_game(pg, tmp_path, fanout, victim, game):
    _, _, url, _ = pg
    env = {}
    if fanout == "redis":
        env = {"JUDGES_REDIS_URL": redis_url(), "JUDGES_REDIS_PREFIX": redis_prefix("judges_cluster")}
    servers = start_pair(url, tmp_path, env)
    sockets: list[Socket] = []
    players: list[Player] = []
    try:
        a, b = servers
        table = create_game(a.base, SEATS, seed=11, game=game)
        gid, tokens = table["id"], table["tokens"]
        # every human seat has a socket on each process; seat 0 plays through A, seat 2 through B
        for server, name in ((a, "a"), (b, "b")):
            sockets += [Socket(server.ws_base, gid, tokens[seat], f"{name}{seat}") for seat in (0, 2)]
        traffic = Traffic()
        players = [
            Player(a.base, gid, 0, tokens[0], traffic, 1, game),
            Player(b.base, gid, 2, tokens[2], traffic, 2, game),
        ]
        wait_for(lambda: len(traffic.acks) >= 20, 60, "20 acknowledged actions with seats on two processes")

        with GameStore(url) as store:
            holder, _ = store.bot_lease(gid)
        assert holder is not None, "no process holds the bots' lease after bot moves"
        holder_pid = int(holder.split(":")[1])
        assert holder_pid in (a.pid, b.pid), holder
        dead = next(s for s in servers if (s.pid == holder_pid) == (victim == "holder"))
        alive = b if dead is a else a
        dead.kill()
        killed_at = time.time()
        # the dead process's seat plays on through the survivor
        dead_seat = 0 if dead is a else 2
        players.append(Player(alive.base, gid, dead_seat, tokens[dead_seat], traffic, 3, game))
        acks_at_kill = len(traffic.acks)
        wait_for(lambda: len(traffic.acks) >= acks_at_kill + 15, 90, "15 more actions after the kill")
        for player in players:
            player.stop()
        final = wait_until_still(alive.base, table)

        assert not traffic.errors, f"server errors: {traffic.errors[:5]}"
        records = check_log(url, gid, traffic.acks, game)
        bots_after_kill = [
            r for r in records if r["player"] in (1, 3) and r["created_at"].timestamp() > killed_at + 0.5
        ]
        assert bots_after_kill, "no bot moved after the kill: the survivor did not take the bots over"
        with GameStore(url) as store:
            holder, _ = store.bot_lease(gid)
        assert holder is None or int(holder.split(":")[1]) == alive.pid, f"the lease is still {holder}"
        for socket in sockets:
            if socket.closed_at is None:
                assert socket.wait_for_seq(final["seq"], 10), f"socket {socket.name_} stayed behind"
        check_delivery(sockets, records, DELIVERY)
        print(
            f"{game} {fanout}: {len(records)} actions, {len(traffic.acks)} acknowledged, "
            f"{len(bots_after_kill)} bot moves after the kill; statuses {traffic.statuses}"
        )
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for player in players:
            player.stop()
        for socket in sockets:
            socket.close()
        for server in servers:
            server.stop()


def test_seat_flags_set_through_two_processes_are_all_kept(pg, tmp_path, game):
    _, _, url, _ = pg
    servers = start_pair(url, tmp_path, {})
    try:
        a, b = servers
        table = create_game(a.base, [{"kind": "human"}] * 4, seed=5, game=game)
        gid, tokens = table["id"], table["tokens"]
        httpx.get(f"{b.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[1]}, timeout=30)  # B holds it
        toggles = 4  # with the last "away", within a seat's burst of away/back (server/limits.py)

        def toggle(server: Server, seat: int) -> None:
            with httpx.Client(base_url=server.base, headers={"X-Seat-Token": tokens[seat]}, timeout=30) as http:
                for i in range(toggles):
                    move = "away" if i % 2 == 0 else "back"
                    response = http.post(f"/api/games/{gid}/seat/{move}")
                    assert response.status_code == 200, response.text
                http.post(f"/api/games/{gid}/seat/away")

        # four seats, each changed through the process that did not load it last
        threads = [
            threading.Thread(target=toggle, args=(server, seat)) for server, seat in ((a, 0), (b, 1), (a, 2), (b, 3))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        with GameStore(url) as store:
            seats = store.load(gid).seats
        assert [bool(s.get("away")) for s in seats] == [True] * 4, seats
        assert [len(s["history"]) for s in seats] == [toggles + 1] * 4, [s.get("history") for s in seats]
        for server in servers:  # both processes show every flag (the fan-out carried the seats)
            wait_for(
                lambda server=server: all(
                    s["away"]
                    for s in httpx.get(
                        f"{server.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[0]}, timeout=30
                    ).json()["seats"]
                ),
                10,
                f"every seat away on {server.base}",
            )
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for server in servers:
            server.stop()


def test_a_seat_revoked_through_one_process_loses_its_sockets_and_credential_on_the_other(pg, tmp_path, game):
    _, _, url, _ = pg
    servers = start_pair(url, tmp_path, {})
    try:
        a, b = servers
        table = create_game(a.base, [{"kind": "human"}] * 3, seed=7, game=game)
        gid, tokens = table["id"], table["tokens"]
        closed: dict[str, object] = {}

        def listen() -> None:  # seat 1's websocket on B, until B closes it
            with ws_connect(
                f"{b.ws_base}/ws/games/{gid}", additional_headers={"X-Seat-Token": tokens[1]}, open_timeout=30
            ) as ws:
                closed["opened"] = True
                try:
                    while True:
                        message = json.loads(ws.recv(timeout=120))
                        if message.get("type") == "error":
                            closed["key"] = message["key"]
                except Exception:  # noqa: BLE001 - closed by the server, as expected
                    pass
                closed["code"] = ws.close_code

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        wait_for(lambda: closed.get("opened"), 30, "seat 1's socket open on B")
        # the host revokes seat 1 through A, with a new invitation: its player is present (on
        # B), so only once seat 2's player agrees (through B)
        url = f"{a.base}/api/games/{gid}/seats/1/invitation"
        response = httpx.post(url, headers={"X-Seat-Token": tokens[0]}, timeout=30)
        assert response.status_code == 409 and response.json()["key"] == "error.seat_present", response.text
        agreed = httpx.post(
            f"{b.base}/api/games/{gid}/seats/1/consent", headers={"X-Seat-Token": tokens[2]}, timeout=30
        )
        assert agreed.status_code == 200, agreed.text
        response = httpx.post(url, headers={"X-Seat-Token": tokens[0]}, timeout=30)
        assert response.status_code == 200, response.text
        listener.join(60)
        assert closed.get("code") == 1008 and closed.get("key") == "error.seat_revoked", closed
        wait_for(
            lambda: (
                httpx.get(f"{b.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[1]}, timeout=30).status_code
                == 403
            ),
            30,
            "the revoked credential refused on B",
        )
        # the new invitation, claimed through B, gives the seat back to a new player
        code = invitation_code(response.json()["invitation"])
        claimed = httpx.post(f"{b.base}/api/games/{gid}/claim", json={"invitation": code}, timeout=30)
        assert claimed.status_code == 200 and claimed.json()["seat"] == 1, claimed.text
        view = httpx.get(
            f"{a.base}/api/games/{gid}/view", headers={"X-Seat-Token": claimed.json()["token"]}, timeout=30
        )
        assert view.status_code == 200 and view.json()["seat"] == 1, view.text
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for server in servers:
            server.stop()


def test_a_seat_claimed_through_one_process_is_honoured_at_once_by_the_other_fifty_times(pg, tmp_path, game):
    """The race of a freshly claimed credential: the claim is committed through B and the
    player's next request reaches A before the fan-out does. A reads the stored seats before it
    refuses an unknown credential, so the new player is never refused his own seat."""
    _, _, url, _ = pg
    servers = start_pair(url, tmp_path, {"JUDGES_CREATE_BURST": "1000"})
    try:
        a, b = servers
        with httpx.Client(timeout=30) as client:
            for attempt in range(50):
                created = client.post(
                    f"{a.base}/api/games", json=game.body(game.with_game([{"kind": "human"}] * 2), seed=100 + attempt)
                )
                assert created.status_code == 201, created.text
                gid = created.json()["id"]
                code = invitation_code(created.json()["seats"][1]["invitation"])
                client.cookies.clear()
                claimed = client.post(f"{b.base}/api/games/{gid}/claim", json={"invitation": code})
                assert claimed.status_code == 200, claimed.text
                client.cookies.clear()
                view = client.get(f"{a.base}/api/games/{gid}/view", headers={"X-Seat-Token": claimed.json()["token"]})
                assert view.status_code == 200 and view.json()["seat"] == 1, (attempt, view.text)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for server in servers:
            server.stop()


def test_a_seat_bound_to_an_account_through_one_process_is_honoured_at_once_by_the_other(pg, tmp_path, game):
    """A signed-in player claims a seat through B; his next request, signed in only
    (no seat credential), reaches A before the fan-out does. A looks the binding up in the store
    before it refuses, so the account plays its new seat through either process."""
    _, _, url, _ = pg
    servers = start_pair(url, tmp_path, {"JUDGES_CREATE_BURST": "1000"})
    try:
        a, b = servers
        with httpx.Client(timeout=30) as client:
            signed = client.post(f"{a.base}/api/accounts", json={"name": "ruth", "password": "a long secret"})
            assert signed.status_code == 201, signed.text
            session = client.cookies["jk_session"]
            for attempt in range(20):
                client.cookies.clear()
                created = client.post(
                    f"{a.base}/api/games", json=game.body(game.with_game([{"kind": "human"}] * 2), seed=200 + attempt)
                )
                assert created.status_code == 201, created.text
                gid = created.json()["id"]
                code = invitation_code(created.json()["seats"][1]["invitation"])
                client.cookies.clear()
                client.cookies.set("jk_session", session)
                claimed = client.post(f"{b.base}/api/games/{gid}/claim", json={"invitation": code})
                assert claimed.status_code == 200, claimed.text
                client.cookies.clear()
                client.cookies.set("jk_session", session)
                view = client.get(f"{a.base}/api/games/{gid}/view")
                assert view.status_code == 200 and view.json()["seat"] == 1, (attempt, view.text)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for server in servers:
            server.stop()


def test_a_failing_database_leaves_no_socket_silent_and_no_game_stuck(pg, tmp_path, game):
    admin, schema, url, app_name = pg
    env = {"JUDGES_DB_LOCK_TIMEOUT_MS": "1000", "JUDGES_DB_STATEMENT_TIMEOUT_MS": "3000", "JUDGES_DB_POOL_TIMEOUT": "2"}
    # Bots at a human's pace: at the cluster tests' 0.02 s the greedy bot could win the game
    # (seed 23: ~400-1,300 actions) during the failure, before any player's action met it.
    env["JUDGES_BOT_DELAY"] = "0.25"
    servers = start_pair(url, tmp_path, env)
    sockets: list[Socket] = []
    players: list[Player] = []
    try:
        a, b = servers
        table = create_game(a.base, SEATS, seed=23, game=game)
        gid, tokens = table["id"], table["tokens"]
        sockets = [Socket(a.ws_base, gid, tokens[0], "a0"), Socket(b.ws_base, gid, tokens[2], "b2")]
        traffic = Traffic()
        players = [
            Player(a.base, gid, 0, tokens[0], traffic, 4, game),
            Player(b.base, gid, 2, tokens[2], traffic, 5, game),
        ]
        wait_for(lambda: len(traffic.acks) >= 10, 60, "10 actions before the database fails")

        # 1. every connection of the two servers killed, every 0.2 s, for 6 s
        terminated = 0
        with admin.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            stop_at = time.monotonic() + 6
            while time.monotonic() < stop_at:
                terminated += conn.exec_driver_sql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = %(app)s",
                    {"app": app_name},
                ).scalar()
                time.sleep(0.2)
        assert terminated > 0, "the loop terminated no connection of the servers"

        # 2. the games table locked for LOCK_SECONDS while a human seat owes a decision, so that
        # its player's action meets the lock whatever the bots were doing: the players pause, the
        # bots play on until the game waits for a human, and the players resume under the lock.
        for player in players:
            player.pause()

        def human_owes() -> bool:
            for server, seat in ((a, 0), (b, 2)):
                response = httpx.get(
                    f"{server.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[seat]}, timeout=10
                )
                if response.status_code == 200:
                    view = response.json()
                    assert not view["ending"], f"the game ended ({view['ending']}) before the lock: it proves nothing"
                    if seat in view["waiting_for"] and view["legal_actions"]:
                        return True
            return False

        wait_for(human_owes, 60, "a human seat owing a decision before the lock")
        locked = threading.Event()
        release = threading.Event()

        def hold_lock() -> None:
            with admin.connect() as conn, conn.begin():
                conn.exec_driver_sql(f'LOCK TABLE "{schema}".games IN ACCESS EXCLUSIVE MODE')
                locked.set()
                release.wait(LOCK_SECONDS + 30)

        holder = threading.Thread(target=hold_lock, daemon=True)
        holder.start()
        assert locked.wait(30)
        lock_until = time.monotonic() + LOCK_SECONDS
        for player in players:
            player.resume()
        during = {"created": None}
        while time.monotonic() < lock_until - 1:
            for server, seat in ((a, 0), (b, 2)):  # pages and views come from memory
                assert httpx.get(f"{server.base}/api/world", timeout=10).status_code == 200
                response = httpx.get(
                    f"{server.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[seat]}, timeout=10
                )
                assert response.status_code in (200, 503), response.text
            if during["created"] is None:  # a new game waits for the lock, then answers 503
                body = game.body(game.with_game(SEATS), seed=1)
                response = httpx.post(f"{a.base}/api/games", json=body, timeout=30)
                during["created"] = response.status_code
                assert response.status_code == 503 and response.headers.get("retry-after"), response.text
            time.sleep(0.5)
        while time.monotonic() < lock_until:
            time.sleep(0.1)
        release.set()
        holder.join(30)
        recovered_at = time.monotonic()

        # 3. the game goes on, and every socket catches up
        acks_then = len(traffic.acks)

        def game_over() -> bool:  # the bots may win it meanwhile: an ended game is not a stuck one
            response = httpx.get(f"{a.base}/api/games/{gid}/view", headers={"X-Seat-Token": tokens[0]}, timeout=10)
            return response.status_code == 200 and bool(response.json()["ending"])

        wait_for(
            lambda: len(traffic.acks) >= acks_then + 10 or game_over(),
            60,
            "10 actions (or the game's end) after the database came back",
        )
        for player in players:
            player.stop()
        final = wait_until_still(a.base, table)
        for socket in sockets:
            assert socket.wait_for_seq(final["seq"], 15), f"socket {socket.name_} is silent at {socket.last_seq}"
        assert not traffic.errors, f"server errors: {traffic.errors[:5]}"
        assert traffic.statuses.get(503), "no request met the failing database: the test proved nothing"
        assert any("reloaded from the store" in s.output(None) for s in servers), "no failed commit was recovered"
        check_log(url, gid, traffic.acks, game)
        print(
            f"terminated {terminated} connections, held the lock {LOCK_SECONDS} s; back in "
            f"{time.monotonic() - recovered_at:.1f} s; statuses {traffic.statuses}; "
            f"{len(traffic.acks) - acks_then} actions after it, ending {final['ending']!r}"
        )
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(servers)}") from None
    finally:
        for player in players:
            player.stop()
        for socket in sockets:
            socket.close()
        for server in servers:
            server.stop()
