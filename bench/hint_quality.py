"""Does a hint say what its samples can tell? CPU of `bots.hint.hint_for` at its own bound, and
each alternative it names re-measured on its own (`paired.compare`, 48 fresh paired samples of the
hinted action and that alternative), on positions of greedy games of 3 to 6 players.

    PYTHONPATH=src python bench/hint_quality.py [positions] [first seed]

For every alternative named, the hint either said the two are about even or put its action ahead
beyond its noise; the re-measure then says whether the hinted action is still ahead (its gap
above zero), or behind beyond the two measures' joint noise (a hint proven wrong). Printed: the
counts, the hint's CPU (median, 95th percentile, longest) and the load average.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time

from judges.bots import make_bot
from judges.bots.hint import hint_for
from judges.bots.paired import Z, compare
from judges.engine import Game, Options

RESEED = 0xBE7C4  # the re-measures' samples: another stream than the hints'


def positions(count: int, first_seed: int):
    """(seat, legal, view) every 13th decision with a choice of greedy games, 3 to 6 players."""
    found, seed = 0, first_seed
    while found < count:
        players = 3 + (seed - first_seed) % 4
        game = Game.new(Options(players=players, seed=seed))
        bots = [make_bot("greedy", seed * 10 + s) for s in range(players)]
        step = 0
        while not game.is_over and found < count:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            view = game.view(seat, notifications=False)
            if len(legal) > 1 and step % 13 == seed % 13:
                found += 1
                yield seat, legal, view
            game.apply(bots[seat].choose(seat, legal, lambda view=view: view))
            step += 1
        seed += 1


def main(count: int = 300, first_seed: int = 910_000) -> None:
    cpu: list[float] = []
    said = {"ahead": 0, "even": 0}
    confirmed = {"ahead": 0, "even": 0}  # the re-measure has the hinted action ahead (gap > 0)
    reversed_ = {"ahead": 0, "even": 0}  # ... behind beyond the joint noise
    beyond = {"ahead": 0, "even": 0}  # ... ahead beyond its own noise
    single = 0
    for n, (seat, legal, view) in enumerate(positions(count, first_seed)):
        t = time.thread_time()
        hint = hint_for(seat, legal, view, seed=n)
        cpu.append(time.thread_time() - t)
        if not hint.alternatives:
            single += 1
        for alt in hint.alternatives:
            kind = "even" if alt.even else "ahead"
            said[kind] += 1
            again = compare(seat, view, [hint.action, alt.action], n + RESEED, min_samples=48, max_samples=48)
            gap = again.best.mean - again.measures[1].mean
            if again.best.action != hint.action:
                gap = -gap
            error = again.measures[1].error
            confirmed[kind] += gap > 0
            beyond[kind] += gap > Z * error
            joint = math.hypot(error, alt.error / 100)
            reversed_[kind] += gap < -Z * joint
            again_text = f"{100 * gap:.1f} ± {100 * error:.1f}"
            print(f"position {n}: {kind}, hint {alt.gap} ± {alt.error}, re-measured {again_text}")
        print(f"position {n}: hint CPU {cpu[-1]:.3f} s", flush=True)
    cpu.sort()
    print(f"{count} positions of greedy games, 3-6 players, seeds {first_seed}+; load average {os.getloadavg()}")
    print(f"  with one candidate only (nothing to compare): {single}")
    for kind in ("ahead", "even"):
        k = said[kind]
        if k:
            print(
                f"  alternatives the hint called {kind}: {k}; re-measured (48 paired samples): hinted action "
                f"ahead {confirmed[kind]} ({100 * confirmed[kind] / k:.1f} %), ahead beyond noise {beyond[kind]}, "
                f"behind beyond the joint noise {reversed_[kind]} ({100 * reversed_[kind] / k:.1f} %)"
            )
    p95 = cpu[min(len(cpu) - 1, math.ceil(0.95 * len(cpu)) - 1)]
    print(f"  hint CPU s: median {statistics.median(cpu):.3f}  p95 {p95:.3f}  max {cpu[-1]:.3f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
