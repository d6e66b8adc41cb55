"""The bare server's connections (server/connections.py), against a real `judges serve`:
connections that never finish their request, or the websockets of busy tables, no longer keep
the players' requests out.

The attackers connect from other loopback addresses (127.0.0.2 and up: all of 127.0.0.0/8 is
the loopback on Linux), the honest player from 127.0.0.1. Every loop is bounded; the caps are
set small (JUDGES_MAX_CONNECTIONS ...) so that a few hundred sockets reach them.
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import websockets

from judges.server.connections import READ_SPREAD, read_deadline
from server_process import Server

pytestmark = pytest.mark.timeout(180)

PARTIAL = b"GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # headers never finished


@pytest.fixture
def serve(tmp_path):
    servers: list[Server] = []

    def start(**env: str) -> Server:
        server = Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / f"server{len(servers)}.log", env=env)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def slow_connections(port: int, addresses: int, each: int) -> list[socket.socket]:
    """`addresses` × `each` connections that send part of their headers and nothing more."""
    held = []
    for a in range(addresses):
        for _ in range(each):
            s = socket.socket()
            s.bind((f"127.0.0.{2 + a}", 0))
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(PARTIAL)
            except OSError:
                s.close()
                continue
            held.append(s)
    return held


def fresh_requests(base: str, n: int) -> list[int]:
    """`n` requests of the honest player, each on a new connection."""
    codes = []
    for _ in range(n):
        with httpx.Client(base_url=base, timeout=10) as client:
            try:
                codes.append(client.get("/api/world").status_code)
            except httpx.TransportError:
                codes.append(0)
    return codes


def closed_by_server(s: socket.socket) -> bool:
    try:
        s.settimeout(0.5)
        return s.recv(1024) == b""
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:
        return True


def test_idle_connections_no_longer_answer_503_to_everyone(serve):
    """Before: the cap counted connections that never finished their headers, and nothing timed
    them out; 300 of them (the cap at 200) made every fresh request of an honest player a 503."""
    server = serve(JUDGES_MAX_CONNECTIONS="200", JUDGES_CONNECTIONS_PER_ADDRESS="20", JUDGES_REQUEST_READ_SECONDS="3")
    held = slow_connections(server.port, addresses=15, each=20)
    try:
        assert len(held) >= 250
        assert fresh_requests(server.base, 10) == [200] * 10
        # the headers never finished: every such connection is closed once its time is up
        time.sleep(3 * (1 + READ_SPREAD) + 0.5)
        assert sum(closed_by_server(s) for s in held) == len(held)
    finally:
        for s in held:
            s.close()


def test_connections_opened_together_are_not_all_closed_together():
    """Before: 4,000 connections that never finished their headers, opened in two seconds, were
    closed in the same two seconds of every ten (their deadline the same `read_seconds`), and
    reopened at once by their client: 2,000 a second while the players' requests waited. A
    deadline is now drawn between `read_seconds` and half as long again, for each connection."""
    deadlines = [read_deadline(10.0) for _ in range(400)]
    assert all(10.0 <= d <= 10.0 * (1 + READ_SPREAD) for d in deadlines)
    assert max(deadlines) - min(deadlines) > 10.0 * READ_SPREAD / 2  # spread, not one moment
    assert len({round(d, 3) for d in deadlines}) > 100


def test_one_address_holds_at_most_its_share_and_its_oldest_idle_give_way(serve):
    server = serve(JUDGES_CONNECTIONS_PER_ADDRESS="20", JUDGES_REQUEST_READ_SECONDS="30")
    held = slow_connections(server.port, addresses=1, each=50)
    try:
        time.sleep(0.5)
        open_now = [not closed_by_server(s) for s in held]
        assert sum(open_now) == 20 and open_now[-20:] == [True] * 20  # the newest 20 stay
        assert fresh_requests(server.base, 3) == [200] * 3  # another address is not concerned
    finally:
        for s in held:
            s.close()


async def _spectators(ws_base: str, game: str, n: int, per_address: int) -> list:
    sockets = []
    for i in range(n):
        address = f"127.0.0.{2 + i // per_address}"
        ws = await websockets.connect(f"{ws_base}/ws/games/{game}/spectate", local_addr=(address, 0), max_size=None)
        first = json.loads(await ws.recv())
        assert first["type"] == "full", first
        sockets.append(ws)
    return sockets


def test_websockets_no_longer_keep_requests_out_and_one_too_many_is_told_why(serve):
    """Before: websockets counted against the request cap: with the tables' sockets open (here
    60 with the cap at 50; 4,000 at 1,000 tables of four), every request answered 503."""
    server = serve(JUDGES_MAX_CONNECTIONS="50", JUDGES_MAX_SOCKETS="60")
    created = httpx.post(f"{server.base}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    game = created.json()["id"]

    async def scenario() -> tuple[list[int], dict, int | None]:
        sockets = await _spectators(server.ws_base, game, 60, per_address=2)  # two places an address
        codes = await asyncio.to_thread(fresh_requests, server.base, 10)
        extra = await websockets.connect(
            f"{server.ws_base}/ws/games/{game}/spectate?lang=es", local_addr=("127.0.0.40", 0)
        )
        told = json.loads(await extra.recv())
        try:
            await extra.recv()
        except websockets.ConnectionClosed:
            pass
        code = extra.close_code
        for ws in sockets:
            await ws.close()
        return codes, told, code

    # its own thread: an event loop another test left running in this one refuses asyncio.run
    with ThreadPoolExecutor(1) as worker:
        codes, told, code = worker.submit(asyncio.run, scenario()).result()
    assert codes == [200] * 10
    assert told["type"] == "error" and told["key"] == "error.sockets_full" and "servidor" in told["text"]
    assert code == 4503


def test_a_request_over_the_total_is_answered_clearly_when_nothing_is_idle(serve):
    server = serve(JUDGES_MAX_CONNECTIONS="1", JUDGES_REQUEST_READ_SECONDS="30")
    with socket.create_connection(("127.0.0.1", server.port)) as busy:
        # a request being served (its body still coming) is never closed to make room
        busy.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"
        )
        time.sleep(0.3)
        answer = httpx.get(f"{server.base}/api/world", headers={"Accept-Language": "pt-BR"}, timeout=10)
        assert answer.status_code == 503 and answer.json()["key"] == "error.server_busy"
        assert "servidor" in answer.json()["text"] and answer.headers["Retry-After"]
        assert not closed_by_server(busy)


@pytest.mark.timeout(600)  # 1,500 sockets opened on a shared 2-core machine
def test_1500_open_websockets_keep_no_request_out(serve):
    """A busy server's sockets (1,500 here, the request cap at 100) are not requests: every
    request is still answered, and a game still takes its actions by HTTP."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4000 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (4000, hard))  # the server started next inherits it
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 4000, "this machine allows too few open files"
    server = serve(JUDGES_MAX_CONNECTIONS="100")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    games = [httpx.post(f"{server.base}/api/games", json={"seats": seats}).json() for _ in range(8)]

    async def scenario() -> tuple[int, list[int], int]:
        sockets = []
        gate = asyncio.Semaphore(50)

        async def spectate(i: int) -> None:  # at most 200 spectators a game, 2 an address in a game
            async with gate:
                game = games[i // 200]["id"]
                ws = await websockets.connect(
                    f"{server.ws_base}/ws/games/{game}/spectate", local_addr=(f"127.0.{2 + i // 500}.{1 + i % 250}", 0)
                )
                sockets.append(ws)
                assert json.loads(await ws.recv())["type"] == "full"

        try:
            await asyncio.gather(*(spectate(i) for i in range(1500)))
            codes = await asyncio.to_thread(fresh_requests, server.base, 150)
            acted = await asyncio.to_thread(act_by_http, server.base, games[0])
            return len(sockets), codes, acted
        finally:
            for ws in sockets:
                await ws.close()

    with ThreadPoolExecutor(1) as worker:
        opened, codes, acted = worker.submit(asyncio.run, scenario()).result()
    assert opened == 1500
    assert codes == [200] * 150
    assert acted == 200


def act_by_http(base: str, game: dict) -> int:
    """The human seat's first legal action, by HTTP, once it owes one."""
    headers = {"X-Seat-Token": game["token"]}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = httpx.get(f"{base}/api/games/{game['id']}/view", headers=headers, timeout=10).json()
        if 0 in view["waiting_for"]:
            action = view["legal_actions"][0]
            return httpx.post(
                f"{base}/api/games/{game['id']}/actions", headers=headers, json={"action": action}, timeout=10
            ).status_code
        time.sleep(0.1)
    raise AssertionError("the bot never handed the game back")


def read_answer(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    s.settimeout(10)
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize(
    "cookies, whole",
    [(20_000, True), (20_000, False), (800, True)],
    ids=["a-megabyte", "a-megabyte-never-finished", "40-KiB-in-one-read"],
)
def test_headers_over_32_kib_are_refused_with_431_in_the_readers_language(serve, cookies, whole):
    server = serve()
    cookie = b"Cookie: " + b"; ".join(b"jk_seat_%d=%s" % (i, b"x" * 40) for i in range(cookies))
    request = b"GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: es\r\n" + cookie
    if whole:
        request += b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        try:
            s.sendall(request)
        except OSError:  # the server may close before it has read everything: its answer is sent first
            pass
        answer = read_answer(s)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431"), head[:80]
    refusal = json.loads(body)
    assert refusal["key"] == "error.headers_too_large"
    assert "cabeceras" in refusal["text"]
    # the server goes on serving
    assert fresh_requests(server.base, 1) == [200]


def test_headers_under_the_bound_are_served(serve):
    server = serve()
    with httpx.Client(base_url=server.base, timeout=10) as client:
        cookies = "; ".join(f"c{i}={'x' * 60}" for i in range(350))  # ~23 KiB: more than nginx's 8 KiB line
        assert client.get("/api/world", headers={"Cookie": cookies}).status_code == 200
