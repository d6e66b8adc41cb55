"""Load on the game server: many games of four human seats, a websocket client per seat,
end_turn actions (or the first legal answer when a seat owes something else) submitted at a
target rate, over the acting seat's websocket (`act`, server/routes/live.py) or, with `--actions
http` or a servers' tree without it, by POST /api/games/{id}/actions. For each action it
measures the latency from its submission to its arrival at every client of the game, and it
reports actions/s, errors and the server's memory per game.

Loopback only, bounded by --seconds and --games. It starts its own server (a SQLite file in a
temporary folder) unless --url names one. With --servers N (and a PostgreSQL --database) it
starts N server processes on that database; --url given several times names running ones.
Every game is split across the servers: seat s of game g connects and acts through server
(g + s) mod N, so every action reaches most of its game's clients through the fan-out between
processes (docs/deploy.md). Each game is created on the first server; its other seats are
taken by claiming their invitations (server/table/seats.py), as players would. The clients apply
the live updates (a full view, then deltas: docs/web.md) as the game screen does.

On PostgreSQL every run works in a fresh schema of --database (created, then dropped), so that
its servers resume no game of an earlier run. `--compare-servers 1,2` runs one process, then
two, and prints them side by side. Besides latencies it prints the servers' CPU seconds per
action delivered (the measure that holds on a shared machine), the kernel's part of it, the CPU
of the PostgreSQL backends serving its own servers (their connections carry the run's
application_name: other sessions' queries on the same database server are not counted), and
the first server's resident memory every `--rss-every` seconds of the measure.

Run: .venv/bin/python bench/load.py --games 20 --seconds 30 --rate 200 [--json out.json]
     [--url http://127.0.0.1:8000 [--url http://127.0.0.1:8001]] [--server-pid PID]
     [--py-spy profile.txt [--py-spy-threads]]
     [--servers 2 | --compare-servers 1,2] [--database postgresql://postgres@127.0.0.1:5432/bench]
     [--repeat 3] [--old-src DIR]

`--repeat N` runs each case N times and prints each p99's median and range; `--old-src DIR` runs
the servers of another tree's `src` too, alternating with this checkout's round by round (the
machine's load moves both alike), and prints the ratios. Every run records the machine's load
average (1 minute) at the start and the end of its measured window.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import msgspec
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from judges.server.table.updates import apply_update

# --- the server ---------------------------------------------------------------------------------


DB_CALLS_FILE = "db_calls.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database: str | None, src: str | None = None) -> tuple[subprocess.Popen, str, str]:
    """A `judges serve` process; `src`: the `src` folder it runs from (default: this one's)."""
    folder = tempfile.mkdtemp(prefix="judges-load-")
    url = database or f"sqlite:///{folder}/load.db"
    port = free_port()
    # the load creates its games and opens its players' sockets from one address: no creation
    # rate limit and no per-address cap of connections for it (server/connections.py)
    env = {
        **os.environ,
        "JUDGES_DATABASE_URL": url,
        "JUDGES_CREATE_BURST": "1000000",
        "JUDGES_CONNECTIONS_PER_ADDRESS": "0",
        "JUDGES_SOCKETS_PER_ADDRESS": "0",
        # the server's database calls per writer, second by second, written when it stops
        # (server/store/base.py DbCalls; a tree without them writes nothing)
        "JUDGES_DB_CALLS_FILE": str(Path(folder) / DB_CALLS_FILE),
    }
    if src is not None:
        env["PYTHONPATH"] = str(Path(src).resolve())
    log = open(Path(folder) / "server.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {(Path(folder) / 'server.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"{base}/api/world", timeout=2).status_code == 200:
                return process, base, folder
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 60 s")


async def claimed_tokens(http: httpx.AsyncClient, data: dict) -> list[str]:
    """Each seat's credential from a create answer: the host's, and every invitation claimed as
    from its player's own browser (no cookie sent: a player holds one seat of a table)."""
    tokens = [data["token"]] * len(data["seats"])
    for seat in data["seats"]:
        if "invitation" in seat:
            http.cookies.clear()
            code = seat["invitation"].rstrip("/").rsplit("/", 1)[1]
            claimed = await http.post(f"/api/games/{data['id']}/claim", json={"invitation": code})
            claimed.raise_for_status()
            tokens[seat["seat"]] = claimed.json()["token"]
    http.cookies.clear()
    return tokens


def rss_mib(pid: int | None) -> float | None:
    """Resident memory of a process (psutil if installed, else /proc/<pid>/status)."""
    if pid is None:
        return None
    try:
        import psutil  # type: ignore

        return psutil.Process(pid).memory_info().rss / 2**20
    except ImportError:
        pass
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int | None, system_only: bool = False) -> float | None:
    """User + system CPU time of a process so far (/proc/<pid>/stat); the system (kernel)
    part only if `system_only`."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[12]) if system_only else int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def database_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds so far of each of these PostgreSQL backends (those gone are left out)."""
    out = {}
    for pid in pids:
        used = cpu_seconds(pid)
        if used is not None:
            out[pid] = used
    return out


def total_cpu(pids: list[int | None]) -> float | None:
    """CPU seconds of all the server processes together."""
    values = [cpu_seconds(p) for p in pids]
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def fresh_schema(database: str) -> tuple[str, str]:
    """(schema, URL whose connections use it): a new, empty schema in the PostgreSQL database,
    so that a run's servers resume no game of an earlier run."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from judges.server.store import normalize_url

    url = normalize_url(database)
    schema = f"load_{os.getpid()}_{secrets.token_hex(4)}"
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    finally:
        engine.dispose()
    query = {"options": f"-csearch_path={schema}", "application_name": schema}
    return schema, make_url(url).update_query_dict(query).render_as_string(False)


def backend_pids(database: str, application: str) -> list[int]:
    """The PostgreSQL backends serving the connections named `application` (this run's servers)."""
    from sqlalchemy import create_engine, text

    from judges.server.store import normalize_url

    engine = create_engine(normalize_url(database))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT pid FROM pg_stat_activity WHERE application_name = :a"), {"a": application}
            )
            return [int(row[0]) for row in rows]
    finally:
        engine.dispose()


def drop_schema(database: str, schema: str) -> None:
    from sqlalchemy import create_engine

    from judges.server.store import normalize_url

    engine = create_engine(normalize_url(database))
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        engine.dispose()


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def takes_socket_actions(src: str | None) -> bool:
    """Whether the servers' tree (`src`, default this checkout's) takes a seat's actions over its
    websocket (an older tree ignores the `act` message)."""
    live = Path(src or Path(__file__).resolve().parent.parent / "src") / "judges/server/routes/live.py"
    return live.exists() and '"act"' in live.read_text()


# --- the clients ---------------------------------------------------------------------------------


@dataclass
class GameClient:
    id: str
    tokens: list[str]
    latest: list[dict | None] = field(default_factory=lambda: [None] * 4)  # each seat's view
    seen: list[int] = field(default_factory=lambda: [-1] * 4)  # last seq each seat's socket received
    submitted: dict[int, float] = field(default_factory=dict)  # seq -> submission time
    target: int = -1
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    over: bool = False
    sockets: list = field(default_factory=lambda: [None] * 4)  # each seat's websocket
    answers: dict[int, asyncio.Future] = field(default_factory=dict)  # an `act`'s id -> its answer


@dataclass
class Stats:
    delivery: list[float] = field(default_factory=list)  # submission -> one client, per (action, client)
    delivered_at: list[float] = field(default_factory=list)  # when each of `delivery` arrived
    everyone: list[float] = field(default_factory=list)  # submission -> the last of the game's 4 clients
    http: list[float] = field(default_factory=list)  # submission -> HTTP answer
    actions: int = 0
    errors: Counter = field(default_factory=Counter)
    finished_games: int = 0
    loop_lag: list[float] = field(default_factory=list)  # the load generator's own event-loop delays
    collections: list[tuple[float, int, float]] = field(default_factory=list)  # the generator's (when, generation, s)
    messages: int = 0
    message_bytes: int = 0


async def watch_loop(stats: Stats, measuring: list[bool]) -> None:
    """How late the load generator's event loop wakes up: if this grows, the generator (not the
    server) is the bottleneck and the latencies it reports are inflated."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        if measuring[0]:
            stats.loop_lag.append(time.perf_counter() - before - 0.01)


async def listen(game: GameClient, seat: int, ws, stats: Stats, measuring: list[bool]) -> None:
    try:
        async for text in ws:
            now = time.perf_counter()
            message = msgspec.json.decode(text)
            if message.get("type") in ("acted", "refused"):  # the answer to an action sent here
                waiting = game.answers.pop(message.get("id"), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
                continue
            view = apply_update(game.latest[seat], message)
            if view is None:
                stats.errors[f"message that does not apply: {message.get('type')} {message.get('key', '')}"] += 1
                await ws.send('{"type": "resync"}')
                continue
            seq = view["seq"]
            game.latest[seat] = view
            if measuring[0]:
                stats.messages += 1
                stats.message_bytes += len(text)
            game.seen[seat] = seq
            sent = game.submitted.get(seq)
            if sent is not None and measuring[0]:
                stats.delivery.append(now - sent)
                stats.delivered_at.append(now)
            if game.target >= 0 and min(game.seen) >= game.target:
                game.arrived.set()
    except Exception as exc:  # a dropped connection is an error of the run
        stats.errors[f"websocket closed: {type(exc).__name__}"] += 1


def choose(game: GameClient) -> tuple[int, dict] | None:
    """The seat to act and its action, from the seats' latest messages."""
    view = game.latest[0]
    if view["ending"]:
        return None
    if not view["waiting_for"]:
        return None
    seat = view["waiting_for"][0]
    mine = game.latest[seat]
    legal = mine["legal_actions"]
    if not legal:
        return None
    return seat, next((a for a in legal if a["type"] == "end_turn"), legal[0])


class Http11:
    """One keep-alive HTTP/1.1 connection per game for its actions. (httpx's async connection
    pool spent most of the load generator's CPU at a few hundred concurrent requests, which
    inflated every latency measured; this plain client costs almost nothing.)"""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post_json(self, path: str, body: dict, headers: dict[str, str]) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        head = [
            f"POST {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Content-Type: application/json",
            f"Content-Length: {len(data)}",
        ] + [f"{k}: {v}" for k, v in headers.items()]
        request = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in (1, 2):  # a keep-alive connection the server closed: reconnect once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(request)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionError("connection closed")
                status = int(status_line.split()[1])
                length, close = 0, False
                while True:
                    line = await self.reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "connection" and value.strip().lower() == "close":
                        close = True
                payload = await self.reader.readexactly(length)
                if close:
                    await self.close()
                return status, payload
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class Pacer:
    """Hands out submission slots at `rate` per second across all games."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next = time.perf_counter()

    async def slot(self) -> None:
        now = time.perf_counter()
        slot = max(now, self.next)
        self.next = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)


class SocketActs:
    """A game's actions over its seats' websockets (`act`, answered `acted` or `refused`)."""

    def __init__(self, game: GameClient) -> None:
        self.game = game
        self.asked = 0

    async def act(self, seat: int, action: dict) -> tuple[int, bytes]:
        self.asked += 1
        waiting = self.game.answers[self.asked] = asyncio.get_running_loop().create_future()
        message = {"type": "act", "id": self.asked, "action": action}
        await self.game.sockets[seat].send(msgspec.json.encode(message).decode())
        try:
            answer = await asyncio.wait_for(waiting, 30)
        finally:
            self.game.answers.pop(self.asked, None)
        return (200 if answer["type"] == "acted" else answer["status"]), b""


async def play(
    game: GameClient, bases: list[str], pacer: Pacer, stats: Stats, end: float, measuring: list[bool], socket: bool
) -> None:
    """`bases[s]`: the server seat s acts through; `socket`: over its websocket, else by HTTP."""
    if socket:
        acts = SocketActs(game)
        await _play(game, lambda seat, action: acts.act(seat, action), pacer, stats, end, measuring)
        return
    https = {}
    for base in set(bases):
        parts = urlsplit(base)
        https[base] = Http11(parts.hostname, parts.port or 80)
    by_seat = [https[b] for b in bases]

    def post(seat: int, action: dict) -> Any:
        path = f"/api/games/{game.id}/actions"
        return by_seat[seat].post_json(path, {"action": action}, {"X-Seat-Token": game.tokens[seat]})

    try:
        await _play(game, post, pacer, stats, end, measuring)
    finally:
        for http in https.values():
            await http.close()


async def _play(
    game: GameClient,
    send: Callable[[int, dict], Awaitable[tuple[int, bytes]]],
    pacer: Pacer,
    stats: Stats,
    end: float,
    measuring: list[bool],
) -> None:
    while time.perf_counter() < end:
        await pacer.slot()
        if time.perf_counter() >= end:
            return
        picked = choose(game)
        if picked is None:
            game.over = True
            stats.finished_games += 1
            return
        seat, action = picked
        seq = max(game.seen) + 1
        game.target = seq
        game.arrived.clear()
        sent = time.perf_counter()
        game.submitted[seq] = sent
        try:
            status, _ = await send(seat, action)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, TimeoutError) as exc:
            stats.errors[f"action {type(exc).__name__}"] += 1
            continue
        except ConnectionClosed:
            stats.errors["action: websocket closed"] += 1
            continue
        if measuring[0]:
            stats.http.append(time.perf_counter() - sent)
        if status != 200:
            stats.errors[f"action answered {status}"] += 1
            await asyncio.sleep(0.1)
            continue
        try:
            await asyncio.wait_for(game.arrived.wait(), 10)
        except TimeoutError:
            stats.errors["not delivered to all 4 clients within 10 s"] += 1
            continue
        if measuring[0] and time.perf_counter() <= end:
            stats.actions += 1  # delivered to all four clients within the measured window
            stats.everyone.append(time.perf_counter() - sent)
        game.submitted.pop(seq, None)


# --- the run ---------------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "max": ordered[-1] * 1000}


async def sample_rss(pid: int | None, every: float, samples: list[tuple[float, float | None]]) -> None:
    start = time.perf_counter()
    while True:
        await asyncio.sleep(every)
        samples.append((round(time.perf_counter() - start), rss_mib(pid)))


def load_average() -> float:
    """The machine's load average over the last minute (what else wanted the cores)."""
    return float(Path("/proc/loadavg").read_text().split()[0])


async def run(args, servers: int, src: str | None = None) -> dict:
    """One run against `servers` started processes (or the --url ones); `src`: the tree the
    started servers run (default: this checkout's)."""
    started: list[tuple[subprocess.Popen, str]] = []  # (process, folder)
    calls_files: list[Path] = []
    window_from, window_to = 0.0, None
    pid = args.server_pid
    schema = None
    if args.url:
        bases = [u.rstrip("/") for u in args.url]
        pids = [pid]
    else:
        bases, pids = [], []
        database = args.database
        if database and database.startswith("postgres"):
            schema, database = fresh_schema(database)
        for _ in range(servers):
            server, base, folder = start_server(database, src)
            started.append((server, folder))
            bases.append(base)
            pids.append(server.pid)
        pid = pids[0]
    base = bases[0]

    def via(game_index: int, seat: int) -> str:
        return bases[(game_index + seat) % len(bases)]

    by_socket = args.actions == "socket" or (args.actions == "auto" and takes_socket_actions(src))
    result: dict = {
        "actions_by": "websocket" if by_socket else "HTTP",
        "games": args.games,
        "clients": 4 * args.games,
        "target_rate": args.rate,
        "seconds": args.seconds,
        "servers": len(bases),
        "src": src or "this checkout",
    }
    try:
        rss_start = rss_mib(pid)
        limits = httpx.Limits(max_connections=args.http_connections, max_keepalive_connections=args.http_connections)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
            # no cookies: every seat acts with its own X-Seat-Token, and a claim sent with the
            # creator's seat cookie would be refused (a player holds one seat of a table)
            http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
            # games
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(8)

            async def create(i: int) -> GameClient:
                async with gate:
                    response = await http.post("/api/games", json={"seats": [{"kind": "human"}] * 4})
                    response.raise_for_status()
                    data = response.json()
                    return GameClient(data["id"], await claimed_tokens(http, data))

            games = await asyncio.gather(*(create(i) for i in range(args.games)))
            result["create_seconds"] = time.perf_counter() - t0
            rss_games = rss_mib(pid)
            # websockets
            stats = Stats()
            measuring = [False]
            sockets, listeners = [], []
            gate = asyncio.Semaphore(args.connect_concurrency)
            t0 = time.perf_counter()

            async def join(index: int, game: GameClient, seat: int) -> None:
                ws_base = "ws://" + urlsplit(via(index, seat)).netloc
                async with gate:
                    ws = await connect(
                        f"{ws_base}/ws/games/{game.id}",
                        additional_headers={"X-Seat-Token": game.tokens[seat]},
                        max_size=None,
                        ping_interval=None,
                        open_timeout=60,
                    )
                    sockets.append(ws)
                    game.sockets[seat] = ws
                    listeners.append(asyncio.create_task(listen(game, seat, ws, stats, measuring)))

            await asyncio.gather(*(join(i, g, s) for i, g in enumerate(games) for s in range(4)))
            while any(None in g.latest for g in games):  # every socket's first message
                if time.perf_counter() - t0 > 120:
                    raise SystemExit("not every socket got its first message within 120 s")
                await asyncio.sleep(0.05)
            result["connect_seconds"] = time.perf_counter() - t0
            rss_connected = rss_mib(pid)
            # actions: a warm-up second, then the measured run
            profiler = None
            pacer = Pacer(args.rate)
            start = time.perf_counter()
            end = start + args.warmup + args.seconds
            players = [
                asyncio.create_task(play(g, [via(i, s) for s in range(4)], pacer, stats, end, measuring, by_socket))
                for i, g in enumerate(games)
            ]
            watcher = asyncio.create_task(watch_loop(stats, measuring))
            # The generator's own collector must not pause it: with 2,000 clients' views held, a
            # full collection took 0.4 s and the middle ones 40-110 ms, measured as the servers'
            # latency (the slowest 1 % of deliveries all fell in the second of a full collection).
            # Its views are plain decoded JSON, freed by reference counting: no collection while
            # it measures.
            gc.collect()
            gc.freeze()
            gc.disable()
            collecting: list[float] = []

            def timed(phase: str, info: dict) -> None:  # the load generator's own collections
                if phase == "start":
                    collecting[:] = [time.perf_counter()]
                elif collecting and measuring[0]:
                    stats.collections.append((collecting[0], info["generation"], time.perf_counter() - collecting[0]))

            gc.callbacks.append(timed)
            await asyncio.sleep(args.warmup)
            measuring[0] = True
            load_before = load_average()
            cpus_before, own_before = [cpu_seconds(p) for p in pids], time.process_time()
            sys_before = [cpu_seconds(p, system_only=True) for p in pids]
            backends = backend_pids(args.database, schema) if schema is not None else []
            database_before = database_cpu(backends)
            rss_samples: list[tuple[float, float | None]] = []
            sampler = asyncio.create_task(sample_rss(pid, args.rss_every, rss_samples))
            measured_from = time.perf_counter()
            window_from = time.time()
            profilers = []
            if args.py_spy:
                spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
                for i, server_pid in enumerate(pids):
                    if server_pid is None:
                        continue
                    command = [spy, "record", "--pid", str(server_pid), "--duration", str(int(args.seconds))]
                    command += ["--rate", "50", "--format", "raw", "--output", profile_file(args.py_spy, servers, i)]
                    command += ["--nonblocking"] + ([] if args.py_spy_threads else ["--gil"])
                    profilers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            await asyncio.gather(*players)
            watcher.cancel()
            elapsed = time.perf_counter() - measured_from
            window_to = time.time()
            measuring[0] = False
            gc.enable()
            gc.unfreeze()
            cpus_after, own_after = [cpu_seconds(p) for p in pids], time.process_time()
            result["load_average"] = [load_before, load_average()]
            sys_after = [cpu_seconds(p, system_only=True) for p in pids]
            sampler.cancel()
            # the backends of the start, and any the servers opened since (counted whole)
            backends = sorted(set(backends) | set(backend_pids(args.database, schema) if schema is not None else []))
            database_after = database_cpu(backends)
            database_used = sum(used - database_before.get(b, 0.0) for b, used in database_after.items())
            rss_end = rss_mib(pid)
            for profiler in profilers:
                profiler.wait(60)
            for ws in sockets:
                await ws.close()
            for task in listeners:
                task.cancel()
        cpus = [None if a is None or b is None else a - b for a, b in zip(cpus_after, cpus_before, strict=True)]
        server_cpu = None if any(c is None for c in cpus) else sum(c for c in cpus if c is not None)
        kernel = [None if a is None or b is None else a - b for a, b in zip(sys_after, sys_before, strict=True)]
        server_sys = None if any(c is None for c in kernel) else sum(c for c in kernel if c is not None)
        result.update(
            {
                "actions": stats.actions,
                "actions_per_second": stats.actions / args.seconds,
                "drain_seconds": elapsed - args.seconds,
                "delivery_ms": percentiles(stats.delivery),
                "slowest_seconds": slowest_seconds(stats.delivery, stats.delivered_at),
                "all_clients_ms": percentiles(stats.everyone),
                "http_ms": percentiles(stats.http),
                "load_generator_loop_lag_ms": percentiles(stats.loop_lag),
                "load_generator_collections": [
                    (round(when - measured_from, 1), generation, round(took * 1000, 1))
                    for when, generation, took in stats.collections
                    if generation > 0
                ],
                "errors": dict(stats.errors),
                "websocket_messages": stats.messages,
                "mean_message_kib": stats.message_bytes / max(1, stats.messages) / 1024,
                "finished_games": stats.finished_games,
                "server_cpu_percent": None if server_cpu is None else 100 * server_cpu / elapsed,
                "server_cpu_percent_each": [None if c is None else 100 * c / elapsed for c in cpus],
                # CPU seconds of the servers per action delivered: robust on a shared machine
                "server_cpu_ms_per_action": None
                if server_cpu is None or not stats.actions
                else 1000 * server_cpu / stats.actions,
                # of which in the kernel (sockets: HTTP, websockets, database, fan-out)
                "server_system_cpu_ms_per_action": None
                if server_sys is None or not stats.actions
                else 1000 * server_sys / stats.actions,
                "load_generator_cpu_percent": 100 * (own_after - own_before) / elapsed,
                # the PostgreSQL backends of this run's servers (none on SQLite: its work is the servers')
                "database_backends": len(backends),
                "database_cpu_percent": 100 * database_used / elapsed,
                "database_cpu_ms_per_action": 1000 * database_used / stats.actions if stats.actions else None,
                "rss_mib": {
                    "start": rss_start,
                    "games_created": rss_games,
                    "clients_connected": rss_connected,
                    "end": rss_end,
                    # the first server's, every --rss-every seconds of the measure: (seconds, MiB)
                    "during": rss_samples,
                },
                "rss_kib_per_game": None if rss_start is None else (rss_end - rss_start) * 1024 / args.games,
            }
        )
    finally:
        for server, folder in started:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
            calls_files.append(Path(folder) / DB_CALLS_FILE)
        if window_to is not None:
            result["db_calls_per_second"] = db_calls_per_second(calls_files, window_from, window_to)
            result["server_collections"] = server_collections(calls_files, window_from, window_to)
        for _, folder in started:
            shutil.rmtree(folder, ignore_errors=True)
        if schema is not None:
            drop_schema(args.database, schema)
    return result


def db_calls_per_second(files: list[Path], start: float, stop: float) -> dict[str, float] | None:
    """The started servers' database calls per second of each writer (all processes together)
    in the whole seconds of the measured window [start, stop); None if a server wrote none."""
    first, last = int(start) + 1, int(stop)
    if last <= first:
        return None
    totals: Counter[str] = Counter()
    for path in files:
        if not path.exists():
            return None
        by_second = json.loads(path.read_text())["by_second"]
        for second, counts in by_second.items():
            if first <= int(second) < last:
                totals.update(counts)
    return {writer: n / (last - first) for writer, n in sorted(totals.items())}


def server_collections(
    files: list[Path], start: float, stop: float
) -> list[tuple[float, int, float, float, int]] | None:
    """The started servers' garbage collections of 5 ms or more (server/memory.py) in the
    measured window: (seconds from its start, generation, ms, of which the collecting thread's
    CPU, the unreachable objects it found); None if a server wrote none."""
    pauses = []
    for path in files:
        if not path.exists():
            return None
        for at, generation, took, cpu, collected in json.loads(path.read_text()).get("collections", []):
            if start <= at < stop:
                pauses.append((round(at - start, 1), generation, took, cpu, collected))
    return sorted(pauses)


def slowest_seconds(latencies: list[float], at: list[float]) -> dict:
    """Where the slowest 1 % of the deliveries fell: in how many distinct seconds, and the
    share of them in the worst three (a stall of the servers or the machine gathers them in a
    few seconds; a server short of CPU spreads them over the run)."""
    if len(latencies) < 100:
        return {}
    threshold = sorted(latencies)[int(len(latencies) * 0.99)]
    first = min(at)
    seconds = Counter(int(t - first) for lat, t in zip(latencies, at, strict=True) if lat >= threshold)
    slow = sum(seconds.values())
    return {
        "threshold_ms": round(threshold * 1000, 1),
        "seconds": len(seconds),
        "worst_three_share": round(sum(n for _, n in seconds.most_common(3)) / slow, 2),
        "worst_three": sorted(second for second, _ in seconds.most_common(3)),  # from the measure's start
        "by_second": {second: seconds[second] for second in sorted(seconds)},
    }


def profile_file(prefix: str, servers: int, index: int) -> str:
    """Where py-spy writes server `index`'s stacks: `prefix` itself for a lone server."""
    return prefix if servers == 1 and index == 0 else f"{prefix}.{servers}p.{index}"


GENERIC = (
    "runpy",
    "typer/",
    "click/",
    "uvicorn/server.py",
    "uvicorn/main.py",
    "uvicorn/_compat.py",
    "asyncio/runners.py",
    "asyncio/base_events.py",
    "asyncio/events.py",
    "threading.py",
    "concurrent/futures/thread.py",
    "judges/cli.py",
)


def top_frames(raws: list[str], count: int = 25) -> dict:
    """From py-spy's raw (collapsed) stacks (of every server, added up): the share of samples in
    which each function is on the stack (the event loop's and the threads' own frames left out),
    and the share in which it is the innermost frame (its own time)."""
    inclusive: Counter = Counter()
    own: Counter = Counter()
    samples = 0
    lines = [line for raw in raws if Path(raw).exists() for line in Path(raw).read_text().splitlines()]
    for line in lines:
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        k = int(n)
        samples += k
        names = []
        for frame in stack.split(";"):
            name, _, where = frame.partition(" (")
            path = where.rsplit(":", 1)[0]
            if any(g in path for g in GENERIC):
                continue
            names.append(f"{name} ({path})")
        for name in set(names):
            inclusive[name] += k
        if names:
            own[names[-1]] += k
    share = lambda c: [(name, round(100 * k / samples, 1)) for name, k in c.most_common(count)]  # noqa: E731
    return {"samples": samples, "inclusive": share(inclusive), "own": share(own)} if samples else {}


def print_table(r: dict) -> None:
    def ms(d: dict) -> str:
        return " / ".join("-" if d[k] is None else f"{d[k]:.0f}" for k in ("p50", "p95", "p99"))

    rss = r["rss_mib"]
    rows = [
        ("server processes", str(r["servers"])),
        ("games / websocket clients", f"{r['games']} / {r['clients']}"),
        ("create games / connect clients", f"{r['create_seconds']:.1f} s / {r['connect_seconds']:.1f} s"),
        ("target rate", f"{r['target_rate']:.0f} actions/s"),
        ("achieved", f"{r['actions_per_second']:.1f} actions/s ({r['actions']} actions in {r['seconds']:.0f} s)"),
        ("delivery to each client p50 / p95 / p99", ms(r["delivery_ms"]) + " ms"),
        ("delivery to all 4 clients p50 / p95 / p99", ms(r["all_clients_ms"]) + " ms"),
        (
            "the slowest 1 % of deliveries fell in",
            "{seconds} distinct seconds, {worst_three_share:.0%} in the worst three (at {worst_three} s)".format(
                **r["slowest_seconds"]
            )
            if r.get("slowest_seconds")
            else "-",
        ),
        (f"action's answer ({r.get('actions_by', 'HTTP')}) p50 / p95 / p99", ms(r["http_ms"]) + " ms"),
        (
            "database calls per second, by writer (all processes)",
            ", ".join(f"{writer} {n:.1f}" for writer, n in r["db_calls_per_second"].items()) or "none"
            if r.get("db_calls_per_second") is not None
            else "- (the servers' tree does not count them)",
        ),
        (
            "servers' collections of 5 ms or more (generation: count, longest, its CPU, objects freed)",
            "- (the servers' tree does not note them)"
            if r.get("server_collections") is None
            else ", ".join(
                f"{g}: {len(took)}, {max(took)[0]:.0f} ms ({max(took)[1]:.0f} ms CPU, {max(took)[2]} objects)"
                for g in (0, 1, 2)
                if (took := [(t, cpu, n) for _, gen, t, cpu, n in r["server_collections"] if gen == g])
            )
            or "none",
        ),
        ("load generator's event-loop lag p50 / p95 / p99", ms(r["load_generator_loop_lag_ms"]) + " ms"),
        (
            "load generator's own collections while measuring",
            str(len(r.get("load_generator_collections", []))) + " (none expected: its collector is off then)",
        ),
        ("websocket messages received (mean size)", f"{r['websocket_messages']} ({r['mean_message_kib']:.1f} KiB)"),
        ("errors", ", ".join(f"{k}: {v}" for k, v in r["errors"].items()) or "none"),
        ("servers' tree", r["src"]),
        ("load average at the start / end of the measure", "{:.1f} / {:.1f}".format(*r["load_average"])),
        ("games that ended during the run", str(r["finished_games"])),
        (
            "server CPU (each process) / load generator CPU",
            f"{r['server_cpu_percent'] or 0:.0f} % ("
            + " + ".join("-" if c is None else f"{c:.0f} %" for c in r["server_cpu_percent_each"])
            + f") / {r['load_generator_cpu_percent']:.0f} %",
        ),
        (
            "server CPU per action (all processes; of which kernel)",
            "-"
            if r["server_cpu_ms_per_action"] is None
            else f"{r['server_cpu_ms_per_action']:.2f} ms ({r['server_system_cpu_ms_per_action']:.2f} ms)",
        ),
        (
            "its PostgreSQL backends' CPU (per action)",
            f"{r['database_backends']} backends: {r['database_cpu_percent']:.0f} % ("
            + ("-" if r["database_cpu_ms_per_action"] is None else f"{r['database_cpu_ms_per_action']:.2f} ms")
            + ")",
        ),
        (
            "server RSS start / games / connected / end",
            " / ".join(
                "-" if rss[k] is None else f"{rss[k]:.0f}"
                for k in ("start", "games_created", "clients_connected", "end")
            )
            + " MiB",
        ),
        (
            "server RSS during the measure (s: MiB)",
            ", ".join(f"{t}: {m:.0f}" for t, m in r["rss_mib"].get("during", []) if m is not None) or "-",
        ),
        (
            "server RSS per game (end - start)",
            "-" if r["rss_kib_per_game"] is None else f"{r['rss_kib_per_game']:.0f} KiB",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games of 4 human seats (4 websocket clients each)")
    parser.add_argument("--seconds", type=float, default=30, help="measured duration (after --warmup)")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of load before measuring")
    parser.add_argument("--rate", type=float, default=200, help="target actions per second, all games together")
    parser.add_argument(
        "--url",
        action="append",
        help="an already running server (loopback); several: clients round-robin over them; default: start one",
    )
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, for its memory and CPU")
    parser.add_argument("--database", help="database URL of the started server (default: a temporary SQLite file)")
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes to start on --database (PostgreSQL when more than 1)"
    )
    parser.add_argument("--http-connections", type=int, default=16, help="HTTP connections used to create the games")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument(
        "--compare-servers",
        help="runs one after the other with these numbers of started processes (e.g. 1,2), "
        "each on a fresh schema of the PostgreSQL --database; prints each run and a comparison",
    )
    parser.add_argument("--pause", type=float, default=5, help="with --compare-servers: seconds between two runs")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case; prints each p99's median and range")
    parser.add_argument(
        "--old-src",
        help="the `src` folder of another tree (e.g. `git archive <commit> src | tar -x -C DIR`): its "
        "servers run each case too, alternating with this checkout's, and the per-round ratios are printed",
    )
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--rss-every", type=float, default=30, help="seconds between two readings of the RSS")
    parser.add_argument(
        "--actions",
        choices=("auto", "socket", "http"),
        default="auto",
        help="how a seat acts: over its websocket, or by HTTP (auto: the socket when the servers' tree takes it)",
    )
    parser.add_argument(
        "--py-spy",
        help="profile the servers with py-spy during the measured run (raw stacks; server i of an "
        "N-process run writes FILE.Np.i)",
    )
    parser.add_argument(
        "--py-spy-threads",
        action="store_true",
        help="sample every active thread (CPU spent outside the GIL too) instead of the GIL holder",
    )
    args = parser.parse_args()
    if any(urlsplit(u).hostname not in ("127.0.0.1", "localhost", "::1") for u in args.url or []):
        raise SystemExit("--url must be a loopback address")
    counts = [int(n) for n in args.compare_servers.split(",")] if args.compare_servers else [args.servers]
    postgres = (args.database or "").startswith("postgres")
    if min(counts) < 1 or (max(counts) > 1 and (args.url or not postgres)):
        raise SystemExit("more than one server process needs a PostgreSQL --database (and no --url)")
    if args.compare_servers and args.url:
        raise SystemExit("--compare-servers starts its own servers: no --url")
    if args.games < 1 or args.seconds <= 0 or args.rate <= 0:
        raise SystemExit("--games, --seconds and --rate must be positive")
    limit = raise_file_limit()
    if limit < 8 * args.games + 100:
        print(f"warning: {limit} open files allowed; {args.games} games need about {8 * args.games}", file=sys.stderr)
    if args.old_src and (args.url or not (Path(args.old_src) / "judges").is_dir()):
        raise SystemExit("--old-src needs a folder holding the judges package (and no --url)")
    plan = []  # (round, servers, src): this checkout and --old-src alternate their order by round
    for r in range(args.repeat):
        sides: list[str | None] = [None] if not args.old_src else [None, args.old_src][:: 1 if r % 2 == 0 else -1]
        plan += [(r, servers, src) for servers in counts for src in sides]
    results = []
    for n, (r, servers, src) in enumerate(plan):
        if n:
            time.sleep(args.pause)  # the previous run's processes and sockets wind down
        result = asyncio.run(run(args, servers, src))
        result["round"] = r
        print_table(result)
        if args.py_spy:
            files = [profile_file(args.py_spy, servers, i) for i in range(servers if not args.url else 1)]
            result["profile"] = top_frames(files)
            what = "every active thread" if args.py_spy_threads else "--gil: the thread holding the GIL"
            print(f"\nserver profile, {result['profile'].get('samples', 0)} samples of {servers} process(es) ({what})")
            print("on the stack:")
            for name, share in result["profile"].get("inclusive", []):
                print(f"  {share:5.1f} %  {name}")
            print("own time:")
            for name, share in result["profile"].get("own", []):
                print(f"  {share:5.1f} %  {name}")
        print()
        results.append(result)
    if len(results) > 1:
        print_comparison(results)
    if args.repeat > 1 or args.old_src:
        print_summary(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results[0] if len(results) == 1 else results, indent=2))


def print_summary(results: list[dict]) -> None:
    """Each case's p99 (delivery to each client) as median and range over its runs, and with
    --old-src the ratios of this checkout's to the old tree's in the same round."""
    print()
    cases: dict[tuple[int, str], list[dict]] = {}
    for r in results:
        cases.setdefault((r["servers"], r["src"]), []).append(r)
    for (servers, src), runs in cases.items():
        p99 = [r["delivery_ms"]["p99"] for r in runs if r["delivery_ms"]["p99"] is not None]
        cpu = [r["server_cpu_ms_per_action"] for r in runs if r["server_cpu_ms_per_action"] is not None]
        loads = ", ".join(f"{a:.1f}-{b:.1f}" for a, b in (r["load_average"] for r in runs))
        print(
            f"{servers} process(es), {src}: p99 {', '.join(f'{x:.0f}' for x in p99)} ms -> median "
            f"{statistics.median(p99):.0f} ms (range {min(p99):.0f}-{max(p99):.0f}); CPU per action median "
            f"{statistics.median(cpu):.2f} ms; load average during each run {loads}"
            if p99 and cpu
            else f"{servers} process(es), {src}: no figures"
        )
        calls = [r["db_calls_per_second"] for r in runs if r.get("db_calls_per_second")]
        if calls:
            writers = sorted({w for c in calls for w in c})
            print(
                "    database calls per second, median of the runs (all processes): "
                + ", ".join(f"{w} {statistics.median([c.get(w, 0.0) for c in calls]):.1f}" for w in writers)
            )
        slowest = [r["slowest_seconds"] for r in runs if r.get("slowest_seconds")]
        if slowest:
            print(
                "    the slowest 1 % fell in "
                + ", ".join(str(x["seconds"]) for x in slowest)
                + " distinct seconds; worst three's share "
                + ", ".join(f"{x['worst_three_share']:.0%}" for x in slowest)
            )
    olds = [r for r in results if r["src"] != "this checkout"]
    for old in olds:
        same = (old["round"], old["servers"])
        new = next((r for r in results if r["src"] == "this checkout" and (r["round"], r["servers"]) == same), None)
        if new is None or not old["delivery_ms"]["p99"] or not old["server_cpu_ms_per_action"]:
            continue
        print(
            f"round {old['round'] + 1}, {old['servers']} process(es): this checkout / old: p99 "
            f"{new['delivery_ms']['p99'] / old['delivery_ms']['p99']:.2f}x, CPU per action "
            f"{new['server_cpu_ms_per_action'] / old['server_cpu_ms_per_action']:.2f}x"
        )


def print_comparison(results: list[dict]) -> None:
    """The runs side by side, one line each (the table of docs/performance.md)."""
    print(
        "| processes | servers' tree | achieved | delivery p50 / p95 / p99 | to all 4 clients p99 | HTTP p50 / p99 "
        "| errors | servers' CPU | CPU per action | PostgreSQL CPU per action | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        d, a, h = r["delivery_ms"], r["all_clients_ms"], r["http_ms"]

        def f(x: float | None) -> str:
            return "-" if x is None else f"{x:.0f}"

        cpu, db = r["server_cpu_ms_per_action"], r["database_cpu_ms_per_action"]
        print(
            f"| {r['servers']} | {r['src']} | {r['actions_per_second']:.1f} actions/s "
            f"| {f(d['p50'])} / {f(d['p95'])} / {f(d['p99'])} ms "
            f"| {f(a['p99'])} ms | {f(h['p50'])} / {f(h['p99'])} ms | {sum(r['errors'].values())} "
            f"| {r['server_cpu_percent'] or 0:.0f} % | {'-' if cpu is None else f'{cpu:.2f} ms'} "
            f"| {'-' if db is None else f'{db:.2f} ms'} | {r['load_average'][0]:.1f}-{r['load_average'][1]:.1f} |"
        )


if __name__ == "__main__":
    main()
