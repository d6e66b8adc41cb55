"""Fan-out: every process serving games from one database hears of every committed change.

A process that commits an action (or a seat change) publishes a small message, the game's id
and how far it now is; every other process that holds the game in memory catches up from the
store and pushes the new view to its own websockets. An action's message also carries the
committed action, so that a process one action behind applies it to its copy without asking
the store; anything else (a seat change, a gap, a copy that is not where the message starts)
is read from the store, which stays the one source. A lost message costs only latency, since
the service also polls the versions of the games it holds (`GameService`'s watchdog).

    fanout = make_fanout(store)          # Redis if JUDGES_REDIS_URL, PostgreSQL, or local
    await fanout.start(deliver)          # deliver(Change) for each change of another process,
                                         # deliver(None) after (re)connecting: anything may be missed
    await fanout.publish(Change(node, game_id, action_count, seats_version, chat_count))
    await fanout.publish(Notice(node, HIDDEN, game=game_id, message=7))   # deliver(Notice) elsewhere
    await fanout.close()

A `Notice` tells of what changes what screens show without moving a game's version: an
operator hid a chat message, a player's mutes changed (server/community/moderation.py).

Three kinds behind this one interface:
  LocalFanout     one process (SQLite, the default): nothing to tell anyone.
  PostgresFanout  LISTEN/NOTIFY on the game database itself, the default on PostgreSQL.
  RedisFanout     Redis pub/sub, when JUDGES_REDIS_URL is set (keeps NOTIFY traffic off the
                  database; several databases may share one Redis: channels are per database).

Both network kinds reconnect by themselves (with a growing pause, at most RECONNECT_MAX
seconds) and call deliver(None) after each reconnection.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
from sqlalchemy.engine import make_url

from ...extras import require
from ...settings import Settings
from ...settings import load as load_settings
from ..store import GameStore

log = logging.getLogger("judges.server.fanout")

REDIS_URL_ENV = "JUDGES_REDIS_URL"
RECONNECT_MAX = 2.0  # seconds between reconnection attempts, at most


class Change(msgspec.Struct, array_like=True, frozen=True):
    """A committed change of a game, as published by the process `node` that made it. An
    action's change also carries the action itself (number action_count - 1, as stored: its
    player, its dict and its stored client id), so that a process whose copy is just one
    action behind applies it without reading the store."""

    node: str
    game: str
    action_count: int
    seats_version: int
    chat_count: int = 0  # the game's chat messages (server/community/chat.py)
    player: int = -1
    action: dict[str, Any] | None = None
    client_action_id: str | None = None


HIDDEN = "hidden"  # an operator hid the chat message `message` of `game`
MUTES = "mutes"  # the account `account` muted or unmuted someone


class Notice(msgspec.Struct, frozen=True, tag="notice"):
    """A moderation act of the process `node` that open screens show at once: `what` is HIDDEN
    (with `game` and `message`) or MUTES (with `account`); the store has the act already. A
    JSON object, where a Change is an array: a process from before notices ignores it."""

    node: str
    what: str
    game: str = ""
    message: int = 0
    account: int = 0


Deliver = Callable[[Change | Notice | None], Any]

_decoder = msgspec.json.Decoder(Change)
_notice_decoder = msgspec.json.Decoder(Notice)
# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: a change whose action would not
# fit goes without it (the other processes then read the action from the store).
MAX_PAYLOAD = 7900
# The fields before the carried action's (node, game, action_count, seats_version, chat_count).
ACTION_FIELDS_START = 5


def encode(change: Change | Notice) -> str:
    """A notice as a JSON object; a change as a JSON array, without the action's three fields
    when there is none (the message of a process from before the action was carried, which
    decodes the same); the chat count always goes."""
    if isinstance(change, Notice):
        return msgspec.json.encode(change).decode()
    fields = msgspec.structs.astuple(change)
    head = fields[:ACTION_FIELDS_START]
    data = msgspec.json.encode(fields if change.action is not None else head)
    if len(data) > MAX_PAYLOAD:
        data = msgspec.json.encode(head)
    return data.decode()


def decode(data: str | bytes) -> Change | Notice | None:
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        pass
    try:
        return _notice_decoder.decode(data)
    except msgspec.DecodeError:  # not ours (someone else on the channel): ignored
        return None


def channel_name(scope: str, prefix: str = "judges") -> str:
    """One channel per database (and schema), short enough for a PostgreSQL identifier."""
    return f"{prefix}_{hashlib.sha256(scope.encode()).hexdigest()[:20]}"


class Fanout:
    """One process: publishing tells nobody, and nothing arrives."""

    kind = "local"
    shared = False  # whether other processes may serve the same games

    async def start(self, deliver: Deliver) -> None:
        self.deliver = deliver

    async def publish(self, change: Change | Notice) -> None:
        return None

    async def close(self) -> None:
        return None

    async def ping(self) -> None:
        """Raises when the broker (Redis) does not answer; nothing to ask of one process."""
        return None


LocalFanout = Fanout


class _Listening(Fanout):
    """A listener task that reconnects for ever, and a publisher connection made on demand."""

    shared = True

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self, deliver: Deliver) -> None:
        self.deliver = deliver
        self._task = asyncio.get_running_loop().create_task(self._listen_forever(), name=f"fanout-{self.kind}")

    async def _listen_forever(self) -> None:
        pause = 0.1
        while not self._closed:
            try:
                async for payload in self._listen():
                    pause = 0.1
                    if payload is None:  # (re)connected: changes may have been missed meanwhile
                        self.deliver(None)
                        continue
                    change = decode(payload)
                    if change is not None:
                        self.deliver(change)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection broke: reconnect after a pause
                log.warning("fan-out (%s) listener lost its connection: %s", self.kind, exc)
            await asyncio.sleep(pause)
            pause = min(RECONNECT_MAX, pause * 2)

    async def _listen(self) -> AsyncIterator[str | bytes | None]:  # pragma: no cover - each kind's own
        raise NotImplementedError
        yield

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


class PostgresFanout(_Listening):
    """LISTEN/NOTIFY on the game database (a connection of its own to listen, one to notify)."""

    kind = "postgresql"

    def __init__(self, sqlalchemy_url: str, scope: str) -> None:
        super().__init__()
        # libpq's own URL form (search_path, application_name... travel in its query)
        self.conninfo = make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.channel = channel_name(scope)
        self._publisher: Any = None
        self._pending: list[str] = []  # messages waiting for the publisher's next round trip
        self._flusher: asyncio.Task[None] | None = None

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True, connect_timeout=5)

    async def _listen(self) -> AsyncIterator[str | bytes | None]:
        connection = await self._connect()
        try:
            await connection.execute(f'LISTEN "{self.channel}"')
            yield None
            async for notify in connection.notifies():
                yield notify.payload
        finally:
            with contextlib.suppress(Exception):
                await connection.close()

    async def publish(self, change: Change | Notice) -> None:
        """Queues the message for the publisher connection, which sends everything queued in
        one statement per round trip, in order: under load the messages do not wait in line
        for one round trip each (a slow database would make that line the delivery's tail)."""
        self._pending.append(encode(change))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush(), name="fanout-publish")

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            for attempt in range(2):  # a broken publisher connection is replaced once
                try:
                    if self._publisher is None or self._publisher.closed:
                        self._publisher = await self._connect()
                    await self._publisher.execute(
                        "SELECT pg_notify(%s, message) FROM unnest(%s::text[]) WITH ORDINALITY AS m(message, n) "
                        "ORDER BY n",
                        (self.channel, batch),
                    )
                    break
                except Exception as exc:
                    with contextlib.suppress(Exception):
                        await self._publisher.close()
                    self._publisher = None
                    if attempt:
                        # the other processes' watchdogs will see the changes by polling
                        log.warning("fan-out (postgresql) could not publish %s changes: %s", len(batch), exc)

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            with contextlib.suppress(Exception):  # what was committed is told, if it can be soon
                await asyncio.wait_for(asyncio.shield(self._flusher), 2)
        await super().close()
        if self._flusher is not None:
            self._flusher.cancel()
        if self._publisher is not None:
            with contextlib.suppress(Exception):
                await self._publisher.close()


class RedisFanout(_Listening):
    """Redis pub/sub, one channel per game database."""

    kind = "redis"

    def __init__(self, redis_url: str, scope: str, prefix: str = "judges") -> None:
        super().__init__()
        redis = require("redis.asyncio", "redis", f"{REDIS_URL_ENV} (the fan-out through Redis)")
        self.client = redis.from_url(redis_url, socket_connect_timeout=5, socket_timeout=5, health_check_interval=10)
        self.channel = channel_name(scope, prefix)

    async def _listen(self) -> AsyncIterator[str | bytes | None]:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
            yield None
            while True:
                # a timeout so that a silent, broken connection is noticed by the health check
                message = await pubsub.get_message(timeout=5.0)
                if message is not None and message.get("type") == "message":
                    yield message["data"]
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def publish(self, change: Change | Notice) -> None:
        try:
            await self.client.publish(self.channel, encode(change))
        except Exception as exc:
            log.warning("fan-out (redis) could not publish: %s", exc)

    async def ping(self) -> None:
        await self.client.ping()

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(Exception):
            await self.client.aclose()


def make_fanout(store: GameStore, scope: str | None = None, settings: Settings | None = None) -> Fanout:
    """Redis when JUDGES_REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on PostgreSQL, otherwise
    one process (SQLite). `scope`: the store's (it is asked for it when not given);
    `settings` default: read now (judges/settings.py)."""
    settings = settings or load_settings()
    if settings.redis_url:
        return RedisFanout(settings.redis_url, scope or store.scope(), settings.redis_prefix)
    if not store.is_sqlite:
        return PostgresFanout(store.url, scope or store.scope())
    return LocalFanout()
