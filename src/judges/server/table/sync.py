"""Many processes, one database: this process tells the others of its commits (the fan-out,
server/table/fanout.py: `Committed`, `SeatChanged` and `ChatPosted` are published) and follows
theirs: the actions the fan-out carried are applied in order without reading the store, the
store is read for anything else (a gap, a seat change), and `poll_versions` catches what a lost
message missed."""

from __future__ import annotations

import asyncio
from typing import Any

from .. import logs
from ..community.chat import Chat
from ..errors import ServiceError
from .actor import TableActor
from .events import ChatPosted, Committed, SeatChanged
from .fanout import Change, Notice
from .runtime import Runtime
from .tables import (
    LiveGame,
)

MAX_HEARD = 1000  # actions the fan-out carried that a game's copy may keep waiting for its turn
VERSION_BATCH = 500  # game ids per version poll query


class Sync:
    def __init__(self, rt: Runtime, actor: TableActor, chat: Chat) -> None:
        self.rt = rt
        self.actor = actor
        self.chat = chat

    # --- listeners (server/table/events.py) ---------------------------------------------------------

    def on_committed(self, event: Committed) -> None:
        self.publish(event.live, (event.player, event.action, event.client_action_id))

    def on_changed(self, event: SeatChanged | ChatPosted) -> None:
        self.publish(event.live)

    def publish(self, live: LiveGame, action: tuple[int, dict[str, Any], str | None] | None = None) -> None:
        """Tells the other processes of a commit; `action`: the one just committed (player,
        dict, stored client id), carried so that they need not read it from the store."""
        if self.rt.fanout.shared:
            count = len(live.game.log)
            chat_count = self.chat.count(live.id)
            if action is None:
                change = Change(self.rt.node, live.id, count, live.seats_version, chat_count)
            else:
                change = Change(self.rt.node, live.id, count, live.seats_version, chat_count, *action)
            self.rt.spawn(self.rt.fanout.publish(change))

    def on_change(self, change: Change | Notice | None) -> None:
        """A change published by another process (None: the fan-out reconnected, and may have
        missed some: poll every game, and the chat's hidden messages and mutes); a notice of a
        moderation act goes to the chat."""
        if change is None:
            self.rt.spawn(self.poll_versions())
            self.rt.spawn(self.chat.recheck())
            return
        if change.node == self.rt.node:
            return
        if isinstance(change, Notice):
            self.chat.on_notice(change)
            return
        self.chat.on_change(change)
        live = self.rt.games.get(change.game)
        if live is None:
            return
        if change.action is not None and change.action_count > len(live.game.log) and len(live.heard) < MAX_HEARD:
            live.heard[change.action_count - 1] = (change.player, change.action, change.client_action_id)
        self.heard_of(live, change.action_count, change.seats_version)

    def heard_of(self, live: LiveGame, action_count: int, seats_version: int) -> None:
        """Another process is at this version of the game: follow it if the copy is behind."""
        live.known_count = max(live.known_count, action_count)
        live.known_seats_version = max(live.known_seats_version, seats_version)
        if action_count > len(live.game.log) or seats_version > live.seats_version:
            self.sync_soon(live)

    def apply_heard(self, live: LiveGame) -> bool:
        """Applies the actions the fan-out carried that follow the copy, in order, without
        reading the store (under the game's lock). Whether any was applied."""
        applied = False
        while (record := live.heard.pop(len(live.game.log), None)) is not None:
            if not self.actor.apply_committed(live, *record):
                live.heard.clear()
                self.actor.lose_copy(live)  # reloaded from the store by the recovery task
                return False
            applied = True
        for seq in [seq for seq in live.heard if seq < len(live.game.log)]:
            del live.heard[seq]  # came in through the store meanwhile
        return applied

    async def follow(self, live: LiveGame) -> bool:
        """Brings the copy to the furthest version heard of (under the game's lock): the
        actions the fan-out carried, then the store for anything else (a gap, a seat change).
        Whether anything changed."""
        changed = self.apply_heard(live)
        if live.stale:
            return False
        if len(live.game.log) < live.known_count or live.seats_version < live.known_seats_version:
            changed = await self.actor.catch_up(live) or changed
            changed = self.apply_heard(live) or changed  # those after what the store had then
        return changed

    def sync_soon(self, live: LiveGame) -> None:
        """Catches the copy up and pushes to its sockets (one task per game; a change that
        arrives meanwhile makes it look again)."""
        if live.sync_task is not None and not live.sync_task.done():
            live.sync_again = True
            return
        live.sync_task = asyncio.get_running_loop().create_task(self._sync_task(live))

    async def _sync_task(self, live: LiveGame) -> None:
        logs.bind_game(live.id)
        logs.bind_seat(None)
        while True:
            live.sync_again = False
            try:
                async with live.lock:
                    changed = not live.stale and await self.follow(live)
            except ServiceError:
                return  # the watchdog looks again
            if changed:
                await self.rt.events.settle(live)
            if not live.sync_again:
                return

    async def poll_versions(self, at_once: bool = True) -> None:
        """Catches up every unfinished game in memory whose stored version moved on. Not
        `at_once` (the watchdog's round): only a game that was already behind that version at
        the previous round; a commit made meanwhile is normally on its way through the fan-out,
        and reading it from the store as well would double the work of every action under load."""
        lives = [live for live in self.rt.games.values() if not live.played.is_over and not live.stale]
        for start in range(0, len(lives), VERSION_BATCH):
            batch = lives[start : start + VERSION_BATCH]
            versions = await self.rt.db(self.rt.store.versions, [live.id for live in batch])
            for live in batch:
                version = versions.get(live.id)
                if version is None:
                    continue
                seen, live.polled = live.polled, (version.action_count, version.seats_version)
                if not at_once and not (len(live.game.log) < seen[0] or live.seats_version < seen[1]):
                    continue  # behind only what was committed since the last round, if at all
                self.heard_of(live, version.action_count, version.seats_version)
