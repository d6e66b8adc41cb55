"""What the parts of a process's service share: the store and its database threads (the
database is never called on the event loop), the limits and settings, the tables in memory,
the fan-out to the other processes, the event bus and the background tasks."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ...settings import Settings
from .. import metrics
from ..errors import StoreUnavailable
from ..limits import FairPool, Limits
from ..store import GameStore
from .events import Events
from .fanout import Fanout, LocalFanout
from .tables import LiveGame, Subscriber

log = logging.getLogger("judges.server")


class Runtime:
    def __init__(self, store: GameStore, limits: Limits, settings: Settings, fanout: Fanout | None = None) -> None:
        self.store = store
        self.settings = settings
        self.limits = limits
        self.bot_pool = FairPool(limits.bot_workers, processes=limits.bot_processes, nice=limits.bot_nice)
        self.games: dict[str, LiveGame] = {}
        self.turn_timers: dict[str, float] = {}  # game id -> seconds
        # game id -> spectators' wake-up queues (server/table/screen.py sends them the public view)
        self.watchers: dict[str, list[Subscriber]] = {}
        self.fanout: Fanout = fanout or LocalFanout()
        self.events = Events()
        # names this process in the bots' lease and on the fan-out
        self.node = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        # More threads than connections: a call beyond the pool waits pool_timeout for a
        # connection and fails (503), rather than queueing here without a bound.
        self.db_threads = ThreadPoolExecutor(max_workers=store.max_connections * 2 + 4, thread_name_prefix="db")
        # The actions' commits have threads of their own, one per connection of their pool
        # (store/base.py): a burst of other calls queued on the database threads never holds
        # them up.
        self.commit_threads = self._commit_executor()
        self.tasks: set[asyncio.Task[Any]] = set()  # fire-and-forget tasks, kept until done

    def _commit_executor(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=max(2, self.store.action_connections), thread_name_prefix="commit")

    async def db(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Runs a store call on the database threads. A database failure (down, timed out,
        no free connection) raises StoreUnavailable; the store's own errors pass through."""
        return await self._run(self.db_threads, call, *args, **kwargs)

    async def commit(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Runs an action's commit (GameStore.append_action) on the commit threads: like `db`."""
        return await self._run(self.commit_threads, call, *args, **kwargs)

    async def _run(self, threads: ThreadPoolExecutor, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(threads, functools.partial(call, *args, **kwargs))
        except SQLAlchemyError as exc:
            metrics.DATABASE_ERRORS.inc()
            log.warning("database call %s failed: %s", getattr(call, "__name__", call), str(exc).splitlines()[0])
            raise StoreUnavailable() from exc

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """A task in the background, kept until it is done."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def renew_threads(self) -> None:
        """Idle threads end and the bots' workers stop; a server started again (an app's
        lifespan may run twice) gets new ones."""
        self.bot_pool.close()
        self.db_threads.shutdown(wait=False)
        self.db_threads = ThreadPoolExecutor(max_workers=self.db_threads._max_workers, thread_name_prefix="db")
        self.commit_threads.shutdown(wait=False)
        self.commit_threads = self._commit_executor()
