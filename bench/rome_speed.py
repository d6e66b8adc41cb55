"""Republic of Rome's engine beside Judges & Kings': random-bot games, actions per CPU second,
measured side by side in one run (games of the two interleaved, CPU time, one core).

Run: .venv/bin/python bench/rome_speed.py [--games N] [--players P]
Rome's games go through `apply` (every action validated); J&K's through its trusted
`apply_legal` (its fastest path) and through `apply`, so the ratio is read like for like.
"""

from __future__ import annotations

import argparse
import os
import time

from judges.bots import RandomBot
from judges.engine import DEFAULT_RULES, Game, Options
from judges.rome.bots.random_bot import RandomRomeBot
from judges.rome.engine.game import RomeGame
from judges.rome.engine.state import RomeOptions


def rome_game(players: int, seed: int) -> int:
    game = RomeGame.new(RomeOptions(players=players, seed=seed))
    bots = [RandomRomeBot(seed * 100 + s) for s in range(players)]
    while not game.over:
        seat = game.state.pending[0].player
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    return len(game.log)


def judges_game(players: int, seed: int, trusted: bool) -> int:
    options = Options(players=players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit)
    game = Game.new(options, undoable=False)
    bots = [RandomBot(seed * 100 + s) for s in range(players)]
    while not game.is_over:
        seat = game.waiting_for()[0]
        action = bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: game.view(seat, notifications=False))
        if trusted:
            game.apply_legal(action)
        else:
            game.apply(action)
    return len(game.log)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    totals = {"rome (apply)": [0, 0.0], "judges (apply)": [0, 0.0], "judges (apply_legal)": [0, 0.0]}
    for seed in range(args.games):
        for name in totals:
            start = time.process_time()
            if name.startswith("rome"):
                n = rome_game(args.players, seed)
            else:
                n = judges_game(args.players, seed, trusted=name.endswith("legal)"))
            totals[name][0] += n
            totals[name][1] += time.process_time() - start
    print(f"{args.games} random games each, {args.players} players, load average {load:.1f} at the start")
    base = totals["judges (apply)"][0] / totals["judges (apply)"][1]
    for name, (actions, cpu) in totals.items():
        rate = actions / cpu
        print(f"  {name:22} {actions:8,} actions in {cpu:6.2f} s CPU: {rate:9,.0f} actions/s ({rate / base:.2f}x)")


if __name__ == "__main__":
    main()
