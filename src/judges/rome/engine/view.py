"""What one faction may see (VG 1.04.9, 1.06.31): everything public, its own hand and faction
treasury; of the others only how many cards they hold; of the deck only its size; never the
dice's seed or state. Of a choice the factions make at once and in secret (a ballot, spoils,
grain, a sponsor's consent, discards: decisions.py's `held`), its own until every faction has
chosen; of the others' only that they chose ("voted", ANSWERED)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from .state import Faction, RomeState

HIDDEN = None
#: another faction's secret choice, made but not yet revealed (a ballot shows "voted")
ANSWERED = "answered"


@lru_cache(maxsize=1)
def held_paths() -> tuple[tuple[str, ...], ...]:
    """Where the secret choices made at once wait in the scratch (decisions.py's `held`)."""
    from .decisions import KINDS

    return tuple(k.held for k in KINDS.values() if k.held)


def held_answers(scratch: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any] | None:
    """The answers waiting at `path` (by seat, as a string), None when there are none."""
    node: Any = scratch
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def player_view(state: RomeState, seat: int | None) -> dict[str, Any]:
    """The state as `seat` may see it (None: a spectator, who sees no hand and no treasury)."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["rng"] = 0
    data["options"]["seed"] = 0
    data["options"]["key"] = None
    data["deck"] = len(state.deck)
    for f in data["factions"]:
        if f["seat"] != seat:
            f["hand"] = len(f["hand"])
            f["treasury"] = HIDDEN
    sitting = data["scratch"].get("senate")
    # a vote is secret until the tally: the others' ballots show only that they voted (also
    # those of a proposal waiting for a special trial)
    for holder in (sitting, (sitting or {}).get("suspended")):
        if holder and holder.get("ballots") and "veto" not in holder["ballots"]:
            holder["ballots"] = {k: (v if k == str(seat) else "voted") for k, v in holder["ballots"].items()}
    for path in held_paths():
        answers = held_answers(data["scratch"], path)
        if answers:
            for k in answers:
                if k != str(seat):
                    answers[k] = ANSWERED
    return data


# --- the view's types: RomeState's, with what a faction cannot see replaced ------------------
# The view is built from the state's builtins (above); these types describe it for the server's
# schema and the screen's types, and `msgspec.convert(view, RomeView)` checks a view against them.


class FactionView(Faction, kw_only=True):
    """A faction as a seat sees it: its own hand (the card ids) and treasury; of another's, the
    number of cards held and no treasury (HIDDEN)."""

    hand: list[str] | int = 0  # type: ignore[assignment]  # a count for another's hand
    treasury: int | None = HIDDEN  # type: ignore[assignment]  # hidden for another's


class RomeView(RomeState, kw_only=True):
    """What one faction (or a spectator) sees of the state: the deck only as its size, the dice's
    state and seed zeroed, the secret ballots of the others as "voted" and their other secret
    choices as "answered" (in `scratch`)."""

    factions: list[FactionView] = msgspec.field(default_factory=list)  # type: ignore[assignment]
    deck: int = 0  # type: ignore[assignment]  # the number of cards left, never their order
