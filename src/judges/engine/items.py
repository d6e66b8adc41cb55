"""§ 8 What Acquisitions sells: one table of the items.

For each item: where it goes when bought (`target`), the Wrath it registers, and the icon the
screen shows. Its price is a number of the game's rules (`Rules.costs`), read through
`cost(rules, item)` (the one place an item's price is read). Legality (`acquisitions.refusal`,
`legal_buys`), the lab's coins spent by item, the manual's price list, the validation of a
`Rules` value and the screen's labels derive from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rules

#: What an item names when bought: a settlement (its garrison or the settlement itself), one
#: of the buyer's free generals (his army), either of them, or nothing (the buyer's hand).
TARGETS = ("settlement", "general", "either", "none")


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    target: str  # one of TARGETS
    icon: str  # a symbol of web/static/icons.svg
    wrath: str | None = None  # the rule (a `Rules` field) giving the Wrath each one registers
    besieged_forbids: bool = False  # a besieged settlement cannot receive it
    draws: bool = False  # bought from the hidden deck: its purchase reveals a card (never taken back)


ITEMS: dict[str, Item] = {
    item.name: item
    for item in (
        Item("troop", target="either", icon="troop"),
        Item("mercenary", target="general", icon="mercenary", wrath="wrath_mercenary"),
        Item("development", target="settlement", icon="development", besieged_forbids=True),
        Item("wall", target="settlement", icon="wall", besieged_forbids=True),
        Item("general", target="settlement", icon="general"),
        Item("card", target="none", icon="card", draws=True),
    )
}
ITEM_NAMES: tuple[str, ...] = tuple(ITEMS)


def rules(rules: Rules | None = None) -> Rules:
    """The rules items are priced with: the game's (`ctx.rules`, `state.options.rules`), or
    the default rules when none is given."""
    if rules is not None:
        return rules
    from .rules import DEFAULT_RULES  # rules.py validates prices against this table: imported late

    return DEFAULT_RULES


def cost(rules: Rules, item: str) -> int:
    """An item's price in coins, under the given rules (a game's own)."""
    return rules.costs[item]


def wrath(rules: Rules, item: str) -> int:
    """The Wrath one purchase of the item registers under the given rules (0 for most)."""
    name = ITEMS[item].wrath
    return getattr(rules, name) if name else 0


def cheapest(rules: Rules) -> int:
    return min(cost(rules, item) for item in ITEMS)
