"""The store's engine: its URL and limits (judges/settings.py), its sessions, its schema's
migrations, and the rows' shared conversions."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import (
    Engine,
    create_engine,
    event,
)
from sqlalchemy.engine import Connection, CursorResult, Result, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import ConnectionPoolEntry

from ...settings import Settings
from ...settings import load as load_settings

if TYPE_CHECKING:
    import psycopg
    from alembic.config import Config

from typing import Self

from .records import (
    normalize_url,
)
from .schema import (
    ActionRow,
    ChatRow,
)

# The database's limits, each overridable by its setting (judges/settings.py, read when a store
# is made; docs/deploy.md lists them): a statement, a lock wait (SQLite: its busy timeout), a
# free connection of the pool, the pool's size and overflow, the actions' own pool's size, a new
# PostgreSQL connection.
LIMITS: dict[str, tuple[str, type]] = {
    "statement_timeout_ms": ("db_statement_timeout_ms", int),
    "lock_timeout_ms": ("db_lock_timeout_ms", int),
    "sqlite_busy_timeout_ms": ("db_busy_timeout_ms", int),
    "pool_timeout": ("db_pool_timeout", float),
    "pool_size": ("db_pool_size", int),
    "pool_overflow": ("db_pool_overflow", int),
    "action_pool_size": ("db_action_pool_size", int),
    "connect_timeout": ("db_connect_timeout", int),
}


def _limit(name: str, given: float | None, settings: Settings) -> Any:
    field, kind = LIMITS[name]
    return kind(given if given is not None else getattr(settings, field))


# The actions' pool replaces a connection older than this (PostgreSQL's or a proxy's idle
# limits close old connections; the actions' pool does not ping before each use).
ACTION_POOL_RECYCLE_SECONDS = 1800

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


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
    """A chat message as the server keeps it ("at": milliseconds since the epoch); "account"
    (the sender's account) and "hidden" (by an operator) are the server's own, never sent
    (server/community/chat.py, `sent`)."""
    return {
        "id": row.id,
        "channel": row.channel,
        "sender": row.sender,
        "name": row.name,
        "text": row.text,
        "at": int(_utc(row.created_at).timestamp() * 1000),
        "account": row.account_id,
        "hidden": row.hidden_at is not None,
    }


# The writers whose database calls DbCalls counts apart (every other call counts as "other").
WRITERS = ("action", "presence", "lease", "paces_scan", "seat", "other")
CALL_SECONDS_KEPT = 3600  # DbCalls keeps its counts of the last hour, second by second


class DbCalls:
    """How many calls each writer made to the database, second by second (wall clock): a
    transaction or a statement of its own is one call. Thread-safe; the counts of the last
    CALL_SECONDS_KEPT seconds are kept (bench/load.py reads them for its measured window)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.totals: Counter[str] = Counter()
        self.seconds: dict[int, Counter[str]] = {}

    def count(self, writer: str, calls: int = 1) -> None:
        second = int(time.time())
        with self._lock:
            self.totals[writer] += calls
            bucket = self.seconds.get(second)
            if bucket is None:
                bucket = self.seconds[second] = Counter()
                if len(self.seconds) > CALL_SECONDS_KEPT:
                    del self.seconds[min(self.seconds)]
            bucket[writer] += calls

    def between(self, start: float, stop: float) -> dict[str, int]:
        """The calls of each writer in the whole seconds from `start` to `stop`."""
        out: Counter[str] = Counter()
        with self._lock:
            for second, bucket in self.seconds.items():
                if start <= second < stop:
                    out.update(bucket)
        return dict(out)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "totals": dict(self.totals),
                "by_second": {second: dict(bucket) for second, bucket in sorted(self.seconds.items())},
            }


class StoreBase:
    """The store's engine, sessions and schema (the topics' mixins build on it)."""

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
        # the actions' connections (PostgreSQL): a pool of their own (see action_engine)
        self.action_connections = 0 if self.is_sqlite else max(1, self.limits["action_pool_size"])
        self.calls = DbCalls()
        if not in_memory:
            kwargs.update(pool_size=pool_size, max_overflow=pool_overflow, pool_timeout=self.limits["pool_timeout"])
        if not self.is_sqlite:
            kwargs["pool_pre_ping"] = True  # a connection the server closed is replaced, not used
            kwargs["connect_args"] = {"connect_timeout": self.limits["connect_timeout"]}
        self.engine: Engine = create_engine(self.url, **kwargs)
        # Every action's commit runs on its own pool (PostgreSQL): the other writers (the
        # players' signs of life, the bots' leases, the upkeep's reads, a burst of any of them)
        # never hold the connection an action waits for. No ping at checkout (a round trip
        # before every commit): a connection found dead on use invalidates the pool's older
        # ones and the commit is tried once more on a new one (ActionsStore.append_action).
        # SQLite has one writer at a time whatever the pool: its actions share the engine.
        self.action_engine: Engine = self.engine
        if not self.is_sqlite:
            action_kwargs = {
                **kwargs,
                "pool_size": self.action_connections,
                "max_overflow": 0,
                "pool_pre_ping": False,
                "pool_recycle": ACTION_POOL_RECYCLE_SECONDS,
            }
            self.action_engine = create_engine(self.url, **action_kwargs)
        # SQLite has one writer at a time. Its own wait for the write lock (busy_timeout) sleeps
        # 1, 2, 5, 10, 15, 20... ms between tries, whenever the lock was freed: two commits at
        # once made the second wait up to tens of milliseconds longer than the first took. This
        # process's writers take turns on a lock of their own first, each woken as soon as the
        # one before it is done (other processes still wait on SQLite's lock).
        self._sqlite_writer = _sqlite_writer(None if in_memory else parsed.database) if self.is_sqlite else None
        if self.is_sqlite:
            _configure_sqlite(self.engine, self.limits["sqlite_busy_timeout_ms"])
        else:
            for engine in (self.engine, self.action_engine):
                _configure_postgres(engine, self.limits["statement_timeout_ms"], self.limits["lock_timeout_ms"])

    def __repr__(self) -> str:
        return f"GameStore({make_url(self.url).render_as_string(hide_password=True)!r})"

    def close(self) -> None:
        """Closes the pooled connections."""
        self.engine.dispose()
        if self.action_engine is not self.engine:
            self.action_engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _session(self, write: bool = False, writer: str = "other") -> Iterator[Session]:
        """A session in one transaction; rolled back unless the caller commits. A writing
        session on SQLite begins IMMEDIATE (takes the write lock first, waiting busy_timeout).
        `writer`: whose call it is, in the counts of `calls` (DbCalls)."""
        self.calls.count(writer)
        if write and self._sqlite_writer is not None:
            with self._writer_turn(), Session(self.engine, expire_on_commit=False, autoflush=False) as session:
                session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
                yield session
            return
        with Session(self.engine, expire_on_commit=False, autoflush=False) as session:
            yield session

    @contextmanager
    def _writer_turn(self) -> Iterator[None]:
        """This process's turn to write to SQLite, waited for at most busy_timeout (then the
        same error as SQLite's own lock would give: `database is locked`)."""
        assert self._sqlite_writer is not None
        if not self._sqlite_writer.acquire(timeout=self.limits["sqlite_busy_timeout_ms"] / 1000):
            raise OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked"))
        try:
            yield
        finally:
            self._sqlite_writer.release()

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

    def ping(self) -> None:
        """A round trip to the database (`SELECT 1`): raises when it does not answer."""
        with self.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1").scalar()

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


_SQLITE_WRITERS: dict[str, threading.RLock] = {}  # a SQLite file's path -> its writers' turns in this process
_SQLITE_WRITERS_LOCK = threading.Lock()


def _sqlite_writer(path: str | None) -> threading.RLock:
    """The lock this process's writers of one SQLite file take turns on (every store of the
    file shares it; an in-memory database has its own)."""
    if path is None:
        return threading.RLock()
    with _SQLITE_WRITERS_LOCK:
        return _SQLITE_WRITERS.setdefault(str(Path(path).resolve()), threading.RLock())


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
