"""Playing whole games headless: the loop every bot match, simulation and lab run uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, bot_seed, make_bot
from .engine import Game, Options
from .engine.board import sustaining_regions
from .engine.rules import DEFAULT_RULES, Rules


@dataclass
class GameRecord:
    seed: int
    ending: str
    winners: list[int]
    rounds: int
    judgments: int
    razed_by_invaders: int
    razed_by_plunder: int
    actions: int
    regions_sustaining: int = 0
    bots: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "ending": self.ending,
            "winners": self.winners,
            "rounds": self.rounds,
            "judgments": self.judgments,
            "razed_by_invaders": self.razed_by_invaders,
            "razed_by_plunder": self.razed_by_plunder,
            "actions": self.actions,
            "regions_sustaining": self.regions_sustaining,
            "bots": self.bots,
        }


def play_game(options: Options, bots: list[Bot], max_actions: int = 1_000_000) -> Game:
    """Plays until the game ends, through the game protocol's headless loop (games/protocol.py):
    decisions owed at the same time are taken in seat order; no copy is kept for an Undo (bots
    never take back)."""
    from .games.judges_game import from_options
    from .games.protocol import play_to_end

    game = from_options(options)
    play_to_end(game, bots, max_actions)
    return game.game


def simulate_one(
    seed: int,
    players: int,
    bot_names: list[str],
    wave_pairs: int = 1,
    round_limit: int | None = DEFAULT_RULES.simulation_round_limit,
    rules: Rules = DEFAULT_RULES,
) -> GameRecord:
    options = Options(players=players, seed=seed, wave_pairs=wave_pairs, round_limit=round_limit, rules=rules)
    bots = [make_bot(bot_names[seat % len(bot_names)], bot_seed(seed, seat)) for seat in range(players)]
    game = play_game(options, bots)
    s = game.state
    return GameRecord(
        seed=seed,
        ending=s.ending or "",
        winners=list(s.winners),
        rounds=s.round,
        judgments=s.judgments,
        razed_by_invaders=s.razed_by_invaders,
        razed_by_plunder=s.razed_by_plunder,
        actions=len(game.log),
        regions_sustaining=sustaining_regions(s, game.world, s.options.rules.settlements_to_sustain_judge),
        bots=[b.name for b in bots],
    )
