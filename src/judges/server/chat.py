"""Table talk (issue 16): the table's chat, the spectators' channel and private conversations.

Channels (a message's `channel`):

- `table`: the seated players talk; spectators read it (read-only) and so does a finished
  game's replay;
- `spectators`: the spectators' own channel; anyone may write in it (a spectator, or a seat
  answering), every seat may read it (the screen lets a player hide it);
- `seats:0.2`: a private conversation, named by the sorted set of its seats (two or more, the
  sender among them). Only those seats ever read it: not the other seats, not the spectators,
  not the replay, not the bots (which read no chat at all: they get only the engine's view).
  A seat that changed hands (the host revoked it, someone else claimed it) reads it only from
  the moment its new player took it (`chat_from` in the stored seat, server/seats.py): the
  previous player's private conversations are not the new one's.

A message is stored before it is acknowledged or shown (`GameStore.append_chat`: the next id of
the game under its row lock, so ids are ordered per game across processes; a retried
`client_message_id` is stored once). Then the process that stored it pushes it to its own
sockets that may read it, and publishes the game's new chat count on the fan-out
(server/fanout.py); every other process holding the game reads the messages after its own
count from the store and pushes them to its sockets, in id order; the watchdog polls the
counts in case a fan-out message was lost. A socket opened with `?chat=1` (the screen's)
receives, when it opens, the latest
`max_chat_history` messages it may read (`{"type": "chat", "history": true, ...}`), then each
new one (`{"type": "chat", "messages": [...]}`): a reconnecting client (a reload, a restarted
server) gets its history back. A socket too slow to keep up is dropped like for the views, and
reconnects to a fresh history.

Safety (server/limits.py): texts are cleaned of control, format and bidi characters (line
breaks kept), refused when empty or too long, rate-limited per seat (and per spectator
address), shown as text only by the screen (web/static/js/chat.js builds text nodes). The host
may close the chat of a seat (`chat_closed` in the stored seat, through `update_seat`: every
process sees it); a closed seat still reads. Muting a sender is the reader's own choice, kept
by their browser.
"""

from __future__ import annotations

import asyncio
import hashlib
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from . import seats as seat_keys
from . import updates
from .fanout import Change
from .limits import RateLimiter, clean_text
from .service import GameService, LiveGame, ServiceError, Subscriber, encode_payload

TABLE = "table"
SPECTATORS = "spectators"
PRIVATE = "seats:"
SPECTATOR = -1  # the sender of a spectator's message, the seat of a spectator's socket
ROOM_MESSAGES = 2000  # the latest messages a process keeps in memory per game


def private_channel(seats: Iterable[int]) -> str:
    """The channel of a private conversation: its seats, sorted (the same set, the same channel)."""
    return PRIVATE + ".".join(str(s) for s in sorted(set(seats)))


def parties(channel: str) -> tuple[int, ...] | None:
    """The seats of a private channel; None for a public one."""
    if not channel.startswith(PRIVATE):
        return None
    return tuple(int(s) for s in channel[len(PRIVATE) :].split("."))


def can_read(channel: str, seat: int) -> bool:
    """Whether `seat` (SPECTATOR for someone without a seat) may read the channel."""
    if channel in (TABLE, SPECTATORS):
        return True
    members = parties(channel)
    return members is not None and seat in members


def may_read(record: dict[str, Any], seat: int, private_from: int) -> bool:
    """Whether `seat`, whose current player reads private conversations from after the chat id
    `private_from` on, may read this message."""
    return can_read(record["channel"], seat) and (record["id"] > private_from or parties(record["channel"]) is None)


def private_from(live: LiveGame, seat: int) -> int:
    """The chat id after which the current player of `seat` reads its private conversations."""
    return seat_keys.private_from(live.seats[seat]) if 0 <= seat < len(live.seats) else 0


def is_public(channel: str) -> bool:
    """Channels a finished game's replay shows."""
    return channel in (TABLE, SPECTATORS)


def spectator_tag(game_id: str, key: str) -> str:
    """A spectator's short name: from a key their browser keeps (it cannot be guessed from the
    tag, so no one else writes under it), different in every game."""
    return hashlib.sha256(f"{game_id}:{key}".encode()).hexdigest()[:4]


@dataclass
class Room:
    """A game's chat as this process holds it: the latest messages, in id order."""

    game_id: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    count: int = 0  # the id of the latest message held (ids are 1, 2, ...)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Chat:
    """The chat of the games a `GameService` holds (`service.chat`)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        limits = service.limits
        self.rooms: dict[str, Room] = {}
        self._loads: dict[str, asyncio.Task[Room]] = {}
        self._syncing: dict[str, asyncio.Task[None]] = {}
        # the sockets that asked for the chat (`?chat=1`): an API client that did not gets views only
        self.listeners: weakref.WeakSet[Subscriber] = weakref.WeakSet()
        self.seat_rate = RateLimiter(limits.chat_burst, limits.chat_per_minute)
        self.spectator_rate = RateLimiter(limits.spectator_chat_burst, limits.spectator_chat_per_minute)

    def count(self, game_id: str) -> int:
        room = self.rooms.get(game_id)
        return room.count if room is not None else 0

    async def room(self, live: LiveGame) -> Room:
        """The game's room, loaded from the store the first time (one load at a time)."""
        room = self.rooms.get(live.id)
        if room is not None:
            return room
        load = self._loads.get(live.id)
        if load is None:
            load = self._loads[live.id] = asyncio.get_running_loop().create_task(self._load(live.id))
            load.add_done_callback(lambda _: self._loads.pop(live.id, None))
        return await asyncio.shield(load)

    async def _load(self, game_id: str) -> Room:
        records = await self.service.db(self.service.store.list_chat, game_id, 0, ROOM_MESSAGES)
        room = self.rooms.get(game_id)
        if room is None:
            room = self.rooms[game_id] = Room(game_id)
            room.messages = records
            room.count = records[-1]["id"] if records else 0
        return room

    # --- sending ---------------------------------------------------------------------------

    def check_text(self, text: str) -> str:
        limits = self.service.limits
        cleaned = clean_text(text)
        if not cleaned:
            raise ServiceError(422, "error.chat_empty", "a message needs some text")
        if len(cleaned) > limits.max_chat_chars or cleaned.count("\n") >= limits.max_chat_lines:
            raise ServiceError(
                422,
                "error.chat_too_long",
                f"a message has at most {limits.max_chat_chars} characters and {limits.max_chat_lines} lines",
                limit=limits.max_chat_chars,
                lines=limits.max_chat_lines,
            )
        return cleaned

    def channel_for(self, live: LiveGame, seat: int, channel: str, to: list[int] | None) -> str:
        """The channel a seat writes in: the table, the spectators' channel, or the private
        conversation of the seats `to` and itself (every one a seat of the table)."""
        if channel in (TABLE, SPECTATORS):
            return channel
        if channel == "private":
            seats = {seat, *(to or [])}
            if len(seats) >= 2 and all(isinstance(s, int) and 0 <= s < len(live.seats) for s in seats):
                return private_channel(seats)
        raise ServiceError(
            422, "error.chat_channel", "write to the table, to the spectators, or privately to other seats of the table"
        )

    def _rate(self, limiter: RateLimiter, key: Any) -> None:
        wait = limiter.take(key)
        if wait is not None:
            seconds = max(1, int(wait + 0.999))
            raise ServiceError(
                429,
                "error.rate_chat",
                f"too many messages: wait {seconds} s",
                headers={"Retry-After": str(seconds)},
                retry_after=seconds,
            )

    async def post_as_seat(
        self, live: LiveGame, seat: int, channel: str, to: list[int] | None, text: str, client_id: str | None
    ) -> dict[str, Any]:
        """A seat's message: checked, stored, acknowledged ({"id", "duplicate"}), delivered."""
        target = self.channel_for(live, seat, channel, to)
        if live.seats[seat].get("chat_closed"):
            raise ServiceError(403, "error.chat_closed", "the host has closed the chat for your seat")
        cleaned = self.check_text(text)
        self._rate(self.seat_rate, (live.id, seat))
        stored_id = f"{seat}:{client_id}" if client_id else None
        return await self._post(live, target, seat, live.seats[seat]["name"], cleaned, stored_id)

    async def post_as_spectator(
        self, live: LiveGame, address: str, key: str, text: str, client_id: str | None
    ) -> dict[str, Any]:
        """A spectator's message, in the spectators' channel, under the tag of their key."""
        cleaned = self.check_text(text)
        self._rate(self.spectator_rate, (live.id, address))
        tag = spectator_tag(live.id, key)
        stored_id = f"s{tag}:{client_id}" if client_id else None
        return await self._post(live, SPECTATORS, SPECTATOR, tag, cleaned, stored_id)

    async def _post(
        self, live: LiveGame, channel: str, sender: int, name: str, text: str, stored_id: str | None
    ) -> dict[str, Any]:
        room = await self.room(live)
        service = self.service
        record, duplicate = await service.db(service.store.append_chat, live.id, channel, sender, name, text, stored_id)
        await self.sync(live, room, upto=record["id"], fresh=None if duplicate else record)
        service._publish(live)
        return {"id": record["id"], "duplicate": duplicate}

    # --- keeping in step and delivering ----------------------------------------------------------

    async def sync(self, live: LiveGame, room: Room, upto: int | None = None, fresh: dict | None = None) -> None:
        """Takes the messages after the room's count (from the store unless `fresh` is the very
        next one) and pushes each to the sockets that may read it, in id order."""
        async with room.lock:
            if upto is not None and room.count >= upto:
                return
            if fresh is not None and fresh["id"] == room.count + 1:
                records = [fresh]
            else:
                records = await self.service.db(self.service.store.list_chat, live.id, room.count)
            records = [r for r in records if r["id"] > room.count]
            if not records:
                return
            room.messages.extend(records)
            del room.messages[:-ROOM_MESSAGES]
            room.count = records[-1]["id"]
            self._deliver(live, records)  # no await since the append: no socket misses them

    def _deliver(self, live: LiveGame, records: list[dict[str, Any]]) -> None:
        cache: dict[tuple[int, ...], bytes] = {}

        def message_for(seat: int) -> bytes | None:
            start = private_from(live, seat)
            mine = tuple(r["id"] for r in records if may_read(r, seat, start))
            if not mine:
                return None
            if mine not in cache:
                cache[mine] = chat_message([r for r in records if r["id"] in mine], history=False)
            return cache[mine]

        for sub in list(live.subscribers):
            if sub not in self.listeners:
                continue
            message = message_for(sub.seat)
            if message is not None:
                self.service._send(live, sub, message)
        for watcher in list(self.service.watchers.get(live.id, [])):
            if watcher not in self.listeners:
                continue
            message = message_for(SPECTATOR)
            if message is not None:
                try:
                    watcher.queue.put_nowait(message)
                except asyncio.QueueFull:  # pragma: no cover - the spectator reloads for the history
                    pass

    def visible(self, live: LiveGame, room: Room, seat: int, public_only: bool = False) -> list[dict[str, Any]]:
        """The latest `max_chat_history` messages `seat`'s current player may read (only the
        public channels with `public_only`: a replay)."""
        start = private_from(live, seat)
        out = [r for r in room.messages if may_read(r, seat, start) and (not public_only or is_public(r["channel"]))]
        return out[-self.service.limits.max_chat_history :]

    def greet(self, live: LiveGame, sub: Subscriber) -> None:
        """A new socket that asked for the chat: its history, queued right after it was
        subscribed (no await between: a message stored meanwhile is in the history or pushed
        after it), then every new message it may read. Spectators' sockets too (`sub.seat` is
        SPECTATOR)."""
        room = self.rooms.get(live.id)
        if room is None:
            return
        self.listeners.add(sub)
        sub.queue.put_nowait(chat_message(self.visible(live, room, sub.seat), history=True))

    def on_change(self, change: Change) -> None:
        """Another process stored messages: catch up if this process holds the game's chat."""
        room = self.rooms.get(change.game)
        live = self.service.games.get(change.game)
        if room is not None and live is not None and change.chat_count > room.count:
            self._sync_soon(live, room)

    def _sync_soon(self, live: LiveGame, room: Room) -> None:
        task = self._syncing.get(live.id)
        if task is not None and not task.done():
            return  # it reads everything up to the store's count; the poll catches a late one
        self._syncing[live.id] = self.service._spawn(self._quiet_sync(live, room))

    async def _quiet_sync(self, live: LiveGame, room: Room) -> None:
        try:
            await self.sync(live, room)
        except ServiceError:
            pass  # the database is away: the watchdog's poll tries again

    async def poll(self) -> None:
        """The watchdog's round: the rooms of this process whose stored count moved on."""
        ids = [game_id for game_id in self.rooms if game_id in self.service.games]
        if not ids:
            return
        counts = await self.service.db(self.service.store.chat_counts, ids)
        for game_id, count in counts.items():
            room = self.rooms.get(game_id)
            live = self.service.games.get(game_id)
            if room is not None and live is not None and count > room.count:
                self._sync_soon(live, room)


def chat_message(records: list[dict[str, Any]], history: bool) -> bytes:
    """`{"type": "chat", "history": bool, "messages": [...]}`; with history, the messages
    replace what the client holds."""
    return updates.encode({"type": "chat", "history": history, "messages": records})


# --- HTTP ----------------------------------------------------------------------------------


class SeatMessage(BaseModel):
    channel: Literal["table", "spectators", "private"] = "table"
    to: list[int] = Field(default_factory=list, max_length=8, description="the other seats of a private message")
    text: str = Field(max_length=4000, description="cleaned; at most 500 characters once cleaned")
    client_message_id: str | None = Field(default=None, max_length=100, description="unique per seat: sent once")


class SpectatorMessage(BaseModel):
    text: str = Field(max_length=4000)
    key: str = Field(min_length=8, max_length=100, description="a secret of the spectator's browser: their tag")
    client_message_id: str | None = Field(default=None, max_length=100)


def chat_router(
    service: GameService, seat_of: Callable[[HTTPConnection, LiveGame], Awaitable[int]]
) -> APIRouter:
    """The chat's HTTP routes; `seat_of` is the app's reading of a request's seat credential."""
    router = APIRouter()
    chat = service.chat

    def json_response(payload: dict[str, Any]) -> Any:
        from fastapi.responses import Response

        return Response(encode_payload(payload), media_type="application/json")

    @router.post("/api/games/{game_id}/chat")
    async def post(game_id: str, body: SeatMessage, request: Request) -> dict[str, Any]:
        """Your seat's message to the table, to the spectators' channel, or privately to other
        seats (`channel: "private"`, `to`). Answered once stored: `{"id", "duplicate"}`."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        return await chat.post_as_seat(live, seat, body.channel, body.to, body.text, body.client_message_id)

    @router.get("/api/games/{game_id}/chat")
    async def history(game_id: str, request: Request, after: int = 0) -> Any:
        """The latest messages your seat may read, after id `after`."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        room = await chat.room(live)
        return json_response({"messages": [r for r in chat.visible(live, room, seat) if r["id"] > after]})

    @router.get("/api/games/{game_id}/chat/public")
    async def public(game_id: str, after: int = 0) -> Any:
        """What anyone may read: the table's messages and the spectators' channel."""
        live = await service.get(game_id)
        room = await chat.room(live)
        return json_response({"messages": [r for r in chat.visible(live, room, SPECTATOR, True) if r["id"] > after]})

    @router.post("/api/games/{game_id}/chat/spectate")
    async def spectate(game_id: str, body: SpectatorMessage, request: Request) -> dict[str, Any]:
        """A spectator's message, in the spectators' channel."""
        live = await service.get(game_id)
        address = request.client.host if request.client else ""
        return await chat.post_as_spectator(live, address, body.key, body.text, body.client_message_id)

    @router.post("/api/games/{game_id}/chat/seats/{target}/{move}")
    async def close_chat(game_id: str, target: int, move: Literal["close", "open"], request: Request) -> dict:
        """The host closes (or opens again) the chat of another human seat."""
        live = await service.get(game_id)
        host = await seat_of(request, live)
        if not live.seats[host].get("host"):
            raise ServiceError(403, "error.not_host", "only the table's host may do this")
        if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == host:
            raise ServiceError(422, "error.chat_target", "the host can close the chat of another human seat only")
        closed = move == "close"
        async with live.lock:

            def change(info: dict[str, Any]) -> bool:
                if bool(info.get("chat_closed")) == closed:
                    return False
                info["chat_closed"] = closed
                return True

            _, changed = await service.update_seat(live, target, change)
        if changed:
            service._publish(live)
            await service.broadcast(live)
        return {"seat": target, "chat_closed": closed}

    return router


__all__ = ["Chat", "chat_router", "can_read", "private_channel", "parties", "SPECTATORS", "TABLE"]
