"""Engine throughput on one core (CPU time): random-bot games, actions per second, replay time.

Which path each figure times: the games are played through the game protocol's headless loop
(`judges.play.play_game`: `undoable=False`, no copy kept for an Undo, every action through the
trusted `apply_legal`, the path of bots, the lab and search); the replay goes through
`Game.replay` (`undoable=True` and every action validated by `apply`: the server's path when
it loads a game from its log).

Run: .venv/bin/python bench/engine_speed.py [--games N] [--save-reference FILE]
The figures are compared with the stored ones (bench/reference.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from judges.bots import RandomBot
from judges.engine import DEFAULT_RULES, Game, Options, action_to_dict
from judges.play import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--save-reference", type=Path, help="store this run's figures there (bench/reference.py)")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    actions = 0
    start = time.process_time()
    longest = None
    for seed in range(args.games):
        options = Options(players=args.players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit)
        game = play_game(options, [RandomBot(seed * 100 + s) for s in range(args.players)])
        actions += len(game.log)
        if longest is None or len(game.log) > len(longest.log):
            longest = game
    elapsed = time.process_time() - start
    figures = {"games/s": args.games / elapsed, "actions/s": actions / elapsed}
    print(
        f"{args.games} games of {args.players} random bots (undoable=False, apply_legal) in {elapsed:.2f} s: "
        f"{args.games / elapsed:.1f} games/s, {actions / elapsed:,.0f} actions/s "
        f"({actions / args.games:.0f} actions per game)"
    )
    log = [action_to_dict(a) for a in longest.log]
    start = time.process_time()
    Game.replay(longest.state.options, log)
    elapsed = time.process_time() - start
    print(
        f"replay of a {len(log)}-action log (undoable=True, apply): {elapsed * 1000:.1f} ms "
        f"({len(log) / elapsed:,.0f} actions applied per second, {1000 * elapsed / len(log) * 1000:.1f} ms "
        f"per 1,000 actions)"
    )
    figures["replay actions/s"] = len(log) / elapsed
    reference.compare("engine_speed", figures)
    if args.save_reference:
        reference.save(args.save_reference, "engine_speed", figures, load_before)


if __name__ == "__main__":
    main()
