"""The game service: live games in memory, one writer per game, persistence first.

Every action goes through `GameService.submit`: under the game's lock it is validated and
applied by the engine (a refused action raises RuleError and changes nothing), then
committed to the store, and only then acknowledged and broadcast (server/updates.py: a
full view, then deltas). Bots in seats play in a background task per game, each choice
computed on the bots' shared pool (limits.FairPool) so the event loop stays free for the
humans.

The database is never called on the event loop: every store call runs on the service's own
database threads (`GameService.db`), and a database that fails or stalls answers 503 with
Retry-After (StoreUnavailable) instead of freezing the process. A commit that fails leaves
the in-memory copy unusable ("stale"): a recovery task reloads it from the store as soon as
the database answers, sends every socket a full view and restarts the bots.

Many processes may serve one PostgreSQL database (docs/deploy.md). The store is the one
writer's referee: an action is appended only at the game's current action count, so a process
whose copy is behind gets SequenceConflict, reloads and tries again. Every commit is published
on the fan-out (server/fanout.py); the other processes catch up from the store and push to
their sockets, and a watchdog polls the versions of the games held in memory in case a message
was lost. The bots of a game are played by the one process holding its lease in the store.
Seats (credentials, invitations, away/back: server/seats.py) change through
`GameStore.update_seat`, one seat at a time under the game's row lock, so that no process
overwrites another's change.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy.exc import SQLAlchemyError

from ..bots import bot_seed as game_bot_seed
from ..bots import make_bot
from ..engine import Action, Game, Options, action_from_dict, action_to_dict
from ..engine.constants import RULES_VERSION
from ..engine.dice import KEY_BYTES, key_bytes
from ..engine.errors import RuleError, SetupError
from ..engine.rules import DEFAULT_RULES, Rules, RulesError
from ..engine.state import GameState, Notification, upgrade_options
from ..engine.undo import TakeBack
from ..i18n import normalize_language
from ..verify import build_export, new_game
from . import seats as seat_keys
from . import updates, wire
from .fanout import Change, Fanout, LocalFanout, make_fanout
from .limits import DEFAULT_LIMITS, FairPool, Limits, clean_name
from .store import GameStore, SeatTable, SequenceConflict, StoreError, hash_token, new_token, verify_token

log = logging.getLogger("judges.server")

SNAPSHOT_EVERY = 100  # actions between snapshots
SEAT_EVENT_IDS = 1_000_000_000  # ids of the server's seat-takeover notifications start here
# Default seat names: tribes of Israel whose names are not regions of the map.
TRIBES = ("Reuben", "Simeon", "Levi", "Issachar", "Zebulun", "Dan")
BOT_DELAY = float(os.environ.get("JUDGES_BOT_DELAY", "0.15"))  # seconds between bot actions
# A bot seat's search budget, in rollout-rounds (rollouts x horizon): a bigger one would starve
# the other games (about 5-15 ms of CPU per rollout-round, docs/bots.md).
MAX_MCTS_BUDGET = 256
MAX_BOT_SPEC_CHARS = 40
# The bot that plays a human's seat while its player is away (left, or the turn timer ran out):
# the strongest one (docs/bots.md); a game may choose another at creation.
TAKEOVER_BOT = "mcts"
# Options stored with a game that are the server's, not the rules' (never passed to Options).
SERVER_OPTIONS = ("position", "turn_timer", "takeover_bot", "hints")
# Stored client action ids are prefixed with the seat ("2:abc"): ids are unique per seat.
CLIENT_ID_SEP = ":"


def encode_payload(payload: dict) -> bytes:
    """A payload as the JSON a client receives: the one place the typed view becomes JSON."""
    return _json_encoder.encode(payload)


_json_encoder = msgspec.json.Encoder()


def _env_seconds(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


RETRY_AFTER = 2  # seconds: what a 503 tells the client to wait
# How long a process holds a game's bots without renewing; a process that died loses them
# to another after at most this long.
BOT_LEASE_SECONDS = _env_seconds("JUDGES_BOT_LEASE_SECONDS", 5.0)
# Between two polls of the versions of the games in memory (a lost fan-out message, a lease
# to take over, a game to recover).
WATCH_SECONDS = _env_seconds("JUDGES_WATCH_SECONDS", 1.0)
COMMIT_ATTEMPTS = 5  # a client's action against other processes' commits, at most
MAX_HEARD = 1000  # actions the fan-out carried that a game's copy may keep waiting for its turn
VERSION_BATCH = 500  # game ids per version poll query


class ServiceError(Exception):
    """A client's mistake, with the HTTP status it deserves and a message key."""

    def __init__(
        self, status: int, key: str, message: str, headers: dict[str, str] | None = None, **params: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.key = key
        self.message = message
        self.headers = headers
        self.params = params

    def to_dict(self) -> dict:
        return {"error": "ServiceError", "key": self.key, "message": self.message, "params": self.params}


class StoreUnavailable(ServiceError):
    """The database did not answer in time (down, locked, every connection busy): 503."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "error.store_busy",
            "the game's database is not answering; try again in a moment",
            headers={"Retry-After": str(RETRY_AFTER)},
        )


@dataclass(eq=False)
class Subscriber:
    """One websocket: the encoded messages waiting for it (bounded), and how to close it."""

    seat: int
    language: str
    queue: asyncio.Queue
    close: Callable[[int, str], None] = lambda code, key: None  # set by the websocket's handler


@dataclass(eq=False)
class ViewGroup:
    """The sockets of one seat in one language, and the parts of the view they last received."""

    seat: int
    language: str
    parts: dict[str, bytes]
    note_id: int  # the latest engine notification they received
    subscribers: list[Subscriber] = field(default_factory=list)


@dataclass
class LiveGame:
    id: str
    game: Game
    seats: list[dict]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    groups: dict[tuple[int, str], ViewGroup] = field(default_factory=dict)
    client_ids: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, id) -> count after it
    version: int = 0  # of the views in this process: one more at every push
    bot_task: asyncio.Task | None = None
    timer_task: asyncio.Task | None = None
    acted: dict[int, int] = field(default_factory=dict)  # seat -> actions applied in this process
    bots: dict[int, Any] = field(default_factory=dict)
    takeover_bot: str = TAKEOVER_BOT
    hints: bool = True  # the table allows hints (server/hints.py)
    seats_version: int = 0
    # The copy may hold an action the store does not (a commit failed): never shown, never
    # acted on, until the recovery task has reloaded it from the store.
    stale: bool = False
    recovery: asyncio.Task[None] | None = None
    sync_task: asyncio.Task[None] | None = None
    sync_again: bool = False
    lease_until: float = 0.0  # event-loop time until which this process holds the bots' lease
    # The copy was replaced by the store's: the next push sends every socket a full view (the
    # notifications they hold may not be the new copy's).
    full_next: bool = False
    # Other processes' commits this process heard of: the furthest action count and seats
    # version, and the actions the fan-out carried (seq -> (player, action, stored client id)),
    # applied without reading the store when the copy reaches them in order.
    known_count: int = 0
    known_seats_version: int = 0
    heard: dict[int, tuple[int, dict[str, Any], str | None]] = field(default_factory=dict)
    polled: tuple[int, int] = (0, 0)  # the stored (action count, seats version) the watchdog last read

    @property
    def subscribers(self) -> list[Subscriber]:
        return [sub for group in self.groups.values() for sub in group.subscribers]

    def seat_of(self, token: str | None) -> int:
        if not token:
            raise ServiceError(
                401, "error.token_missing", "this needs your seat: open your invitation, or send X-Seat-Token"
            )
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.get("token_hash") and secrets.compare_digest(seat["token_hash"], digest):
                return i
        raise ServiceError(403, "error.token_wrong", "this token belongs to no seat of this game")

    def names(self) -> dict[int, str]:
        return {i: s["name"] for i, s in enumerate(self.seats)}


def _snapshot_data(game: Game) -> dict:
    data = game.to_dict()
    del data["log"]
    return data


def _new_game(options: dict, position: dict | None) -> Game:
    """The setup position, or a scenario position on top of it (docs/scenarios.md)."""
    return new_game(options, position)


def bot_seed(options: Options, seat: int) -> int:
    """The seed of a bot seat's own choices. From a SplitMix64 seed as before; from the dice
    key through a one-way hash, so that a bot's play tells nothing about the key."""
    if options.dice == "splitmix64":
        return game_bot_seed(options.seed, seat)
    digest = hashlib.blake2b(
        f"bot seat {seat}".encode(), digest_size=8, key=key_bytes(options.key), person=b"judges-bot-seed"
    ).digest()
    return int.from_bytes(digest, "little") >> 2


def _game_from_snapshot(data: dict) -> Game:
    # JSON turned the integer keys of the state's dicts into strings: str_keys converts them back.
    state = msgspec.convert(
        {**data["state"], "options": upgrade_options(data["state"]["options"])}, GameState, str_keys=True
    )
    notifications = msgspec.convert(data["notifications"], list[Notification], str_keys=True)
    game = Game(state, notifications=notifications)
    if data.get("takeback"):  # a seat's free steps that an Undo may still take back (snapshots since issue 29)
        game.takeback = TakeBack.from_builtins(data["takeback"])
    return game


def _check_bot(spec: str, label: str) -> None:
    """The check a bot must pass when it first plays, made when the game is created (a bot that
    cannot be built would leave its seat waiting for ever), and the server's search budget."""
    if not isinstance(spec, str) or len(spec) > MAX_BOT_SPEC_CHARS:
        raise ServiceError(
            422, "error.bot", f"{label}: a bot's name or spec has at most {MAX_BOT_SPEC_CHARS} characters"
        )
    try:
        built = make_bot(spec, 0)
    except ValueError as exc:
        raise ServiceError(422, "error.bot", f"{label}: {exc}") from None
    # The budget, and the first stage's samples of every candidate before an early stop: both
    # are rollouts this server plays for each decision (before the CPU budget cuts it).
    horizon = getattr(built, "horizon", 1)
    if (
        getattr(built, "iterations", 0) * horizon > MAX_MCTS_BUDGET
        or (getattr(built, "max_rollouts", lambda: 0)() - getattr(built, "iterations", 0)) * horizon > MAX_MCTS_BUDGET
    ):
        raise ServiceError(
            422,
            "error.bot",
            f"{label}: at most {MAX_MCTS_BUDGET} rollouts x horizon rounds on this server, "
            "for the budget and for the early samples of all the candidates",
        )


def _client_key(player: int, stored_id: str) -> tuple[int, str]:
    """(seat, the client's own id) of a stored client action id ("seat:id"; older games
    stored the bare id)."""
    prefix = f"{player}{CLIENT_ID_SEP}"
    return player, stored_id[len(prefix) :] if stored_id.startswith(prefix) else stored_id


def _same_action(live: LiveGame, seat: int, client_action_id: str, action: Action | dict[str, Any]) -> int:
    """The action count after the seat's action stored under `client_action_id`, when `action`
    is that very action (a retry); a different action under a used id is refused (409)."""
    count = live.client_ids[seat, client_action_id]
    try:
        same = (action if isinstance(action, Action) else action_from_dict(action)) == live.game.log[count - 1]
    except RuleError:
        same = False
    if not same:
        raise ServiceError(
            409,
            "error.client_id_reused",
            f"client_action_id {client_action_id!r} was used for another action of your seat: "
            "a new action needs a new id",
            client_action_id=client_action_id,
        )
    return count


def _stored_client_id(player: int, client_action_id: str | None) -> str | None:
    return f"{player}{CLIENT_ID_SEP}{client_action_id}" if client_action_id else None


class GameService:
    def __init__(self, store: GameStore, limits: Limits = DEFAULT_LIMITS, fanout: Fanout | None = None) -> None:
        self.store = store
        self.limits = limits
        self.bot_pool = FairPool(limits.bot_workers)
        self.games: dict[str, LiveGame] = {}
        self.turn_timers: dict[str, float] = {}  # game id -> seconds
        # game id -> spectators' wake-up queues (server/screen.py sends them the public view)
        self.watchers: dict[str, list[Subscriber]] = {}
        self.fanout: Fanout = fanout or LocalFanout()
        # names this process in the bots' lease and on the fan-out
        self.node = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        # More threads than connections: a call beyond the pool waits pool_timeout for a
        # connection and fails (503), rather than queueing here without a bound.
        self.db_threads = ThreadPoolExecutor(max_workers=store.max_connections * 2 + 4, thread_name_prefix="db")
        self._loads: dict[str, asyncio.Task[LiveGame]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # fire-and-forget tasks, kept until done
        # (game id, seat) -> when this process last stored a sign of life of the seat's player
        self._seen: dict[tuple[str, int], float] = {}
        self._watchdog: asyncio.Task[None] | None = None
        from .chat import Chat  # the table talk (server/chat.py) builds on this module

        self.chat = Chat(self)

    # --- the database, off the event loop ---------------------------------------------------

    async def db(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Runs a store call on the database threads. A database failure (down, timed out,
        no free connection) raises StoreUnavailable; the store's own errors pass through."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db_threads, functools.partial(call, *args, **kwargs))
        except SQLAlchemyError as exc:
            log.warning("database call %s failed: %s", getattr(call, "__name__", call), str(exc).splitlines()[0])
            raise StoreUnavailable() from exc

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- starting and stopping ---------------------------------------------------------------

    async def start(self, fanout: Fanout | None = None) -> None:
        """Connects the fan-out (make_fanout's choice unless given), resumes the unfinished
        games and starts the watchdog."""
        if fanout is None:
            scope = await self.db(self.store.scope)
            fanout = make_fanout(self.store, scope)
        self.fanout = fanout
        await fanout.start(self._on_change)
        await self.resume_all()
        self._watchdog = asyncio.get_running_loop().create_task(self._watch_loop(), name="watchdog")

    async def stop(self) -> None:
        """Stops the background work and hands the bots' leases over at once."""
        tasks = [self._watchdog, *self._tasks]
        for live in self.games.values():
            tasks += [live.bot_task, live.timer_task, live.recovery, live.sync_task]
        for task in tasks:
            if task is not None and not task.done():
                task.cancel()
        await self.fanout.close()
        if self.fanout.shared:
            for live in list(self.games.values()):
                if live.lease_until:
                    with contextlib.suppress(Exception):
                        await self.db(self.store.release_bot_lease, live.id, self.node)
        # idle threads end; a server started again (an app's lifespan may run twice) gets new ones
        self.db_threads.shutdown(wait=False)
        self.db_threads = ThreadPoolExecutor(max_workers=self.db_threads._max_workers, thread_name_prefix="db")

    # --- creating and loading -------------------------------------------------------

    async def create(
        self,
        seats: list[dict],
        wave_pairs: int = DEFAULT_RULES.default_wave_pairs,
        seed: int | None = None,
        round_limit: int | None = None,
        position: dict | None = None,
        turn_timer: float | None = None,
        takeover_bot: str = TAKEOVER_BOT,
        rules: Rules = DEFAULT_RULES,
        host: int | None = None,
        hints: bool = True,
    ) -> tuple[LiveGame, str, dict[int, str]]:
        """A new game under `rules` (stored with its options, so it replays under them for ever).
        Returns the game, the credential of the host's seat (`host`, default: the first human
        seat) and an invitation code for every other human seat (server/seats.py)."""
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise ServiceError(422, "error.players", f"a game has {rules.min_players} to {rules.max_players} seats")
        if not any(s.get("kind") == "human" for s in seats):
            raise ServiceError(422, "error.no_human", "at least one seat must be a human's")
        # Every game rolls the strong dice, keyed by 256 fresh bits nobody chose; only a server
        # started with allow_seeds lets the creator pick a SplitMix64 seed (tests, design).
        dice = dict(dice="blake2b", key=secrets.token_hex(KEY_BYTES)) if seed is None else dict(seed=seed)
        try:
            options = Options(players=len(seats), wave_pairs=wave_pairs, round_limit=round_limit, rules=rules, **dice)
            # off the event loop: a scenario position may be large (every other table goes on)
            game = await asyncio.to_thread(_new_game, msgspec.to_builtins(options), position)
        except SetupError as exc:
            raise ServiceError(422, "error.options", str(exc)) from None
        if host is None:
            humans = [i for i, s in enumerate(seats) if s.get("kind", "human") == "human"]
            host = next((i for i in humans if not seats[i].get("open")), humans[0] if humans else 0)
        if not (0 <= host < len(seats) and seats[host].get("kind", "human") == "human"):
            raise ServiceError(422, "error.host_seat", "the host's seat must be a human seat of the table")
        stored_seats: list[dict[str, Any]] = []
        host_token, invitations = "", {}
        for i, s in enumerate(seats):
            kind = s.get("kind", "human")
            if kind not in ("human", "bot"):
                raise ServiceError(422, "error.seat_kind", f"seat {i + 1}: kind must be human or bot")
            bot = s.get("bot") or "greedy"
            if kind == "bot":
                _check_bot(bot, f"seat {i + 1}")
            seat: dict[str, Any] = {
                "kind": kind,
                "bot": bot if kind == "bot" else None,
                "name": clean_name(s.get("name"), self.limits.max_name_chars) or TRIBES[i],
                "language": normalize_language(s["language"]) if s.get("language") else None,
                "token_hash": None,
                "invite_hash": None,
            }
            if i == host:
                seat["host"] = True
                host_token = seat_keys.new_credential(seat)
                seat["holder"], seat["seen"] = 1, time.time()
            elif kind == "human" and s.get("open"):
                # An open seat waits for whoever takes it from the lobby (server/screen.py):
                # neither credential nor invitation until then.
                seat["open"] = True
            elif kind == "human":
                invitations[i] = seat_keys.new_invitation(seat)
            stored_seats.append(seat)
        _check_bot(takeover_bot, "takeover bot")
        game_id = secrets.token_urlsafe(9)
        stored_options = msgspec.to_builtins(options, str_keys=True)  # as JSON keeps it
        stored_options["takeover_bot"] = takeover_bot
        if position is not None:
            stored_options["position"] = position  # a game started from a scenario position
        if turn_timer:
            stored_options["turn_timer"] = turn_timer  # a server option, not a rule
            self.turn_timers[game_id] = turn_timer
        if not hints:
            stored_options["hints"] = False  # a server option: the table refuses hints
        await self.db(self.store.create_game, game_id, stored_options, options.seed, RULES_VERSION, stored_seats)
        live = LiveGame(id=game_id, game=game, seats=stored_seats, takeover_bot=takeover_bot, hints=hints)
        self.games[game_id] = live
        return live, host_token, invitations

    async def get(self, game_id: str) -> LiveGame:
        """The game in memory, loaded from the store the first time (one load per game at a
        time; a slow load of one game delays no other). A copy whose commit failed is reloaded
        first: StoreUnavailable while the database does not answer."""
        live = self.games.get(game_id)
        if live is None:
            load = self._loads.get(game_id)
            if load is None:
                load = self._loads[game_id] = asyncio.get_running_loop().create_task(self._load_into_memory(game_id))
                load.add_done_callback(lambda _: self._loads.pop(game_id, None))
            live = await asyncio.shield(load)
        if live.stale:
            async with live.lock:
                if live.stale:
                    await self._refresh(live)
        return live

    async def _load_into_memory(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            live = await self.db(self._load, game_id)
            self.games[game_id] = live
            gc.freeze()  # a loaded game lives on: out of the collector's full walks
        return live

    def _load(self, game_id: str) -> LiveGame:
        """Rebuilds a game from the store: the latest snapshot, then the actions after it."""
        try:
            stored = self.store.load(game_id, all_actions=True)
        except KeyError:
            raise ServiceError(404, "error.no_game", f"there is no game {game_id!r}") from None
        records = stored.all_actions or []  # every record: all_actions=True
        try:
            # The stored options are checked as a new table's are (Rules' bounds, RULE_MAXIMA):
            # a game stored before the bounds, or written by hand, is refused, not replayed.
            if stored.snapshot is not None:
                game = _game_from_snapshot(stored.snapshot.data)
                game.log = [action_from_dict(a["action"]) for a in records[: stored.snapshot.seq]]
            else:
                game = _new_game(
                    {k: v for k, v in stored.options.items() if k not in SERVER_OPTIONS},
                    stored.options.get("position"),
                )
        except (SetupError, RulesError, msgspec.ValidationError, ValueError) as exc:
            log.warning("game %s is not loaded: its options break the server's bounds (%s)", game_id, exc)
            raise ServiceError(
                422, "error.game_bounds", "this game's rules are beyond this server's limits: it cannot be opened"
            ) from None
        if stored.options.get("turn_timer"):
            self.turn_timers[game_id] = stored.options["turn_timer"]
        for record in stored.actions:
            game.apply(action_from_dict(record["action"]))
        # Games stored before the option existed were taken over by the greedy bot.
        live = LiveGame(
            id=game_id,
            game=game,
            seats=stored.seats,
            takeover_bot=stored.options.get("takeover_bot", "greedy"),
            hints=stored.options.get("hints", True),
            seats_version=stored.seats_version,
        )
        for record in records:
            if record.get("client_action_id"):
                key = _client_key(record["player"], record["client_action_id"])
                live.client_ids[key] = record["seq"] + 1  # the count after it
        return live

    # --- acting ------------------------------------------------------------------------

    async def submit(self, live: LiveGame, seat: int, action_data: Any, client_action_id: str | None) -> dict:
        """Validates, applies, commits, then broadcasts one action of `seat`."""
        if not isinstance(action_data, dict):
            raise ServiceError(422, "error.malformed_action", "the action must be a JSON object")
        action_data = {**action_data, "player": action_data.get("player", seat)}
        async with live.lock:
            if client_action_id and (seat, client_action_id) in live.client_ids:
                return {"seq": _same_action(live, seat, client_action_id, action_data), "duplicate": True}
            action = action_from_dict(action_data)  # MalformedAction: a RuleError
            if action.player != seat:
                raise ServiceError(403, "error.wrong_seat", f"your token acts for seat {seat}, not {action.player}")
            if live.seats[seat].get("away"):
                raise ServiceError(409, "error.seat_away", "a bot plays your seat now: take it back first")
            seq, duplicate = await self._apply_and_commit(live, action, client_action_id)
            reloaded = live.full_next  # a duplicate found by reloading: the sockets need the copy
        if not duplicate or reloaded:
            await self.broadcast(live)
            self.wake_bots(live)
        return {"seq": seq, "duplicate": duplicate}

    async def _apply_and_commit(
        self, live: LiveGame, action: Action, client_action_id: str | None, attempts: int = COMMIT_ATTEMPTS
    ) -> tuple[int, bool]:
        """Applies and commits one action under the game's lock; returns (the action count
        after it, whether it was a duplicate of one already stored).

        Another process may have committed first (SequenceConflict): the copy is reloaded and
        the action tried again on the fresh position, up to `attempts` times (a bot passes 1:
        its choice was made for the old position). A database failure leaves the copy stale
        and raises StoreUnavailable; the recovery task takes it from there."""
        for attempt in range(attempts):
            if live.stale:
                await self._refresh(live)
            game = live.game
            seq = len(game.log)
            try:
                game.apply(action)  # raises RuleError before changing anything
            except RuleError:
                # refused on a copy that may be behind another process's commits: look once
                if attempt == 0 and self.fanout.shared and await self._caught_up_quietly(live):
                    continue
                raise
            ending = game.state.ending if game.is_over else None
            action_dict = action_to_dict(action)
            stored_id = _stored_client_id(action.player, client_action_id)
            try:
                stored = await self.db(
                    self.store.append_action,
                    live.id,
                    seq,
                    action.player,
                    action_dict,
                    stored_id,
                    ending=ending,
                    winners=game.state.winners if ending else None,
                )
            except SequenceConflict:
                # another process got there first: this copy is behind (and holds our action)
                live.stale = True
                await self._refresh_or_lose(live)
                if client_action_id and (action.player, client_action_id) in live.client_ids:
                    return _same_action(live, action.player, client_action_id, action), True
                if attempts == 1:
                    raise
                continue
            except (StoreUnavailable, StoreError):
                log.warning("action %s of game %s was not stored: the game is reloaded", seq, live.id)
                self._lose_copy(live)
                raise StoreUnavailable() from None
            if not stored:
                # this id was stored before (through another process): the copy applied it twice
                live.stale = True
                await self._refresh_or_lose(live)
                if client_action_id and (action.player, client_action_id) in live.client_ids:
                    return _same_action(live, action.player, client_action_id, action), True
                return len(live.game.log), True
            live.acted[action.player] = live.acted.get(action.player, 0) + 1
            if client_action_id:
                live.client_ids[action.player, client_action_id] = seq + 1
            self._publish(live, (action.player, action_dict, stored_id))
            if (seq + 1) % SNAPSHOT_EVERY == 0:
                # written in the background: the action's acknowledgement and broadcast (every
                # hundredth action's, so exactly the p99 of delivery) never wait for it
                self._spawn(self._save_snapshot(live.id, seq + 1, _snapshot_data(game)))
            return seq + 1, False
        raise StoreUnavailable()  # other processes kept committing first: the client retries

    async def _save_snapshot(self, game_id: str, count: int, data: dict) -> None:
        """Stores the state after `count` actions: only a shortcut for loading, so a failure
        costs nothing but time."""
        try:
            await self.db(self.store.save_snapshot, game_id, count, data)
        except (StoreUnavailable, StoreError) as exc:
            log.warning("snapshot of game %s after %s actions not saved: %s", game_id, count, exc)

    # --- keeping the copy in step with the store ----------------------------------------------

    async def _refresh(self, live: LiveGame) -> None:
        """Replaces the copy by the store's (under the game's lock): the sockets and tasks stay
        attached to the same LiveGame. Raises StoreUnavailable while the database fails."""
        fresh = await self.db(self._load, live.id)
        live.game = fresh.game
        self._take_seats(live, fresh.seats, fresh.seats_version)
        live.client_ids = fresh.client_ids
        live.bots = {}  # rebuilt from their seeds on their next move
        live.heard.clear()
        live.stale = False
        live.full_next = True

    async def update_seat(
        self, live: LiveGame, seat: int, change: Callable[..., bool], *, table: bool = False, quiet: bool = False
    ) -> tuple[list[dict[str, Any]], bool]:
        """Changes one stored seat under its row lock (`GameStore.update_seat`, with its `table`
        and `quiet`) and takes the stored seats into the copy; answers the seats and whether
        their version moved. The caller holds the game's lock."""
        seats, version = await self.db(self.store.update_seat, live.id, seat, change, table=table, quiet=quiet)
        changed = version != live.seats_version
        self._take_seats(live, seats, version)
        return seats, changed

    def _take_seats(self, live: LiveGame, seats: list[dict[str, Any]], version: int) -> None:
        """The stored seats replace the copy's (under the game's lock). The sockets of a seat
        whose credential changed (revoked or reissued, here or by another process) are closed."""
        for seat, (old, new) in enumerate(zip(live.seats, seats, strict=False)):
            if old.get("token_hash") and old.get("token_hash") != new.get("token_hash"):
                for sub in [s for s in live.subscribers if s.seat == seat]:
                    self.unsubscribe(live, sub)
                    sub.close(1008, "error.seat_revoked")
        live.seats, live.seats_version = seats, version

    async def _refresh_or_lose(self, live: LiveGame) -> None:
        try:
            await self._refresh(live)
        except ServiceError:
            self._lose_copy(live)
            raise StoreUnavailable() from None

    def _lose_copy(self, live: LiveGame) -> None:
        """The copy holds what the store may not: hide it until a reload succeeds."""
        live.stale = True
        if live.recovery is None or live.recovery.done():
            live.recovery = asyncio.get_running_loop().create_task(self._recover(live))

    async def _recover(self, live: LiveGame) -> None:
        """Reloads a stale copy as soon as the database answers (pausing longer each time),
        then sends every socket a full view and restarts the bots."""
        pause = 0.2
        while live.stale:
            try:
                async with live.lock:
                    if live.stale:
                        await self._refresh(live)
            except ServiceError as exc:
                if exc.status == 404:  # the game was deleted meanwhile
                    self.games.pop(live.id, None)
                    return
                # the pause ends early when another path (a submission, the fan-out) reloaded
                # the copy: its sockets and bots must not wait out the whole pause
                deadline = asyncio.get_running_loop().time() + pause
                while live.stale and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.1)
                pause = min(5.0, pause * 2)
        log.warning("game %s reloaded from the store after a failed commit", live.id)
        await self.broadcast(live, full=True)
        self.wake_bots(live)

    async def _catch_up(self, live: LiveGame) -> bool:
        """Applies the actions other processes committed and takes their seat changes (under
        the game's lock). Whether anything changed."""
        caught = await self.db(self.store.catch_up, live.id, len(live.game.log))
        if caught.action_count < len(live.game.log):  # the copy is ahead of the store: not ours to trust
            await self._refresh(live)
            return True
        for record in caught.actions:
            if not self._apply_committed(live, record["player"], record["action"], record["client_action_id"]):
                await self._refresh(live)
                return True
        changed = bool(caught.actions)
        if caught.seats_version != live.seats_version:
            self._take_seats(live, caught.seats, caught.seats_version)
            changed = True
        return changed

    def _apply_committed(self, live: LiveGame, player: int, data: dict[str, Any], client_id: str | None) -> bool:
        """Applies to the copy (under the game's lock) the action the store holds at the copy's
        length; False if it does not replay (never expected: the caller reloads the copy)."""
        seq = len(live.game.log)
        action = action_from_dict(data)
        try:
            live.game.apply(action)
        except RuleError:  # pragma: no cover - a stored action always replays
            log.exception("game %s: stored action %s does not replay on the copy", live.id, seq)
            return False
        live.acted[action.player] = live.acted.get(action.player, 0) + 1
        if client_id:
            live.client_ids[_client_key(player, client_id)] = seq + 1
        return True

    def _apply_heard(self, live: LiveGame) -> bool:
        """Applies the actions the fan-out carried that follow the copy, in order, without
        reading the store (under the game's lock). Whether any was applied."""
        applied = False
        while (record := live.heard.pop(len(live.game.log), None)) is not None:
            if not self._apply_committed(live, *record):
                live.heard.clear()
                self._lose_copy(live)  # reloaded from the store by the recovery task
                return False
            applied = True
        for seq in [seq for seq in live.heard if seq < len(live.game.log)]:
            del live.heard[seq]  # came in through the store meanwhile
        return applied

    async def _follow(self, live: LiveGame) -> bool:
        """Brings the copy to the furthest version heard of (under the game's lock): the
        actions the fan-out carried, then the store for anything else (a gap, a seat change).
        Whether anything changed."""
        changed = self._apply_heard(live)
        if live.stale:
            return False
        if len(live.game.log) < live.known_count or live.seats_version < live.known_seats_version:
            changed = await self._catch_up(live) or changed
            changed = self._apply_heard(live) or changed  # those after what the store had then
        return changed

    async def _caught_up_quietly(self, live: LiveGame) -> bool:
        try:
            changed: bool = await self._catch_up(live)
        except ServiceError:
            return False
        return changed

    def _publish(self, live: LiveGame, action: tuple[int, dict[str, Any], str | None] | None = None) -> None:
        """Tells the other processes of a commit; `action`: the one just committed (player,
        dict, stored client id), carried so that they need not read it from the store."""
        if self.fanout.shared:
            count = len(live.game.log)
            chat_count = self.chat.count(live.id)
            if action is None:
                change = Change(self.node, live.id, count, live.seats_version, chat_count)
            else:
                change = Change(self.node, live.id, count, live.seats_version, chat_count, *action)
            self._spawn(self.fanout.publish(change))

    def _on_change(self, change: Change | None) -> None:
        """A change published by another process (None: the fan-out reconnected, and may have
        missed some: poll every game)."""
        if change is None:
            self._spawn(self._poll_versions())
            return
        if change.node == self.node:
            return
        self.chat.on_change(change)
        live = self.games.get(change.game)
        if live is None:
            return
        if change.action is not None and change.action_count > len(live.game.log) and len(live.heard) < MAX_HEARD:
            live.heard[change.action_count - 1] = (change.player, change.action, change.client_action_id)
        self._heard_of(live, change.action_count, change.seats_version)

    def _heard_of(self, live: LiveGame, action_count: int, seats_version: int) -> None:
        """Another process is at this version of the game: follow it if the copy is behind."""
        live.known_count = max(live.known_count, action_count)
        live.known_seats_version = max(live.known_seats_version, seats_version)
        if action_count > len(live.game.log) or seats_version > live.seats_version:
            self._sync(live)

    def _sync(self, live: LiveGame) -> None:
        """Catches the copy up and pushes to its sockets (one task per game; a change that
        arrives meanwhile makes it look again)."""
        if live.sync_task is not None and not live.sync_task.done():
            live.sync_again = True
            return
        live.sync_task = asyncio.get_running_loop().create_task(self._sync_task(live))

    async def _sync_task(self, live: LiveGame) -> None:
        while True:
            live.sync_again = False
            try:
                async with live.lock:
                    changed = not live.stale and await self._follow(live)
            except ServiceError:
                return  # the watchdog looks again
            if changed:
                await self.broadcast(live)
                self.wake_bots(live)
            if not live.sync_again:
                return

    async def _poll_versions(self, at_once: bool = True) -> None:
        """Catches up every unfinished game in memory whose stored version moved on. Not
        `at_once` (the watchdog's round): only a game that was already behind that version at
        the previous round; a commit made meanwhile is normally on its way through the fan-out,
        and reading it from the store as well would double the work of every action under load."""
        lives = [live for live in self.games.values() if not live.game.is_over and not live.stale]
        for start in range(0, len(lives), VERSION_BATCH):
            batch = lives[start : start + VERSION_BATCH]
            versions = await self.db(self.store.versions, [live.id for live in batch])
            for live in batch:
                version = versions.get(live.id)
                if version is None:
                    continue
                seen, live.polled = live.polled, (version.action_count, version.seats_version)
                if not at_once and not (len(live.game.log) < seen[0] or live.seats_version < seen[1]):
                    continue  # behind only what was committed since the last round, if at all
                self._heard_of(live, version.action_count, version.seats_version)

    async def _watch_loop(self) -> None:
        """Every WATCH_SECONDS: games changed by other processes (a lost message), copies to
        recover, bots to restart or to take over from a process that died."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                if self.fanout.shared:
                    await self._poll_versions(at_once=False)
                    await self.chat.poll()
                for live in list(self.games.values()):
                    if live.stale:
                        if live.recovery is None or live.recovery.done():
                            self._lose_copy(live)
                    else:
                        self.wake_bots(live)
                        for seat in {group.seat for group in live.groups.values()}:
                            self.saw(live, seat)  # a socket open here: its player is at the table
            except ServiceError:
                pass  # the database is away: the next round tries again
            except Exception:  # pragma: no cover - the watchdog must outlive any surprise
                log.exception("watchdog round failed")

    # --- bots ----------------------------------------------------------------------------

    def bot_seats_owing(self, live: LiveGame) -> list[int]:
        """Seats a bot plays now: bot seats, and human seats handed to a bot (away)."""
        return [s for s in live.game.waiting_for() if live.seats[s]["kind"] == "bot" or live.seats[s].get("away")]

    # --- seat takeover -------------------------------------------------------------------

    async def set_away(self, live: LiveGame, seat: int, away: bool, reason: str) -> None:
        """Hands a human seat to a bot (the player left, or the turn timer ran out), or gives
        it back. Stored with the game; every player's bell says so."""
        async with live.lock:
            if live.seats[seat]["kind"] != "human":
                return
            event = {"away": away, "reason": reason, "round": live.game.state.round, "after": len(live.game.log)}

            def change(info: dict) -> bool:
                # decided on the stored seat, under its row lock: another process's change stands
                if info["kind"] != "human" or bool(info.get("away")) == away:
                    return False
                info["away"] = away
                self._note(info, event)
                return True

            _, changed = await self.update_seat(live, seat, change)
        if changed:
            self._publish(live)
            await self.broadcast(live)
            self.wake_bots(live)

    # --- private seats (server/seats.py) ----------------------------------------------------

    def _note(self, info: dict[str, Any], event: dict[str, Any]) -> None:
        """Appends an event to a stored seat's history (in a change under its row lock), numbered
        per seat (`n`: its notification's id is unique); a view lists the latest only."""
        number = int(info.get("events", len(info.get("history", []))))
        info["events"] = number + 1
        history = info.setdefault("history", [])
        history.append({**event, "n": number})
        del history[: -self.limits.max_seat_history]

    def _event(self, live: LiveGame, kind: str, **params: Any) -> dict[str, Any]:
        return {"event": kind, "round": live.game.state.round, "after": len(live.game.log), **params}

    def holds_a_seat(self, live: LiveGame, token: str | None) -> int | None:
        """The seat of this game whose credential `token` is, or None."""
        try:
            return live.seat_of(token) if token else None
        except ServiceError:
            return None

    def refuse_seated(self, live: LiveGame, token: str | None) -> None:
        """A player holds one seat of a table: a credential of this game (the host's among them)
        cannot claim or take another."""
        if self.holds_a_seat(live, token) is not None:
            raise ServiceError(409, "error.seat_held", "you already hold a seat at this table")

    async def claim(self, live: LiveGame, code: str, current: str | None = None) -> tuple[int, str]:
        """Spends an invitation: its seat gets a fresh credential, returned to the claimer only.
        A seat that a bot played meanwhile (revoked) comes back to its new player, whose private
        conversations start now (server/seats.py, `hand_to`). `current`: the credential the
        claimer already holds, if any (refused if it is a seat of this game). Decided on the
        stored seat (another process may have spent or replaced the invitation)."""
        self.refuse_seated(live, current)
        caught = False
        async with live.lock:
            seat = seat_keys.invited_seat(live.seats, code)
            if seat is None and self.fanout.shared and await self._caught_up_quietly(live):
                caught = True
                seat = seat_keys.invited_seat(live.seats, code)  # opened by another process
            if seat is None:
                raise ServiceError(
                    404, "error.invitation", "this invitation is not valid: it was used, revoked or never issued"
                )
            token = new_token()
            now = time.time()
            claimed = self._event(live, "claimed")
            back = {"away": False, "reason": "claimed", "round": claimed["round"], "after": claimed["after"]}

            def change(info: dict[str, Any], table: SeatTable) -> bool:
                if not verify_token(code, info.get("invite_hash")):
                    return False
                was_away = bool(info.get("away"))
                info["away"] = False
                if seat_keys.hand_to(info, hash_token(token), table.chat_count, now):
                    self._note(info, claimed)  # a new player: the table reads it
                elif was_away:
                    self._note(info, back)
                return True

            seats, changed = await self.update_seat(live, seat, change, table=True)
            taken = verify_token(token, seats[seat].get("token_hash"))
        if changed:
            self._publish(live)
        if changed or caught:  # the copy took other processes' changes: its sockets see them now
            await self.broadcast(live)
            self.wake_bots(live)
        if not taken:
            raise ServiceError(
                404, "error.invitation", "this invitation is not valid: it was used, revoked or never issued"
            )
        return seat, token

    async def seat_for(self, live: LiveGame, token: str | None) -> int:
        """The seat of a credential. A credential this copy does not know may have been made a
        moment ago by another process (an invitation claimed, a seat taken from the lobby):
        before refusing it, the copy takes the stored seats once, so that a player is never
        refused his own new seat (the fan-out may not have reached this process yet)."""
        try:
            return live.seat_of(token)
        except ServiceError as exc:
            if exc.key != "error.token_wrong" or not self.fanout.shared:
                raise
        async with live.lock:
            await self._caught_up_quietly(live)
        return live.seat_of(token)

    def check_host(self, live: LiveGame, seat: int, target: int) -> None:
        if not live.seats[seat].get("host"):
            raise ServiceError(403, "error.not_host", "only the table's host may do this")
        if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == seat:
            raise ServiceError(422, "error.seat_target", "the host can revoke or invite another human seat only")

    async def revoke(self, live: LiveGame, host: int, target: int, invite: bool) -> str | None:
        """The host takes a seat from its player: its credential and invitation stop working
        and the takeover bot plays it; with `invite`, a new invitation (returned) is opened,
        which reserves the seat (the lobby no longer offers it). A seat whose player is present
        (server/seats.py, `present`) is taken only with the consent of every other player
        present, at least one (409 `error.seat_present` otherwise). Decided on the stored seats;
        every seat's bell says who did it and why."""
        self.check_host(live, host, target)
        code = new_token() if invite else None
        now = time.time()
        absent_after = self.limits.absent_after
        refused = False
        async with live.lock:
            event = self._event(live, "reinvited" if invite else "revoked", by=host)

            def change(info: dict[str, Any], table: SeatTable) -> bool:
                nonlocal refused
                why, voters = "unheld", []
                if seat_keys.held(info):
                    why = "away" if info.get("away") else "absent"
                    if seat_keys.present(info, now, absent_after):
                        voters = [
                            i
                            for i, other in enumerate(table.seats)
                            if i not in (host, target)
                            and other["kind"] == "human"
                            and seat_keys.present(other, now, absent_after)
                        ]
                        if not voters or not set(voters) <= set(info.get("consent", [])):
                            refused = True
                            return False
                        why = "consent"
                    info["holder"] = max(1, int(info.get("holder") or 0))
                else:  # nobody held it: an invitation opened, or withdrawn
                    event["event"] = "invited" if invite else "uninvited"
                info["token_hash"] = None
                info["invite_hash"] = hash_token(code) if code else None
                if code:
                    info.pop("open", None)  # reserved for the invited player
                info.pop("consent", None)
                info["away"] = True
                self._note(info, {**event, "why": why, "voters": voters})
                return True

            _, changed = await self.update_seat(live, target, change, table=True)  # closes its sockets here
        if refused:
            raise ServiceError(
                409,
                "error.seat_present",
                "this player is at the table: their seat is handed over once they leave it, run out of time "
                f"or have been gone {absent_after:g} seconds, or if the other players present agree",
                seconds=round(absent_after),
            )
        if changed:
            self._publish(live)  # ...and in the others
            await self.broadcast(live)
            self.wake_bots(live)
        return code

    async def consent(self, live: LiveGame, voter: int, target: int, agree: bool) -> None:
        """A player agrees (or no longer agrees) that another human seat be handed over by the
        host even though its player is present. Kept with the stored seat until it changes
        hands; only the consents of the players present when the host acts count."""
        if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == voter:
            raise ServiceError(
                422, "error.consent_target", "you can agree to hand over another human player's seat only"
            )

        def change(info: dict[str, Any]) -> bool:
            given = set(info.get("consent", []))
            if (voter in given) == agree:
                return False
            info["consent"] = sorted(given | {voter} if agree else given - {voter})
            return True

        async with live.lock:  # no view shows it: the other processes need not hear of it
            await self.update_seat(live, target, change, quiet=True)

    def saw(self, live: LiveGame, seat: int, leaving: bool = False) -> None:
        """A sign of life of the seat's player (a request, a socket open here; `leaving`: its
        last socket here closed), stored as the seat's `seen` in the background, at most every
        quarter of `absent_after` per seat and process (and when the last socket leaves). What
        the host's revocation reads (server/seats.py, `present`): a quiet change of the stored
        seat (the seats' version does not move, no view shows it, the copy is not touched)."""
        token_hash = live.seats[seat].get("token_hash") if 0 <= seat < len(live.seats) else None
        if live.game.is_over or not token_hash:
            return
        now = time.time()
        if leaving:
            leaving = not any(sub.seat == seat for sub in live.subscribers)
        if not leaving and now - self._seen.get((live.id, seat), 0.0) < self.limits.absent_after / 4:
            return
        self._seen[live.id, seat] = now

        def change(info: dict[str, Any]) -> bool:
            if info.get("token_hash") != token_hash or float(info.get("seen", 0.0)) >= now:
                return False  # another player holds it now, or a later sign was stored
            info["seen"] = now
            return True

        self._spawn(self._store_seen(live.id, seat, change))

    async def _store_seen(self, game_id: str, seat: int, change: Callable[[dict[str, Any]], bool]) -> None:
        try:
            await self.db(self.store.update_seat, game_id, seat, change, quiet=True)
        except (ServiceError, StoreError):  # GameNotFound: a game deleted meanwhile
            self._seen.pop((game_id, seat), None)  # the database is away: the next sign tries again

    # Seat events and the notification each one reads as; a revocation's `why` is its line.
    EVENT_KEYS = {
        "revoked": "notification.seat_revoked",
        "reinvited": "notification.seat_reinvited",
        "invited": "notification.seat_invited",
        "uninvited": "notification.seat_uninvited",
        "claimed": "notification.seat_claimed",
    }

    def seat_events(self, live: LiveGame) -> list[dict]:
        """The seats' events as notifications, ordered by the actions before them: takeovers
        (away, back), the host's revocations and invitations (who, and why: the player was
        away, absent, or the others agreed) and new players."""
        out = []
        for seat, info in enumerate(live.seats):
            for event in info.get("history", []):
                entries = []
                if "event" in event:
                    key = self.EVENT_KEYS[event["event"]]
                    params = {"player": seat, "by": event.get("by"), "why": event.get("why")}
                    if event.get("why") in ("away", "absent", "consent"):
                        why = {"player": seat, "voters": event.get("voters", [])}
                        entries.append({"key": f"notification.seat_why.{event['why']}", "params": why})
                else:
                    key = "notification.seat_bot" if event["away"] else "notification.seat_back"
                    params = {"player": seat, "reason": event["reason"]}
                out.append(
                    {
                        "id": SEAT_EVENT_IDS + event["after"] * 1000 + seat * 100 + event.get("n", 0) % 100,
                        "round": event["round"],
                        "phase": "",
                        "key": key,
                        "params": params,
                        "to": list(range(len(live.seats))),
                        "entries": entries,
                        "after": event["after"],
                    }
                )
        out.sort(key=lambda n: n["id"])
        return out

    def watch_timer(self, live: LiveGame) -> None:
        """A per-game turn timer (a game option): a human seat that owes a decision for longer
        than the timer is handed to a bot until its player comes back."""
        timer = self.turn_timers.get(live.id)
        if not timer or (live.timer_task is not None and not live.timer_task.done()):
            return
        live.timer_task = asyncio.get_running_loop().create_task(self._watch(live, timer))

    async def _watch(self, live: LiveGame, timer: float) -> None:
        loop = asyncio.get_running_loop()
        since: dict[int, tuple[float, int]] = {}  # seat -> (owing since, its actions then)
        while not live.game.is_over:
            now = loop.time()
            owing = {
                s for s in live.game.waiting_for() if live.seats[s]["kind"] == "human" and not live.seats[s].get("away")
            }
            for seat in list(since):
                if seat not in owing:
                    del since[seat]
            for seat in owing:
                acted = live.acted.get(seat, 0)
                if seat not in since or since[seat][1] != acted:
                    since[seat] = (now, acted)  # a new decision, or the player is acting
                elif now - since[seat][0] >= timer:
                    del since[seat]
                    await self.set_away(live, seat, True, "timer")
            await asyncio.sleep(min(1.0, timer / 4))

    def wake_bots(self, live: LiveGame) -> None:
        self.watch_timer(live)
        if live.stale or live.game.is_over or not self.bot_seats_owing(live):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))

    async def _hold_bot_lease(self, live: LiveGame) -> bool:
        """Whether this process plays the game's bots now (one process only: the lease in the
        store, renewed when half of it is gone). Alone on its database, a process always does."""
        if not self.fanout.shared:
            return True
        now = asyncio.get_running_loop().time()
        if live.lease_until - now > BOT_LEASE_SECONDS / 2:
            return True
        try:
            held: bool = await self.db(self.store.take_bot_lease, live.id, self.node, BOT_LEASE_SECONDS)
        except ServiceError:
            held = False
        live.lease_until = now + BOT_LEASE_SECONDS if held else 0.0
        return held

    async def _run_bots(self, live: LiveGame) -> None:
        try:
            while not live.game.is_over and not live.stale:
                owing = self.bot_seats_owing(live)
                if not owing:
                    return
                seat = owing[0]
                if not await self._hold_bot_lease(live):
                    return  # another process plays them; the watchdog asks again
                if BOT_DELAY:
                    await asyncio.sleep(BOT_DELAY)
                async with live.lock:
                    if live.stale or seat not in self.bot_seats_owing(live):
                        continue
                    bot = live.bots.get(seat)
                    if bot is None:
                        bot = live.bots[seat] = make_bot(
                            live.seats[seat]["bot"] or live.takeover_bot,
                            bot_seed(live.game.state.options, seat),
                            cpu_budget=self.limits.bot_cpu_seconds,
                        )
                    seq = len(live.game.log)
                    legal = list(live.game.legal_actions(seat))
                    view = live.game.view(seat, notifications=False)
                # The bot thinks outside the game's lock, on the bots' own threads: humans'
                # views and actions, and database commits, never wait for it.
                # The shared pool serves the games in turn; a search bot's thinking is heavy.
                heavy = getattr(bot, "iterations", 0) > 0
                action = await self.bot_pool.run(
                    live.id, heavy, bot.choose, seat, legal, functools.partial(_same, view)
                )
                async with live.lock:
                    if live.stale or len(live.game.log) != seq or seat not in self.bot_seats_owing(live):
                        continue  # someone acted meanwhile, or the player is back: look again
                    try:
                        await self._apply_and_commit(live, action, None, attempts=1)
                    except SequenceConflict:
                        continue  # another process moved first: think again on the fresh copy
                await self.broadcast(live)
        except StoreUnavailable:
            return  # the recovery task (or the watchdog) restarts the bots
        except Exception:  # pragma: no cover - a bot must never take the server down
            log.exception("bot task of game %s failed", live.id)
        finally:
            if live.game.is_over and live.lease_until:
                live.lease_until = 0.0
                self._spawn(self._release_lease(live))

    async def _release_lease(self, live: LiveGame) -> None:
        with contextlib.suppress(ServiceError):
            await self.db(self.store.release_bot_lease, live.id, self.node)

    # --- views and live updates ---------------------------------------------------------------

    def public_parts(self, live: LiveGame) -> wire.Public:
        """The table's current version as every seat shares it (server/wire.py, issue 32)."""
        table = wire.Table(turn_timer=self.turn_timers.get(live.id), takeover_bot=live.takeover_bot, hints=live.hints)
        return wire.public(live.id, live.game, live.seats, table, self.limits.max_view_notifications)

    def seat_parts(self, live: LiveGame, public: wire.Public, seat: int, language: str) -> dict[str, bytes]:
        """The view of `seat` in `language` as the live updates send it (server/wire.py, issue 32)."""
        events = [self.render_note(live, n, language) for n in self.seat_events(live)]
        return wire.parts(wire.view(public, seat, language, seat_events=events), public)

    def render_note(self, live: LiveGame, data: dict, language: str) -> wire.Note:
        return wire.note(data, language, live.game, live.names())  # server/wire.py (issue 32)

    def notes(self, live: LiveGame, seat: int, language: str, after: int) -> tuple[bytes, int]:
        """The seat's engine notifications after id `after` (the latest `max_view_notifications`),
        rendered and encoded, and the latest id."""
        notes: list[Notification] = []
        for n in reversed(live.game.notifications):
            if n.id <= after or len(notes) == self.limits.max_view_notifications:
                break
            if seat in n.to:
                notes.append(n)
        notes.reverse()
        latest = live.game.notifications[-1].id if live.game.notifications else after
        rendered = [self.render_note(live, msgspec.to_builtins(n), language) for n in notes]
        return updates.encode(rendered), max(after, latest)

    def view_bytes(self, live: LiveGame, seat: int, language: str, since: int = -1) -> bytes:
        """The seat's whole view as JSON (GET .../view): the notifications after `since`. Call
        under the game's lock; StoreUnavailable while the copy waits for its reload."""
        if live.stale:
            raise StoreUnavailable()
        parts = self.seat_parts(live, self.public_parts(live), seat, language)
        notes, _ = self.notes(live, seat, language, since)
        return updates.view_bytes(parts, live.version, notes)

    def payload(self, live: LiveGame, seat: int, language: str, since: int = -1) -> dict:
        """The seat's view as a dict (tests, tools): the JSON of `view_bytes`, decoded."""
        return msgspec.json.decode(self.view_bytes(live, seat, language, since))

    async def export(self, live: LiveGame) -> dict:
        """A finished game's export (judges/verify.py): options, revealed seed, commitment,
        action log and result. The seed is secret until the end: 409 before."""
        async with live.lock:
            if not live.game.is_over:
                raise ServiceError(409, "error.not_over", "a game is exported once it is over")
            stored = await self.db(self.store.load, live.id)
            return build_export(live.game, stored.options, live.id)

    async def broadcast(self, live: LiveGame, full: bool = False) -> None:
        """Pushes the new version of the views to every socket of the game in this process: the
        one entry point of live updates. `full`: every socket gets a full view, not a delta (as
        after a reload: the client replaces what it shows)."""
        self.watch_timer(live)
        async with live.lock:  # a view never shows an action before it is committed
            self._push(live, full)

    def _push(self, live: LiveGame, full: bool = False) -> None:
        """A new version of the views: each group of sockets (a seat in a language) gets the
        parts that changed since the version it last received, and its new notifications, as
        bytes built once for the group. Nothing while the copy is stale; a full view for
        everyone once it was replaced by the store's."""
        if live.stale:
            return  # the copy may hold an uncommitted action; the recovery pushes a full view
        for watcher in self.watchers.get(live.id, []):
            try:
                watcher.queue.put_nowait(None)
            except asyncio.QueueFull:  # pragma: no cover - it will send the latest view anyway
                pass
        full = full or live.full_next
        live.full_next = False
        live.version += 1
        if not live.groups:
            return
        public = self.public_parts(live)
        for group in list(live.groups.values()):
            parts = self.seat_parts(live, public, group.seat, group.language)
            if full or not group.parts:
                notes, group.note_id = self.notes(live, group.seat, group.language, -1)
                message = updates.full_message(parts, live.version, notes)
            else:
                # the group's parts are those of the version it last received (the previous one:
                # every push reaches every group), however many actions came since
                notes, group.note_id = self.notes(live, group.seat, group.language, group.note_id)
                message = updates.delta_message(updates.changed(group.parts, parts), parts, live.version, notes)
            group.parts = parts
            for sub in list(group.subscribers):
                self._send(live, sub, message)

    def _send(self, live: LiveGame, sub: Subscriber, message: bytes) -> None:
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
        `sockets_per_seat`, the seat's oldest socket is closed."""
        mine = [sub for sub in live.subscribers if sub.seat == seat]
        for old in mine[: max(0, len(mine) - self.limits.sockets_per_seat + 1)]:
            self.unsubscribe(live, old)
            old.close(1008, "error.too_many_sockets")
        sub = Subscriber(seat=seat, language=language, queue=asyncio.Queue(maxsize=self.limits.socket_queue))
        group = self._group(live, seat, language)
        group.subscribers.append(sub)
        return sub, self.full_message(live, group)

    def full_message(self, live: LiveGame, group: ViewGroup) -> bytes | None:
        if live.stale or not group.parts:
            return None
        notes, _ = self.notes(live, group.seat, group.language, -1)
        return updates.full_message(group.parts, live.version, notes)

    def resync(self, live: LiveGame, sub: Subscriber, language: str | None = None) -> None:
        """A full view for a socket that asks for one (it missed a message, or changed its
        language); call under the game's lock."""
        self.unsubscribe(live, sub)
        sub.language = language or sub.language
        group = self._group(live, sub.seat, sub.language)
        group.subscribers.append(sub)
        message = self.full_message(live, group)
        if message is not None:
            self._send(live, sub, message)

    def _group(self, live: LiveGame, seat: int, language: str) -> ViewGroup:
        group = live.groups.get((seat, language))
        if group is None:
            if live.stale:  # nothing to show yet: the recovery's push sends the full view
                group = live.groups[seat, language] = ViewGroup(seat, language, {}, -1)
            else:
                parts = self.seat_parts(live, self.public_parts(live), seat, language)
                latest = live.game.notifications[-1].id if live.game.notifications else -1
                group = live.groups[seat, language] = ViewGroup(seat, language, parts, latest)
        return group

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        group = live.groups.get((sub.seat, sub.language))
        if group is not None and sub in group.subscribers:
            group.subscribers.remove(sub)
            if not group.subscribers:
                del live.groups[sub.seat, sub.language]

    async def resume_all(self) -> None:
        """After a restart: reload unfinished games whose bots owe a move, and wake them."""
        for summary in await self.db(self.store.list_games):
            if summary.ending is None:
                try:
                    live = await self.get(summary.id)
                except ServiceError:  # pragma: no cover
                    continue
                self.wake_bots(live)


def _same(value: Any) -> Any:
    """A bot's view callback: the view taken under the game's lock."""
    return value
