"""The game service: the tables of one process, and its public face for the routes.

`GameService` builds the parts of a process and wires them through the event bus
(server/table/events.py); each part has its own module and talks to the others through public
methods only:

- the table actor (server/table/actor.py): the one writer of each game: create, load, submit
  (validated and applied by the engine, committed to the store, only then acknowledged),
  reload; it emits `Committed`, `SeatChanged`, `Stale` and `Settled`;
- the hub (server/table/hub.py): the sockets, sent a full view then deltas (server/table/views.py builds
  what a seat receives, server/table/updates.py encodes it) on `Settled`;
- the bots (server/table/bot_runner.py): bot seats and the turn timer, woken on `Settled`;
- the sync (server/table/sync.py): publishes `Committed`/`SeatChanged`/`ChatPosted` to the other
  processes (server/table/fanout.py) and follows theirs;
- the seating (server/table/seating.py): away/back, invitations, the host's revocations, consent,
  signs of life; the chat (server/community/chat.py); the watchdog (server/watchdog.py).

The database is never called on the event loop: every store call runs on the database threads
(server/table/runtime.py), and a database that fails or stalls answers 503 with Retry-After
(StoreUnavailable) instead of freezing the process.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ...settings import Settings
from ...settings import load as load_settings
from .. import logs, memory, metrics
from ..community.chat import Chat
from ..errors import RETRY_AFTER, ServiceError, StoreUnavailable
from ..limits import DEFAULT_LIMITS, Limits
from ..store import GameStore
from ..watchdog import Watchdog
from .actor import TableActor
from .bot_runner import BotRunner
from .events import ChatPosted, Committed, Events, SeatChanged, Settled, Stale
from .fanout import Fanout, make_fanout
from .hub import Hub
from .runtime import Runtime
from .seating import Seating
from .sync import Sync
from .tables import (
    MAX_MCTS_BUDGET,
    SERVER_OPTIONS,
    TAKEOVER_BOT,
    LiveGame,
    Subscriber,
    ViewGroup,
    bot_seed,
)
from .views import Views, encode_payload

__all__ = [
    "MAX_MCTS_BUDGET",
    "RETRY_AFTER",
    "SERVER_OPTIONS",
    "TAKEOVER_BOT",
    "GameService",
    "LiveGame",
    "ServiceError",
    "StoreUnavailable",
    "Subscriber",
    "ViewGroup",
    "bot_seed",
    "encode_payload",
]


class GameService:
    def __init__(
        self,
        store: GameStore,
        limits: Limits = DEFAULT_LIMITS,
        fanout: Fanout | None = None,
        settings: Settings | None = None,
    ) -> None:
        rt = self.rt = Runtime(store, limits, settings or load_settings(), fanout)
        self.views = Views(limits, rt.turn_timers)
        self.hub = Hub(rt, self.views)
        self.actor = TableActor(rt, self.hub)
        self.chat = Chat(rt, self.hub)
        self.sync = Sync(rt, self.actor, self.chat)
        self.seating = Seating(rt, self.actor)
        self.bots = BotRunner(rt, self.actor, self.seating)
        self.watchdog = Watchdog(rt, self.actor, self.sync, self.bots, self.seating, self.chat)
        self._watchdog: asyncio.Task[None] | None = None
        events = self.events
        events.on(Committed, self.sync.on_committed)
        events.on(SeatChanged, self.sync.on_changed)
        events.on(ChatPosted, self.sync.on_changed)
        events.on(Stale, self.actor.recover_soon)
        events.on_settled(self._settled)
        # called when this process commits a game's last action (server/community/ratings.py)
        self.end_listeners: list[Callable[[LiveGame], None]] = []
        events.on(Committed, self._ended)

    def _ended(self, event: Committed) -> None:
        if event.live.played.is_over:
            metrics.GAMES_FINISHED.inc()
            for listener in self.end_listeners:
                listener(event.live)

    async def _settled(self, event: Settled) -> None:
        """A change is complete: the turn timer looks, the sockets get the new views, the bots
        move (the one listener of `Settled`)."""
        self.bots.watch_timer(event.live)
        await self.hub.broadcast(event.live, event.full)
        if event.wake:
            self.bots.wake(event.live)

    # --- what the process shares (server/table/runtime.py) --------------------------------------------

    @property
    def events(self) -> Events:
        return self.rt.events

    @property
    def store(self) -> GameStore:
        return self.rt.store

    @property
    def limits(self) -> Limits:
        return self.rt.limits

    @property
    def settings(self) -> Settings:
        return self.rt.settings

    @property
    def games(self) -> dict[str, LiveGame]:
        return self.rt.games

    @property
    def watchers(self) -> dict[str, list[Subscriber]]:
        return self.rt.watchers

    @property
    def turn_timers(self) -> dict[str, float]:
        return self.rt.turn_timers

    @property
    def fanout(self) -> Fanout:
        return self.rt.fanout

    @fanout.setter
    def fanout(self, fanout: Fanout) -> None:
        self.rt.fanout = fanout

    @property
    def node(self) -> str:
        return self.rt.node

    @property
    def bot_pool(self) -> Any:
        return self.rt.bot_pool

    async def db(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await self.rt.db(call, *args, **kwargs)

    # --- starting and stopping ---------------------------------------------------------------

    async def start(self, fanout: Fanout | None = None) -> None:
        """Connects the fan-out (make_fanout's choice unless given), resumes the unfinished
        games and starts the watchdog."""
        if fanout is None:
            scope = await self.db(self.store.scope)
            fanout = make_fanout(self.store, scope, self.settings)
        self.rt.fanout = fanout
        await fanout.start(self.sync.on_change)
        await self.resume_all()
        logs.bind_game(None)  # the games resumed are behind: what the start-up logs next is no game's
        self._watchdog = asyncio.get_running_loop().create_task(self.watchdog.run(), name="watchdog")

    async def stop(self) -> None:
        """Stops the background work and hands the bots' leases over at once."""
        tasks = [self._watchdog, *self.rt.tasks]
        for live in self.games.values():
            tasks += [live.bot_task, live.timer_task, live.recovery, live.sync_task]
        for task in tasks:
            if task is not None and not task.done():
                task.cancel()
        self.bots.leases.reset()
        await self.fanout.close()
        if self.fanout.shared:
            for live in list(self.games.values()):
                if live.lease_until:
                    with contextlib.suppress(Exception):
                        await self.db(self.store.release_bot_lease, live.id, self.node)
        self.rt.renew_threads()
        if self.settings.db_calls_file:  # each writer's database calls, the long collections
            statistics = {**self.store.calls.snapshot(), "collections": list(memory.pauses)}
            Path(self.settings.db_calls_file).write_bytes(msgspec.json.encode(statistics))

    async def resume_all(self) -> None:
        """After a restart: reload unfinished games whose bots owe a move, and wake them."""
        for summary in await self.db(self.store.list_games):
            if summary.ending is None:
                try:
                    live = await self.get(summary.id)
                except ServiceError:  # pragma: no cover
                    continue
                self.bots.wake(live)

    # --- the table actor (server/table/actor.py) --------------------------------------------------------

    async def create(self, seats: list[dict], *args: Any, **kwargs: Any) -> tuple[LiveGame, str, dict[int, str]]:
        """A new game (TableActor.create)."""
        return await self.actor.create(seats, *args, **kwargs)

    async def get(self, game_id: str) -> LiveGame:
        return await self.actor.get(game_id)

    async def submit(self, live: LiveGame, seat: int, action_data: Any, client_action_id: str | None) -> dict:
        return await self.actor.submit(live, seat, action_data, client_action_id)

    async def update_seat(
        self, live: LiveGame, seat: int, change: Callable[..., bool], *, table: bool = False, quiet: bool = False
    ) -> tuple[list[dict[str, Any]], bool]:
        return await self.actor.update_seat(live, seat, change, table=table, quiet=quiet)

    async def caught_up_quietly(self, live: LiveGame) -> bool:
        return await self.actor.caught_up_quietly(live)

    async def export(self, live: LiveGame) -> dict:
        return await self.actor.export(live)

    def publish(self, live: LiveGame) -> None:
        """A stored seat changed outside the actor's methods (call after it is stored)."""
        self.events.emit(SeatChanged(live))

    async def broadcast(self, live: LiveGame, full: bool = False) -> None:
        """Pushes the new version of the views to the game's sockets in this process."""
        await self.events.settle(live, full, wake=False)

    def wake_bots(self, live: LiveGame) -> None:
        self.bots.wake(live)

    def bot_seats_owing(self, live: LiveGame) -> list[int]:
        return self.bots.owing(live)

    # --- views and sockets (server/table/views.py, server/table/hub.py) ---------------------------------------

    def public_parts(self, live: LiveGame) -> Any:
        return self.views.public_parts(live)

    def seat_parts(self, live: LiveGame, public: Any, seat: int, language: str) -> dict[str, bytes]:
        return self.views.seat_parts(live, public, seat, language)

    def view_bytes(self, live: LiveGame, seat: int, language: str, since: int = -1) -> bytes:
        return self.views.view_bytes(live, seat, language, since)

    def payload(self, live: LiveGame, seat: int, language: str, since: int = -1) -> dict:
        return self.views.payload(live, seat, language, since)

    def seat_events(self, live: LiveGame) -> list[dict]:
        return self.views.seat_events(live)

    def subscribe(self, live: LiveGame, seat: int, language: str) -> tuple[Subscriber, bytes | None]:
        return self.hub.subscribe(live, seat, language)

    def attach(self, live: LiveGame, sub: Subscriber) -> bytes | None:
        return self.hub.attach(live, sub)  # a spectator's socket (server/table/screen.py counts them)

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        self.hub.unsubscribe(live, sub)

    def resync(self, live: LiveGame, sub: Subscriber, language: str | None = None) -> None:
        self.hub.resync(live, sub, language)

    def full_message(self, live: LiveGame, group: ViewGroup) -> bytes | None:
        return self.hub.full_message(live, group)

    # --- seats (server/table/seating.py) ---------------------------------------------------------------

    async def set_away(self, live: LiveGame, seat: int, away: bool, reason: str) -> None:
        await self.seating.set_away(live, seat, away, reason)

    def holds_a_seat(self, live: LiveGame, token: str | None) -> int | None:
        return self.seating.holds_a_seat(live, token)

    def refuse_seated(self, live: LiveGame, token: str | None) -> None:
        self.seating.refuse_seated(live, token)

    async def claim(self, live: LiveGame, code: str, current: str | None = None) -> tuple[int, str]:
        return await self.seating.claim(live, code, current)

    async def seat_for(self, live: LiveGame, token: str | None) -> int:
        return await self.seating.seat_for(live, token)

    async def revoke(self, live: LiveGame, host: int, target: int, invite: bool) -> str | None:
        return await self.seating.revoke(live, host, target, invite)

    async def consent(self, live: LiveGame, voter: int, target: int, agree: bool) -> None:
        await self.seating.consent(live, voter, target, agree)

    def saw(self, live: LiveGame, seat: int, leaving: bool = False) -> None:
        self.seating.saw(live, seat, leaving)
