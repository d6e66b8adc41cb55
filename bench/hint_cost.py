"""A hint's cost at the server's default budget (`Limits.bot_cpu_seconds`): CPU and wall time of
`bots.hint.hint_for` on positions of greedy games (3 and 4 players), as docs/bots.md reports.

    PYTHONPATH=src python bench/hint_cost.py [positions]
"""

from __future__ import annotations

import statistics
import sys
import time

from judges.bots import make_bot
from judges.bots.hint import hint_for
from judges.engine import Game, Options
from judges.server.limits import Limits


def main(count: int = 60) -> None:
    budget = Limits().bot_cpu_seconds
    cpu, wall = [], []
    seed = 0
    while len(cpu) < count:
        seed += 1
        players = 3 + seed % 2
        game = Game.new(Options(players=players, seed=seed, round_limit=6))
        bots = [make_bot("greedy", seed * 10 + s) for s in range(players)]
        step = 0
        while not game.is_over and len(cpu) < count:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            view = game.view(seat, notifications=False)
            if step % 11 == 0 and len(legal) > 1:
                t, w = time.thread_time(), time.perf_counter()
                found = hint_for(seat, legal, view, seed=step, cpu_budget=budget)
                cpu.append(time.thread_time() - t)
                wall.append(time.perf_counter() - w)
                assert found.action in legal
            game.apply(bots[seat].choose(seat, legal, lambda view=view: view))
            step += 1
    cpu.sort()
    wall.sort()
    print(f"{count} hints, budget {budget} s CPU")
    print(f"CPU  s: median {statistics.median(cpu):.3f}  p90 {cpu[int(0.9 * count)]:.3f}  max {cpu[-1]:.3f}")
    print(f"wall s: median {statistics.median(wall):.3f}  p90 {wall[int(0.9 * count)]:.3f}  max {wall[-1]:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
