"""An honest player's action latency while a game is watched by many spectators, and while a
seat floods the server with resyncs, against a real server process.

It starts `judges serve` (a SQLite file in a temporary folder; `--src` names the source tree
to serve, e.g. an older checkout's `src`, to compare) and runs these scenarios, each on a
fresh game of four human seats with a websocket per seat:

- `quiet`: nobody else is connected;
- `spectators`: `--spectators` spectator sockets from distinct loopback addresses (127.0.0.2
  and on, `--per-address` each), every one reading every message;
- `one-address`: `--spectators` spectator sockets attempted from 127.0.0.1 alone;
- `resync-flood`: one more socket of seat 3 sends `--resyncs` resync messages a second and
  reads everything; closed, it reconnects at once (as an attacker would).

The player acts for whichever seat is owed (end_turn, else its first legal action), one action
at a time over one keep-alive HTTP connection, `--pause` seconds apart: `--actions` actions
measured after `--warmup`. Latencies: submission -> HTTP answer (`http`), and -> the acting
seat's own socket showing the action (`seen`). Also: the server's CPU seconds per action, the
spectator sockets accepted and refused, the full views the flooder received.

Run: PYTHONPATH=src .venv/bin/python bench/spectators.py [--src ../old/src] [--spectators 300]
     [--resyncs 512] [--actions 200] [--scenarios quiet,spectators,one-address,resync-flood]
     [--json out.json]
Loopback only; the spectators' addresses need Linux (all of 127.0.0.0/8 is the loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import time
from pathlib import Path

import httpx
import msgspec
from load import Http11, claimed_tokens, cpu_seconds, percentiles, start_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from judges.server.table.updates import apply_update

FOUR_HUMANS = [{"kind": "human"}] * 4


async def new_game(base: str) -> tuple[str, list[str]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = await http.post("/api/games", json={"seats": FOUR_HUMANS})
        created.raise_for_status()
        data = created.json()
        return data["id"], await claimed_tokens(http, data)


class Table:
    """The four seats' sockets and the views they hold."""

    def __init__(self, ws_base: str, game_id: str, tokens: list[str]) -> None:
        self.ws_base, self.game_id, self.tokens = ws_base, game_id, tokens
        self.views: list[dict | None] = [None] * 4
        self.changed = asyncio.Event()
        self.sockets: list = []
        self.tasks: list[asyncio.Task] = []

    async def open(self) -> None:
        for seat in range(4):
            ws = await connect(
                f"{self.ws_base}/ws/games/{self.game_id}",
                additional_headers={"X-Seat-Token": self.tokens[seat]},
                max_size=None,
            )
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self.listen(seat, ws)))
        while any(v is None for v in self.views):
            await self.wait()

    async def listen(self, seat: int, ws) -> None:
        try:
            async for text in ws:
                message = msgspec.json.decode(text)
                view = apply_update(self.views[seat], message)
                if view is None:
                    if message.get("type") != "error":
                        await ws.send('{"type": "resync"}')
                    continue
                self.views[seat] = view
                self.changed.set()
        except ConnectionClosed:
            pass

    async def wait(self, timeout: float = 30) -> None:
        self.changed.clear()
        await asyncio.wait_for(self.changed.wait(), timeout)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for ws in self.sockets:
            await ws.close()


def choose(table: Table) -> tuple[int, dict] | None:
    view = table.views[0]
    if view is None or view["ending"] or not view["waiting_for"]:
        return None
    seat = view["waiting_for"][0]
    mine = table.views[seat]
    if mine is None or mine["seq"] != view["seq"] or not mine["legal_actions"]:
        return None
    return seat, next((a for a in mine["legal_actions"] if a["type"] == "end_turn"), mine["legal_actions"][0])


async def play(table: Table, base: str, actions: int, warmup: int, pause: float, pid: int) -> dict:
    host, port = base.removeprefix("http://").split(":")
    http = Http11(host, int(port))
    answered: list[float] = []
    seen: list[float] = []
    errors = 0
    cpu_before = None
    done = 0
    try:
        while done < warmup + actions:
            picked = choose(table)
            if picked is None:
                if table.views[0] is not None and table.views[0]["ending"]:
                    break
                await table.wait()
                continue
            if done == warmup:
                cpu_before = cpu_seconds(pid)
            seat, action = picked
            target = table.views[seat]["seq"] + 1  # type: ignore[index]
            sent = time.perf_counter()
            status, _ = await http.post_json(
                f"/api/games/{table.game_id}/actions", {"action": action}, {"X-Seat-Token": table.tokens[seat]}
            )
            took = time.perf_counter() - sent
            if status != 200:
                errors += 1
                await asyncio.sleep(0.2)
                continue
            while table.views[seat]["seq"] < target:  # type: ignore[index]
                await table.wait()
            if done >= warmup:
                answered.append(took)
                seen.append(time.perf_counter() - sent)
            done += 1
            await asyncio.sleep(pause)
    finally:
        await http.close()
    cpu = cpu_seconds(pid)
    measured = len(answered)
    return {
        "actions": measured,
        "errors": errors,
        "http_ms": percentiles(answered),
        "seen_ms": percentiles(seen),
        "server_cpu_ms_per_action": (cpu - cpu_before) / measured * 1000 if measured and cpu_before else None,
    }


# --- the others ------------------------------------------------------------------------------


async def spectator(url: str, address: str, counts: dict) -> None:
    """One spectator from `address`: counted accepted (a full view came) or refused."""
    try:
        async with connect(url, local_addr=(address, 0), max_size=None) as ws:
            first = await ws.recv(decode=False)
            if msgspec.json.decode(first).get("type") != "full":
                counts["refused"] += 1
                return
            counts["accepted"] += 1
            async for message in _frames(ws):
                counts["bytes"] += len(message)
    except ConnectionClosed:
        pass


async def _frames(ws):
    while True:
        yield await ws.recv(decode=False)


async def spectators(table: Table, count: int, addresses: list[str]) -> tuple[list[asyncio.Task], dict]:
    url = f"{table.ws_base}/ws/games/{table.game_id}/spectate"
    counts = {"accepted": 0, "refused": 0, "bytes": 0}
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(spectator(url, addresses[i % len(addresses)], counts)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)
    deadline = time.monotonic() + 60
    while counts["accepted"] + counts["refused"] < count and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return tasks, counts


async def flooder(table: Table, rate: float, counts: dict) -> None:
    """Seat 3's extra socket: `rate` resyncs a second; reconnects whenever it is closed."""
    url = f"{table.ws_base}/ws/games/{table.game_id}"
    while True:
        try:
            async with connect(url, additional_headers={"X-Seat-Token": table.tokens[3]}, max_size=None) as ws:
                counts["connections"] += 1

                async def read() -> None:
                    async for message in _frames(ws):
                        if message.startswith(b'{"type":"full"'):
                            counts["full_views"] += 1
                        counts["bytes"] += len(message)

                reader = asyncio.create_task(read())
                start, sent = time.perf_counter(), 0
                try:
                    while not reader.done():
                        due = int((time.perf_counter() - start) * rate)
                        for _ in range(due - sent):
                            await ws.send('{"type": "resync"}')
                        counts["sent"] += max(0, due - sent)
                        sent = max(sent, due)
                        await asyncio.sleep(0.005)
                finally:
                    reader.cancel()
        except (ConnectionClosed, OSError):
            pass
        counts["closed"] += 1


# --- the run ---------------------------------------------------------------------------------------


async def scenario(name: str, args, base: str, pid: int) -> dict:
    ws_base = base.replace("http://", "ws://")
    game_id, tokens = await new_game(base)
    table = Table(ws_base, game_id, tokens)
    await table.open()
    others: list[asyncio.Task] = []
    extra: dict = {}
    if name == "spectators":
        addresses = [f"127.0.0.{2 + i // args.per_address}" for i in range(args.spectators)]
        others, extra = await spectators(table, args.spectators, addresses)
    elif name == "one-address":
        others, extra = await spectators(table, args.spectators, ["127.0.0.1"])
    elif name == "resync-flood":
        extra = {"connections": 0, "closed": 0, "sent": 0, "full_views": 0, "bytes": 0}
        others = [asyncio.create_task(flooder(table, args.resyncs, extra))]
        await asyncio.sleep(1.0)
    started = time.perf_counter()
    result = await play(table, base, args.actions, args.warmup, args.pause, pid)
    result["seconds"] = time.perf_counter() - started
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
    await table.close()
    if "bytes" in extra and result["seconds"]:
        extra["mib_per_second"] = extra.pop("bytes") / 2**20 / result["seconds"]
    return {"scenario": name, **result, **extra}


def show(row: dict) -> str:
    http, seen = row["http_ms"], row["seen_ms"]
    fmt = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
    others = {k: (round(v, 1) if isinstance(v, float) else v) for k, v in row.items() if k not in SHOWN}
    return (
        f"{row['scenario']:<13} actions {row['actions']:>4}  http p50/p95/p99 {fmt(http['p50'])}/"
        f"{fmt(http['p95'])}/{fmt(http['p99'])} ms  seen p50/p95/p99 {fmt(seen['p50'])}/{fmt(seen['p95'])}/"
        f"{fmt(seen['p99'])} ms  cpu/action {fmt(row['server_cpu_ms_per_action'])} ms  {others}"
    )


SHOWN = {"scenario", "actions", "http_ms", "seen_ms", "server_cpu_ms_per_action"}


async def main_async(args) -> list[dict]:
    process, base, folder = start_server(None, str(args.src))
    rows = []
    try:
        for name in args.scenarios.split(","):
            row = await scenario(name, args, base, process.pid)
            print(show(row), flush=True)
            rows.append(row)
    finally:
        process.terminate()
        process.wait(15)
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--per-address", type=int, default=2)  # the server's places per address and game
    parser.add_argument("--resyncs", type=float, default=512)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--pause", type=float, default=0.05)
    parser.add_argument("--scenarios", default="quiet,spectators,one-address,resync-flood")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    args.src = args.src.resolve()
    rows = asyncio.run(main_async(args))
    if args.json:
        args.json.write_text(json.dumps({"src": str(args.src), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
