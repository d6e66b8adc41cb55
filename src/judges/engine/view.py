"""A player's view: everything that player may see, nothing more.

Hidden: other players' hands (only their size shows), the deck's order (only its size),
the dice's state and the game's seed or dice key (which would rebuild both), and other
players' ballots while an election is open. Shown instead: the dice's commitment (the hash of
the seed, published from the start), and the seed itself once the game is over, so that any
player can check every die (`judges verify`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from .board import turn_order
from .dice import commitment, seed_text
from .state import _NO_OPTIONS, PHASES, Options

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


_OPTIONS_BUILTINS: dict[int, tuple[Options, dict]] = {}  # id(options) -> (options, their builtins)


def _options_builtins(options: Options) -> dict:
    """The options as builtins, computed once per (frozen) Options: the rules are some eighty
    numbers a view would otherwise convert at every decision. The "rules" dict is shared by
    every view of the game: read it, never change it."""
    hit = _OPTIONS_BUILTINS.get(id(options))
    if hit is None or hit[0] is not options:
        if len(_OPTIONS_BUILTINS) >= 256:
            _OPTIONS_BUILTINS.clear()
        hit = _OPTIONS_BUILTINS[id(options)] = (options, msgspec.to_builtins(options))
    return hit[1]


def player_view(game: Game, seat: int, notifications: bool = True) -> dict:
    """The seat's view. `notifications=False` leaves out the bell (bots do not read it)."""
    state = game.state
    data = msgspec.to_builtins(msgspec.structs.replace(state, options=_NO_OPTIONS))
    del data["rng"]
    # The seed (or key) would let a player rebuild the deck order and every hand: they stay secret.
    data["options"] = {k: v for k, v in _options_builtins(state.options).items() if k not in ("seed", "key")}
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
        "dice": dice_info(game),
        "notifications": [msgspec.to_builtins(n) for n in game.notifications if seat in n.to] if notifications else [],
    }


def dice_info(game: Game) -> dict:
    """The dice as every seat sees them: the generator, the commitment to its seed, and the
    seed once the game is over (None before)."""
    options = game.state.options
    return {
        "generator": options.dice,
        "commitment": commitment(options),
        "seed": seed_text(options) if game.is_over else None,
    }
