from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..engine import Action
from ..engine.view import PlayerView


class Bot(Protocol):
    name: str

    def choose(self, seat: int, legal: list[Action], view: Callable[[], PlayerView]) -> Action:
        """Picks one of `legal`. `view()` returns the seat's view (built only if asked for)."""
