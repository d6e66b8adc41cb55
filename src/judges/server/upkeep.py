"""Issue 30's background work and routes, installed on the app in one call (server/app.py):
ratings (server/ratings.py), and every `JUDGES_UPKEEP_SECONDS` (default 5) a round of upkeep:
the finished games not yet rated (after a crash, or games ended by another process that died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from fastapi import FastAPI

from .accounts import Accounts
from .ratings import Ratings, ratings_router
from .service import GameService, ServiceError

log = logging.getLogger("judges.server")

UPKEEP_SECONDS_ENV = "JUDGES_UPKEEP_SECONDS"


class Upkeep:
    def __init__(self, service: GameService, accounts: Accounts) -> None:
        self.service = service
        self.accounts = accounts
        self.ratings = Ratings(service)
        self.every = float(os.environ.get(UPKEEP_SECONDS_ENV) or 5.0)
        self.task: asyncio.Task[None] | None = None
        service.end_listeners.append(self.ratings.game_ended)

    async def round(self) -> None:
        """One round of upkeep (the tests call it directly)."""
        await self.ratings.sweep()

    async def _loop(self) -> None:
        while True:
            try:
                await self.round()
            except ServiceError:
                pass  # the database is away: the next round tries again
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
    """Makes the upkeep (`app.state.upkeep`) and includes issue 30's routes."""
    upkeep = Upkeep(service, accounts)
    app.state.upkeep = upkeep
    app.state.ratings = upkeep.ratings
    app.include_router(ratings_router(upkeep.ratings))
    return upkeep


__all__ = ["Upkeep", "install"]
