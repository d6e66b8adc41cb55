"""The server's limits: what one client may ask of it, so that no player can freeze it.

Every limit answers with a `ServiceError` (a status, a message key in the three catalogs, a
message) or, on a websocket, a close code after an error message:

- request bodies larger than `max_body_bytes` (413, `error.too_large`);
- game creation per client address (429 with Retry-After, `error.rate_create`);
- away/back per seat (429 with Retry-After, `error.rate_away`);
- turn timers under `min_turn_timer` seconds (422, `error.turn_timer`);
- websockets per seat (the oldest is closed, `error.too_many_sockets`, code 1008);
- spectators' websockets: `spectators_per_address` per client address,
  `spectators_per_address_per_game` of them in one game, and `spectators_per_game` per game in
  one process; one more is closed at once after an error
  message (`error.too_many_spectators` / `error.spectators_full`, code 4429). Spectators of
  a game share one encoding of the public view per version and language (server/table/screen.py);
- a seat's full views (its sockets' openings and their `resync` and `language` messages):
  `resync_burst` at once, then `resync_per_minute`. A socket opened over the limit is
  closed (`error.rate_resync`, code 1013: try again later); a resync over the limit is
  answered later (the latest asked for, once, when the seat's allowance refills), and a
  socket that sends `resync_abuse` more while one is waiting is closed (code 1008);
- binary websocket frames (`error.binary_frame`, code 1003);
- player names: control and bidi characters removed, at most `max_name_chars`;
- chat messages (server/community/chat.py): cleaned the same way (line breaks kept), at most
  `max_chat_chars` characters and `max_chat_lines` lines (422), `chat_burst` then
  `chat_per_minute` per seat and less for spectators (429 with Retry-After, `error.rate_chat`);
- replays, logs and players' records: `read_burst` then `read_per_minute` per client address
  (429 `error.rate_reads`);
- hints (server/advice/hints.py): one per decision owed, `hint_burst` then `hint_per_minute` per client
  address (429 with Retry-After, `error.rate_hint`), at most `hint_queue` waiting for the bots'
  pool (503, `error.hints_busy`), all tables' hints one share of the pool (`HINTS`);
- the notifications a view holds (`max_view_notifications`) and the takeovers kept per seat;
- the host hands over the seat of a player present (seen less than `absent_after` seconds ago)
  only with the other players' consent (409, `error.seat_present`).

The client address every per-address limit counts is the connection's peer, unless that peer
is one of `trusted_proxies` (`JUDGES_TRUSTED_PROXIES`: addresses or networks, comma-separated;
default none): then the nearest address of `X-Forwarded-For` that is not a trusted proxy (and
`X-Forwarded-Proto` gives the scheme). Anyone may send those headers: from an untrusted peer
they are ignored.

`FairPool` is the bounded pool where bots think, shared fairly across games.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import os
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..settings import Settings
from ..settings import load as load_settings
from . import metrics, workers
from .errors import ServiceError

log = logging.getLogger("judges.server")

__all__ = [
    "DEFAULT_LIMITS",
    "HINTS",
    "BodySizeLimit",
    "FairPool",
    "Limits",
    "RateLimiter",
    "SecurityHeaders",
    "StrictJSON",
    "WorkerLost",
    "clean_name",
    "clean_text",
]


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 64 * 1024
    sockets_per_seat: int = 4
    socket_queue: int = 64  # messages waiting for a slow socket before it is dropped
    create_burst: int = 30  # games an address may create at once...
    create_per_minute: float = 6.0  # ...and then this many a minute
    away_burst: int = 6
    away_per_minute: float = 6.0
    min_turn_timer: float = 10.0
    max_name_chars: int = 40
    max_view_notifications: int = 200  # the latest notifications a view holds
    max_seat_history: int = 20  # takeovers (away/back) kept per seat
    # A seat's player with no socket open and no request for this long is absent: the host may
    # hand the seat to someone else without the table's consent (server/table/seats.py, `present`).
    absent_after: float = 300.0
    # table talk (server/community/chat.py)
    max_chat_chars: int = 500  # a message's characters, after cleaning
    max_chat_lines: int = 12  # its lines
    chat_burst: int = 5  # messages a seat may send at once...
    chat_per_minute: float = 20.0  # ...and then this many a minute
    spectator_chat_burst: int = 3  # the same for a spectator (by address)
    spectator_chat_per_minute: float = 6.0
    max_chat_history: int = 300  # the latest messages a socket receives when it opens
    # spectators (server/table/screen.py)
    spectators_per_address: int = 8  # spectator sockets one client address may hold open...
    spectators_per_game: int = 200  # ...and one game may have, in one process
    # a seat's full views: its sockets' openings, resync and language messages (server/routes/live.py)
    resync_burst: int = 10
    resync_per_minute: float = 30.0
    resync_abuse: int = 100  # messages sent while a late resync waits, before the socket is closed
    # the proxies whose X-Forwarded-For/-Proto are believed (addresses or networks); none by default
    trusted_proxies: tuple[str, ...] = ()
    bot_workers: int = max(2, os.cpu_count() or 2)  # the bots' pool's threads, when bot_processes is 0
    # The bots' pool's worker processes for searches (never holding the event loop's interpreter
    # lock), started at `bot_nice` below the server's priority; 0: the bot_workers threads instead
    bot_processes: int = max(2, os.cpu_count() or 2)
    bot_nice: int = 10
    bot_cpu_seconds: float = 2.0  # CPU a search bot may spend on one decision
    # hints (server/advice/hints.py): one per decision owed; per client address `hint_burst` at once,
    # then `hint_per_minute`; at most `hint_queue` waiting for the pool (503 past it)
    hint_burst: int = 6
    hint_per_minute: float = 6.0
    hint_queue: int = 8
    # replays, logs and players' records, per client address (a replay plays the game again)
    read_burst: int = 40
    read_per_minute: float = 240.0
    # spectators' places one client address may take in one game (its sockets at all games:
    # spectators_per_address), so that a few addresses cannot fill a game's places
    spectators_per_address_per_game: int = 2

    def __post_init__(self) -> None:
        for entry in self.trusted_proxies:
            if entry != "*":
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(f"trusted proxy {entry!r}: not an IP address or network") from None

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Limits:
        """The defaults, with JUDGES_CREATE_PER_MINUTE / JUDGES_CREATE_BURST for load tests,
        JUDGES_ABSENT_AFTER (the browser tests' notices), JUDGES_BOT_WORKERS, JUDGES_BOT_PROCESSES, JUDGES_BOT_NICE and
        JUDGES_TRUSTED_PROXIES (the reverse proxies in front of the server: docs/deploy.md);
        `settings` default: read now (judges/settings.py)."""
        settings = settings or load_settings()
        values: dict[str, Any] = {}
        if settings.proxies:
            values["trusted_proxies"] = settings.proxies
        names = ("create_per_minute", "create_burst", "absent_after", "bot_workers", "bot_processes", "bot_nice")
        for name in names:
            if getattr(settings, name) is not None:
                values[name] = getattr(settings, name)
        return cls(**values)


DEFAULT_LIMITS = Limits()


# --- names ---------------------------------------------------------------------------------


def clean_name(text: str | None, max_chars: int = DEFAULT_LIMITS.max_name_chars) -> str:
    """A player's name as others will read it: NFC, without control or format characters
    (category C*: this removes the bidi overrides and isolates, zero-width characters and
    line breaks, which could reorder or hide what other players see), spaces collapsed,
    at most `max_chars` characters. May be empty."""
    text = unicodedata.normalize("NFC", text or "")
    kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())[:max_chars].strip()


def clean_text(text: str | None) -> str:
    """A chat message as others will read it: cleaned as a name (NFC, no control, format or
    bidi characters, spaces collapsed) line by line; line breaks are kept, blank lines at
    either end dropped. Not cut: the caller refuses a text that is too long. May be empty."""
    lines = unicodedata.normalize("NFC", text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    cleaned = [clean_name(line, max_chars=len(line)) for line in lines]
    while cleaned and not cleaned[0]:
        cleaned.pop(0)
    while cleaned and not cleaned[-1]:
        cleaned.pop()
    return "\n".join(cleaned)


# --- rates ---------------------------------------------------------------------------------


class RateLimiter:
    """Token buckets by key (a client address, a game's seat): `burst` at once, then
    `per_minute`. Remembers at most `max_keys` keys (the least recently seen are forgotten),
    so a flood of addresses cannot grow it without bound. `name`: its label in the metrics'
    count of refusals (server/metrics.py, `judges_rate_limited_total`)."""

    def __init__(
        self,
        burst: int,
        per_minute: float,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
        name: str = "other",
    ) -> None:
        self.refused = metrics.RATE_LIMITED.labels(name)
        self.burst = burst
        self.rate = per_minute / 60.0
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[Any, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def take(self, key: Any) -> float | None:
        """Takes one token: None if allowed, else the seconds until the next token."""
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        if allowed:
            return None
        self.refused.inc()
        return (1.0 - tokens) / self.rate if self.rate > 0 else 3600.0

    def give_back(self, key: Any) -> None:
        """Returns the token a request took (it turned out not to count: a right password)."""
        found = self._buckets.get(key)
        if found is not None:
            self._buckets[key] = (min(float(self.burst), found[0] + 1.0), found[1])


# --- ASGI middleware ---------------------------------------------------------------------


class BodySizeLimit:
    """Refuses request bodies over `max_bytes` with 413 before the application reads them
    (a declared Content-Length at once; a chunked body as soon as it grows past the limit)."""

    def __init__(self, app: ASGIApp, max_bytes: int, refuse: Callable[[Request], Any]) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.refuse = refuse  # builds the translated 413 response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self.refuse(Request(scope))(scope, receive, send)
            return
        if declared is not None or scope["method"] in ("GET", "HEAD"):
            # a declared length is enforced by the server; no chunked body to count
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                await self.refuse(Request(scope))(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class StrictJSON:
    """Refuses a JSON request body that Python's json module would take but that is no JSON a
    client may send (400, before any route reads it): NaN and Infinity, numbers out of range,
    lone surrogates in strings (they cannot be encoded again, in a reply or the database),
    invalid UTF-8, nesting deep enough to exhaust the parser's stack. The body is read here in
    full (BodySizeLimit, outside, has bounded it) and handed on unchanged."""

    def __init__(self, app: ASGIApp, refuse: Callable[[Request], Any]) -> None:
        self.app = app
        self.refuse = refuse  # builds the translated 400 response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        content_type = dict(scope["headers"]).get(b"content-type", b"")
        if b"json" not in content_type:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if body:
            try:
                msgspec.json.decode(body)
            except (msgspec.DecodeError, RecursionError):
                await self.refuse(Request(scope))(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# Scripts only from this site, no framing, no plugins. Styles may be inline (the screen sets
# colours per seat); the interactive API documentation (/docs) loads its own scripts.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
# `same-origin`: no other site learns an address of ours (an invitation's, a mail link's code),
# and a browser names this site in its own requests' Origin (server/table/seats.py, `same_origin`).
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


class SecurityHeaders:
    """Adds the Content-Security-Policy and the usual security headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        csp = (DOCS_CSP if path in ("/docs", "/redoc") else CSP).encode()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(b"content-security-policy", csp), *SECURITY_HEADERS]
                message["headers"] = [*message.get("headers", []), *(h for h in extra if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)


# --- bot thinking ---------------------------------------------------------------------------


#: The share of the bots' pool every table's hints take together (no table's id: ids have no
#: spaces): the hints of many tables are served as one table's bots are, so however many
#: tables ask, they cannot take more of the pool than one table of bots.
HINTS = "hints of every table"


class WorkerLost(ServiceError):
    """A job whose worker process died (killed, out of memory): the job failed and is charged
    nothing; the pool has started fresh workers. A bot's turn asks again; a hint or a review
    answers 503, asked again it is searched again."""

    def __init__(self) -> None:
        super().__init__(
            503, "error.search_lost", "the search stopped before it finished: ask again", headers={"Retry-After": "2"}
        )


class FairPool:
    """A bounded pool of workers where the bots think, shared fairly across games.

    Heavy jobs (searches: a search bot's choice, a hint, a review) run in `processes` worker
    processes at a lower scheduling priority (`nice`): a search never holds the server's
    interpreter lock against its event loop. Light jobs (a greedy or random bot's choice, a few
    milliseconds, fewer than a message to a process and back) run on a thread, and every job
    does with `processes` 0 (`workers` threads). A heavy job's function and what it takes and
    gives back must pickle (server/workers.py); a worker process that dies fails the jobs it ran
    (`WorkerLost`) and the next search starts a fresh pool.

    Each game's jobs wait in a queue of their own. A free worker serves, among the games
    waiting, the one whose bots have used the least CPU lately (seconds of the worker's CPU,
    halved every `half_life` seconds; ties in arrival order): a table whose bots think for
    seconds waits behind every table whose bots think for milliseconds, so no table starves
    another, however many hostile tables there are. Heavy jobs may occupy at most `workers - 1`
    places (with processes: one each): one is always left to light jobs. A search's own time is
    bounded by its CPU budget (`Limits.bot_cpu_seconds`)."""

    QUANTUM = 0.05  # CPU seconds below which two games' use counts as the same

    def __init__(
        self, workers: int, half_life: float = 30.0, max_games: int = 10_000, processes: int = 0, nice: int = 10
    ) -> None:
        self.processes = max(0, processes)
        # with processes: one per search running at once, and one place more for light jobs
        self.workers = self.processes + 1 if self.processes else max(2, workers)
        self.nice = nice
        self.executor: ProcessPoolExecutor | None = None  # the searches' processes, from the first
        self.threads: ThreadPoolExecutor | None = None  # light jobs (every job without processes)
        self._lifeline: tuple[Connection, Connection] | None = None  # the workers' pipe (reading, writing end)
        self._queues: dict[bool, OrderedDict[str, deque[Any]]] = {False: OrderedDict(), True: OrderedDict()}
        self._running = 0
        self._running_heavy = 0
        # the metrics of the pool's work: CPU seconds and jobs, the bots' apart from the hints'
        self._counted = {job: (metrics.BOT_CPU.labels(job), metrics.BOT_JOBS.labels(job)) for job in ("bot", "hint")}
        self.half_life = half_life
        self.max_games = max_games
        self._used: OrderedDict[str, tuple[float, float]] = OrderedDict()  # game -> (CPU seconds, at)
        self.started: list[tuple[str, bool]] = []  # (game, heavy) of the latest starts, for tests
        self._history = 256

    def _executor(self, heavy: bool) -> Executor:
        if heavy and self.processes:
            if self.executor is None:
                context = workers.context()
                if self._lifeline is None:
                    # the workers' lifeline: they hold the reading end, this process the only
                    # writing end, which the system closes when this process ends, even killed
                    self._lifeline = context.Pipe(duplex=False)
                self.executor = ProcessPoolExecutor(
                    max_workers=self.processes,
                    mp_context=context,
                    initializer=workers.start_worker,
                    initargs=(self.nice, self._lifeline[0]),
                )
            return self.executor
        if self.threads is None:
            self.threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="bot")
        return self.threads

    def close(self) -> None:
        """Stops the workers now (a worker process is killed mid-job) and fails the jobs
        waiting; the next job starts the pool again (an app's lifespan may run twice)."""
        for queues in self._queues.values():
            for queue in queues.values():
                for future, *_ in queue:
                    if not future.done():
                        future.cancel()
            queues.clear()
        threads, self.threads = self.threads, None
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)
        executor, self.executor = self.executor, None
        if executor is not None:
            for process in list((executor._processes or {}).values()):
                process.kill()
            # its workers dead, the pool's own thread ends at once; waiting for it lets the
            # pool's queues go, and with them their semaphores (a server ended by a signal
            # would leave them to the system's resource tracker)
            executor.shutdown(wait=True, cancel_futures=True)
        lifeline, self._lifeline = self._lifeline, None
        for end in lifeline or ():
            end.close()

    async def run(self, game: str, heavy: bool, fn: Callable[..., Any], *args: Any, apart: bool = True) -> Any:
        """Runs fn(*args) on a worker when the game's turn comes; returns its result. `game` is
        whose share the job takes: a table's id, or a name shared by a kind of jobs served as one
        table (`HINTS`: every table's hints together). `apart`: a heavy job may run in a worker
        process (fn and its data pickle); else on a thread, a place of the heavy jobs all the same."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queues[heavy].setdefault(game, deque()).append((future, fn, args, apart))
        self._dispatch()
        return await future

    @property
    def running(self) -> int:
        """The jobs running now."""
        return self._running

    def pending(self, game: str | None = None) -> int:
        """The jobs waiting (of `game`'s share only, when given)."""
        if game is not None:
            return sum(len(queues.get(game, ())) for queues in self._queues.values())
        # each table's queues copied at once: the metrics' own listener reads this from its thread
        return sum(len(q) for queues in self._queues.values() for q in list(queues.values()))

    def used(self, game: str) -> float:
        """The CPU seconds the game's bots used lately (decayed)."""
        seconds, at = self._used.get(game, (0.0, 0.0))
        return seconds * 0.5 ** ((time.monotonic() - at) / self.half_life) if seconds else 0.0

    def _charge(self, game: str, seconds: float) -> None:
        self._used[game] = (self.used(game) + seconds, time.monotonic())
        self._used.move_to_end(game)
        while len(self._used) > self.max_games:
            self._used.popitem(last=False)

    def _next(self, heavy: bool) -> tuple[str, asyncio.Future[Any], Callable[..., Any], tuple[Any, ...], bool] | None:
        queues = self._queues[heavy]
        while queues:
            # the least used, counted in quanta (a few milliseconds apart are equals); min keeps
            # the first of equals, and a game served goes to the back: round-robin among equals
            game = min(queues, key=lambda g: int(self.used(g) / self.QUANTUM))
            queue = queues.pop(game)
            future, fn, args, apart = queue.popleft()
            if queue:
                queues[game] = queue
            if not future.cancelled():
                return game, future, fn, args, apart
        return None

    def _dispatch(self) -> None:
        while self._running < self.workers:
            job, heavy = self._next(False), False
            if job is None and self._running_heavy < self.workers - 1:
                job, heavy = self._next(True), True
            if job is None:
                return
            game, future, fn, args, apart = job
            self._running += 1
            self._running_heavy += heavy
            self.started.append((game, heavy))
            del self.started[: -self._history]
            executor = self._executor(heavy and apart)
            inner: asyncio.Future[Any]
            if executor is self.executor and len(executor._processes or {}) < self.processes:
                # a worker process may be started for it: started off the event loop (the
                # first waits for the fork server to load the engine, a second or more)
                inner = asyncio.ensure_future(workers.submit_apart(executor, fn, args))
            else:
                inner = asyncio.get_running_loop().run_in_executor(executor, workers.timed, fn, args)
            inner.add_done_callback(
                functools.partial(self._finished, game=game, future=future, heavy=heavy, executor=executor)
            )

    def _finished(
        self, done: asyncio.Future[Any], game: str, future: asyncio.Future[Any], heavy: bool, executor: Executor
    ) -> None:
        self._running -= 1
        self._running_heavy -= heavy
        if done.cancelled():
            future.cancel()
        else:
            error: BaseException | None = done.exception()
            result, seconds = (None, 0.0) if error is not None else done.result()
            if isinstance(error, workers.Failed):
                seconds = error.seconds
                error = error.error
            elif isinstance(error, BrokenProcessPool):
                metrics.BOT_WORKERS_LOST.inc()
                log.warning("a worker process of the bots' pool died: its jobs failed, the pool starts again")
                error = WorkerLost()
                if self.executor is executor:  # the first of its jobs to fail: a fresh pool next
                    self.executor = None
                    executor.shutdown(wait=False, cancel_futures=True)
            self._charge(game, seconds)
            cpu, jobs = self._counted["hint" if game == HINTS else "bot"]
            cpu.inc(seconds)
            jobs.inc()
            if not future.cancelled():
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(result)
        self._dispatch()
