"""The headless game loop of Republic of Rome: bots answer every decision owed until the
game ends; `simulate` summarises many such games (`judges simulate --game rome`)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .bots.random_bot import RandomRomeBot
from .engine.game import RomeGame
from .engine.state import ENDINGS, RomeOptions

MAX_ACTIONS = 200_000


def play_random(options: RomeOptions, bot_seed: int = 0, max_actions: int = MAX_ACTIONS) -> RomeGame:
    bots: Sequence[RandomRomeBot] = [RandomRomeBot(bot_seed * 7919 + seat) for seat in range(options.players)]
    game = RomeGame.new(options)
    for _ in range(max_actions):
        if game.over:
            return game
        seat = game.state.pending[0].player
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    raise RuntimeError(f"no end after {max_actions} actions")


def simulate(players: int, games: int, seed: int) -> dict[str, Any]:
    """`judges simulate --game rome`: random-bot games from `seed` on, summarised: how the games
    ended (Rome's falls and the era's end), wins by seat, turns and actions per game."""
    endings: Counter[str] = Counter()
    wins: Counter[int] = Counter()
    turns, actions = [], []
    for i in range(games):
        game = play_random(RomeOptions(players=players, seed=seed + i), bot_seed=seed + i)
        assert game.state.result is not None
        endings[game.state.result.ending] += 1
        wins.update(game.state.result.winners)
        turns.append(game.state.turn)
        actions.append(len(game.log))
    return {
        "games": games,
        "endings": {e: endings.get(e, 0) for e in ENDINGS},
        "wins_by_seat": {str(seat): wins[seat] for seat in sorted(wins)},
        "turns": {"median": statistics.median(turns), "min": min(turns), "max": max(turns)},
        "actions_per_game": round(sum(actions) / games, 1),
    }
