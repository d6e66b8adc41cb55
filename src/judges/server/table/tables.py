"""A table as one process holds it (`LiveGame`: the game's copy, its seats, its sockets and
tasks), the sockets' records, and the rules a table's setup and log follow: seat names, bots
allowed, server options, client action ids, snapshots."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from ...engine import Action
from ...engine.errors import RuleError
from ...games.protocol import GameProtocol
from ...games.served import ServedGame
from ..errors import ServiceError, StoreUnavailable
from ..store import hash_token
from .played import DEFAULT_GAME, KITS, TableKit
from .played import bot_seed as played_bot_seed

# A bot seat's search budget, in rollout-rounds (rollouts x horizon): a bigger one would starve
# the other games (about 5-15 ms of CPU per rollout-round, docs/bots.md).
MAX_MCTS_BUDGET = 256
MAX_BOT_SPEC_CHARS = 40
# The bot that plays a human's seat while its player is away (left, or the turn timer ran out),
# unless the table chose another: its game's (the table kit's `takeover_bot`), the default game's
# when none is named.
TAKEOVER_BOT = KITS[DEFAULT_GAME].takeover_bot
# Options stored with a game that are the server's, not the rules' (never passed to Options).
# "pace": a deadline per decision (server/community/paces.py); "course": a table of /learn
# (server/advice/learn.py); "game": the game a table plays when it is not Judges & Kings
# (server/table/played.py, `game_of`; the kits: server/games/registry.py)
SERVER_OPTIONS = ("position", "turn_timer", "takeover_bot", "hints", "pace", "course", "game")
# Stored client action ids are prefixed with the seat ("2:abc"): ids are unique per seat.
CLIENT_ID_SEP = ":"
SPECTATOR = -1  # the seat of a spectator's socket and the sender of a spectator's message: nobody's


# A read of a table (a view, the log, a replay) waits this long for the table's lock, held by
# a commit that may itself wait for the database's (its busy or lock timeout, ~10 s): then 503.
READ_WAIT = 1.0


@asynccontextmanager
async def reading(live: LiveGame) -> AsyncIterator[None]:
    """The table's lock for a read (never an action shown before it is committed), waited for
    at most READ_WAIT seconds: a commit stuck on a locked database answers 503 to the readers
    at once (with Retry-After) instead of holding them for its whole wait."""
    try:
        await asyncio.wait_for(live.lock.acquire(), READ_WAIT)
    except TimeoutError:
        raise StoreUnavailable() from None
    try:
        yield
    finally:
        live.lock.release()


def owed_decisions(game: Any, seat: int) -> list[str]:
    """The decisions `seat` owes now, each named by where the round machine posted it and
    what it is (round, phase, step, kind, subject): a turn keeps its name through its free
    steps and their Undo, and loses it once answered (the machine moves on). A Republic of
    Rome game (the engine's object, as `live.game`) names its turn where J&K names its round."""
    state = game.state
    when = state.round if hasattr(state, "round") else state.turn
    return sorted(f"{when}.{state.phase}.{state.step}.{d.kind}.{d.subject}" for d in state.pending if d.player == seat)


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
    # the engine's own game object (J&K's `Game`, Rome's `RomeGame`): `played` is the game
    # protocol over it, `served` the game as the server hosts it, `kit` its table parts
    game: Any
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
    hints: bool = True  # the table allows hints (server/advice/hints.py)
    pace_hours: float | None = None  # a paced table's hours per decision (server/community/paces.py)
    # The turn timer's clock: seat -> (since when it owes its decision, on the server's clock
    # in seconds since the epoch; its actions then). `owed_since` keeps it.
    owed: dict[int, tuple[float, int]] = field(default_factory=dict)
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
    # The words of the actions' buttons rendered so far (server/games/judges/wire.py, `label`): the same
    # action is offered version after version (a seat's free steps while the others act).
    labels: dict[tuple[Any, ...], str] = field(default_factory=dict)
    kind: str = DEFAULT_GAME  # the game the table plays (games/registry.py)

    @property
    def kit(self) -> TableKit:
        return KITS[self.kind]

    @property
    def served(self) -> ServedGame:
        return KITS[self.kind].served

    @property
    def played(self) -> GameProtocol[Any, Any]:
        """The game protocol over the engine's game (a thin wrapper, made when asked)."""
        return KITS[self.kind].wrap(self.game)

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


def pace_hours(options: dict[str, Any]) -> float | None:
    """A paced table's hours per decision (its stored options' "pace"), or None (live)."""
    pace = options.get("pace")
    if isinstance(pace, dict) and isinstance(pace.get("hours"), int | float):
        return float(pace["hours"])
    return None


def owed_since(live: LiveGame, now: float) -> dict[int, float]:
    """Since when each human seat that owes a decision (and is not handed to a bot) has owed
    it, on the server's clock: what the turn timer measures and the seats' views show. The
    clock starts again at each of the seat's actions (a player still acting is not idle)."""
    owing = {s for s in live.played.to_move() if live.seats[s]["kind"] == "human" and not live.seats[s].get("away")}
    for seat in list(live.owed):
        if seat not in owing:
            del live.owed[seat]
    for seat in owing:
        acted = live.acted.get(seat, 0)
        if seat not in live.owed or live.owed[seat][1] != acted:
            live.owed[seat] = (now, acted)  # a new decision, or the player is acting
    return {seat: since for seat, (since, _) in live.owed.items()}


def deadlines(live: LiveGame, turn_timer: float | None, now: float) -> dict[int, float]:
    """When each seat's owed decision passes to the takeover bot (server's clock, seconds
    since the epoch): on a live table, its turn timer after the clock's start (`owed_since`);
    on a paced one, its pace after the deadline's start (server/community/paces.py). None owes one on a
    table with neither, nor a seat a bot plays."""
    if turn_timer:
        return {seat: since + turn_timer for seat, since in owed_since(live, now).items()}
    if live.pace_hours:
        out = {}
        for seat, info in enumerate(live.seats):
            owed = info.get("owed")
            if info.get("kind") == "human" and not info.get("away") and isinstance(owed, dict):
                if not owed.get("missed") and isinstance(owed.get("since"), int | float):
                    out[seat] = float(owed["since"]) + live.pace_hours * 3600
        return out
    return {}


def bot_seed(options: Any, seat: int, game: str = DEFAULT_GAME) -> int:
    """The seed of a bot seat's own choices (server/table/played.py's `bot_seed`)."""
    return played_bot_seed(game, options, seat)


def check_bot(spec: str, label: str, game: str = DEFAULT_GAME) -> None:
    """The check a bot must pass when it first plays, made when the game is created (a bot that
    cannot be built would leave its seat waiting for ever), and the server's search budget.
    A bot is one the game's kit builds (BotRefused, a ValueError, otherwise)."""
    if not isinstance(spec, str) or len(spec) > MAX_BOT_SPEC_CHARS:
        raise ServiceError(
            422, "error.bot", f"{label}: a bot's name or spec has at most {MAX_BOT_SPEC_CHARS} characters"
        )
    try:
        built = KITS[game].make_bot(spec, 0)
    except ValueError as exc:  # BotRefused is a ValueError
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


def client_key(player: int, stored_id: str) -> tuple[int, str]:
    """(seat, the client's own id) of a stored client action id ("seat:id"; older games
    stored the bare id)."""
    prefix = f"{player}{CLIENT_ID_SEP}"
    return player, stored_id[len(prefix) :] if stored_id.startswith(prefix) else stored_id


def same_action(live: LiveGame, seat: int, client_action_id: str, action: Action | dict[str, Any]) -> int:
    """The action count after the seat's action stored under `client_action_id`, when `action`
    is that very action (a retry); a different action under a used id is refused (409)."""
    count = live.client_ids[seat, client_action_id]
    try:
        same = (live.kit.action_from_dict(action) if isinstance(action, dict) else action) == live.game.log[count - 1]
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


def stored_client_id(player: int, client_action_id: str | None) -> str | None:
    return f"{player}{CLIENT_ID_SEP}{client_action_id}" if client_action_id else None
