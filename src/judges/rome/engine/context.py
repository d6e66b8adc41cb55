"""Ctx: what every rule function of the Rome engine is handed: the state, the scenario's
cards and tables, the dice and the rules, and the report it writes lines to."""

from __future__ import annotations

from typing import Any

from ...engine.dice import Dice
from ..cards import Deck, load_deck
from .messages import MESSAGES
from .rules import RomeRules
from .state import Entry, RomeState


class Ctx:
    __slots__ = ("state", "deck", "dice", "trusted")

    def __init__(self, state: RomeState, dice: Dice, deck: Deck | None = None) -> None:
        self.state = state
        self.deck = deck if deck is not None else load_deck(state.options.rules.deck)
        self.dice = dice
        self.trusted = False

    @property
    def rules(self) -> RomeRules:
        return self.state.options.rules

    def report(self, key: str, **params: Any) -> None:
        """One report line; its key must be declared with exactly these parameters."""
        declared = MESSAGES.get(key)
        if declared is None or set(declared) != set(params):
            raise KeyError(f"report {key!r} with {sorted(params)}: not as declared in rome.engine.messages")
        self.state.report.append(Entry(key, params))

    def roll(self, n: int = 1) -> list[int]:
        """`n` six-sided dice, each die kept (the report and tests read single dice)."""
        return [self.dice.roll(6) for _ in range(n)]
