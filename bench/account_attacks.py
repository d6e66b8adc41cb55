"""The attacks on accounts, rematches, mail, ratings and mailed links, against a real server
process: each scenario runs against an older source tree (`--old-src`) and this one, one after
the other in the same run, and the figures are printed side by side.

Each scenario starts its own `judges serve` (a SQLite file in a temporary folder, bots without
delay, a local SMTP server of this process's (aiosmtpd) as its mail server) and attacks it from
loopback addresses only (127.0.0.x: all of 127.0.0.0/8 is the loopback on Linux); every loop is
bounded in count and time.

- `rematch`: `--rematches` simultaneous rematch requests on one finished game: tables made.
- `lockout`: a stranger at 127.0.0.66 guesses the owner's password twice a second while the
  owner, at the address he signed up from, signs in with the right one once a second
  (`--tries` times): the owner's sign-ins that succeeded.
- `flood`: `--flood-addresses` addresses each keep 2 sign-ins (names of no account) in flight for `--seconds` (argon2
  at its real cost); meanwhile the owner signs in (honouring Retry-After): his time to get in,
  the server's largest resident memory, the answers 503.
- `mail`: `--addresses` addresses sign up accounts whose e-mail is a list of 8 addresses (one
  address, a victim's, when a list is refused), then ask each account's forgotten password:
  the recipients the SMTP server saw, the mails delivered, the most mails one recipient got.
- `farm`: an account plays `--games` one-round games against greedy and random with its seat
  left to the takeover bot from the start: its rating afterwards and its rated games.
- `links`: a paced game's notice link (made as the server makes it), then the password reset by
  its mailed link; then the notice's link is pressed 3 times: how many opened the seat.

Run: .venv/bin/python bench/account_attacks.py --old-src /tmp/old/src [--scenarios rematch,lockout]
     (the older tree: `git archive c203735 src | tar -x -C /tmp/old`) [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from pathlib import Path

import httpx
import psutil
from aiosmtpd.controller import Controller
from load import free_port

SCENARIOS = ("rematch", "lockout", "flood", "mail", "farm", "links")
PASSWORD = "a long secret"


class Mailbox:
    """The SMTP server's handler: every mail and every envelope recipient."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.recipients: list[str] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.messages.append(message_from_bytes(envelope.content))
        self.recipients += envelope.rcpt_tos
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if address in (m["To"] or "")]


@contextmanager
def server(src: str | None, mailbox_port: int, extra: dict[str, str] | None = None):
    """A `judges serve` from `src` (None: this tree) on a free port; (process, base URL)."""
    folder = tempfile.mkdtemp(prefix="judges-accounts-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "JUDGES_DATABASE_URL": f"sqlite:///{folder}/bench.db",
        "JUDGES_BOT_DELAY": "0",
        "JUDGES_SMTP_URL": f"smtp://127.0.0.1:{mailbox_port}",
        "JUDGES_PUBLIC_URL": base,
        "JUDGES_UPKEEP_SECONDS": "0.5",
        "JUDGES_UPKEEP_SCAN_SECONDS": "1",
        "JUDGES_NOTICE_DELAY_MINUTES": "0.02",
        "JUDGES_ABSENT_AFTER": "1",
        **(extra or {}),
    }
    env["PYTHONPATH"] = str(Path(src).resolve()) if src else str(Path(__file__).resolve().parent.parent / "src")
    log = open(Path(folder) / "server.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {(Path(folder) / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/api/world", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        process.database = env["JUDGES_DATABASE_URL"]  # type: ignore[attr-defined]
        process.pythonpath = env["PYTHONPATH"]  # type: ignore[attr-defined]
        yield process, base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def client(base: str, address: str = "127.0.0.1", timeout: float = 60.0) -> httpx.AsyncClient:
    """A browser at one loopback address (its own cookies; this site's Origin)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=timeout, headers={"Origin": base})


async def sign_up(http: httpx.AsyncClient, name: str, email: str | None = None) -> httpx.Response:
    body = {"name": name, "password": PASSWORD, **({"email": email} if email else {})}
    return await http.post("/api/accounts", json=body)


async def finished_game(http: httpx.AsyncClient, round_limit: int = 1) -> tuple[str, str]:
    """A game of the signed-in player against greedy and random, its seat left to the bot from
    the start, played to its end: (its id, the seat's credential)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    created = (await http.post("/api/games", json={"seats": seats, "round_limit": round_limit})).json()
    token = created["token"]
    await http.post(f"/api/games/{created['id']}/seat/away", headers={"X-Seat-Token": token})
    deadline = time.monotonic() + 120
    while not (await http.get(f"/api/games/{created['id']}/spectate")).json().get("ending"):
        if time.monotonic() > deadline:
            raise SystemExit("a game did not end in 120 s")
        await asyncio.sleep(0.1)
    return created["id"], token


def links_in(message: Message, base: str) -> list[str]:
    return re.findall(re.escape(base) + r"/links/\S+", message.get_payload(decode=True).decode())


async def confirm(http: httpx.AsyncClient, box: Mailbox, address: str, base: str) -> None:
    """Presses the link that confirms an address, if the server mailed one (newer servers)."""
    await asyncio.sleep(1.0)
    for mail in box.to(address):
        if "confirm" in (mail["Subject"] or ""):
            for link in links_in(mail, base):
                await http.post(link.removeprefix(base))


# --- the scenarios ----------------------------------------------------------------------------------


async def rematch(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    async with client(base) as http:
        await sign_up(http, "ada")
        game_id, token = await finished_game(http)
        http.cookies.clear()

    # the connections opened (and used once) before: the requests leave together
    pool = [client(base) for _ in range(min(50, args.rematches))]  # under a per-address connection cap
    try:
        await asyncio.gather(*(c.get("/api/me") for c in pool))

        async def ask(i: int) -> httpx.Response:
            return await pool[i % len(pool)].post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})

        answers = await asyncio.gather(*(ask(i) for i in range(args.rematches)), return_exceptions=True)
    finally:
        await asyncio.gather(*(c.aclose() for c in pool))
    made = {a.json()["id"] for a in answers if isinstance(a, httpx.Response) and a.is_success and a.json()["made"]}
    codes = sorted({a.status_code for a in answers if isinstance(a, httpx.Response)})
    return {"requests": args.rematches, "tables made": len(made), "answers": "/".join(map(str, codes))}


async def lockout(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    async with client(base, "127.0.0.1") as owner, client(base, "127.0.0.66") as stranger:
        await sign_up(owner, "ruth")
        owner.cookies.clear()
        ok = 0
        for _ in range(args.tries):
            for _ in range(2):
                await stranger.post("/api/session", json={"name": "ruth", "password": "a guess"})
                await asyncio.sleep(0.25)
            answer = await owner.post("/api/session", json={"name": "ruth", "password": PASSWORD})
            ok += answer.status_code == 200
            owner.cookies.clear()
            await asyncio.sleep(0.5)
    return {"owner's sign-ins": f"{ok} of {args.tries}"}


async def flood(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    memory = psutil.Process(process.pid)
    rss = [memory.memory_info().rss]
    async with client(base, "127.0.0.1", timeout=120) as owner:
        await sign_up(owner, "ruth")
        owner.cookies.clear()
        counts: dict[int, int] = {}

        async def attacker(http: httpx.AsyncClient, address: str) -> None:
            async with http:
                n = 0
                while time.monotonic() < stop:
                    n += 1
                    name = f"guess{address}-{n}"  # names of no account: only the check's cost matters
                    try:
                        answer = await http.post("/api/session", json={"name": name, "password": "a guess"})
                        counts[answer.status_code] = counts.get(answer.status_code, 0) + 1
                    except httpx.HTTPError:
                        counts[0] = counts.get(0, 0) + 1
                    await asyncio.sleep(0.05)

        async def watch() -> None:
            while time.monotonic() < stop + 5:
                rss.append(memory.memory_info().rss)
                await asyncio.sleep(0.1)

        async def honest() -> list[float]:
            took = []
            await asyncio.sleep(1.0)
            while time.monotonic() < stop - 1:
                start = time.monotonic()
                while True:
                    answer = await owner.post("/api/session", json={"name": "ruth", "password": PASSWORD})
                    if answer.status_code == 200 or time.monotonic() - start > 60:
                        break
                    await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
                took.append(time.monotonic() - start)
                owner.cookies.clear()
            return took

        addresses = [f"127.0.1.{i + 1}" for i in range(args.flood_addresses)] * 2
        attackers = [client(base, a, timeout=120) for a in addresses]  # made before the clock starts
        stop = time.monotonic() + args.seconds
        tasks = [asyncio.create_task(attacker(http, a)) for http, a in zip(attackers, addresses)]
        watcher = asyncio.create_task(watch())
        took = await honest()
        await asyncio.gather(*tasks)
        await watcher
    took.sort()
    return {
        "owner's sign-in, median s": round(took[len(took) // 2], 2) if took else None,
        "slowest s": round(took[-1], 2) if took else None,
        "server MB": round(max(rss) / 2**20),
        "answers 401/429/503": f"{counts.get(401, 0)}/{counts.get(429, 0)}/{counts.get(503, 0)}",
    }


async def mail(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    names = []
    for a in range(args.addresses):
        async with client(base, f"127.0.2.{a + 1}") as http:
            for i in range(5):
                name = f"n{a}x{i}"
                listed = ",".join(f"v{a}-{i}-{k}@example.net" for k in range(8))  # within 200 characters
                answer = await sign_up(http, name, listed)
                if answer.status_code == 422:  # one address only: a victim's
                    answer = await sign_up(http, name, "victim@example.net")
                if answer.status_code == 201:
                    names.append((a, name))
                http.cookies.clear()
    for a, name in names:
        async with client(base, f"127.0.2.{a + 1}") as http:
            await http.post("/api/password-reset", json={"name": name})
    await asyncio.sleep(3.0)
    counts: dict[str, int] = {}
    for recipient in box.recipients:
        counts[recipient] = counts.get(recipient, 0) + 1
    return {
        "accounts": len(names),
        "recipients": len(counts),
        "mails": len(box.messages),
        "most to one": max(counts.values(), default=0),
    }


async def farm(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    async with client(base) as http:
        await sign_up(http, "farmer")
        for _ in range(args.games):
            await finished_game(http)
        await asyncio.sleep(2.0)  # the ratings' upkeep
        player = (await http.get("/api/players/farmer")).json()
    return {"rating": player.get("rating"), "rated games": player.get("games")}


MAKE_SEAT_LINK = """
import sys
from judges.server.community import mail_notices
from judges.server.store import GameStore
hours = getattr(mail_notices, "SEAT_LINK_HOURS", None) or 24 * mail_notices.SEAT_LINK_DAYS
store = GameStore(sys.argv[1])
print(hours, mail_notices.LinkStore(store).make(int(sys.argv[2]), "seat", sys.argv[3], hours * 3600))
store.close()
"""


async def links(base: str, box: Mailbox, args: argparse.Namespace, process: subprocess.Popen) -> dict:
    """The notice's link is made as the server's notices make it (its tree's LinkStore, kind
    "seat", its lifetime): an older server mails a notice only once its player has been away 5
    minutes."""
    address = "ruth@example.org"
    async with client(base) as http:
        await sign_up(http, "ruth", address)
        await confirm(http, box, address, base)
        account = (await http.get("/api/me")).json()["account"]["id"]
        seats = [{"kind": "human", "name": "Ruth"}, {"kind": "bot", "bot": "greedy"}]
        created = (await http.post("/api/games", json={"seats": seats, "pace": {"hours": 24}})).json()
        made = subprocess.run(
            [sys.executable, "-c", MAKE_SEAT_LINK, process.database, str(account), created["id"]],  # type: ignore[attr-defined]
            env={**os.environ, "PYTHONPATH": process.pythonpath},  # type: ignore[attr-defined]
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        hours, seat_link = float(made[0]), f"/links/{made[1]}"
        http.cookies.clear()
        await http.post("/api/password-reset", json={"name": "ruth"})
        deadline = time.monotonic() + 30
        while not (reset := [m for m in box.to(address) if "password" in (m["Subject"] or "").lower()]):
            if time.monotonic() > deadline:
                raise SystemExit("no reset link was mailed in 30 s")
            await asyncio.sleep(0.2)
        (reset_link,) = links_in(reset[0], base)
        await http.post(
            reset_link.removeprefix(base),
            content="password=another+secret",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        opened = 0
        for _ in range(3):
            http.cookies.clear()
            answer = await http.post(seat_link)
            opened += answer.status_code == 303 and answer.headers.get("location") == f"/games/{created['id']}"
    return {"seat link lives, hours": hours, "presses that opened the seat after a new password": f"{opened} of 3"}


async def run(name: str, src: str | None, args: argparse.Namespace) -> dict:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with server(src, port) as (process, base):
            return await globals()[name](base, box, args, process)
    finally:
        controller.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old-src", required=True, help="the older tree's src folder")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--rematches", type=int, default=300)
    parser.add_argument("--tries", type=int, default=9)
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--flood-addresses", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    results = []
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    for name in args.scenarios.split(","):
        old = asyncio.run(run(name, args.old_src, args))
        new = asyncio.run(run(name, None, args))
        load = round(os.getloadavg()[0], 1)
        results.append({"scenario": name, "before": old, "now": new, "load": load})
        print(f"{name}: before {old} | now {new} | load {load}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
