"""How well the MCTS bot's leaf evaluation — a softmax of `engine.search.material` at a
temperature — predicts who wins, measured where its rollouts stop.

Greedy games (the rollout policy) are sampled as each round's announcements end — the point
where a rollout of the default horizon is scored — and each temperature's softmax is scored by
its log loss against the games' winners (lower is better; "equal" is log(players), the loss of
giving every seat the same chance). The learned value model (bots/value.py) is shown beside it.

    PYTHONPATH=src .venv/bin/python bench/material_temperature.py --games 300 --players 2,4 --seed 20000

docs/bots.md ("A calibrated leaf evaluation") has the figures that set the bot's temperature.
"""

from __future__ import annotations

import argparse
import math
import time

from judges.bots.value import default_model, horizon_samples, softmax_log_loss
from judges.engine import Game, Options


def value_model_log_loss(seed: int, games: int, players: int) -> float:
    """The shipped value model's log loss at the same positions (replayed: it needs the state)."""
    from judges.bots import GreedyBot, bot_seed

    model = default_model()
    total, count = 0.0, 0
    for g in range(games):
        game = Game.new(Options(players=players, seed=seed + g, round_limit=60))
        bots = [GreedyBot(bot_seed(seed + g, s)) for s in range(players)]
        state, world = game.state, game.world
        chances = []
        announcing = state.phase == 1
        while not game.is_over:
            if announcing and state.phase != 1:
                chances.append(model.win_chances(state, world))
            announcing = state.phase == 1
            seat = game.waiting_for()[0]
            game.apply(bots[seat].choose_in_state(seat, list(game.legal_actions(seat)), state, world))
        if not state.winners:
            continue
        share = 1.0 / len(state.winners)
        for p in chances:
            total -= sum(share * math.log(max(p[w], 1e-12)) for w in state.winners)
            count += 1
    return total / max(1, count)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--temperatures", default="2,4,6,8,10,12,16,20")
    args = parser.parse_args()
    temps = [float(t) for t in args.temperatures.split(",")]
    start = time.process_time()
    for n in (int(p) for p in args.players.split(",")):
        samples = []
        for g in range(args.games):
            samples.extend(horizon_samples(args.seed + g, n))
        losses = {t: softmax_log_loss(samples, t) for t in temps}
        best = min(losses, key=losses.__getitem__)
        print(f"{n} players: {len(samples)} positions from {args.games} greedy games (seeds {args.seed}+)")
        print(f"  equal chances      {math.log(n):.3f}")
        print(f"  value model        {value_model_log_loss(args.seed, args.games, n):.3f}")
        for t in temps:
            print(f"  material, T = {t:<4g} {losses[t]:.3f}{'   <- best' if t == best else ''}")
    print(f"CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
