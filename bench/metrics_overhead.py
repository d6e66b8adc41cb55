"""What the metrics and the log lines' context cost a player's action (server/metrics.py,
server/logs.py), beside the CPU an action takes through the service, in one run.

    .venv/bin/python bench/metrics_overhead.py --actions 300

The action: `GameService.submit` on a three-seat table of humans in SQLite (validated, applied,
committed, pushed), process CPU time per action. The instrumentation: what `submit` and a
request add for it (two clock readings, the player's action counted, the latency observed, the
game and the seat bound), timed alone."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import timeit

from judges.engine import action_to_dict
from judges.server import logs, metrics
from judges.server.store import GameStore
from judges.server.table.service import GameService
from judges.settings import Settings


async def action_cpu(actions: int) -> tuple[float, int]:
    """CPU seconds per action through the service, and the actions measured."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(bot_delay=0)
        store = GameStore(f"sqlite:///{folder}/bench.db", settings=settings)
        store.migrate()
        service = GameService(store, settings=settings)
        await service.start()
        seats = [{"kind": "human", "name": name} for name in ("Ada", "Bo", "Cy")]
        live, _, _ = await service.create(seats, seed=1)
        cpu, done = 0.0, 0
        while done < actions and not live.game.is_over:
            seat = live.game.waiting_for()[0]
            legal = list(live.game.legal_actions(seat))
            action = next((a for a in legal if type(a).__name__ == "EndTurn"), legal[0])
            data = action_to_dict(action)
            start = time.process_time()
            await service.submit(live, seat, data, None)
            cpu += time.process_time() - start
            done += 1
        await service.stop()
    return cpu / done, done


def instrumentation() -> None:
    """What one player's action adds: the request's binding of game and seat, the clock read
    twice, the counter and the histogram."""
    logs.bind_game("bench")
    logs.bind_seat(0)
    start = time.perf_counter()
    metrics.PLAYER_ACTIONS.inc()
    metrics.ACTION_SECONDS.observe(time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    args = parser.parse_args()
    per_action, done = asyncio.run(action_cpu(args.actions))
    rounds = 200_000
    added = min(timeit.repeat(instrumentation, timer=time.process_time, number=rounds, repeat=5)) / rounds
    print(f"an action through the service: {per_action * 1e6:,.0f} us of CPU ({done} actions)")
    print(f"the metrics and log context of an action: {added * 1e6:.2f} us of CPU")
    print(f"ratio: {added / per_action:.4%}")


if __name__ == "__main__":
    main()
