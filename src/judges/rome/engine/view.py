"""What one faction may see (VG 1.04.9, 1.06.31): everything public, its own hand and faction
treasury; of the others only how many cards they hold; of the deck only its size; never the
dice's seed or state."""

from __future__ import annotations

from typing import Any

import msgspec

from .state import RomeState

HIDDEN = None


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
    return data
