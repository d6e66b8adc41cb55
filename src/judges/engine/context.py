"""What every rule function receives: the state (whose options carry the rules), the static
world, the dice, and the outbox of notifications."""

from __future__ import annotations

from typing import Any

from ..world import World
from .dice import Dice
from .rules import Rules
from .state import PHASES, Entry, GameState, Notification


class Ctx:
    __slots__ = ("state", "world", "dice", "outbox")

    def __init__(self, state: GameState, world: World, dice: Dice) -> None:
        self.state = state
        self.world = world
        self.dice = dice
        self.outbox: list[Notification] = []  # notifications emitted since the game last took them

    @property
    def rules(self) -> Rules:
        """The rules of this game (its options'): every rule function reads these."""
        return self.state.options.rules

    def report(self, key: str, **params: Any) -> None:
        """A line of the report of the phase being resolved."""
        self.state.report.append(Entry(key=key, params=params))

    def log_round(self, key: str, **params: Any) -> None:
        """A line for this round's Round report (executions, taxes, revolts, battles)."""
        self.state.round_log.append(Entry(key=key, params=params))

    def notify(
        self, key: str, to: list[int], params: dict[str, Any] | None = None, entries: list[Entry] | None = None
    ) -> None:
        s = self.state
        self.outbox.append(
            Notification(
                id=s.next_notification_id,
                round=s.round,
                phase=PHASES[s.phase - 1],
                key=key,
                to=list(to),
                params=params or {},
                entries=list(entries or ()),
            )
        )
        s.next_notification_id += 1

    def roll(self, sides: int = 6) -> int:
        return self.dice.roll(sides)
