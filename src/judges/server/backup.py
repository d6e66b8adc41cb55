"""`judges backup` and `judges restore` of a SQLite database, with SQLite's online backup API:
a consistent copy of every table (games, actions, snapshots, seats, chat, accounts, sessions,
ratings) taken page by page while a server keeps serving, and put back the same way.

PostgreSQL is backed up with its own tools, `pg_dump` / `pg_restore` (docs/operations.md, "Back up and restore");
these functions refuse its URL with a message saying so."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from .store import normalize_url

PAGES_PER_STEP = 1024  # pages copied between two yields to the server's writers


class BackupError(Exception):
    """A backup or restore that cannot be done (the message says why)."""


def sqlite_file(url: str) -> Path:
    """The SQLite file a database URL names; BackupError for anything else."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(
            f"{parsed.get_backend_name()}: back up PostgreSQL with pg_dump and restore it with pg_restore "
            "(docs/operations.md, 'Back up and restore')"
        )
    if parsed.database in (None, "", ":memory:"):
        raise BackupError("an in-memory database has nothing to back up")
    return Path(parsed.database).resolve()


def _is_game_database(path: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError:
        return False
    return {"games", "actions", "alembic_version"} <= names


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of `source` into `target` (whose content it replaces)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst, pages=PAGES_PER_STEP)
    finally:
        dst.close()
        src.close()


def backup(url: str, path: Path) -> Path:
    """Writes a consistent copy of the database `url` to `path` (replaced if it exists; written
    beside it first, so a failed backup leaves no half file)."""
    source = sqlite_file(url)
    if not _is_game_database(source):
        raise BackupError(f"{source} is not a Judges & Kings database")
    path = path.resolve()
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        _copy(source, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def restore(path: Path, url: str) -> Path:
    """Replaces the database `url` by the backup at `path`. No server may be serving it (the
    command line holds the server's lock while it restores)."""
    target = sqlite_file(url)
    path = path.resolve()
    if not path.is_file() or not _is_game_database(path):
        raise BackupError(f"{path} is not a backup of a Judges & Kings database")
    _copy(path, target)
    return target
