"""What every rule function receives: the state (whose options carry the rules), the static
world, the dice, and the outbox of notifications."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..world import World
from .board import control_map
from .dice import Dice
from .interned import ActionPool, action_pool
from .rules import Rules
from .state import PHASES, Decision, Entry, GameState, Notification

T = TypeVar("T")


class Ctx:
    __slots__ = (
        "state",
        "world",
        "actions",
        "dice",
        "outbox",
        "trusted",
        "turn_key",
        "turn_build",
        "turn_facts",
        "economy_round",
        "economy_control",
    )

    def __init__(self, state: GameState, world: World, dice: Dice, actions: ActionPool | None = None) -> None:
        self.state = state
        self.world = world
        # the actions games list again and again, built once per map (shared by its games)
        self.actions = actions if actions is not None else action_pool(world)
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
        # The control map of Income and Acquisitions (phases 3 and 4) of round `economy_round`:
        # income moves coins only and no purchase changes who controls a settlement.
        self.economy_round: int | None = None
        self.economy_control: list[int | None] = []

    def forget(self) -> None:
        """Drops what is cached about the position: needed only after the state was edited by
        hand (a scenario, a test), never after actions and automatic steps."""
        self.turn_key = None
        self.turn_build = None
        self.turn_facts = None
        self.economy_round = None
        self.economy_control = []

    def turn_cached(self, seat: int, build: Callable[[Ctx, int], T]) -> T:
        """`build(ctx, seat)`, built once per turn of `seat`: the turn decision it owes is the
        key (a new object each turn). Outside the seat's turn, built afresh each time."""
        pending = self.state.pending
        if pending and pending[0] is self.turn_key and self.turn_build is build and pending[0].player == seat:
            return self.turn_facts  # type: ignore[no-any-return]  # (the usual case: that turn is owed first)
        for decision in pending:
            if decision.player == seat and decision.kind == "turn":
                if self.turn_key is decision and self.turn_build is build:
                    return self.turn_facts  # type: ignore[no-any-return]
                facts = self.turn_facts = build(self, seat)
                self.turn_key, self.turn_build = decision, build
                return facts
        return build(self, seat)

    def economy_control_map(self) -> list[int | None]:
        """`board.control_map` during Income and Acquisitions, built once for both phases of
        a round (read-only: shared by the Income and every Acquisitions turn); built afresh
        in any other phase."""
        state = self.state
        if state.phase != 3 and state.phase != 4:
            return control_map(state, self.world)
        if self.economy_round != state.round:
            self.economy_control = control_map(state, self.world)
            self.economy_round = state.round
        return self.economy_control

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
