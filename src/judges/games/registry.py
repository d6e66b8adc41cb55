"""The games of the project, by name: `judges simulate --game NAME`, `judges lab --game NAME`."""

from __future__ import annotations

from typing import Any

from .judges_game import JUDGES
from .protocol import GameDef
from .rome_game import ROME

GAMES: dict[str, GameDef[Any, Any]] = {"judges": JUDGES, "rome": ROME}


def game_def(name: str) -> GameDef[Any, Any]:
    """The registry's game `name` (ValueError naming the games otherwise)."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(sorted(GAMES))}") from None
