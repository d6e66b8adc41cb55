"""Behind the reverse proxy (docs/deploy.md, "The reverse proxy"): Debian's nginx, run with the
configuration the document gives (its block read from the document, only the ports and the
listening line changed), in front of two real `judges serve` processes on one PostgreSQL
schema with Redis fan-out, each started with `JUDGES_TRUSTED_PROXIES=127.0.0.1` as the
document says.

- a game is played to its end through the proxy: its seats follow it over websockets (which
  nginx must upgrade) and act by HTTP, each request going to either process;
- the addresses the server hands out (invitations) are the proxy's, port included;
- the per-address limits count the client's address, not the proxy's: a client that has used
  up its creations is refused, another client (another source address) is not, and the
  refused one cannot pass for another by sending `X-Forwarded-For` or `X-Real-IP` itself.

The clients connect from addresses of their own on the loopback (127.0.0.2, 127.0.0.3,
127.0.0.4): nginx sees them as the peers and passes them on. nginx runs in the foreground as
the test's own process, with its prefix, logs and temporary files in the test's directory.
It is installed by scripts/setup-services.sh; without it the test skips, and fails when CI
is set. Real PostgreSQL and Redis as in tests/reliability/test_cluster.py.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

from cluster_support import Socket
from postgres_support import postgres_schema
from redis_support import redis_prefix, redis_url
from seats_support import seat_tokens
from server_process import Server, free_port

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
PLAYING, FIRST, SECOND = "127.0.0.4", "127.0.0.2", "127.0.0.3"  # the clients' source addresses
CREATE_BURST = 2  # games one address may create at once, in each process
ENV = {
    "JUDGES_TRUSTED_PROXIES": "127.0.0.1",  # as docs/deploy.md says: the proxy's address
    "JUDGES_CREATE_BURST": str(CREATE_BURST),
    "JUDGES_CREATE_PER_MINUTE": "0.1",  # no creation comes back during the test
    "JUDGES_BOT_DELAY": "0.02",
    "JUDGES_WATCH_SECONDS": "0.3",
}

pytestmark = pytest.mark.timeout(600)


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found is None:
        message = "nginx is not installed (bash scripts/setup-services.sh installs Debian's package)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return found


def documented_block() -> str:
    """The nginx configuration of docs/deploy.md's "The reverse proxy": its first indented
    block (`upstream judges { ... } server { ... }`), dedented."""
    text = DEPLOY.read_text()
    section = text.split("### The reverse proxy", 1)[1]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    upstream judges {"))
    block = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip() + "\n"


def nginx_config(prefix: Path, listen: int, upstreams: list[int]) -> str:
    """The document's block with the test's ports (its upstreams are 127.0.0.1:8001 and :8002;
    it listens on 443 with TLS, here on a free loopback port without), inside the few
    directives that keep nginx's files in `prefix`."""
    block = documented_block()
    for documented, port in zip(("127.0.0.1:8001;", "127.0.0.1:8002;"), upstreams, strict=True):
        assert documented in block, f"docs/deploy.md's nginx block no longer has {documented}"
        block = block.replace(documented, f"127.0.0.1:{port};")
    assert "listen 443 ssl;" in block, "docs/deploy.md's nginx block no longer listens with `listen 443 ssl;`"
    block = block.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen};")
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "\n".join(f"    {kind}_temp_path {prefix}/{kind};" for kind in kinds)
    return (
        "daemon off;\n"
        "master_process off;\n"  # one process, the test's own (no switch to another user)
        f"pid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/error.log info;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {prefix}/access.log;\n"
        f"{temp}\n" + "".join(f"    {line}\n" for line in block.splitlines()) + "}\n"
    )


class Nginx:
    def __init__(self, prefix: Path, upstreams: list[int]) -> None:
        binary = nginx_binary()
        prefix.mkdir()
        self.prefix = prefix
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        config = prefix / "nginx.conf"
        config.write_text(nginx_config(prefix, self.port, upstreams))
        command = [binary, "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, f"nginx refuses the documented configuration:\n{checked.stderr}"
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"nginx exited:\n{self.log()}"
            try:
                if httpx.get(f"{self.base}/api/world", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"nginx did not answer within 30 s:\n{self.log()}")

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)


@pytest.fixture
def cluster(tmp_path):
    """(nginx, the two servers, the database URL)."""
    with postgres_schema("judges_proxy") as (_, _, url):
        env = {**ENV, "JUDGES_REDIS_URL": redis_url(), "JUDGES_REDIS_PREFIX": redis_prefix("judges_proxy")}
        servers: list[Server] = []
        proxy = None
        try:
            for name in "ab":
                servers.append(Server(url, tmp_path / f"server-{name}.log", env))
            proxy = Nginx(tmp_path / "nginx", [s.port for s in servers])
            yield proxy, servers, url
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.stop()


def client(base: str, source: str) -> httpx.Client:
    """An HTTP client connecting from `source`, a loopback address of its own."""
    return httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address=source))


def create(http: httpx.Client, seed: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return http.post("/api/games", json={"seats": SEATS, "seed": seed}, headers=headers or {})


def test_a_game_is_played_to_its_end_through_the_documented_proxy_over_websockets(cluster):
    proxy, servers, _ = cluster
    with client(proxy.base, PLAYING) as http:
        created = http.post("/api/games", json={"seats": SEATS, "seed": 5, "round_limit": 2})
        assert created.status_code == 201, created.text
        data = created.json()
        invitations = [seat["invitation"] for seat in data["seats"] if "invitation" in seat]
        assert invitations and all(link.startswith(f"{proxy.base}/") for link in invitations), (
            f"the invitation links are not the proxy's address {proxy.base}: {invitations}"
        )
        tokens = seat_tokens(http, data)
        humans = [seat for seat, token in enumerate(tokens) if token]
        sockets = {
            seat: Socket(proxy.ws_base, data["id"], tokens[seat], f"seat{seat}", source=PLAYING) for seat in humans
        }
        try:
            rng = random.Random(3)
            acted_at: dict[int, int] = {}  # each seat's last view seq it acted on
            actions = 0
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                closed = [seat for seat, socket in sockets.items() if socket.closed_at is not None]
                assert not closed, f"the websockets of seats {closed} closed through the proxy:\n{proxy.log()}"
                views = {seat: socket.view for seat, socket in sockets.items()}
                if all(v is not None and v["ending"] for v in views.values()):
                    break
                for seat, view in views.items():
                    if view is None or view["ending"] or seat not in view["waiting_for"] or not view["legal_actions"]:
                        continue
                    if acted_at.get(seat) == view["seq"]:
                        continue  # its action is on its way: the socket brings the next view
                    legal = view["legal_actions"]
                    end = [a for a in legal if a["type"] == "end_turn"]
                    action = end[0] if end and rng.random() < 0.85 else rng.choice(legal)
                    posted = http.post(
                        f"/api/games/{data['id']}/actions",
                        json={"action": action, "client_action_id": uuid.uuid4().hex},
                        headers={"X-Seat-Token": tokens[seat]},
                    )
                    assert posted.status_code < 500, posted.text
                    acted_at[seat] = view["seq"]
                    actions += posted.status_code == 200
                time.sleep(0.01)
            views = {seat: socket.view for seat, socket in sockets.items()}
            assert all(v is not None and v["ending"] for v in views.values()), (
                f"the game did not end within the time through the proxy ({actions} actions acknowledged)\n"
                + "\n".join(s.output() for s in servers)
                + proxy.log()
            )
            assert actions >= 10, actions
            # each seat's socket followed the game to its last action: the store's count
            final = http.get(f"/api/games/{data['id']}/view", headers={"X-Seat-Token": tokens[humans[0]]}).json()
            for seat, socket in sockets.items():
                assert socket.view is not None and socket.view["seq"] == final["seq"], seat
        finally:
            for socket in sockets.values():
                socket.close()


def test_the_per_address_limits_count_the_clients_address_not_the_proxys(cluster):
    proxy, _, _ = cluster
    with client(proxy.base, FIRST) as first, client(proxy.base, SECOND) as second:
        # the first client creates games until refused: each process gives an address
        # CREATE_BURST, and nginx spreads the requests over both
        answers = [create(first, seed).status_code for seed in range(2 * CREATE_BURST + 1)]
        assert 429 in answers, f"the first client was never refused: {answers}"
        assert answers.count(201) >= CREATE_BURST, answers
        refused = [create(first, 100 + i) for i in range(2)]  # the next ones, each process's
        assert {r.status_code for r in refused} == {429}, [r.text for r in refused]
        # ... and cannot pass for another client by telling the proxy so
        for i, header in enumerate(("X-Forwarded-For", "X-Real-IP")):
            for j in range(2):
                spoofed = create(first, 200 + 2 * i + j, {header: "203.0.113.9"})
                assert spoofed.status_code == 429, f"{header} from the client was believed: {spoofed.text}"
        # another client, through the same proxy, is not refused by either process
        for seed in range(2):
            answer = create(second, 300 + seed)
            assert answer.status_code == 201, f"the second client is counted with the first: {answer.text}"


def test_the_documented_block_is_what_runs(tmp_path):
    """The configuration the proxy test runs is the document's block: every line of it is in
    the file nginx reads (so a change in the document is a change in what is tested)."""
    config = nginx_config(tmp_path, 9000, [9001, 9002])
    block = documented_block()
    assert "proxy_set_header Upgrade $http_upgrade;" in block
    changed = {"listen 443 ssl;", "server 127.0.0.1:8001;", "server 127.0.0.1:8002;"}
    for line in block.splitlines():
        if line.strip() and line.strip() not in changed:
            assert line in config, line
