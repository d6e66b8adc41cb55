"""§ 6 The intrigue cards: one table.

For each card: whether it is an event (played into the Events Area, landing on a terrain at
the next Announcements), what its play names (`target`), the action that plays it, and the
icon the screen shows. How many copies the deck holds is a number of the game's rules
(`Rules.deck`), read through `copies(rules, card)`. The Intrigue checks, the Events Area,
scenario files, the manual and the screen derive from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Action, PlayAnointing, PlayAssassin, PlayEvent, PlayProphet, PlayRevolt, PlayTax

if TYPE_CHECKING:
    from .rules import Rules

#: What a card's play names: a region, a general, a settlement, or nothing (an event).
TARGETS = ("region", "general", "settlement", "none")


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    event: bool  # goes to the Events Area and lands on a terrain (§ 5.5)
    target: str  # one of TARGETS
    action: type[Action]  # the action that plays it
    icon: str  # a symbol of web/static/icons.svg


CARDS: dict[str, Card] = {
    card.name: card
    for card in (
        Card("tax", event=False, target="region", action=PlayTax, icon="tax"),
        Card("plague", event=True, target="none", action=PlayEvent, icon="plague"),
        Card("abundance", event=True, target="none", action=PlayEvent, icon="abundance"),
        Card("famine", event=True, target="none", action=PlayEvent, icon="famine"),
        Card("sandstorm", event=True, target="none", action=PlayEvent, icon="sandstorm"),
        Card("assassin", event=False, target="general", action=PlayAssassin, icon="assassin"),
        Card("revolt", event=False, target="settlement", action=PlayRevolt, icon="revolt"),
        Card("prophet", event=False, target="general", action=PlayProphet, icon="prophet"),
        Card("anointing", event=False, target="general", action=PlayAnointing, icon="anointed"),
    )
}
#: The event cards, in the table's order (the order a turn's legal plays list them).
EVENT_CARDS: tuple[str, ...] = tuple(c.name for c in CARDS.values() if c.event)


def is_event(card: str) -> bool:
    entry = CARDS.get(card)
    return entry is not None and entry.event


def copies(rules: Rules, card: str) -> int:
    """How many copies of the card the deck holds under the given rules (a game's own)."""
    return rules.deck.get(card, 0)
