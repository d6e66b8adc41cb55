"""Persistence of games: SQLite by default, PostgreSQL by URL (SQLAlchemy 2, sync).

A game is its seed + options + rules version + append-only action log; snapshots of the
engine's state are only a shortcut for loading (state after `seq` actions, then replay the
actions from `seq` on).

    store = GameStore()                 # JUDGES_DATABASE_URL, default sqlite:///judges.db
    store.migrate()                     # Alembic upgrade head (idempotent)
    store.create_game("g1", options, seed, rules_version, seats)
    store.append_action("g1", 0, 0, action_to_dict(action), client_action_id)   # committed on return
    stored = store.load("g1", all_actions=True)

Tables (migrations/versions/):
  games     id, created_at, updated_at, options, seed, rules_version, seats, action_count,
            ending, winners, seats_version, bot_holder, bot_lease_until, chat_count
  actions   (game_id, seq) primary key, player, action, client_action_id, created_at;
            UNIQUE (game_id, client_action_id)
  snapshots (game_id, seq) primary key, data
  chat      (game_id, id) primary key, channel, sender, name, text, client_message_id,
            created_at; UNIQUE (game_id, client_message_id); games.chat_count is the last id
  accounts  id, name, name_key UNIQUE, password_hash, email, created_at (server/account_store.py)
  sessions  id_hash primary key, account_id, created_at, expires_at
  account_seats (account_id, game_id) primary key, seat, bound_at

JSON columns are plain JSON (not PostgreSQL JSONB) so that key order survives: dicts of the
engine state (generals by id, ...) iterate in insertion order. JSON turns integer dict keys
into strings: convert a snapshot back with `msgspec.convert(data, GameState, str_keys=True)`
or `state_from_json(msgspec.json.encode(data))`.

Concurrency: `append_action` is one transaction that advances `games.action_count` with a
conditional UPDATE (`WHERE action_count = seq`), so two writers of the same game cannot
both append action `seq`: the loser gets `SequenceConflict`. On SQLite every writing
transaction is `BEGIN IMMEDIATE` (it takes the write lock at once and waits `busy_timeout`
for it) and the database runs in WAL mode, so readers never block the writer.

A stalled database never stalls a caller for long: PostgreSQL connections run with a
`statement_timeout` and a `lock_timeout`, SQLite waits `busy_timeout` for its write lock, and
a caller waits at most `pool_timeout` for a connection of the pool. Each failure raises a
SQLAlchemy error (OperationalError, TimeoutError, ...), which the server answers with 503.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Result, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import ConnectionPoolEntry

from ..settings import DEFAULT_DATABASE_URL, Settings
from ..settings import load as load_settings

if TYPE_CHECKING:
    import psycopg
    from alembic.config import Config
    from sqlalchemy.dialects.postgresql import Insert as PostgresInsert
    from sqlalchemy.dialects.sqlite import Insert as SQLiteInsert

DATABASE_URL_ENV = "JUDGES_DATABASE_URL"

# The database's limits, each overridable by its setting (judges/settings.py, read when a store
# is made; docs/deploy.md lists them): a statement, a lock wait (SQLite: its busy timeout), a
# free connection of the pool, the pool's size and overflow, a new PostgreSQL connection.
LIMITS: dict[str, tuple[str, type]] = {
    "statement_timeout_ms": ("db_statement_timeout_ms", int),
    "lock_timeout_ms": ("db_lock_timeout_ms", int),
    "sqlite_busy_timeout_ms": ("db_busy_timeout_ms", int),
    "pool_timeout": ("db_pool_timeout", float),
    "pool_size": ("db_pool_size", int),
    "pool_overflow": ("db_pool_overflow", int),
    "connect_timeout": ("db_connect_timeout", int),
}


def _limit(name: str, given: float | None, settings: Settings) -> Any:
    field, kind = LIMITS[name]
    return kind(given if given is not None else getattr(settings, field))


MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
SEAT_KINDS = ("human", "bot")

__all__ = [
    "DEFAULT_DATABASE_URL",
    "GameExists",
    "GameNotFound",
    "GameStore",
    "Catchup",
    "GameSummary",
    "GameVersion",
    "SequenceConflict",
    "StoreError",
    "StoredGame",
    "StoredSnapshot",
    "database_url",
    "hash_token",
    "new_token",
    "normalize_url",
    "verify_token",
]


# --- errors -------------------------------------------------------------------------------


class StoreError(Exception):
    """The store refused an operation (or found its data inconsistent)."""


class GameNotFound(StoreError, KeyError):
    """No game has this id. Also a KeyError, so `except KeyError` works."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game {game_id!r}")
        self.game_id = game_id

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class GameExists(StoreError):
    """create_game with an id that is already taken."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"a game {game_id!r} already exists")
        self.game_id = game_id


class SequenceConflict(StoreError):
    """append_action with a seq other than the game's action count: another writer got there
    first, or the caller's game is out of date. Reload the game from the store."""

    def __init__(self, game_id: str, expected: int, got: int) -> None:
        super().__init__(
            f"game {game_id!r}: action seq {got} cannot be appended, the game has "
            f"{expected} actions (expected seq {expected}; a concurrent writer?)"
        )
        self.game_id = game_id
        self.expected = expected
        self.got = got


# --- tokens -----------------------------------------------------------------------------


def new_token() -> str:
    """A fresh secret for a seat (shown once to its player, stored only hashed)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The sha256 hex digest stored in a seat's "token_hash"."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def verify_token(token: str | None, token_hash: str | None) -> bool:
    """Whether `token` hashes to `token_hash` (constant-time comparison)."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


# --- URLs -------------------------------------------------------------------------------


def database_url() -> str:
    """JUDGES_DATABASE_URL (judges/settings.py), or a SQLite file judges.db in the current directory."""
    return load_settings().database_url


def normalize_url(url: str) -> str:
    """postgres:// and postgresql:// mean psycopg 3 (the driver this project installs)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


# --- tables -----------------------------------------------------------------------------

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    action_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ending: Mapped[str | None] = mapped_column(String, nullable=True)
    winners: Mapped[list[int]] = mapped_column(JSON)
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bot_holder: Mapped[str | None] = mapped_column(String, nullable=True)
    bot_lease_until: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    chat_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "client_action_id"),)

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_action_id: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SnapshotRow(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


def _table(row_class: type[Base]) -> Table:
    """The Table a row class is mapped to. Declarative types `__table__` as any FromClause
    (a class may be mapped to a subquery); these classes are mapped to tables."""
    table = row_class.__table__
    assert isinstance(table, Table)
    return table


class ChatRow(Base):
    """A chat message (server/chat.py): ids are ordered per game (games.chat_count)."""

    __tablename__ = "chat"
    __table_args__ = (UniqueConstraint("game_id", "client_message_id"),)

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    channel: Mapped[str] = mapped_column(String)
    sender: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String)
    text: Mapped[str] = mapped_column(Text)
    client_message_id: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account (server/accounts.py): `name_key` is the name case-folded (unique),
    `password_hash` an argon2id hash (PHC string)."""

    __tablename__ = "accounts"
    __table_args__ = (UniqueConstraint("name_key", name="uq_accounts_name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String)
    name_key: Mapped[str] = mapped_column(String)
    password_hash: Mapped[str] = mapped_column(String)
    email: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the sha256 of its random session id (the cookie), never the id."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatRow(Base):
    """A seat bound to an account (the seat's own `account` says so too: this is the index
    that lists an account's games)."""

    __tablename__ = "account_seats"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    bound_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


games_table = _table(GameRow)
chat_table = _table(ChatRow)
actions_table = _table(ActionRow)
snapshots_table = _table(SnapshotRow)
accounts_table = _table(AccountRow)
sessions_table = _table(SessionRow)
account_seats_table = _table(AccountSeatRow)


# --- what load / list_games return ------------------------------------------------------------


class StoredSnapshot(NamedTuple):
    """The caller's snapshot data after `seq` actions (a tuple: `seq, data = snapshot`)."""

    seq: int
    data: dict[str, Any]


@dataclass
class StoredGame:
    id: str
    options: dict[str, Any]
    seed: int
    rules_version: int
    seats: list[dict[str, Any]]
    action_count: int
    ending: str | None
    winners: list[int]
    created_at: datetime
    updated_at: datetime
    snapshot: StoredSnapshot | None
    # the actions from snapshot.seq (or 0) on, in seq order; each a record
    # {"seq", "player", "action", "client_action_id", "created_at"}
    actions: list[dict[str, Any]]
    # every action record from seq 0, when load(..., all_actions=True); else None
    all_actions: list[dict[str, Any]] | None = None
    seats_version: int = 0

    @property
    def actions_start(self) -> int:
        """The seq of `actions[0]`: the snapshot's seq, or 0."""
        return self.snapshot.seq if self.snapshot is not None else 0


class GameVersion(NamedTuple):
    """How far a stored game is: its action count and the version of its seats."""

    action_count: int
    seats_version: int
    ending: str | None


@dataclass
class Catchup:
    """What a process whose copy has `start` actions is missing (GameStore.catch_up)."""

    action_count: int
    seats: list[dict[str, Any]]
    seats_version: int
    actions: list[dict[str, Any]]  # action records from seq `start` on


@dataclass(frozen=True)
class SeatTable:
    """What a seat's change may read besides the seat (GameStore.update_seat with `table`):
    every stored seat (not to be changed) and the game's chat count, under the row lock."""

    seats: list[dict[str, Any]]
    chat_count: int


@dataclass
class GameSummary:
    id: str
    created_at: datetime
    updated_at: datetime
    options: dict[str, Any]
    rules_version: int
    seats: list[dict[str, Any]]  # the seats without their token_hash
    action_count: int
    ending: str | None
    winners: list[int]

    @property
    def players(self) -> int:
        return len(self.seats)


# --- the store --------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    """SQLite gives naive datetimes back (they were written in UTC)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _json_dumps(obj: Any) -> str:
    # msgspec: fast, keeps dict order, encodes int dict keys as strings (like json.dumps)
    return msgspec.json.encode(obj).decode("utf-8")


def _json_loads(data: str | bytes) -> Any:
    return msgspec.json.decode(data)


def _rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE or DELETE matched. Session.execute types its result as a Result;
    for such a statement it is a CursorResult, the kind that has a rowcount."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def _action_record(row: ActionRow) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "player": row.player,
        "action": row.action,
        "client_action_id": row.client_action_id,
        "created_at": _utc(row.created_at),
    }


def _chat_record(row: ChatRow) -> dict[str, Any]:
    """A chat message as the server keeps and sends it ("at": milliseconds since the epoch)."""
    return {
        "id": row.id,
        "channel": row.channel,
        "sender": row.sender,
        "name": row.name,
        "text": row.text,
        "at": int(_utc(row.created_at).timestamp() * 1000),
    }


class GameStore:
    """All reads and writes of games. Thread-safe (one SQLAlchemy engine, a session per call);
    every method runs in its own transaction and has committed when it returns."""

    def __init__(
        self,
        url: str | None = None,
        *,
        echo: bool = False,
        settings: Settings | None = None,
        **limits: float,
    ) -> None:
        """`url`: default the setting's (JUDGES_DATABASE_URL); `limits`: any of LIMITS by name
        (default: its setting, judges/settings.py; `settings` default: read now)."""
        unknown = set(limits) - set(LIMITS)
        if unknown:
            raise TypeError(f"unknown store limits: {sorted(unknown)}")
        settings = settings or load_settings()
        self.limits = {name: _limit(name, limits.get(name), settings) for name in LIMITS}
        pool_size, pool_overflow = self.limits["pool_size"], self.limits["pool_overflow"]
        self.url = normalize_url(url or settings.database_url)
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {"echo": echo, "json_serializer": _json_dumps, "json_deserializer": _json_loads}
        in_memory = self.is_sqlite and parsed.database in (None, "", ":memory:")
        # the most connections this process opens: the server sizes its database threads by it
        self.max_connections = 1 if in_memory else pool_size + pool_overflow
        if not in_memory:
            kwargs.update(pool_size=pool_size, max_overflow=pool_overflow, pool_timeout=self.limits["pool_timeout"])
        if not self.is_sqlite:
            kwargs["pool_pre_ping"] = True  # a connection the server closed is replaced, not used
            kwargs["connect_args"] = {"connect_timeout": self.limits["connect_timeout"]}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            _configure_sqlite(self.engine, self.limits["sqlite_busy_timeout_ms"])
        else:
            _configure_postgres(self.engine, self.limits["statement_timeout_ms"], self.limits["lock_timeout_ms"])

    def __repr__(self) -> str:
        return f"GameStore({make_url(self.url).render_as_string(hide_password=True)!r})"

    def close(self) -> None:
        """Closes the pooled connections."""
        self.engine.dispose()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _session(self, write: bool = False) -> Iterator[Session]:
        """A session in one transaction; rolled back unless the caller commits. A writing
        session on SQLite begins IMMEDIATE (takes the write lock first, waiting busy_timeout)."""
        with Session(self.engine, expire_on_commit=False, autoflush=False) as session:
            if write and self.is_sqlite:
                session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
            yield session

    # --- schema ---------------------------------------------------------------------------

    def alembic_config(self) -> Config:
        """An Alembic Config for this store, built in code (no alembic.ini)."""
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        return config

    def migrate(self) -> None:
        """Upgrades the schema to the newest revision (Alembic 'upgrade head'); idempotent."""
        from alembic import command

        config = self.alembic_config()
        with self.engine.connect() as connection:
            if self.is_sqlite:
                connection.execution_options(sqlite_begin="IMMEDIATE")
            with connection.begin():
                if not self.is_sqlite:
                    # a migration may take long; several processes starting at once take turns
                    connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
                    connection.exec_driver_sql("SET LOCAL lock_timeout = 0")
                    connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7243650189)")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")

    def scope(self) -> str:
        """What names this database among others on the same server: the fan-out's channel
        (PostgreSQL: database and schema; SQLite: the file)."""
        if self.is_sqlite:
            return f"sqlite:{Path(make_url(self.url).database or ':memory:').resolve()}"
        with self.engine.connect() as connection:
            database, schema = connection.exec_driver_sql("SELECT current_database(), current_schema()").one()
        return f"postgresql:{database}/{schema}"

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at (None before the first migrate)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    # --- games ----------------------------------------------------------------------------

    def create_game(
        self, game_id: str, options: dict[str, Any], seed: int, rules_version: int, seats: list[dict[str, Any]]
    ) -> None:
        """Stores a new game with no actions. Raises GameExists if the id is taken."""
        if not isinstance(game_id, str) or not game_id:
            raise StoreError(f"a game id must be a non-empty string, not {game_id!r}")
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
                raise StoreError(f"seat {i}: a seat is a dict whose kind is one of {SEAT_KINDS}, not {seat!r}")
        now = _now()
        row = GameRow(
            id=game_id,
            created_at=now,
            updated_at=now,
            options=dict(options),
            seed=int(seed),
            rules_version=int(rules_version),
            seats=[dict(s) for s in seats],
            action_count=0,
            ending=None,
            winners=[],
        )
        with self._session(write=True) as session:
            if session.get(GameRow, game_id) is not None:
                raise GameExists(game_id)
            session.add(row)
            try:
                session.commit()
            except IntegrityError as exc:  # a concurrent create of the same id
                raise GameExists(game_id) from exc

    def set_result(self, game_id: str, ending: str | None, winners: list[int]) -> None:
        """Records how the game ended."""
        with self._session(write=True) as session:
            result = session.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(ending=ending, winners=list(winners), updated_at=_now())
            )
            if _rowcount(result) != 1:
                raise GameNotFound(game_id)
            session.commit()

    def set_seats(self, game_id: str, seats: list[dict[str, Any]]) -> int:
        """Replaces the seats (a seat handed to a bot and back, its history); returns the new
        seats_version. Several processes changing seats use update_seat instead."""
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
                raise StoreError(f"seat {i}: a seat is a dict whose kind is one of {SEAT_KINDS}, not {seat!r}")
        with self._session(write=True) as session:
            version: int | None = session.scalar(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(
                    seats=[dict(s) for s in seats], seats_version=games_table.c.seats_version + 1, updated_at=_now()
                )
                .returning(games_table.c.seats_version)
            )
            if version is None:
                raise GameNotFound(game_id)
            session.commit()
        return version

    def update_seat(
        self,
        game_id: str,
        seat: int,
        change: Callable[..., bool],
        *,
        table: bool = False,
        quiet: bool = False,
    ) -> tuple[list[dict[str, Any]], int]:
        """Changes one seat in place, reading and writing the stored seats in one transaction
        under the game's row lock, so that a change made by another process is never
        overwritten. `change(seat_dict)` returns whether it changed anything; with `table`,
        `change(seat_dict, SeatTable)`: it also reads every stored seat and the game's chat
        count as they are under the same lock (a chat message is stored under it too). A
        `quiet` change is one no other process needs to hear of (a player's last sign of
        life): the seats version does not move. Returns the stored seats and seats_version
        (unchanged if nothing changed, or quietly)."""
        with self._session(write=True) as session:
            row = session.execute(
                select(games_table.c.seats, games_table.c.seats_version, games_table.c.chat_count)
                .where(games_table.c.id == game_id)
                .with_for_update()
            ).first()
            if row is None:
                raise GameNotFound(game_id)
            seats, version = [dict(s) for s in row.seats], row.seats_version
            if not 0 <= seat < len(seats):
                raise StoreError(f"game {game_id!r} has no seat {seat}")
            if not (change(seats[seat], SeatTable(seats, row.chat_count)) if table else change(seats[seat])):
                return seats, version
            if not quiet:
                version += 1
            session.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(seats=seats, seats_version=version, updated_at=_now())
            )
            session.commit()
        return seats, version

    def delete_game(self, game_id: str) -> bool:
        """Deletes a game with its actions and snapshots; False if there was no such game."""
        with self._session(write=True) as session:
            session.execute(delete(snapshots_table).where(snapshots_table.c.game_id == game_id))
            session.execute(delete(chat_table).where(chat_table.c.game_id == game_id))
            session.execute(delete(account_seats_table).where(account_seats_table.c.game_id == game_id))
            session.execute(delete(actions_table).where(actions_table.c.game_id == game_id))
            deleted = _rowcount(session.execute(delete(games_table).where(games_table.c.id == game_id)))
            session.commit()
        return deleted == 1

    # --- actions --------------------------------------------------------------------------

    def append_action(
        self,
        game_id: str,
        seq: int,
        player: int,
        action: dict[str, Any],
        client_action_id: str | None = None,
        *,
        ending: str | None = None,
        winners: list[int] | None = None,
    ) -> bool:
        """Appends action number `seq` (0-based: the game's action count before it) and commits.
        `ending` (and `winners`): the game ended with this action, recorded in the same
        transaction, so a stored game whose last action ended it always says so.

        Returns False, storing nothing, if the game already has an action with this
        client_action_id (a retried request). Raises SequenceConflict (a StoreError) if `seq`
        is not the game's action count, GameNotFound if there is no such game."""
        if not isinstance(seq, int) or seq < 0:
            raise StoreError(f"seq must be a non-negative int, not {seq!r}")
        if not isinstance(action, dict):
            raise StoreError(f"an action is stored as a dict (action_to_dict), not {type(action).__name__}")
        if "player" in action and action["player"] != player:
            raise StoreError(f"player {player} does not match the action's player {action['player']}")
        now = _now()
        if not self.is_sqlite:
            return self._append_action_postgres(game_id, seq, player, action, client_action_id, now, ending, winners)
        values: dict[str, Any] = {"action_count": seq + 1, "updated_at": now}
        if ending is not None:
            values.update(ending=ending, winners=list(winners or []))
        try:
            with self._session(write=True) as session:
                if client_action_id is not None and self._client_seq(session, game_id, client_action_id) is not None:
                    return False
                # advancing action_count first serializes writers of the game (row lock on PostgreSQL)
                advanced = _rowcount(
                    session.execute(
                        update(games_table)
                        .where(games_table.c.id == game_id, games_table.c.action_count == seq)
                        .values(**values)
                    )
                )
                if advanced != 1:
                    # PostgreSQL, READ COMMITTED: a concurrent writer may have committed meanwhile
                    if (
                        client_action_id is not None
                        and self._client_seq(session, game_id, client_action_id) is not None
                    ):
                        return False
                    count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
                    if count is None:
                        raise GameNotFound(game_id)
                    raise SequenceConflict(game_id, count, seq)
                session.execute(
                    actions_table.insert().values(
                        game_id=game_id,
                        seq=seq,
                        player=player,
                        action=action,
                        client_action_id=client_action_id,
                        created_at=now,
                    )
                )
                session.commit()
        except IntegrityError as exc:
            # the same client_action_id committed by a concurrent writer
            if client_action_id is not None and self.find_action_by_client_id(game_id, client_action_id) is not None:
                return False
            raise StoreError(f"game {game_id!r}: action {seq} could not be stored: {exc.orig}") from exc
        return True

    def _append_action_postgres(
        self,
        game_id: str,
        seq: int,
        player: int,
        action: dict[str, Any],
        client_action_id: str | None,
        now: datetime,
        ending: str | None,
        winners: list[int] | None,
    ) -> bool:
        """append_action on PostgreSQL: one statement, its own transaction (a server round trip
        and a fraction of the ORM's CPU: this is every action's commit). The UPDATE advances
        the action count under the game's row lock (a concurrent writer of the same `seq`
        waits, then finds the count moved and matches no row) unless the client's id is stored
        already; the INSERT adds the action only if the UPDATE matched. Nothing matched: a
        duplicate, a conflict or no game, told apart by reading (the rare path)."""
        sql = _APPEND_ENDING_SQL if ending is not None else _APPEND_SQL
        params = {
            "id": game_id,
            "seq": seq,
            "count": seq + 1,
            "now": now,
            "player": player,
            "action": _json_dumps(action),
            "cid": client_action_id,
            "ending": ending,
            "winners": _json_dumps(list(winners or [])),
        }
        try:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                inserted = _rowcount(connection.exec_driver_sql(sql, params))
        except IntegrityError as exc:
            # the same client_action_id committed by a concurrent writer
            if client_action_id is not None and self.find_action_by_client_id(game_id, client_action_id) is not None:
                return False
            raise StoreError(f"game {game_id!r}: action {seq} could not be stored: {exc.orig}") from exc
        if inserted == 1:
            return True
        with self._session() as session:
            if client_action_id is not None and self._client_seq(session, game_id, client_action_id) is not None:
                return False
            count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
        if count is None:
            raise GameNotFound(game_id)
        raise SequenceConflict(game_id, count, seq)

    @staticmethod
    def _client_seq(session: Session, game_id: str, client_action_id: str) -> int | None:
        return session.scalar(
            select(actions_table.c.seq).where(
                actions_table.c.game_id == game_id, actions_table.c.client_action_id == client_action_id
            )
        )

    def find_action_by_client_id(self, game_id: str, client_action_id: str) -> int | None:
        """The seq of the game's action with this client_action_id, or None."""
        with self._session() as session:
            return self._client_seq(session, game_id, client_action_id)

    def list_actions(self, game_id: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """Action records with start <= seq < stop, in seq order (see StoredGame.actions)."""
        with self._session() as session:
            query = select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq >= start)
            if stop is not None:
                query = query.where(ActionRow.seq < stop)
            return [_action_record(r) for r in session.scalars(query.order_by(ActionRow.seq))]

    def catch_up(self, game_id: str, start: int) -> Catchup:
        """What a copy of the game with `start` actions misses: the actions from `start` on and
        the current seats (one transaction, bounded by the action count it read)."""
        with self._session() as session:
            row = session.execute(
                select(games_table.c.action_count, games_table.c.seats, games_table.c.seats_version).where(
                    games_table.c.id == game_id
                )
            ).first()
            if row is None:
                raise GameNotFound(game_id)
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq >= start, ActionRow.seq < row.action_count)
                .order_by(ActionRow.seq)
            ).all()
            records = [_action_record(r) for r in rows]
        if [r["seq"] for r in records] != list(range(start, max(start, row.action_count))):
            raise StoreError(f"game {game_id!r}: the action log is not seq {start}..{row.action_count - 1}")
        return Catchup(row.action_count, row.seats, row.seats_version, records)

    def versions(self, game_ids: list[str]) -> dict[str, GameVersion]:
        """How far each of these games is (games that do not exist are left out)."""
        if not game_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(
                    games_table.c.id, games_table.c.action_count, games_table.c.seats_version, games_table.c.ending
                ).where(games_table.c.id.in_(game_ids))
            ).all()
        return {r.id: GameVersion(r.action_count, r.seats_version, r.ending) for r in rows}

    # --- chat (server/chat.py) --------------------------------------------------------------

    def append_chat(
        self,
        game_id: str,
        channel: str,
        sender: int,
        name: str,
        text: str,
        client_message_id: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Stores a chat message under the next id of the game (its row lock orders the writers
        of every process) and commits. Returns (the message's record, False); with a
        client_message_id already stored, (that message's record, True) and stores nothing.
        Raises GameNotFound."""
        try:
            with self._session(write=True) as session:
                if client_message_id is not None:
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                    if known is not None:
                        return known, True
                number: int | None = session.scalar(
                    update(games_table)
                    .where(games_table.c.id == game_id)
                    .values(chat_count=games_table.c.chat_count + 1)
                    .returning(games_table.c.chat_count)
                )
                if number is None:
                    raise GameNotFound(game_id)
                if client_message_id is not None:  # committed meanwhile (PostgreSQL, READ COMMITTED)
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                    if known is not None:
                        return known, True
                row = ChatRow(
                    game_id=game_id,
                    id=number,
                    channel=channel,
                    sender=sender,
                    name=name,
                    text=text,
                    client_message_id=client_message_id,
                    created_at=_now(),
                )
                session.add(row)
                session.commit()
                return _chat_record(row), False
        except IntegrityError as exc:
            if client_message_id is not None:
                with self._session() as session:
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                if known is not None:
                    return known, True
            raise StoreError(f"game {game_id!r}: a chat message could not be stored: {exc.orig}") from exc

    @staticmethod
    def _chat_by_client_id(session: Session, game_id: str, client_message_id: str) -> dict[str, Any] | None:
        row = session.scalars(
            select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.client_message_id == client_message_id)
        ).first()
        return _chat_record(row) if row is not None else None

    def list_chat(self, game_id: str, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The game's chat messages with id > `after`, in id order (the latest `limit` if given)."""
        with self._session() as session:
            query = select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.id > after)
            if limit is not None:
                rows = list(session.scalars(query.order_by(ChatRow.id.desc()).limit(limit)))
                rows.reverse()
            else:
                rows = list(session.scalars(query.order_by(ChatRow.id)))
            return [_chat_record(r) for r in rows]

    def chat_counts(self, game_ids: list[str]) -> dict[str, int]:
        """How many chat messages each of these games has (games that do not exist are left out)."""
        if not game_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(games_table.c.id, games_table.c.chat_count).where(games_table.c.id.in_(game_ids))
            ).all()
        return {r.id: r.chat_count for r in rows}

    # --- the bots' lease -------------------------------------------------------------------

    def take_bot_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Makes `holder` the process that plays the game's bots for the next `seconds`, if
        nobody else holds an unexpired lease (a holder renews its own). True if it holds it.
        The expiry is the writer's clock: the processes' clocks must agree (NTP) to well
        within the lease."""
        now = time.time()
        with self._session(write=True) as session:
            taken = _rowcount(
                session.execute(
                    update(games_table)
                    .where(
                        games_table.c.id == game_id,
                        or_(
                            games_table.c.bot_holder.is_(None),
                            games_table.c.bot_holder == holder,
                            games_table.c.bot_lease_until < now,
                        ),
                    )
                    .values(bot_holder=holder, bot_lease_until=now + seconds)
                )
            )
            session.commit()
        return taken == 1

    def release_bot_lease(self, game_id: str, holder: str) -> None:
        """Gives the lease up (if `holder` has it), so that another process need not wait."""
        with self._session(write=True) as session:
            session.execute(
                update(games_table)
                .where(games_table.c.id == game_id, games_table.c.bot_holder == holder)
                .values(bot_holder=None, bot_lease_until=0.0)
            )
            session.commit()

    def bot_lease(self, game_id: str) -> tuple[str | None, float]:
        """(holder, expiry in seconds since the epoch) of the game's bots' lease."""
        with self._session() as session:
            row = session.execute(
                select(games_table.c.bot_holder, games_table.c.bot_lease_until).where(games_table.c.id == game_id)
            ).first()
        if row is None:
            raise GameNotFound(game_id)
        return row.bot_holder, row.bot_lease_until

    # --- snapshots ------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        """Stores the caller's snapshot of the game after `seq` actions (replacing one with the
        same seq). `seq` may not exceed the game's action count."""
        with self._session(write=True) as session:
            count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
            if count is None:
                raise GameNotFound(game_id)
            if not isinstance(seq, int) or not 0 <= seq <= count:
                raise StoreError(f"game {game_id!r} has {count} actions: no snapshot after {seq!r} actions")
            stmt: SQLiteInsert | PostgresInsert
            if self.is_sqlite:
                from sqlalchemy.dialects.sqlite import insert as sqlite_insert

                stmt = sqlite_insert(snapshots_table)
            else:
                from sqlalchemy.dialects.postgresql import insert as postgres_insert

                stmt = postgres_insert(snapshots_table)
            stmt = stmt.values(game_id=game_id, seq=seq, data=data)
            session.execute(
                stmt.on_conflict_do_update(index_elements=["game_id", "seq"], set_={"data": stmt.excluded.data})
            )
            session.commit()

    # --- reading --------------------------------------------------------------------------

    def load(self, game_id: str, all_actions: bool = False) -> StoredGame:
        """The game, its latest snapshot and the actions after it (and every action if asked).
        Raises GameNotFound (a KeyError too)."""
        with self._session() as session:
            game = session.get(GameRow, game_id)
            if game is None:
                raise GameNotFound(game_id)
            count = game.action_count
            # bounded by the count just read: consistent even while a writer appends
            snap = session.scalars(
                select(SnapshotRow)
                .where(SnapshotRow.game_id == game_id, SnapshotRow.seq <= count)
                .order_by(SnapshotRow.seq.desc())
                .limit(1)
            ).first()
            start = 0 if all_actions or snap is None else snap.seq
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq >= start, ActionRow.seq < count)
                .order_by(ActionRow.seq)
            ).all()
            records = [_action_record(r) for r in rows]
            if [r["seq"] for r in records] != list(range(start, count)):
                raise StoreError(f"game {game_id!r}: the action log is not seq {start}..{count - 1}")
            after = snap.seq if snap is not None else 0
            return StoredGame(
                id=game.id,
                options=game.options,
                seed=game.seed,
                rules_version=game.rules_version,
                seats=game.seats,
                action_count=count,
                ending=game.ending,
                winners=game.winners,
                created_at=_utc(game.created_at),
                updated_at=_utc(game.updated_at),
                snapshot=StoredSnapshot(snap.seq, snap.data) if snap is not None else None,
                actions=records[after - start :],
                all_actions=records if all_actions else None,
                seats_version=game.seats_version,
            )

    def list_games(self) -> list[GameSummary]:
        """Every game, the most recently changed first (seats without their token hashes)."""
        with self._session() as session:
            rows = session.scalars(select(GameRow).order_by(GameRow.updated_at.desc(), GameRow.id)).all()
            return [
                GameSummary(
                    id=g.id,
                    created_at=_utc(g.created_at),
                    updated_at=_utc(g.updated_at),
                    options=g.options,
                    rules_version=g.rules_version,
                    seats=[{k: v for k, v in s.items() if k not in ("token_hash", "account_for")} for s in g.seats],
                    action_count=g.action_count,
                    ending=g.ending,
                    winners=g.winners,
                )
                for g in rows
            ]


# append_action on PostgreSQL (see _append_action_postgres), with or without the game's ending.
_APPEND_TEMPLATE = """
WITH advanced AS (
    UPDATE games SET action_count = %(count)s, updated_at = %(now)s{ending}
    WHERE id = %(id)s AND action_count = %(seq)s AND NOT EXISTS (
        SELECT 1 FROM actions WHERE game_id = %(id)s AND client_action_id = %(cid)s
    )
    RETURNING id
)
INSERT INTO actions (game_id, seq, player, action, client_action_id, created_at)
SELECT id, %(seq)s, %(player)s, %(action)s, %(cid)s, %(now)s FROM advanced
"""
_APPEND_SQL = _APPEND_TEMPLATE.format(ending="")
_APPEND_ENDING_SQL = _APPEND_TEMPLATE.format(ending=", ending = %(ending)s, winners = %(winners)s")


def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """WAL, foreign keys and busy_timeout on every new connection; SQLAlchemy emits BEGIN
    itself (DEFERRED, or IMMEDIATE for writers) instead of the sqlite3 module's legacy
    transaction handling, so reads are transactional and DDL is too."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # sqlite3 emits no BEGIN of its own
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if mode == "IMMEDIATE" else "BEGIN")


def _configure_postgres(engine: Engine, statement_timeout_ms: int, lock_timeout_ms: int) -> None:
    """Every connection gets its timeouts: no statement runs, and no lock is awaited, for
    longer than the server can afford (a locked table then fails fast instead of freezing)."""

    # the driver of postgresql:// URLs is psycopg (normalize_url)
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: psycopg.Connection[Any], _record: ConnectionPoolEntry) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True  # session settings, outside any transaction
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET statement_timeout = {int(statement_timeout_ms)}")
                cursor.execute(f"SET lock_timeout = {int(lock_timeout_ms)}")
                # a transaction left open by a stuck caller does not hold its locks for ever
                cursor.execute(f"SET idle_in_transaction_session_timeout = {int(statement_timeout_ms) * 3}")
        finally:
            dbapi_connection.autocommit = autocommit
