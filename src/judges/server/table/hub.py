"""The sockets of the tables in this process, by seat and language (`ViewGroup`), and what
they are sent: a full view, then deltas (server/table/updates.py), built once per group at each new
version of the views. A socket that does not keep up is dropped (it reconnects for a full view).
Spectators are the group of no seat (SPECTATOR) in their language: one view for all of them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from . import updates
from .runtime import Runtime
from .tables import (
    SPECTATOR,
    LiveGame,
    Subscriber,
    ViewGroup,
)
from .views import Views


class Hub:
    def __init__(self, rt: Runtime, views: Views) -> None:
        self.rt = rt
        self.views = views

    async def broadcast(self, live: LiveGame, full: bool = False) -> None:
        """Pushes the new version of the views to every socket of the game in this process: the
        one entry point of live updates. `full`: every socket gets a full view, not a delta (as
        after a reload: the client replaces what it shows)."""
        async with live.lock:  # a view never shows an action before it is committed
            self.push(live, full)

    def push(self, live: LiveGame, full: bool = False) -> None:
        """A new version of the views: each group of sockets (a seat in a language) gets the
        parts that changed since the version it last received, and its new notifications, as
        bytes built once for the group. Nothing while the copy is stale; a full view for
        everyone once it was replaced by the store's."""
        if live.stale:
            return  # the copy may hold an uncommitted action; the recovery pushes a full view
        full = full or live.full_next
        live.full_next = False
        live.version += 1
        if not live.groups:
            return
        public = self.views.public_parts(live)
        patches: updates.Patches = {}  # a shared part's edits, computed for the first group
        for group in list(live.groups.values()):
            parts = self.views.seat_parts(live, public, group.seat, group.language)
            if full or not group.parts:
                notes, group.note_id = self.views.notes(live, group.seat, group.language, -1)
                message = updates.full_message(parts, live.version, notes)
            else:
                # the group's parts are those of the version it last received (the previous one:
                # every push reaches every group), however many actions came since
                notes, group.note_id = self.views.notes(live, group.seat, group.language, group.note_id)
                names = updates.changed(group.parts, parts)
                message = updates.delta_message(names, parts, live.version, notes, group.parts, patches)
            group.parts = parts
            for sub in list(group.subscribers):
                self.send(live, sub, message)

    def send(self, live: LiveGame, sub: Subscriber, message: bytes) -> None:
        try:
            sub.queue.put_nowait(message)
        except asyncio.QueueFull:
            # A socket that does not keep up is dropped (it reconnects for a full view); the
            # others, and the server, never wait for it.
            self.unsubscribe(live, sub)
            sub.close(1013, "error.socket_slow")

    def subscribe(self, live: LiveGame, seat: int, language: str) -> tuple[Subscriber, bytes | None]:
        """A new socket of `seat` (call under the game's lock): its full view, as the first
        message (None while the copy is stale: the recovery sends it). Past
        `sockets_per_seat`, the seat's oldest socket is closed (spectators are counted by
        server/table/screen.py, per address and per game)."""
        if seat != SPECTATOR:
            mine = [sub for sub in live.subscribers if sub.seat == seat]
            for old in mine[: max(0, len(mine) - self.rt.limits.sockets_per_seat + 1)]:
                self.unsubscribe(live, old)
                old.close(1008, "error.too_many_sockets")
        sub = Subscriber(seat=seat, language=language, queue=asyncio.Queue(maxsize=self.rt.limits.socket_queue))
        return sub, self.attach(live, sub)

    def attach(self, live: LiveGame, sub: Subscriber) -> bytes | None:
        """`sub` joins the group of its seat and language (call under the game's lock): its
        first message, the full view (None while the copy is stale)."""
        group = self.group(live, sub.seat, sub.language)
        group.subscribers.append(sub)
        return self.full_message(live, group)

    def full_message(self, live: LiveGame, group: ViewGroup) -> bytes | None:
        if live.stale or not group.parts:
            return None
        notes, _ = self.views.notes(live, group.seat, group.language, -1)
        return updates.full_message(group.parts, live.version, notes)

    def resync(self, live: LiveGame, sub: Subscriber, language: str | None = None) -> None:
        """A full view for a socket that asks for one (it missed a message, or changed its
        language); call under the game's lock."""
        self.unsubscribe(live, sub)
        sub.language = language or sub.language
        group = self.group(live, sub.seat, sub.language)
        group.subscribers.append(sub)
        message = self.full_message(live, group)
        if message is not None:
            self.send(live, sub, message)

    def group(self, live: LiveGame, seat: int, language: str) -> ViewGroup:
        group = live.groups.get((seat, language))
        if group is None:
            if live.stale:  # nothing to show yet: the recovery's push sends the full view
                group = live.groups[seat, language] = ViewGroup(seat, language, {}, -1)
            else:
                parts = self.views.seat_parts(live, self.views.public_parts(live), seat, language)
                share_parts(parts, live.groups.values())
                latest = self.views.latest_note(live)
                group = live.groups[seat, language] = ViewGroup(seat, language, parts, latest)
        return group

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        group = live.groups.get((sub.seat, sub.language))
        if group is not None and sub in group.subscribers:
            group.subscribers.remove(sub)
            if not group.subscribers:
                del live.groups[sub.seat, sub.language]


def share_parts(parts: dict[str, bytes], groups: Iterable[ViewGroup]) -> None:
    """A new group's parts equal to another group's become that group's bytes: one copy in
    memory (a push shares what every seat sees; a group made between two pushes built its own),
    and the next delta's edits of a shared part are computed once."""
    other = next(iter(groups), None)
    if other is None:
        return
    for name, data in parts.items():
        known = other.parts.get(name)
        if known is not None and known is not data and known == data:
            parts[name] = known
