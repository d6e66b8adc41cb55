"""The server's settings: every `JUDGES_*` environment variable the program reads, in one place.

`Settings()` reads the environment once (pydantic-settings); the server builds one when its
application is made (`create_app`) and hands it down: to the store, the limits, the fan-out,
the service and its bots. docs/deploy.md says what each variable is for. An empty variable
counts as unset (its default).

Only this module reads the environment (tests/server/test_server_shape.py checks it).
"""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///judges.db"


class Settings(BaseSettings):
    """The server's settings, each from `JUDGES_<NAME>` (its field's name in capitals)."""

    model_config = SettingsConfigDict(env_prefix="JUDGES_", env_ignore_empty=True, extra="ignore", frozen=True)

    # --- the database (server/store) ---
    database_url: str = DEFAULT_DATABASE_URL
    # the database's limits: a statement, a lock wait (SQLite: its busy timeout), a free
    # connection of the pool, the pool's size and overflow, the actions' pool's size, a new
    # PostgreSQL connection
    db_statement_timeout_ms: float = 10_000
    db_lock_timeout_ms: float = 3_000
    db_busy_timeout_ms: float = 10_000
    db_pool_timeout: float = 3.0
    db_pool_size: float = 8
    db_pool_overflow: float = 4
    db_action_pool_size: float = 4  # the actions' own connections (PostgreSQL: server/store/base.py)
    db_connect_timeout: float = 5
    # a file the process writes its database calls per writer (and its long garbage collections)
    # into when it stops (bench/load.py)
    db_calls_file: str | None = None

    # --- several processes (server/table/fanout.py, the bots' lease) ---
    redis_url: str | None = None
    redis_prefix: str = "judges"
    bot_lease_seconds: float = 5.0  # how long a process holds a game's bots without renewing
    watch_seconds: float = 1.0  # between two polls of the versions of the games in memory

    # --- the bots ---
    bot_delay: float = 0.15  # seconds between bot actions
    bot_workers: int | None = None  # the bots' pool (default: server/limits.py)
    bot_processes: int | None = None  # its worker processes, 0: threads (default: server/limits.py)
    bot_nice: int | None = None  # how much lower their scheduling priority is (default: server/limits.py)

    # --- requests (server/limits.py) ---
    trusted_proxies: str = ""  # addresses or networks, separated by commas or spaces
    create_per_minute: float | None = None
    create_burst: int | None = None
    absent_after: float | None = None  # seconds without a sign of life that make a seat's player absent

    # --- accounts (server/community/accounts.py) ---
    session_days: float | None = None
    sign_in_burst: int | None = None
    sign_in_per_minute: float | None = None

    # --- ratings, paces, e-mailed notices, abandoned games (docs/accounts.md) ---
    smtp_url: str | None = None  # smtp://host:port or smtps://host:port (none: no mail is sent)
    mail_from: str | None = None  # the sender of the mails
    public_url: str = "http://localhost:8000"  # the server's address, in the mails' links
    notice_delay_minutes: float = 10.0  # a paced decision waits this long before a mail
    reset_minutes: float = 60.0  # a password-reset link lasts this long
    mails_per_day: int = 20  # mails to one recipient in 24 hours, at most (server/community/mail_notices.py)
    verify_mails_per_day: int = 3  # of which asking to confirm the address
    abandon_hours: float = 24.0  # a game nobody moved in for this long (paced: missed deadlines)
    abandon_missed: int = 3  # ... or with this many missed deadlines in a row, is abandoned
    upkeep_seconds: float = 5.0  # between two rounds of upkeep (server/upkeep.py)
    upkeep_scan_seconds: float = 60.0  # between two reads of every running game

    # --- the bare server (judges serve) ---
    ws_deflate: str = ""  # websocket compression: on unless empty or "0"
    # connections (server/connections.py): open HTTP connections, and per client address (0: no
    # cap); open websockets, and per address; the seconds a request has to arrive whole
    max_connections: int = 4000
    connections_per_address: int = 64
    max_sockets: int = 10_000
    sockets_per_address: int = 256
    request_read_seconds: float = 10.0

    # --- watching the server (server/metrics.py, server/logs.py; docs/operations.md) ---
    metrics_path: str = ""  # the metrics on the application's own port at this path (e.g. /metrics); empty: not
    metrics_port: int = 0  # the metrics on a listener of their own at this port; 0: none
    metrics_host: str = "127.0.0.1"  # ... and this address
    log_format: str = "text"  # "json": one JSON object a line, with the game and seat of each
    log_level: str = "warning"  # the least level logged

    # --- translations (judges/i18n) ---
    i18n_strict: str = ""  # a missing translation raises unless empty, "0", "false" or "no"

    @property
    def deflate(self) -> bool:
        return self.ws_deflate not in ("", "0")

    @property
    def strict_i18n(self) -> bool:
        return self.i18n_strict.strip().lower() not in ("", "0", "false", "no")

    @property
    def proxies(self) -> tuple[str, ...]:
        return tuple(p for p in self.trusted_proxies.replace(",", " ").split() if p)


def load() -> Settings:
    """The settings as the environment holds them now."""
    return Settings()
