"""The garbage collector's pauses in a game server's process, without the network: N games of
4 seats held by one GameService (each seat with a subscribed socket queue), actions applied in
turn over the games and pushed to the sockets as the server does after a commit (views built,
deltas encoded, queues filled and drained). No HTTP, no database, no other process: what is
left is what the collector does with what serving leaves in memory, measured in CPU time of
the thread (`time.thread_time`), which another program on the machine hardly moves.

Each policy runs in a process of its own, alternating, `--rounds` times:
  tuned   the collector tuned at start-up only: start-up frozen, thresholds (20000, 20, 20)
  young   that, and what survives any collection frozen at once (server/memory.py)

Run: PYTHONPATH=src .venv/bin/python bench/gc_pauses.py [--games 500] [--actions 12000] [--rounds 3]
It prints, per policy, the collections of each generation (count, longest), the CPU time of
one action (apply + push, with any collection it triggered) at p50 / p99 / p99.9 / max, the
collector's CPU per action, the memory the process grew by, and what one full collection of
the heap costs afterwards (the young policy runs one an hour).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POLICIES = ("tuned", "young")


def pick(game):
    seat = game.waiting_for()[0]
    legal = game.legal_actions(seat)
    return next((a for a in legal if type(a).__name__ == "EndTurn"), legal[0])


async def serve(games: int, actions: int, policy: str) -> dict:
    from judges.server import app, memory
    from judges.server.store import GameStore
    from judges.server.table.service import GameService

    folder = tempfile.mkdtemp(prefix="judges-gc-")
    store = GameStore(f"sqlite:///{folder}/gc.db")
    store.create_game = lambda *args, **kwargs: None  # no database: only memory is measured here
    service = GameService(store)
    lives, subscribers = [], []
    for _ in range(games):
        live, _, _ = await service.create([{"kind": "human"}] * 4)
        lives.append(live)
        for seat in range(4):
            sub, _ = service.subscribe(live, seat, "en")
            subscribers.append(sub)
    app.settle_memory()  # as the server's start-up does
    if policy == "young":
        gc.callbacks.append(memory.freeze_survivors)
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started: list[float] = []

    def timer(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(time.thread_time())
        elif started:
            pauses[info["generation"]].append(time.thread_time() - started.pop())

    gc.callbacks.insert(0, timer)
    rss_before = rss_mib()
    per_action = []
    for n in range(actions):
        live = lives[n % games]
        if live.game.is_over:
            continue
        t = time.thread_time()
        live.game.apply(pick(live.game))
        service.hub.push(live)
        per_action.append(time.thread_time() - t)
        if n % games == games - 1:
            for sub in subscribers:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
    gc.callbacks.remove(timer)
    grown = rss_mib() - rss_before
    shutil.rmtree(folder, ignore_errors=True)
    # the young policy's hourly full collection (server/memory.py): what it costs here
    t = time.thread_time()
    memory.collect_fully()
    full_ms = 1000 * (time.thread_time() - t)
    if policy == "young":
        gc.callbacks.remove(memory.freeze_survivors)
    ordered = sorted(per_action)

    def q(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {
        "policy": policy,
        "actions": len(per_action),
        "action_cpu_ms": {"p50": q(0.5), "p99": q(0.99), "p999": q(0.999), "max": 1000 * ordered[-1]},
        "mean_action_cpu_ms": 1000 * statistics.fmean(per_action),
        "collections": {
            str(g): {
                "count": len(p),
                "total_ms": 1000 * sum(p),
                "median_ms": 1000 * statistics.median(p) if p else 0.0,
                "max_ms": 1000 * max(p, default=0.0),
            }
            for g, p in pauses.items()
        },
        "heap_growth_mib": grown,
        "full_collection_ms": full_ms,
    }


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--actions", type=int, default=12000, help="actions per run, over all games")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", choices=POLICIES, help=argparse.SUPPRESS)  # a child process's run
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(serve(args.games, args.actions, args.one))))
        return
    runs: dict[str, list[dict]] = {p: [] for p in POLICIES}
    for r in range(args.rounds):
        for policy in POLICIES if r % 2 == 0 else reversed(POLICIES):
            command = [sys.executable, __file__, "--one", policy, "--games", str(args.games)]
            out = subprocess.run(command + ["--actions", str(args.actions)], capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(out.stderr[-3000:])
            runs[policy].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{args.games} games, {args.actions} actions per run, {args.rounds} runs per policy (CPU time)")
    print(
        "| policy | action p50 / p99 / p99.9 / max | young / middle / full collections: count, longest "
        "| GC CPU per action | heap growth | a full collection afterwards |"
    )
    print("|---|---|---|---|---|---|")
    for policy, results in runs.items():
        for r in results:
            a, c = r["action_cpu_ms"], r["collections"]
            gcs = " / ".join(f"{c[g]['count']}, {c[g]['max_ms']:.1f} ms" for g in ("0", "1", "2"))
            total = sum(c[g]["total_ms"] for g in ("0", "1", "2")) / r["actions"]
            print(
                f"| {policy} | {a['p50']:.2f} / {a['p99']:.2f} / {a['p999']:.1f} / {a['max']:.1f} ms | {gcs} "
                f"| {total:.3f} ms | {r['heap_growth_mib']:.0f} MiB | {r['full_collection_ms']:.0f} ms |"
            )


if __name__ == "__main__":
    main()
