"""The probes of a load balancer, a proxy or an orchestrator: `GET /healthz` (the process
lives and its event loop answers; nothing else is touched) and `GET /readyz` (its database
answers a `SELECT 1` and, when JUDGES_REDIS_URL is set, Redis answers a PING; otherwise 503).

Both are unauthenticated and never rate-limited; the bare server's connection caps do not
refuse them (server/connections.py, `PROBE_PATHS`). Each check of `/readyz` has
`READY_SECONDS` to answer, so a database that hangs makes the process unready, not the probe
hang. The bodies are short JSON: `{"status": "ready", "checks": {"database": "ok", ...}}`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.requests import Request

if TYPE_CHECKING:
    from .table.service import GameService

PROBE_PATHS = frozenset({b"/healthz", b"/readyz"})  # raw paths, as the HTTP parser gives them
READY_SECONDS = 2.0  # each readiness check answers within this, or counts as failed
NO_STORE = {"Cache-Control": "no-store"}

router = APIRouter(include_in_schema=False)


async def _check(probe: Awaitable[Any]) -> str:
    """'ok', or what failed (the exception's class: the details stay in the server's log)."""
    try:
        await asyncio.wait_for(probe, READY_SECONDS)
    except TimeoutError:
        return "timeout"
    except Exception as exc:
        return f"failed: {type(exc).__name__}"
    return "ok"


async def readiness(service: GameService) -> dict[str, str]:
    """Each dependency's state: the database, and Redis when the settings name one."""
    checks = [("database", _check(service.db(service.store.ping)))]
    if service.settings.redis_url:
        fanout = service.fanout
        if fanout.kind == "redis":
            checks.append(("redis", _check(fanout.ping())))
        else:
            checks.append(("redis", _check(_not_connected())))
    results = await asyncio.gather(*(probe for _, probe in checks))
    return {name: result for (name, _), result in zip(checks, results, strict=True)}


async def _not_connected() -> None:
    raise ConnectionError("the fan-out is not connected to Redis yet")


@router.get("/healthz")
async def healthz() -> JSONResponse:
    """200 while the process's event loop answers; touches nothing else."""
    return JSONResponse({"status": "alive"}, headers=NO_STORE)


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """200 when the database (and Redis, when set) answer; 503 with what failed otherwise."""
    checks = await readiness(request.app.state.service)
    ready = all(result == "ok" for result in checks.values())
    body = {"status": "ready" if ready else "unready", "checks": checks}
    return JSONResponse(body, status_code=200 if ready else 503, headers=NO_STORE)
