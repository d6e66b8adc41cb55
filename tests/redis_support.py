"""The machine's real Redis for tests: a URL and a key prefix of the test's own.

The URL comes from JUDGES_TEST_REDIS_URL (default redis://127.0.0.1:6379/0). An unreachable
server fails the test when CI is set, and skips it otherwise.
"""

from __future__ import annotations

import os
import secrets

import pytest

REDIS_DEFAULT_URL = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    """The test Redis's URL, after checking that it answers."""
    import redis

    url = os.environ.get("JUDGES_TEST_REDIS_URL", REDIS_DEFAULT_URL)
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        message = f"Redis is not usable at {url}: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return url


def redis_prefix(name: str) -> str:
    """A channel / key prefix no parallel test run shares."""
    return f"{name}_{os.getpid()}_{secrets.token_hex(4)}"
