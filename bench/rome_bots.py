"""How Republic of Rome's games end under each Rome bot, on paired seeds: every bot plays the
same deals (the game's seed), 3 to 6 factions, through the game protocol's headless loop, and
the endings are counted.

Run: .venv/bin/python bench/rome_bots.py [--first-seed 9000] [--seeds 10] [--bots random,neutral]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from judges.games.protocol import play_to_end
from judges.games.rome_game import FALLS, ROME, new_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first-seed", type=int, default=9000)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--bots", default="random,neutral")
    args = parser.parse_args()
    for name in args.bots.split(","):
        endings: Counter[str] = Counter()
        start = time.process_time()
        games = 0
        for players in (3, 4, 5, 6):
            for seed in range(args.seeds):
                game_seed = args.first_seed + seed
                game = play_to_end(new_game(players, game_seed), ROME.seat_bots([name] * players, game_seed))
                outcome = game.outcome()
                assert outcome is not None
                endings[outcome.ending] += 1
                games += 1
        falls = sum(endings[e] for e in FALLS)
        cpu = (time.process_time() - start) / games
        ends = dict(sorted(endings.items()))
        print(f"{name}: {games} games, Rome fell {falls}; endings {ends}; {cpu:.2f} s CPU a game")


if __name__ == "__main__":
    main()
