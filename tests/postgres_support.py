"""A fresh PostgreSQL schema for tests, on the machine's real server.

The URL comes from JUDGES_TEST_POSTGRES_URL (default: the local server's `test` database).
An unreachable server fails the test when CI is set, and skips it otherwise.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine, make_url

from judges.server.store import normalize_url

PG_DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def postgres_schema(prefix: str) -> Iterator[tuple[Engine, str, str]]:
    """(admin engine, schema name, URL whose connections use that schema); dropped at exit."""
    url = normalize_url(os.environ.get("JUDGES_TEST_POSTGRES_URL", PG_DEFAULT_URL))
    schema = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(url, connect_args={"connect_timeout": 5}, pool_pre_ping=True)
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except Exception as exc:  # unreachable, refused, no such database...
        admin.dispose()
        message = f"PostgreSQL is not usable at {make_url(url).render_as_string()}: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    # the test's connections carry its schema's name: its teardown closes its own only (other
    # test processes may share the database)
    schema_url = make_url(url).update_query_dict({"options": f"-csearch_path={schema}", "application_name": schema})
    try:
        yield admin, schema, schema_url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            # connections the test's servers opened and left idle (an app or a process gone
            # without disposing of its pool) close with the test, so that the whole suite stays
            # under the server's max_connections
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state = 'idle' AND application_name = %(schema)s",
                {"schema": schema},
            )
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()
