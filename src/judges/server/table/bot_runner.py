"""The bots of the tables in this process: bot seats, and human seats handed to a bot (away).
A game's bots play in one background task, each choice computed on the bots' shared pool
(limits.FairPool) so that the event loop stays free for the humans; with many processes, only
the one holding the game's lease in the store plays them. The turn timer hands a human seat
that owes a decision for too long to the takeover bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from .. import logs, metrics
from ..errors import ServiceError, StoreUnavailable
from ..limits import WorkerLost
from ..store import SequenceConflict
from ..workers import think
from . import seats as seat_keys
from .actor import TableActor
from .runtime import Runtime
from .seating import Seating
from .tables import (
    LiveGame,
    bot_seed,
    owed_since,
)

log = logging.getLogger("judges.server")

# A bot's turn whose worker process dies is thought again this many times in a row, then left
# to the watchdog: a position that kills every worker cannot keep the pool's workers dying.
WORKER_LOSSES = 3


class BotRunner:
    def __init__(self, rt: Runtime, actor: TableActor, seating: Seating) -> None:
        self.rt = rt
        self.actor = actor
        self.seating = seating
        self.leases = Leases(rt)

    def owing(self, live: LiveGame) -> list[int]:
        """Seats a bot plays now: bot seats, and human seats handed to a bot (away)."""
        if any(s.get("abandoned") for s in live.seats):  # an abandoned game is over
            return []
        return [s for s in live.played.to_move() if live.seats[s]["kind"] == "bot" or live.seats[s].get("away")]

    def watch_timer(self, live: LiveGame) -> None:
        """A per-game turn timer (a game option): a human seat that owes a decision for longer
        than the timer is handed to a bot until its player comes back."""
        timer = self.rt.turn_timers.get(live.id)
        if not timer or (live.timer_task is not None and not live.timer_task.done()):
            return
        live.timer_task = asyncio.get_running_loop().create_task(self._watch(live, timer))

    async def _watch(self, live: LiveGame, timer: float) -> None:
        # The clock the seats' views show (tables.owed_since): the deadline they count down to
        # is the one kept here.
        while not live.played.is_over and not any(s.get("abandoned") for s in live.seats):  # an abandoned game is over
            now = time.time()
            for seat, since in owed_since(live, now).items():
                if now - since >= timer:
                    live.owed.pop(seat, None)
                    await self.seating.set_away(live, seat, True, "timer")
            await asyncio.sleep(min(0.5, timer / 4))

    def wake(self, live: LiveGame) -> None:
        self.watch_timer(live)
        if live.stale or live.played.is_over or not self.owing(live):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._run(live))

    async def _hold_lease(self, live: LiveGame) -> bool:
        """Whether this process plays the game's bots now (one process only: the lease in the
        store, renewed when half of it is gone). Alone on its database, a process always does."""
        if not self.rt.fanout.shared:
            return True
        now = asyncio.get_running_loop().time()
        if live.lease_until - now > self.rt.settings.bot_lease_seconds / 2:
            return True
        return await self.leases.hold(live)

    async def _run(self, live: LiveGame) -> None:
        lost = 0  # the worker processes lost in a row thinking for this game
        try:
            while not live.played.is_over and not live.stale:
                owing = self.owing(live)
                if not owing:
                    return
                seat = owing[0]
                logs.bind_game(live.id)  # the task's log lines are this game's and this seat's
                logs.bind_seat(seat)
                if not await self._hold_lease(live):
                    return  # another process plays them; the watchdog asks again
                if self.rt.settings.bot_delay:
                    await asyncio.sleep(self.rt.settings.bot_delay)
                async with live.lock:
                    if live.stale or seat not in self.owing(live):
                        continue
                    bot = live.bots.get(seat)
                    if bot is None:
                        bot = live.bots[seat] = seat_bot(live, seat, self.rt.limits.bot_cpu_seconds)
                    seq = len(live.game.log)
                    played = live.played
                    legal = list(played.legal_actions(seat))
                    view = played.view(seat)
                # The bot thinks outside the game's lock, on the bots' own workers: humans'
                # views and actions, and database commits, never wait for it.
                # The shared pool serves the games in turn; a search bot's thinking is heavy.
                heavy = getattr(bot, "iterations", 0) > 0
                try:
                    # a game's searches in a worker process, or its bots on a thread (its kit says)
                    apart = live.kit.bots_apart
                    action, thought = await self.rt.bot_pool.run(
                        live.id, heavy, think, bot, seat, legal, view, apart=apart
                    )
                except WorkerLost:
                    lost += 1
                    if lost > WORKER_LOSSES:
                        raise
                    continue  # its worker died: think again, on a fresh one
                lost = 0
                if live.bots.get(seat) is bot:  # the bot goes on from where its thinking left it
                    live.bots[seat] = thought
                async with live.lock:
                    if live.stale or len(live.game.log) != seq or seat not in self.owing(live):
                        continue  # someone acted meanwhile, or the player is back: look again
                    try:
                        await self.actor.apply_and_commit(live, action, None, attempts=1)
                    except SequenceConflict:
                        continue  # another process moved first: think again on the fresh copy
                metrics.BOT_ACTIONS.inc()
                await self.rt.events.settle(live, wake=False)
        except StoreUnavailable:
            return  # the recovery task (or the watchdog) restarts the bots
        except WorkerLost:
            log.warning("bots of game %s: %d worker processes lost in a row", live.id, lost)
            return  # the watchdog asks again
        except Exception:  # pragma: no cover - a bot must never take the server down
            log.exception("bot task of game %s failed", live.id)
        finally:
            if live.played.is_over and live.lease_until:
                live.lease_until = 0.0
                self.rt.spawn(self._release_lease(live))

    async def _release_lease(self, live: LiveGame) -> None:
        with contextlib.suppress(ServiceError):
            await self.rt.db(self.rt.store.release_bot_lease, live.id, self.rt.node)


# A game's bots asking for their lease wait this long for others to ask too: one statement
# takes or renews them all (GameStore.take_bot_leases), with every other lease this process
# holds that is past a quarter of its time.
LEASE_BATCH_SECONDS = 0.05


class Leases:
    """The bots' leases of this process, taken and renewed in batches."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self._asking: dict[str, tuple[LiveGame, asyncio.Future[bool]]] = {}
        self._batch: asyncio.Task[None] | None = None

    async def hold(self, live: LiveGame) -> bool:
        """Takes or renews the game's lease with the next batch: whether this process holds it."""
        entry = self._asking.get(live.id)
        if entry is None:
            entry = self._asking[live.id] = (live, asyncio.get_running_loop().create_future())
        if self._batch is None or self._batch.done():
            self._batch = self.rt.spawn(self._take())
        return await asyncio.shield(entry[1])

    def reset(self) -> None:
        """Forgets the games asking (the process stops: their bots' tasks are cancelled)."""
        for _, future in self._asking.values():
            future.cancel()
        self._asking = {}

    async def _take(self) -> None:
        await asyncio.sleep(LEASE_BATCH_SECONDS)
        asking, self._asking = self._asking, {}
        loop = asyncio.get_running_loop()
        lease = self.rt.settings.bot_lease_seconds
        now = loop.time()
        # the other leases of bots playing here, past a quarter of their time, come along
        along = [
            live
            for live in self.rt.games.values()
            if live.id not in asking
            and live.lease_until - now < lease * 3 / 4
            and live.lease_until > now
            and live.bot_task is not None
            and not live.bot_task.done()
        ]
        ids = [*asking, *(live.id for live in along)]
        try:
            held: set[str] = await self.rt.db(self.rt.store.take_bot_leases, ids, self.rt.node, lease)
        except ServiceError:
            held = set()
            along = []  # those keep what they had
        for live in [*(live for live, _ in asking.values()), *along]:
            live.lease_until = now + lease if live.id in held else 0.0
        for game_id, (_, future) in asking.items():
            if not future.done():
                future.set_result(game_id in held)


def seat_bot(live: LiveGame, seat: int, cpu_budget: float) -> Any:
    """The bot of a bot seat, or of a seat handed to a bot, seeded for the seat, built by the
    game's kit with the server's CPU budget per decision (where the game's search takes one)."""
    spec = live.seats[seat]["bot"] or takeover_bot(live)
    seed = bot_seed(live.game.state.options, seat, live.kind)
    return live.kit.make_bot(spec, seed, cpu_budget)


def takeover_bot(live: LiveGame) -> str:
    """The bot that plays a seat its player left: the table's choice, but the ratings' reference
    bot of its game (`Rating.reference`, the anchor a new player starts level with) at a table
    every human seat of which is an account's, whose game may be rated
    (server/community/ratings.py): no player's rating rides on a stronger bot."""
    humans = [s for s in live.seats if s.get("kind") == "human"]
    rating = live.served.rating if "ratings" in live.served.capabilities else None
    if rating is not None and humans and all(seat_keys.account_of(s) is not None for s in humans):
        return rating.reference
    return live.takeover_bot
