"""The watchdog of a process: every `watch_seconds` (judges/settings.py) it looks for games
changed by other processes (a lost fan-out message), copies to recover, bots to restart or to take
over from a process that died, and keeps present the players whose sockets are open here."""

from __future__ import annotations

import asyncio
import logging

from .community.chat import Chat
from .errors import ServiceError
from .table.actor import TableActor
from .table.bot_runner import BotRunner
from .table.runtime import Runtime
from .table.seating import Seating
from .table.sync import Sync

log = logging.getLogger("judges.server")


class Watchdog:
    def __init__(
        self, rt: Runtime, actor: TableActor, sync: Sync, bots: BotRunner, seating: Seating, chat: Chat
    ) -> None:
        self.rt, self.actor, self.sync, self.bots, self.seating, self.chat = rt, actor, sync, bots, seating, chat

    async def run(self) -> None:
        """Every `watch_seconds` (judges/settings.py): games changed by other processes (a lost message), copies to
        recover, bots to restart or to take over from a process that died."""
        while True:
            await asyncio.sleep(self.rt.settings.watch_seconds)
            try:
                if self.rt.fanout.shared:
                    await self.sync.poll_versions(at_once=False)
                    await self.chat.poll()
                for live in list(self.rt.games.values()):
                    if live.stale:
                        if live.recovery is None or live.recovery.done():
                            self.actor.lose_copy(live)
                    else:
                        self.bots.wake(live)
                        for seat in {group.seat for group in live.groups.values()}:
                            self.seating.saw(live, seat)  # a socket open here: its player is at the table
            except ServiceError:
                pass  # the database is away: the next round tries again
            except Exception:  # pragma: no cover - the watchdog must outlive any surprise
                log.exception("watchdog round failed")
