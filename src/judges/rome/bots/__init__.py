"""Republic of Rome's bots, by name (`judges simulate --game rome --bot NAME`): each answers
`choose(seat, legal, view)` as every bot of the game protocol does (games/protocol.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .neutral import NeutralRomeBot
from .random_bot import RandomRomeBot


class RandomSeatBot:
    """The random bot behind the protocol's signature: uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.bot = RandomRomeBot(seed)

    def choose(self, seat: int, legal: list[Any], view: Callable[[], Any]) -> Any:
        return self.bot.choose(legal)


class NeutralSeatBot:
    """The neutral bot (VG's solitaire Neutral guidelines, docs/rome/bots.md) behind the
    protocol's signature: it reads the seat's view."""

    name = "neutral"

    def __init__(self, seed: int) -> None:
        self.bot = NeutralRomeBot(seed)

    def choose(self, seat: int, legal: list[Any], view: Callable[[], Any]) -> Any:
        return self.bot.choose(legal, view())


def _mcts(seed: int, **settings: Any) -> Any:
    """The protocol's MCTS (bots/mcts_protocol.py) searching Rome, horizon in turns: the neutral
    bot is its baseline (its choice from the seat's view is searched first, and kept unless
    another does better) and its rollout policy (every seat of a sample played by it)."""
    from ...bots.mcts_protocol import ProtocolMCTSBot
    from ...games.rome_game import ROME

    neutral = NeutralRomeBot(seed)

    def baseline(seat: int, legal: list[Any], view: Callable[[], Any]) -> Any:
        return neutral.choose(legal, view())

    def rollout(game: Any, seat: int, legal: list[Any]) -> Any:
        return neutral.choose_in(legal, game.game.state)

    return ProtocolMCTSBot(ROME, seed, baseline=baseline, rollout=rollout, **{"width": 3, **settings})


BOTS: dict[str, Callable[..., Any]] = {"random": RandomSeatBot, "neutral": NeutralSeatBot, "mcts": _mcts}
