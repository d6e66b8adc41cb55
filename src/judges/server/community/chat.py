"""Table talk: the table's chat, the spectators' channel and private conversations.

Channels (a message's `channel`):

- `table`: the seated players talk; spectators read it (read-only) and so does a finished
  game's replay;
- `spectators`: the spectators' own channel; anyone may write in it (a spectator, or a seat
  answering), every seat may read it (the screen lets a player hide it);
- `seats:0.2`: a private conversation, named by the sorted set of its seats (two or more, the
  sender among them). Only those seats ever read it: not the other seats, not the spectators,
  not the replay, not the bots (which read no chat at all: they get only the engine's view).
  A seat that changed hands (the host revoked it, someone else claimed it) reads it only from
  the moment its new player took it (`chat_from` in the stored seat, server/table/seats.py): the
  previous player's private conversations are not the new one's.

A message is stored before it is acknowledged or shown (`GameStore.append_chat`: the next id of
the game under its row lock, so ids are ordered per game across processes; a retried
`client_message_id` is stored once). Then the process that stored it pushes it to its own
sockets that may read it, and publishes the game's new chat count on the fan-out
(server/table/fanout.py); every other process holding the game reads the messages after its own
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
by their browser; a signed-in player's mutes are his account's (server/community/moderation.py): the
messages of a muted account never reach his screens, here on the server (`mutes`), and an
operator may hide a message from everyone (`hidden`). Both reach the other processes' screens
at once, as a `Notice` on the fan-out. A message's sender account and hidden
mark are the server's own: `sent` leaves them out of what a client receives.
"""

from __future__ import annotations

import asyncio
import hashlib
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ServiceError
from ..limits import RateLimiter, clean_text
from ..table import seats as seat_keys
from ..table import updates
from ..table.events import ChatPosted
from ..table.fanout import HIDDEN, MUTES, Change, Notice
from ..table.hub import Hub
from ..table.runtime import Runtime
from ..table.tables import SPECTATOR, LiveGame, Subscriber

TABLE = "table"
SPECTATORS = "spectators"
PRIVATE = "seats:"
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


def sent(record: dict[str, Any]) -> dict[str, Any]:
    """A message as clients receive it: without the server's own fields."""
    return {k: v for k, v in record.items() if k not in ("account", "hidden")}


def is_public(channel: str) -> bool:
    """Channels a finished game's replay shows."""
    return channel in (TABLE, SPECTATORS)


SPECTATOR_TAG_HEX = 16  # 64 bits: finding a key of someone else's tag takes ~2^63 hashes


def spectator_tag(game_id: str, key: str) -> str:
    """A spectator's name: the hash of a key their browser keeps, different in every game. Long
    enough that no one finds another key of the same tag to write under it (four hex digits
    were found by trying keys in 0.02 s)."""
    return hashlib.sha256(f"{game_id}:{key}".encode()).hexdigest()[:SPECTATOR_TAG_HEX]


@dataclass
class Room:
    """A game's chat as this process holds it: the latest messages, in id order."""

    game_id: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    count: int = 0  # the id of the latest message held (ids are 1, 2, ...)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Chat:
    """The chat of the games a process holds (`service.chat`): stored through the runtime's
    store, delivered to the sockets through the hub (server/table/hub.py); each message stored is
    announced as `ChatPosted` (server/table/events.py) for the other processes."""

    def __init__(self, rt: Runtime, hub: Hub) -> None:
        self.rt = rt
        self.hub = hub
        limits = rt.limits
        self.rooms: dict[str, Room] = {}
        self._loads: dict[str, asyncio.Task[Room]] = {}
        self._syncing: dict[str, asyncio.Task[None]] = {}
        # the sockets that asked for the chat (`?chat=1`): an API client that did not gets views only
        self.listeners: weakref.WeakSet[Subscriber] = weakref.WeakSet()
        self.seat_rate = RateLimiter(limits.chat_burst, limits.chat_per_minute, name="chat")
        self.spectator_rate = RateLimiter(limits.spectator_chat_burst, limits.spectator_chat_per_minute, name="chat")
        # each reader account's mutes (server/community/moderation.py loads them before a socket or a
        # history is served, and changes them when the player does)
        self.mutes: dict[int, frozenset[int]] = {}
        self._mute_reads: dict[int, int] = {}  # per account, the notices of a change heard so far

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
        records = await self.rt.db(self.rt.store.list_chat, game_id, 0, ROOM_MESSAGES)
        room = self.rooms.get(game_id)
        if room is None:
            room = self.rooms[game_id] = Room(game_id)
            room.messages = records
            room.count = records[-1]["id"] if records else 0
        return room

    # --- sending ---------------------------------------------------------------------------

    def check_text(self, text: str) -> str:
        limits = self.rt.limits
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
        if live.seats[seat].get("sanctioned"):
            raise ServiceError(403, "error.account_sanctioned", "this account is banned or suspended")
        cleaned = self.check_text(text)
        self._rate(self.seat_rate, (live.id, seat))
        stored_id = f"{seat}:{client_id}" if client_id else None
        account = seat_keys.account_of(live.seats[seat])
        return await self._post(live, target, seat, live.seats[seat]["name"], cleaned, stored_id, account)

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
        self,
        live: LiveGame,
        channel: str,
        sender: int,
        name: str,
        text: str,
        stored_id: str | None,
        account: int | None = None,
    ) -> dict[str, Any]:
        room = await self.room(live)
        record, duplicate = await self.rt.db(
            self.rt.store.append_chat, live.id, channel, sender, name, text, stored_id, account
        )
        await self.sync(live, room, upto=record["id"], fresh=None if duplicate else record)
        self.rt.events.emit(ChatPosted(live))
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
                records = await self.rt.db(self.rt.store.list_chat, live.id, room.count)
            records = [r for r in records if r["id"] > room.count]
            if not records:
                return
            room.messages.extend(records)
            del room.messages[:-ROOM_MESSAGES]
            room.count = records[-1]["id"]
            self._deliver(live, records)  # no await since the append: no socket misses them

    def reader(self, live: LiveGame, seat: int) -> frozenset[int]:
        """The accounts the player of `seat` muted (none for a guest or a spectator)."""
        account = seat_keys.account_of(live.seats[seat]) if 0 <= seat < len(live.seats) else None
        return self.mutes.get(account, frozenset()) if account is not None else frozenset()

    def _deliver(self, live: LiveGame, records: list[dict[str, Any]]) -> None:
        cache: dict[tuple[int, ...], bytes] = {}

        def message_for(seat: int) -> bytes | None:
            start = private_from(live, seat)
            muted = self.reader(live, seat)
            mine = tuple(
                r["id"] for r in records if may_read(r, seat, start) and not r["hidden"] and r["account"] not in muted
            )
            if not mine:
                return None
            if mine not in cache:
                cache[mine] = chat_message([r for r in records if r["id"] in mine], history=False)
            return cache[mine]

        for sub in list(live.subscribers):  # the seats' sockets and the spectators' (seat SPECTATOR)
            if sub not in self.listeners:
                continue
            message = message_for(sub.seat)
            if message is not None:
                self.hub.send(live, sub, message)

    def visible(self, live: LiveGame, room: Room, seat: int, public_only: bool = False) -> list[dict[str, Any]]:
        """The latest `max_chat_history` messages `seat`'s current player may read (only the
        public channels with `public_only`: a replay)."""
        start = private_from(live, seat)
        muted = self.reader(live, seat)
        out = [
            sent(r)
            for r in room.messages
            if may_read(r, seat, start)
            and (not public_only or is_public(r["channel"]))
            and not r["hidden"]
            and r["account"] not in muted
        ]
        return out[-self.rt.limits.max_chat_history :]

    async def load_mutes(self, live: LiveGame, seat: int) -> None:
        """Reads the mutes of the account `seat` is bound to (before its socket or history is
        served; then a change, through any process, comes as `set_mutes` or a notice)."""
        account = seat_keys.account_of(live.seats[seat]) if 0 <= seat < len(live.seats) else None
        if account is not None:
            self.mutes[account] = await self._stored_mutes(account)

    async def _stored_mutes(self, account: int) -> frozenset[int]:
        from .moderation_store import ModerationStore

        return frozenset(await self.rt.db(ModerationStore(self.rt.store).mutes_of, account))

    async def recheck(self) -> None:
        """After the fan-out reconnected (a notice may have been missed meanwhile): the hidden
        messages of the rooms held and the mutes of the accounts held, read again from the
        store; the screens a difference concerns read again."""
        from .moderation_store import ModerationStore

        ids = [game_id for game_id in self.rooms if game_id in self.rt.games]
        try:
            hidden = await self.rt.db(ModerationStore(self.rt.store).hidden_messages, ids)
        except ServiceError:
            return  # the database is away: the screens read them again when they reconnect
        for game_id, messages in hidden.items():
            room = self.rooms.get(game_id)
            live = self.rt.games.get(game_id)
            fresh = [r for r in room.messages if r["id"] in messages and not r["hidden"]] if room is not None else []
            for record in fresh:
                record["hidden"] = True
            if fresh and live is not None:
                self.regreet(live)
        for account in list(self.mutes):
            self._mute_reads[account] = self._mute_reads.get(account, 0) + 1
            await self._reload_mutes(account, self._mute_reads[account])

    def set_mutes(self, account: int, muted: frozenset[int], tell: bool = True) -> None:
        """The account's mutes changed (stored already): his screens in this process read again,
        without (or with) the muted players' messages; with `tell`, the other processes hear of
        it (their screens of his read his stored mutes again)."""
        if not tell and self.mutes.get(account) == muted:
            return  # heard of from another process, and known already
        self.mutes[account] = muted
        for live in list(self.rt.games.values()):
            seats = {i for i, s in enumerate(live.seats) if seat_keys.account_of(s) == account}
            if seats:
                self.regreet(live, seats)
        if tell:
            self._tell(Notice(self.rt.node, MUTES, account=account))

    def _tell(self, notice: Notice) -> None:
        if self.rt.fanout.shared:
            self.rt.spawn(self.rt.fanout.publish(notice))

    def on_notice(self, notice: Notice) -> None:
        """Another process's moderation act: a message hidden, or an account's mutes changed
        (read again from the store if this process holds them: it serves his screens)."""
        if notice.what == HIDDEN:
            self.hide(notice.game, notice.message, tell=False)
        elif notice.what == MUTES and notice.account in self.mutes:
            self._mute_reads[notice.account] = self._mute_reads.get(notice.account, 0) + 1
            self.rt.spawn(self._reload_mutes(notice.account, self._mute_reads[notice.account]))

    async def _reload_mutes(self, account: int, read: int) -> None:
        try:
            muted = await self._stored_mutes(account)
        except ServiceError:
            return  # the database is away: his screens read them again when they reconnect
        if self._mute_reads.get(account) == read:  # a later notice's read is the one to keep
            self.set_mutes(account, muted, tell=False)

    def regreet(self, live: LiveGame, seats: set[int] | None = None) -> None:
        """A fresh history for the chat's sockets (of `seats` only, if given): after a message
        was hidden, or a reader's mutes changed."""
        room = self.rooms.get(live.id)
        if room is None:
            return
        for sub in list(live.subscribers):
            if sub in self.listeners and (seats is None or sub.seat in seats):
                self.hub.send(live, sub, chat_message(self.visible(live, room, sub.seat), history=True))

    def hide(self, game_id: str, message_id: int, tell: bool = True) -> None:
        """An operator hid the message (the store has it): marked in this process's copy, and
        the game's chat sockets here read again without it; with `tell`, the other processes
        do the same."""
        room = self.rooms.get(game_id)
        for record in room.messages if room is not None else []:
            if record["id"] == message_id:
                record["hidden"] = True
        live = self.rt.games.get(game_id)
        if live is not None:
            self.regreet(live)
        if tell:
            self._tell(Notice(self.rt.node, HIDDEN, game=game_id, message=message_id))

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
        live = self.rt.games.get(change.game)
        if room is not None and live is not None and change.chat_count > room.count:
            self._sync_soon(live, room)

    def _sync_soon(self, live: LiveGame, room: Room) -> None:
        task = self._syncing.get(live.id)
        if task is not None and not task.done():
            return  # it reads everything up to the store's count; the poll catches a late one
        self._syncing[live.id] = self.rt.spawn(self._quiet_sync(live, room))

    async def _quiet_sync(self, live: LiveGame, room: Room) -> None:
        try:
            await self.sync(live, room)
        except ServiceError:
            pass  # the database is away: the watchdog's poll tries again

    async def poll(self) -> None:
        """The watchdog's round: the rooms of this process whose stored count moved on."""
        ids = [game_id for game_id in self.rooms if game_id in self.rt.games]
        if not ids:
            return
        counts = await self.rt.db(self.rt.store.chat_counts, ids)
        for game_id, count in counts.items():
            room = self.rooms.get(game_id)
            live = self.rt.games.get(game_id)
            if room is not None and live is not None and count > room.count:
                self._sync_soon(live, room)


def chat_message(records: list[dict[str, Any]], history: bool) -> bytes:
    """`{"type": "chat", "history": bool, "messages": [...]}`; with history, the messages
    replace what the client holds."""
    return updates.encode({"type": "chat", "history": history, "messages": [sent(r) for r in records]})


__all__ = ["Chat", "can_read", "private_channel", "parties", "SPECTATORS", "TABLE", "SPECTATOR"]
