"""The background work and routes of ratings, paces and e-mailed notices, installed on the app in one call
(server/app.py).

Every `JUDGES_UPKEEP_SECONDS` (default 5) a round of upkeep: the paced games' deadlines
(server/community/paces.py), the notices by e-mail (server/community/mail_notices.py), and the finished games not yet
rated (server/community/ratings.py: after a crash, or a game ended by a process that died). Every
`JUDGES_UPKEEP_SCAN_SECONDS` (default 60) the round also reads every running game: the paced
ones (made by any process) and the abandoned ones, which it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from fastapi import FastAPI

from .community.accounts import Accounts
from .community.mail_notices import Notices, notices_router
from .community.moderation import Moderation, moderation_router
from .community.paces import Paces
from .community.ratings import Ratings, ratings_router
from .store import StoreError
from .table.service import GameService, ServiceError

log = logging.getLogger("judges.server")


class Upkeep:
    def __init__(self, service: GameService, accounts: Accounts) -> None:
        self.service = service
        self.accounts = accounts
        self.ratings = Ratings(service)
        self.paces = Paces(service)
        self.notices = Notices(accounts, self.paces)
        self.every = service.settings.upkeep_seconds
        self.scan_every = service.settings.upkeep_scan_seconds
        self.clock: Callable[[], float] = time.time  # the tests set the hour
        self.scanned = -1e18
        self.task: asyncio.Task[None] | None = None
        service.end_listeners.append(self.ratings.game_ended)

    async def round(self, scan: bool = False) -> None:
        """One round of upkeep (the tests call it directly; `scan`: read every running game)."""
        now = self.clock()
        if scan or now - self.scanned >= self.scan_every:
            self.scanned = now
            await self.paces.scan(now)
        await self.paces.tick(now)
        await self.notices.tick(now)
        await self.ratings.sweep()

    async def _loop(self) -> None:
        while True:
            try:
                await self.round()
            except (ServiceError, StoreError) as exc:
                log.warning("upkeep round stopped: %s", exc)  # the database is away, a game deleted: next round
            except Exception:  # pragma: no cover - the upkeep must outlive any surprise
                log.exception("upkeep round failed")
            await asyncio.sleep(self.every)

    async def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop(), name="upkeep")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None


def install(app: FastAPI, service: GameService, accounts: Accounts) -> Upkeep:
    """Makes the upkeep (`app.state.upkeep`) and includes the routes of the ratings and the e-mailed notices."""
    upkeep = Upkeep(service, accounts)
    app.state.upkeep = upkeep
    app.state.ratings = upkeep.ratings
    app.include_router(ratings_router(upkeep.ratings))
    app.include_router(notices_router(upkeep.notices))
    app.state.moderation = Moderation(service, accounts, upkeep.paces)
    app.include_router(moderation_router(app.state.moderation))
    return upkeep


__all__ = ["Upkeep", "install"]
