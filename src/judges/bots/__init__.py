"""Bots: players that choose among the legal actions of their seat.

A bot sees only its player's view (`Game.view(seat)`), never the full state."""

from collections.abc import Callable, Mapping
from typing import Any

from .base import Bot
from .greedy import GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot

#: name -> the bot's class, called with a seed and the spec's settings (`parse_bot_spec`)
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


# The numbers of an MCTS spec, in order, and the largest of each anywhere (the lab included; the
# web server allows much less: server/table/tables.py MAX_MCTS_BUDGET). A search's work grows with
# each of them, so none may be unbounded.
SPEC_NUMBERS = ("iterations", "horizon", "early_samples")
SPEC_MAXIMA = {"iterations": 100_000, "horizon": 20, "early_samples": 1_000}


def parse_bot_spec(spec: str, bots: Mapping[str, Any] | None = None) -> tuple[str, dict[str, int]]:
    """A spec of one of `bots` (a game's registry; default: Judges & Kings' `BOTS`):
    "name" or "name:N" (MCTS: N rollouts a decision) or "name:N:H" (MCTS: N rollouts,
    rollout horizon H rounds) or "name:N:H:S" (MCTS: and S samples a candidate before the search
    may stop early). Raises ValueError for an unknown bot or a malformed spec."""
    registry = BOTS if bots is None else bots
    name, _, rest = spec.strip().partition(":")
    if name not in registry:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(registry))}")
    if not rest:
        return name, {}
    if name != "mcts":
        raise ValueError(f"bot {name!r} takes no settings (got {spec!r})")
    parts = rest.split(":")
    if len(parts) > 3 or not all(p.isdigit() and len(p) <= 9 and int(p) > 0 for p in parts):
        raise ValueError(
            f"bot spec {spec[:40]!r}: expected mcts:ROLLOUTS, mcts:ROLLOUTS:HORIZON_ROUNDS"
            " or mcts:ROLLOUTS:HORIZON_ROUNDS:EARLY_SAMPLES"
        )
    kwargs = dict(zip(SPEC_NUMBERS, map(int, parts)))
    for setting, value in kwargs.items():
        if value > SPEC_MAXIMA[setting]:
            raise ValueError(f"bot spec {spec!r}: {setting} may be at most {SPEC_MAXIMA[setting]}, not {value}")
    return name, kwargs


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot playing `seat` in the game seeded `game_seed` (simulations, the lab
    and the server all seat their bots with it, so a game replays with the same bots)."""
    return game_seed * 100 + seat


def make_bot(spec: str, seed: int, cpu_budget: float | None = None) -> Bot:
    """A bot from its name or spec ("greedy", "mcts", "mcts:400", "mcts:64:2", "mcts:16:2:1").
    `cpu_budget`: seconds of CPU a search bot may spend on one decision (the web server's
    bound; None, as in simulations and the lab: the spec's whole budget, deterministically)."""
    name, kwargs = parse_bot_spec(spec)
    settings: dict[str, int | float] = dict(kwargs)
    if cpu_budget is not None and name == "mcts":
        settings["cpu_budget"] = cpu_budget
    return BOTS[name](seed, **settings)


__all__ = [
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "BOTS",
    "SPEC_MAXIMA",
    "bot_seed",
    "make_bot",
    "parse_bot_spec",
]
