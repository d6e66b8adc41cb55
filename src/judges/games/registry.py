"""The games of the project, by name: `judges simulate --game NAME`, `judges lab --game NAME`, and
the server's `POST /api/games {"game": NAME}` (`SERVED`)."""

from __future__ import annotations

from typing import Any

from .judges_game import JUDGES, JUDGES_SERVED
from .protocol import GameDef
from .rome_game import ROME, ROME_SERVED
from .served import ServedGame

GAMES: dict[str, GameDef[Any, Any]] = {"judges": JUDGES, "rome": ROME}
#: the same games as the server hosts them (games/served.py)
SERVED: dict[str, ServedGame] = {"judges": JUDGES_SERVED, "rome": ROME_SERVED}


def game_def(name: str) -> GameDef[Any, Any]:
    """The registry's game `name` (ValueError naming the games otherwise)."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(sorted(GAMES))}") from None
