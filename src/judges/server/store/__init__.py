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
  accounts  id, name, name_key UNIQUE, password_hash, email, created_at (server/community/account_store.py)
  sessions  id_hash primary key, account_id, created_at, expires_at
  account_seats (account_id, game_id) primary key, seat, bound_at
  seat_presence (game_id, seat) primary key, token_hash, seen: the players' signs of life

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

from ...settings import DEFAULT_DATABASE_URL
from .actions import ActionsStore
from .base import (
    LIMITS,
    MIGRATIONS_DIR,
)
from .chat import (
    ChatStore,
)
from .games import (
    GamesStore,
)
from .records import (
    DATABASE_URL_ENV,
    SEAT_KINDS,
    Catchup,
    GameExists,
    GameNotFound,
    GameSummary,
    GameVersion,
    SeatTable,
    SequenceConflict,
    StoredGame,
    StoredSnapshot,
    StoreError,
    database_url,
    hash_token,
    new_token,
    normalize_url,
    verify_token,
)
from .schema import (
    NAMING_CONVENTION,
    AccountRow,
    AccountSeatRow,
    ActionRow,
    Base,
    ChatRow,
    GameRow,
    SessionRow,
    SnapshotRow,
    _table,
    account_seats_table,
    accounts_table,
    actions_table,
    chat_table,
    games_table,
    presence_table,
    sessions_table,
    snapshots_table,
)


class GameStore(GamesStore, ActionsStore, ChatStore):
    """All reads and writes of games. Thread-safe (one SQLAlchemy engine, a session per call);
    every method runs in its own transaction and has committed when it returns. Its topics:
    store/games.py, store/actions.py, store/chat.py, on store/base.py."""


__all__ = [
    "AccountRow",
    "AccountSeatRow",
    "ActionRow",
    "Base",
    "Catchup",
    "ChatRow",
    "DATABASE_URL_ENV",
    "DEFAULT_DATABASE_URL",
    "GameExists",
    "GameNotFound",
    "GameRow",
    "GameStore",
    "GameSummary",
    "GameVersion",
    "LIMITS",
    "MIGRATIONS_DIR",
    "NAMING_CONVENTION",
    "SEAT_KINDS",
    "SeatTable",
    "SequenceConflict",
    "SessionRow",
    "SnapshotRow",
    "StoreError",
    "StoredGame",
    "StoredSnapshot",
    "_table",
    "account_seats_table",
    "accounts_table",
    "actions_table",
    "chat_table",
    "database_url",
    "games_table",
    "hash_token",
    "new_token",
    "normalize_url",
    "presence_table",
    "sessions_table",
    "snapshots_table",
    "verify_token",
]


# The ratings, e-mailed links and moderation (server/community/rating_tables.py,
# server/community/moderation_tables.py): their tables join Base.metadata on import of the store
from ..community import moderation_tables as _moderation_tables  # noqa: E402,F401
from ..community import rating_tables as _rating_tables  # noqa: E402,F401
