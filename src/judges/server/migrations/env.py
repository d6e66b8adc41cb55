"""Alembic environment of the game store.

`GameStore.migrate()` builds the Alembic Config in code and hands its open connection over in
`config.attributes["connection"]`; without one (the `alembic` command pointed at this
directory) a connection is made from the `sqlalchemy.url` option or JUDGES_DATABASE_URL.
SQLite runs in batch mode (`render_as_batch`), as it cannot ALTER most things in place.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from judges.server.store import Base, database_url, normalize_url

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return normalize_url(config.get_main_option("sqlalchemy.url") or database_url())


def run_migrations_offline() -> None:
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection, target_metadata=target_metadata, render_as_batch=connection.dialect.name == "sqlite"
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(_url())
    try:
        with engine.connect() as connection:
            _run(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
