"""What the lab keeps of one finished game: computed from the final `Game` (state + notifications)."""

from __future__ import annotations

import msgspec

from ..engine import Game
from ..engine.board import controlled_settlements, sustaining_regions
from ..engine.items import ITEM_NAMES
from ..engine.victory import score

ITEMS = ITEM_NAMES  # the items table's order: the report lists coins spent by item in it


def judgment_rounds(game: Game) -> list[int]:
    """The rounds whose Announcements declared a judgment (from the notifications)."""
    return [n.round for n in game.notifications if n.key == "notification.announcements" and n.params.get("judgment")]


def game_record(game: Game, *, variant: str, index: int, seed: int, bots: list[str], seconds: float = 0.0) -> dict:
    """One row of games.csv / one game of summary.json. Victory points are measured at the end
    of the game, for every seat, by source (judge titles, King, Tabernacle)."""
    state, world = game.state, game.world
    points = [score(state, world, seat) for seat in range(len(state.players))]
    rounds_judged = judgment_rounds(game)
    return {
        "variant": variant,
        "game": index,
        "seed": seed,
        "bots": list(bots),
        "ending": state.ending or "",
        "winners": list(state.winners),
        "rounds": state.round,
        "judgments": state.judgments,
        "judgment_rounds": rounds_judged,
        "first_judgment_round": rounds_judged[0] if rounds_judged else None,
        "razed_by_invaders": state.razed_by_invaders,
        "razed_by_plunder": state.razed_by_plunder,
        "battles": state.battles,
        "actions": len(game.log),
        "regions_sustaining": sustaining_regions(state, world, state.options.rules.settlements_to_sustain_judge),
        "wrath": state.wrath,
        "points": [{k: p[k] for k in ("judges", "king", "tabernacle", "total")} for p in points],
        "settlements": [len(controlled_settlements(state, world, seat)) for seat in range(len(state.players))],
        "coins": [p.coins for p in state.players],
        "eliminated": [p.eliminated for p in state.players],
        "spent": {item: state.spent.get(item, 0) for item in sorted(set(ITEMS) | set(state.spent))},
        "seconds": round(seconds, 3),
        # the whole options, rules included: the game replays from these and the bots (replay_record)
        "options": msgspec.to_builtins(state.options),
    }
