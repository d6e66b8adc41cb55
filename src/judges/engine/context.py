"""What every rule function receives: the state (whose options carry the rules), the static
world, the dice, and the outbox of notifications."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..world import World
from .dice import Dice
from .rules import Rules
from .state import PHASES, Decision, Entry, GameState, Notification

T = TypeVar("T")


class Ctx:
    __slots__ = ("state", "world", "dice", "outbox", "trusted", "turn_key", "turn_build", "turn_facts")

    def __init__(self, state: GameState, world: World, dice: Dice) -> None:
        self.state = state
        self.world = world
        self.dice = dice
        self.outbox: list[Notification] = []  # notifications emitted since the game last took them
        # True while a handler applies an action taken from the list of legal actions just
        # enumerated (Game.apply_legal): it may skip checks the enumeration already made.
        self.trusted = False
        # Facts that stay fixed during one seat's turn (movement.TurnFacts, the Acquisitions
        # control map), kept while `turn_key`, the turn decision they were built for, is owed.
        self.turn_key: Decision | None = None
        self.turn_build: object = None
        self.turn_facts: Any = None

    def forget(self) -> None:
        """Drops what is cached about the position: needed only after the state was edited by
        hand (a scenario, a test), never after actions and automatic steps."""
        self.turn_key = None
        self.turn_build = None
        self.turn_facts = None

    def turn_cached(self, seat: int, build: Callable[[Ctx, int], T]) -> T:
        """`build(ctx, seat)`, built once per turn of `seat`: the turn decision it owes is the
        key (a new object each turn). Outside the seat's turn, built afresh each time."""
        for decision in self.state.pending:
            if decision.player == seat and decision.kind == "turn":
                if self.turn_key is not decision or self.turn_build is not build:
                    self.turn_facts = build(self, seat)
                    self.turn_key, self.turn_build = decision, build
                return cast(T, self.turn_facts)
        return build(self, seat)

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


#: A turn phase's handler of one action type: validates fully, then changes the game.
TurnHandler = Callable[[Ctx, Any], None]
