"""What a table's writer (server/table/actor.py) tells the rest of the process, as typed events, and
the bus that carries them to their listeners (registered once, by server/table/service.py):

- `Committed`: an action was stored (in the game's lock, right after the store took it);
- `SeatChanged`: a seat's stored record changed so that the views show it;
- `ChatPosted`: a message was stored in the table talk;
- `Stale`: the copy may hold what the store does not (a commit failed): it waits for a reload;
- `Settled`: a change is complete (out of the lock): the views are pushed to the sockets and
  the bots woken.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .tables import LiveGame


@dataclass(frozen=True, eq=False)
class Committed:
    live: LiveGame
    player: int
    action: dict[str, Any]
    client_action_id: str | None  # as stored ("seat:id")


@dataclass(frozen=True, eq=False)
class SeatChanged:
    live: LiveGame


@dataclass(frozen=True, eq=False)
class ChatPosted:
    live: LiveGame


@dataclass(frozen=True, eq=False)
class Stale:
    live: LiveGame


@dataclass(frozen=True, eq=False)
class Settled:
    live: LiveGame
    full: bool = False  # every socket gets a full view (the copy was replaced)
    wake: bool = True  # the bots are woken (a bot's own move does not wake its runner)


Event = Committed | SeatChanged | ChatPosted | Stale


class Events:
    """The process's event bus: synchronous listeners per event type, called in their order of
    registration; `settle` awaits the listeners of `Settled`."""

    def __init__(self) -> None:
        self._listeners: dict[type, list[Callable[[Any], None]]] = defaultdict(list)
        self._settled: list[Callable[[Settled], Awaitable[None]]] = []

    def on(self, kind: type, listener: Callable[[Any], None]) -> None:
        self._listeners[kind].append(listener)

    def on_settled(self, listener: Callable[[Settled], Awaitable[None]]) -> None:
        self._settled.append(listener)

    def emit(self, event: Event) -> None:
        for listener in self._listeners[type(event)]:
            listener(event)

    async def settle(self, live: LiveGame, full: bool = False, wake: bool = True) -> None:
        event = Settled(live, full, wake)
        for listener in self._settled:
            await listener(event)
