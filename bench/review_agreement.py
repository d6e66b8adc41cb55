"""Do a review's listed costs hold? Each cost `bots.review.review` lists, measured again on its own:
48 fresh paired samples of the hint's action and the player's at that position (`paired.compare`,
another stream than the review's), on whole games where seat 0 plays greedy's choice but, one
decision in four, a random one (a player who errs now and then) against greedy seats.

    PYTHONPATH=src python bench/review_agreement.py [games] [first seed]

An item agrees when the two measures differ by less than Z times their joint standard error
(sqrt(e1^2 + e2^2): two noisy measures of one cost); the stricter count has the re-measure inside
the listed cost's own interval (cost ± Z e1). Printed: both counts, the listed and re-measured
costs (median), the review's CPU and the load average.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time

from judges.bots import make_bot
from judges.bots.paired import Z, compare
from judges.bots.review import decisions_of, review
from judges.engine import action_from_dict
from judges.verify import new_game

RESEED = 0xA6EE  # the re-measures' samples: another stream than the review's
ERRING = 0.25  # seat 0 plays a random action this often


def play(seed: int, players: int) -> list:
    game = new_game({"players": players, "seed": seed})
    greedy = {s: make_bot("greedy", seed * 10 + s) for s in range(players)}
    wild = make_bot("random", seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        bot = wild if seat == 0 and rng.random() < ERRING else greedy[seat]
        game.apply(bot.choose(seat, legal, lambda seat=seat: game.view(seat)))
    return list(game.log)


def main(games: int = 20, first_seed: int = 920_000) -> None:
    items = agree = strict = 0
    listed, again_costs, cpu = [], [], []
    for g in range(games):
        seed, players = first_seed + g, 3 + g % 2
        options = {"players": players, "seed": seed}
        log = play(seed, players)
        t = time.thread_time()
        found = review(new_game(options), log, 0, seed)
        cpu.append(time.thread_time() - t)
        at = {d.seq: d for d in decisions_of(new_game(options), log, 0)}
        for item in found:
            d = at[item.seq]
            best, played = action_from_dict(item.best), action_from_dict(item.played)
            again = compare(0, d.view, [best, played], seed + item.seq + RESEED, min_samples=48, max_samples=48)
            gap = again.best.mean - again.measures[1].mean
            if again.best.action != best:
                gap = -gap
            cost, error = 100 * gap, 100 * again.measures[1].error
            items += 1
            agree += abs(cost - item.cost) < Z * math.hypot(error, item.error)
            strict += abs(cost - item.cost) < Z * item.error
            listed.append(item.cost)
            again_costs.append(cost)
            print(f"game {g} seq {item.seq}: listed {item.cost} ± {item.error}, re-measured {cost:.1f} ± {error:.1f}")
        print(f"game {g}: review CPU {cpu[-1]:.1f} s", flush=True)
    print(f"{games} games (3 and 4 players, seeds {first_seed}+); load average {os.getloadavg()}")
    if items:
        print(
            f"  {items} items listed; within the joint noise {agree} ({100 * agree / items:.1f} %); "
            f"inside the listed interval {strict} ({100 * strict / items:.1f} %)"
        )
        middle = statistics.median(listed), statistics.median(again_costs)
        print(f"  cost, median: listed {middle[0]:.1f}, re-measured {middle[1]:.1f}")
    print(f"  review CPU s: median {statistics.median(cpu):.1f}, longest {max(cpu):.1f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
