"""A player's view: everything that player may see, nothing more.

Hidden: other players' hands (only their size shows), the deck's order (only its size),
the dice's state and the game's seed (which would rebuild both), and other players'
ballots while an election is open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from .board import turn_order
from .state import PHASES

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


def player_view(game: "Game", seat: int, notifications: bool = True) -> dict:
    """The seat's view. `notifications=False` leaves out the bell (bots do not read it)."""
    state = game.state
    data = msgspec.to_builtins(state)
    del data["rng"]
    # The seed would let a player rebuild the deck order and every hand: it stays secret.
    del data["options"]["seed"]
    data["deck"] = {"size": len(state.deck)}
    for p in data["players"]:
        if p["seat"] != seat:
            p["hand"] = {"size": len(state.players[p["seat"]].hand)}
    data["votes"] = {str(k): v for k, v in state.votes.items() if k == seat}
    return {
        "seat": seat,
        "round": state.round,
        "phase": state.phase,
        "phase_name": PHASES[state.phase - 1],
        "turn_order": turn_order(state),
        "waiting_for": game.waiting_for(),
        "pending": [msgspec.to_builtins(d) for d in state.pending],
        "my_decisions": [msgspec.to_builtins(d) for d in state.pending if d.player == seat],
        "state": data,
        "notifications": [msgspec.to_builtins(n) for n in game.notifications if seat in n.to]
        if notifications else [],
    }
