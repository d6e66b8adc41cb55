"""The headless game loop of Republic of Rome: bots answer every decision owed until the
game ends."""

from __future__ import annotations

from collections.abc import Sequence

from .bots.random_bot import RandomRomeBot
from .engine.game import RomeGame
from .engine.state import RomeOptions

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
