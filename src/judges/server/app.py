"""The web server: a JSON API (documented at /docs by its OpenAPI schema), a websocket per
connected player, and the pages of the game screen.

`create_app` assembles it: the settings (judges/settings.py), the store, the service and the
accounts, kept on `app.state` for the routes' dependencies (server/deps.py), the middlewares
(server/limits.py), the error handlers (server/errors.py) and the routers, one per topic
(server/routes/, and the screen's, the chat's, the hints', the accounts', the manual's)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder
from starlette.types import Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..manual import manual_router
from ..settings import Settings
from ..settings import load as load_settings
from . import health, metrics
from .advice.hints import hints_router
from .advice.learn import learn_router
from .advice.review import review_router
from .community.accounts import Accounts
from .community.rematch import rematch_router
from .deps import Options, Rates, seat_of
from .errors import install_error_handlers, refusal
from .html import WEB
from .limits import BodySizeLimit, Limits, SecurityHeaders, StrictJSON
from .routes import accounts, chat, games, live, pages, screen, seats, world
from .store import GameStore
from .table.screen import Screen
from .table.service import GameService
from .upkeep import install as install_upkeep

# The collector's youngest generation is collected after this many allocations (Python's default
# is 700): serving an action allocates thousands of short-lived objects.
GC_THRESHOLDS = (20_000, 20, 20)
# Answers of at least this many bytes are gzipped for a client that accepts it; level 6: the
# board drawing (~100 KiB) shrinks ~7x for a fraction of level 9's CPU. JSON answers (a seat's
# view, read again and again by polling clients) at level 1: ~2.5x less CPU than level 6 for
# ~10-15 % more bytes; compressing views was the largest part of the event loop's work under a
# flood of requests once their notifications were kept rendered (docs/reliability.md).
GZIP_MINIMUM = 500
GZIP_LEVEL = 6
GZIP_JSON_LEVEL = 1


class _Leveled(GZipResponder):
    """Starlette's gzip responder, at GZIP_JSON_LEVEL for a JSON answer (its compressor is made
    at the first body, once the answer's type is known)."""

    async def send_with_compression(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            media = Headers(raw=message.get("headers", [])).get("content-type", "")
            if media.startswith("application/json"):
                self.compresslevel = GZIP_JSON_LEVEL
        await super().send_with_compression(message)


class LeveledGZip(GZipMiddleware):
    """Starlette's GZipMiddleware, JSON answers at GZIP_JSON_LEVEL, the others at its level."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "gzip" not in Headers(scope=scope).get("Accept-Encoding", ""):
            await super().__call__(scope, receive, send)
            return
        responder = _Leveled(
            self.app,
            self.minimum_size,
            compresslevel=self.compresslevel,
            thread_minimum_size=self.thread_minimum_size,
            exclude_content_types=self.exclude_content_types,
        )
        await responder(scope, receive, send)


def settle_memory() -> None:
    """What start-up allocated (modules, the maps, resumed games) lives as long as the process:
    it is frozen out of the collector's sight (`gc.freeze`), so that a full collection walks only
    what came after; measured, full collections of the whole heap were the tail of the
    submission-to-delivery latency under load (docs/decisions/0020-*.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _middlewares(app: FastAPI, limits: Limits) -> None:
    def too_large(request: Request) -> JSONResponse:
        message = f"a request body may hold at most {limits.max_body_bytes} bytes"
        return refusal(request, 413, "error.too_large", message, limit=limits.max_body_bytes)

    def not_json(request: Request) -> JSONResponse:
        message = "the request body is not valid JSON (no NaN, Infinity or lone surrogates)"
        return refusal(request, 400, "error.request_json", message)

    app.add_middleware(StrictJSON, refuse=not_json)  # inside the size limit: reads a bounded body
    app.add_middleware(BodySizeLimit, max_bytes=limits.max_body_bytes, refuse=too_large)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(LeveledGZip, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    if limits.trusted_proxies:
        # Outermost: the client's address (every per-address limit) and scheme are taken from
        # X-Forwarded-For/-Proto only when the peer is a configured proxy (server/limits.py).
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(limits.trusted_proxies))


def create_app(
    database_url: str | None = None,
    allow_scenarios: bool = False,
    allow_seeds: bool = False,
    limits: Limits | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The application. `allow_scenarios`: games may start from a scenario position;
    `allow_seeds`: a game's creator may choose its seed (which gives away every hand and die),
    for tests and design only; `limits`: server/limits.py (default: from the settings);
    `settings`: judges/settings.py (default: the environment, read now)."""
    settings = settings or load_settings()
    limits = limits or Limits.from_settings(settings)
    store = GameStore(database_url, settings=settings)
    service = GameService(store, limits, settings=settings)
    registry = metrics.registry_for(service)
    listener = metrics.Listener(registry, settings.metrics_host, settings.metrics_port)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        await service.start()  # the fan-out, the unfinished games, the watchdog
        settle_memory()
        await upkeep.start()  # ratings, paces, e-mailed notices (server/upkeep.py)
        if settings.metrics_port:
            listener.start()
        yield
        listener.stop()
        await upkeep.stop()
        await service.stop()

    app = FastAPI(
        title="Judges & Kings",
        version="1",
        lifespan=lifespan,
        description="The game server: create games, read your seat's view, submit actions.",
    )
    app.state.service = service
    app.state.accounts = Accounts(service)
    app.state.rates = Rates.of(limits)
    app.state.screen = Screen(limits, service.watchers, service.turn_timers)
    app.state.options = Options(allow_scenarios=allow_scenarios, allow_seeds=allow_seeds)
    _middlewares(app, limits)
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    # The routers are tried in order, each route against the path: the hot ones first (an
    # action, a view, a socket), so that a turn's request is not matched against forty others;
    # the probes before them: they are cheap, and asked every few seconds (server/health.py).
    app.include_router(health.router)
    if settings.metrics_path:  # for the scraper (server/metrics.py)
        app.add_api_route(settings.metrics_path, metrics.route(registry), methods=["GET"], include_in_schema=False)
    for topic in (games, live, screen):
        app.include_router(topic.router)
    app.include_router(manual_router())
    app.include_router(accounts.router)
    upkeep = install_upkeep(app, service, app.state.accounts)  # ratings, paces, notices, routes
    app.include_router(chat.router)
    app.include_router(rematch_router(app.state.accounts, upkeep.paces, seat_of))  # server/community/rematch.py
    app.include_router(hints_router(service, seat_of))
    app.include_router(learn_router(service))  # /learn, the guided first game (server/advice/learn.py)
    app.include_router(review_router(service, seat_of))  # the review after the game (server/advice/review.py)
    for topic in (pages, world, seats):
        app.include_router(topic.router)
    return app
