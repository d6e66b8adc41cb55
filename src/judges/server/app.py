"""The web server: a JSON API (documented at /docs by its OpenAPI schema), a websocket per
connected player, and the pages of the game screen."""

from __future__ import annotations

import asyncio
import gc
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import msgspec
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..engine import DEFAULT_RULES, RuleError, Rules
from ..engine.dice import commitment
from ..engine.rules import RulesError, rules_with
from ..engine.setup import ROUND_LIMIT_MAX
from ..engine.state import PHASES
from ..i18n import LANGUAGES, gettext, normalize_language, render_error, request_language, ui_strings
from ..manual import manual_router
from ..protocol import protocol as published_protocol
from ..render.board import SEAT_COLOURS
from ..world import MapDataError, load_world, map_exists
from . import seats as seat_keys
from . import updates
from .accounts import Accounts, accounts_router
from .chat import chat_router
from .hints import hints_router
from .learn import learn_router
from .limits import BodySizeLimit, Limits, RateLimiter, SecurityHeaders, StrictJSON
from .review import review_router
from .screen import screen_router
from .service import TAKEOVER_BOT, GameService, LiveGame, ServiceError
from .store import GameStore

WEB = Path(__file__).resolve().parent.parent / "web"
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))


# The collector's youngest generation is collected after this many allocations (Python's default
# is 700): serving an action allocates thousands of short-lived objects.
GC_THRESHOLDS = (20_000, 20, 20)


def settle_memory() -> None:
    """What start-up allocated (modules, the maps, resumed games) lives as long as the process:
    it is frozen out of the collector's sight (`gc.freeze`), so that a full collection walks only
    what came after; measured, full collections of the whole heap were the tail of the
    submission-to-delivery latency under load (docs/performance.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(
        default=None, max_length=40, description="bot name for a bot seat: random, greedy, mcts, or mcts:N:H:S"
    )
    name: str | None = Field(
        default=None, max_length=200, description="cleaned of control characters, at most 40 characters"
    )
    language: str | None = Field(default=None, description="the seat's language (default: the reader's browser)")
    open: bool = Field(default=False, description="a human seat left free for whoever takes it from the lobby")


class CreateGame(BaseModel):
    seats: list[SeatSpec] = Field(min_length=DEFAULT_RULES.min_players, max_length=DEFAULT_RULES.max_players)
    host_seat: int | None = Field(
        default=None, ge=0, description="the creator's own seat (a human seat; default: the first)"
    )
    wave_pairs: int = Field(default=DEFAULT_RULES.default_wave_pairs, ge=1, le=DEFAULT_RULES.max_wave_pairs)
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**62,
        description="a SplitMix64 seed of the creator's choosing: refused unless the server "
        "allows seeds (tests, design); by default the server draws 256 random "
        "bits for the game's dice",
    )
    round_limit: int | None = Field(default=None, ge=1, le=ROUND_LIMIT_MAX)
    turn_timer: float | None = Field(
        default=None,
        gt=0,
        le=86400,
        description="seconds a human may take over a decision before a bot plays the seat (at least 10)",
    )
    hints: bool = Field(default=True, description="whether the players may ask for hints (server/hints.py)")
    takeover_bot: str = Field(
        default=TAKEOVER_BOT,
        max_length=40,
        description="the bot that plays a seat whose player left or ran out of time",
    )
    rules: dict[str, Any] | None = Field(
        default=None,
        description='rules differing from the defaults, by name (e.g. {"map": "canaan", '
        '"wrath_threshold": 10}); stored with the game',
    )
    position: dict[str, Any] | None = Field(
        default=None, description="a scenario position (docs/scenarios.md); only when the server allows scenarios"
    )


class SubmitAction(BaseModel):
    action: dict[str, Any]
    client_action_id: str | None = Field(default=None, max_length=100, description="unique per seat")


class Claim(BaseModel):
    invitation: str = Field(max_length=100, description="the code at the end of the invitation link")


def create_app(
    database_url: str | None = None,
    allow_scenarios: bool = False,
    allow_seeds: bool = False,
    limits: Limits | None = None,
) -> FastAPI:
    """The application. `allow_scenarios`: games may start from a scenario position;
    `allow_seeds`: a game's creator may choose its seed (which gives away every hand and die),
    for tests and design only; `limits`: server/limits.py (default: from the environment)."""
    limits = limits or Limits.from_env()
    store = GameStore(database_url)
    service = GameService(store, limits)
    create_rate = RateLimiter(limits.create_burst, limits.create_per_minute)
    away_rate = RateLimiter(limits.away_burst, limits.away_per_minute)
    # a seat's full views (a socket opened, a resync, a language): what a view costs the server
    view_rate = RateLimiter(limits.resync_burst, limits.resync_per_minute)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(store.migrate)
        await service.start()  # the fan-out, the unfinished games, the watchdog
        settle_memory()
        yield
        await service.stop()

    app = FastAPI(
        title="Judges & Kings",
        version="1",
        lifespan=lifespan,
        description="The game server: create games, read your seat's view, submit actions.",
    )
    app.state.service = service
    app.state.accounts = accounts = Accounts(service)

    def too_large(request: Request) -> JSONResponse:
        key = "error.too_large"
        return JSONResponse(
            status_code=413,
            content={
                "error": "ServiceError",
                "key": key,
                "message": f"a request body may hold at most {limits.max_body_bytes} bytes",
                "params": {"limit": limits.max_body_bytes},
                "text": gettext(request_language(request), key, limit=limits.max_body_bytes),
            },
        )

    def not_json(request: Request) -> JSONResponse:
        key = "error.request_json"
        return JSONResponse(
            status_code=400,
            content={
                "error": "ServiceError",
                "key": key,
                "message": "the request body is not valid JSON (no NaN, Infinity or lone surrogates)",
                "params": {},
                "text": gettext(request_language(request), key),
            },
        )

    app.add_middleware(StrictJSON, refuse=not_json)  # inside the size limit: reads a bounded body
    app.add_middleware(BodySizeLimit, max_bytes=limits.max_body_bytes, refuse=too_large)
    app.add_middleware(SecurityHeaders)
    if limits.trusted_proxies:
        # Outermost: the client's address (every per-address limit) and scheme are taken from
        # X-Forwarded-For/-Proto only when the peer is a configured proxy (server/limits.py).
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(limits.trusted_proxies))
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    app.include_router(manual_router())
    app.include_router(accounts_router(accounts))

    def page(template: str, request: Request, language: str, **values: Any) -> HTMLResponse:
        """A page in the reader's language; an explicit ?lang= is remembered in a cookie."""
        response = HTMLResponse(
            templates.get_template(template).render(
                lang=language, t=lambda key, **p: gettext(language, key, **p), languages=LANGUAGES, **values
            )
        )
        if request.query_params.get("lang"):
            response.set_cookie("lang", language, max_age=365 * 86400, samesite="lax")
        return response

    app.include_router(screen_router(service, page))

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError):
        body = exc.to_dict()
        body["text"] = gettext(request_language(request), exc.key, **{"detail": exc.message, **exc.params})
        return JSONResponse(status_code=exc.status, content=body, headers=exc.headers)

    def rate_limited(limiter: RateLimiter, key: Any, error: str, what: str) -> None:
        wait = limiter.take(key)
        if wait is not None:
            seconds = max(1, int(wait + 0.999))
            raise ServiceError(
                429,
                error,
                f"too many {what}: try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
                retry_after=seconds,
            )

    async def seat_of(conn: HTTPConnection, live: LiveGame) -> int:
        """The seat a request's credential (X-Seat-Token, or the game's cookie) belongs to; the
        request is a sign of life of its player (server/seats.py, `present`)."""
        token, from_cookie = seat_keys.credential(conn, live.id)
        bound = None if token and not from_cookie else await accounts.bound_seat(conn, live)
        if bound is not None:  # signed in to the account the seat is bound to (server/accounts.py)
            service.saw(live, bound)
            return bound
        if from_cookie and not seat_keys.same_origin(conn):
            raise ServiceError(403, "error.cross_origin", "a seat's cookie is accepted from this site's pages only")
        seat = await service.seat_for(live, token)
        service.saw(live, seat)
        return seat

    app.include_router(chat_router(service, seat_of))
    app.include_router(hints_router(service, seat_of))
    app.include_router(learn_router(service))  # issue 31: /learn, the guided first game (server/learn.py)
    app.include_router(review_router(service, seat_of))  # issue 31: the review after the game (server/review.py)

    @app.exception_handler(RuleError)
    async def rule_error(request: Request, exc: RuleError):
        lang = request_language(request)
        body = exc.to_dict()
        body["text"] = render_error(body, lang)
        return JSONResponse(status_code=422, content=body)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        # Starlette's own refusals (a body that is not JSON, an unknown path, a wrong method)
        # answer in the same shape as every other error: a key and a message.
        return JSONResponse(
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
            content={"error": "HTTPException", "key": f"error.http_{exc.status_code}", "message": str(exc.detail)},
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        lang = request_language(request)
        return JSONResponse(
            status_code=422,
            content={
                "error": "RequestValidationError",
                "key": "error.request",
                "message": "the request is not valid",
                "text": gettext(lang, "error.request"),
                # where and why, not the input echoed back (it may be large, or not encodable)
                "detail": [
                    {"loc": [str(part)[:100] for part in e.get("loc", ())], "msg": str(e.get("msg", ""))[:200]}
                    for e in exc.errors()[:20]
                ],
            },
        )

    # --- pages -------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request, lang: str | None = None):
        return page(
            "home.html",
            request,
            request_language(request, lang),
            min_players=DEFAULT_RULES.min_players,
            max_players=DEFAULT_RULES.max_players,
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(request: Request, game_id: str, lang: str | None = None):
        live = await service.get(game_id)
        try:
            seat = await seat_of(request, live)
        except ServiceError as exc:
            language = request_language(request, lang)
            response = page("message.html", request, language, key="ui.no_seat", error=exc.key)
            response.status_code = exc.status
            return response
        language = request_language(request, lang, live.seats[seat]["language"])
        return page("game.html", request, language, game_id=game_id, seat=seat, mode="play")

    @app.get("/join/{game_id}/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def invitation_page(request: Request, game_id: str, code: str, lang: str | None = None):
        """An invitation: a button that takes the seat. Opening the link alone claims nothing
        (a chat's link preview must not take the seat of the player it was meant for)."""
        live = await service.get(game_id)
        seat = seat_keys.invited_seat(live.seats, code)
        language = request_language(request, lang, live.seats[seat]["language"] if seat is not None else None)
        if seat is None:
            response = page("message.html", request, language, key="ui.invitation_spent", error="error.invitation")
            response.status_code = 404
            return response
        if service.holds_a_seat(live, seat_keys.credential(request, game_id)[0]) is not None:
            response = page("message.html", request, language, key="error.seat_held", error="error.seat_held")
            response.status_code = 409  # one seat per player: the host cannot take an invited seat
            return response
        return page("join.html", request, language, seat=seat, name=live.seats[seat]["name"])

    @app.post("/join/{game_id}/{code}", include_in_schema=False)
    async def take_seat(request: Request, game_id: str, code: str):
        """Takes the invited seat: its credential goes into the game's cookie and the browser
        goes on to the game's page, whose address holds no secret."""
        live = await service.get(game_id)
        await accounts.refuse_seated(request, live)
        seat, token = await service.claim(live, code, seat_keys.credential(request, game_id)[0])
        await accounts.bind(request, live, seat, token)
        response = RedirectResponse(f"/games/{game_id}", status_code=303)
        seat_keys.set_seat_cookie(response, request, game_id, token)
        return response

    # --- API -----------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create_game(spec: CreateGame, request: Request, response: Response) -> dict:
        """Creates a game. Answers the credential of the creator's own seat (also set as the
        game's cookie) and one invitation link per other human seat: whoever opens it takes
        that seat and receives its own credential, which the creator never sees."""
        rate_limited(create_rate, request.client.host if request.client else "", "error.rate_create", "new games")
        if spec.turn_timer is not None and spec.turn_timer < limits.min_turn_timer:
            raise ServiceError(
                422,
                "error.turn_timer",
                f"a turn timer is at least {limits.min_turn_timer:g} seconds",
                limit=limits.min_turn_timer,
            )
        if spec.position is not None and not allow_scenarios:
            raise ServiceError(403, "error.scenarios_off", "this server does not start games from scenario positions")
        if spec.seed is not None and not allow_seeds:
            raise ServiceError(
                422,
                "error.seed_refused",
                "the server draws every game's seed itself: "
                "a game cannot be created with a seed of its creator's choosing",
            )
        try:
            rules = DEFAULT_RULES if spec.rules is None else rules_with(spec.rules)
        except RulesError as exc:  # an unknown rule, or one beyond its bounds (RULE_MAXIMA)
            raise ServiceError(422, exc.key, exc.message, **exc.params) from None
        live, token, invitations = await service.create(
            [s.model_dump() for s in spec.seats],
            spec.wave_pairs,
            spec.seed,
            spec.round_limit,
            spec.position,
            spec.turn_timer,
            spec.takeover_bot,
            rules,
            spec.host_seat,
            spec.hints,
        )
        base = str(request.base_url).rstrip("/")
        seats = []
        for i, seat in enumerate(live.seats):
            entry = {"seat": i, "name": seat["name"], "kind": seat["kind"], "bot": seat["bot"]}
            if i in invitations:
                entry["invitation"] = seat_keys.invitation_link(base, live.id, invitations[i])
            if seat.get("open"):
                entry["open"] = True  # taken from the lobby (POST /api/games/{id}/join)
            seats.append(entry)
        seat_keys.set_seat_cookie(response, request, live.id, token)
        host = seat_keys.host_seat(live.seats)
        if host is not None:
            await accounts.bind(request, live, host, token)
        service.wake_bots(live)
        # Published before the first die: the SHA-256 of the dice's seed, revealed at the end.
        return {
            "id": live.id,
            "seat": host,
            "token": token,
            "link": f"{base}/games/{live.id}",
            "seats": seats,
            "dice": {"generator": live.game.state.options.dice, "commitment": commitment(live.game.state.options)},
        }

    def world_payload(rules: Rules) -> dict:
        """The map of `rules` (hexes, settlements, regions, ring, Tabernacle) and the rules' numbers
        the screen shows (the items' costs are the protocol's: `/api/games/{id}/protocol`)."""
        try:
            w = load_world(rules.map)
        except MapDataError:
            raise ServiceError(404, "error.no_map", f"there is no map {rules.map!r}") from None
        return {
            "name": w.name,
            "hexes": [
                {"index": h.index, "q": h.q, "r": h.r, "terrain": h.terrain, "settlement": h.settlement}
                for h in w.hexes
            ],
            "settlements": [
                {"index": s.index, "name": s.name, "hex": s.hex, "region": s.region, "is_city": s.is_city}
                for s in w.settlements
            ],
            "regions": [
                {"index": r.index, "name": r.name, "kingdom": r.kingdom, "settlements": list(r.settlements)}
                for r in w.regions
            ],
            "ring": list(w.ring),
            "tabernacle_hex": w.tabernacle_hex,
            "phases": list(PHASES),
            "wrath_threshold": rules.wrath_threshold,
            "seat_colours": list(SEAT_COLOURS),  # the board's tribe colours (render/board.py)
        }

    @app.get("/api/world")
    async def world(map: str | None = None) -> dict:
        """A map (default: the default rules' map) with the default rules' numbers."""
        if map is None or map == DEFAULT_RULES.map:
            return world_payload(DEFAULT_RULES)
        if not map_exists(map):
            raise ServiceError(404, "error.no_map", f"there is no map {map!r}")
        return world_payload(msgspec.structs.replace(DEFAULT_RULES, map=map))

    @app.get("/api/games/{game_id}/world")
    async def game_world(game_id: str) -> dict:
        """The world of one game: its map and its rules' numbers (nothing secret)."""
        live = await service.get(game_id)
        return world_payload(live.game.state.options.rules)

    @app.get("/api/protocol")
    async def protocol() -> dict:
        """The decision kinds (the action types that answer each, with their fields; subject,
        rule, manual chapter, window, icon), the items for sale (target, cost, icon) and the
        intrigue cards, priced and counted by the default rules: docs/protocol.md."""
        return published_protocol()

    @app.get("/api/games/{game_id}/protocol")
    async def game_protocol(game_id: str) -> dict:
        """The protocol of one game: as `/api/protocol`, with the items' costs and the cards'
        copies of that game's rules."""
        live = await service.get(game_id)
        return published_protocol(live.game.state.options.rules)

    @app.get("/api/i18n/{lang}")
    async def strings(lang: str) -> dict:
        """Every UI string and game word in one language."""
        return ui_strings(normalize_language(lang))

    @app.get("/api/games/{game_id}/view")
    async def view(game_id: str, request: Request, lang: str | None = None, since: int = -1) -> Response:
        """Your seat's view: the public state, your hand, what you may do, your notifications
        (after id `since`). Your seat: the X-Seat-Token header, or the game's cookie."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        language = request_language(request, lang, live.seats[seat]["language"])
        async with live.lock:  # never show an action before it is committed
            body = service.view_bytes(live, seat, language, since)
        return Response(body, media_type="application/json")

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: SubmitAction, request: Request) -> dict:
        """Submits one action of your seat. Refused actions answer 422 with the rule they break
        and change nothing; a seat's same client_action_id is applied once."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        return await service.submit(live, seat, body.action, body.client_action_id)

    @app.post("/api/games/{game_id}/claim")
    async def claim(game_id: str, body: Claim, request: Request, response: Response) -> dict:
        """Takes the seat of an invitation (API clients): answers the seat's own credential,
        to send as X-Seat-Token (also set as the game's cookie). The invitation is spent."""
        live = await service.get(game_id)
        await accounts.refuse_seated(request, live)
        seat, token = await service.claim(live, body.invitation, seat_keys.credential(request, game_id)[0])
        await accounts.bind(request, live, seat, token)
        seat_keys.set_seat_cookie(response, request, game_id, token)
        return {"seat": seat, "token": token}

    @app.post("/api/games/{game_id}/seats/{target}/{move}")
    async def host_control(
        game_id: str, target: int, move: Literal["revoke", "invitation", "consent", "withhold"], request: Request
    ) -> dict:
        """The host's control of another human seat: "revoke" takes it from its player (the
        takeover bot plays it); "invitation" also opens a new invitation link for it. A player
        present keeps the seat (409 `error.seat_present`) unless every other player present
        agrees: "consent" (any other seat's player agrees), "withhold" (no longer agrees)."""
        live = await service.get(game_id)
        host = await seat_of(request, live)
        if move in ("consent", "withhold"):
            await service.consent(live, host, target, agree=move == "consent")
            return {"seat": target, "consent": move == "consent"}
        code = await service.revoke(live, host, target, invite=move == "invitation")
        out: dict[str, Any] = {"seat": target, "away": True}
        if code is not None:
            out["invitation"] = seat_keys.invitation_link(str(request.base_url).rstrip("/"), game_id, code)
        return out

    @app.get("/api/games/{game_id}/export")
    async def export(game_id: str, request: Request) -> dict:
        """A finished game's export, for `judges verify`: options, the revealed seed, the
        commitment published at the start, the action log and the result. 409 until the game
        is over."""
        live = await service.get(game_id)
        await seat_of(request, live)
        return await service.export(live)

    @app.post("/api/games/{game_id}/seat/{move}")
    async def seat_control(game_id: str, move: Literal["away", "back"], request: Request) -> dict:
        """Hands your seat to a bot ("away") or takes it back ("back"); a few times a minute."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        rate_limited(away_rate, (game_id, seat), "error.rate_away", "seat changes")
        await service.set_away(live, seat, move == "away", "left" if move == "away" else "returned")
        return {"seat": seat, "away": bool(live.seats[seat].get("away"))}

    @app.websocket("/ws/games/{game_id}")
    async def live_updates(websocket: WebSocket, game_id: str, lang: str | None = None, chat: bool = False):
        """The seat's live view (docs/web.md, "Live updates"): a full view, then deltas."""
        try:
            live = await service.get(game_id)
            seat = await seat_of(websocket, live)
            if chat:  # the table talk too (server/chat.py): loaded before the socket joins
                await service.chat.room(live)
        except ServiceError as exc:
            await websocket.close(code=4403, reason=exc.key)
            return
        await websocket.accept()
        language = request_language(websocket, lang, live.seats[seat]["language"])

        async def close(code: int, key: str) -> None:
            try:
                await websocket.send_text(updates.error_message(key, gettext(language, key)).decode())
                await websocket.close(code=code, reason=key)
            except Exception:  # noqa: BLE001 - the socket is already gone
                pass

        # A full view costs the server a seat's whole view: each seat has `resync_burst` at
        # once, then `resync_per_minute`, for its sockets' openings and their resync/language
        # messages. A socket opened over the limit is closed (1013: the screen reconnects a
        # second later); a resync over the limit is sent when the allowance refills (once, in
        # the latest language asked for), and a flood meanwhile closes the socket (1008).
        if view_rate.take((live.id, seat)) is not None:
            await close(1013, "error.rate_resync")
            return
        async with live.lock:
            sub, first = service.subscribe(live, seat, language)
            if chat:
                service.chat.greet(live, sub)  # its history at once, then each new message
        closing: list[asyncio.Task] = []
        sub.close = lambda code, key: closing.append(asyncio.create_task(close(code, key)))

        async def pump():
            if first is not None:  # else the copy is being reloaded: a full view follows
                await websocket.send_text(first.decode())
            while True:
                await websocket.send_text((await sub.queue.get()).decode())

        wanted: list[str | None] = [None]  # the language of the resync owed
        late: list[asyncio.Task] = []
        flood = 0

        async def resync() -> None:
            async with live.lock:
                language, wanted[0] = wanted[0], None
                if sub in live.subscribers:
                    service.resync(live, sub, language)

        async def resync_later(wait: float) -> None:
            await asyncio.sleep(wait)
            view_rate.take((live.id, seat))  # the token that refilled meanwhile
            await resync()

        sender = asyncio.create_task(pump())
        try:
            while not closing:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("bytes") is not None:  # the protocol is JSON text
                    await close(1003, "error.binary_frame")
                    break
                try:
                    data = msgspec.json.decode(message.get("text") or "")
                except (msgspec.DecodeError, RecursionError):
                    continue  # not a message of the protocol: ignored
                if not isinstance(data, dict) or data.get("type") not in ("language", "resync"):
                    continue
                if data["type"] == "language":  # no language or not a string: the default
                    lang_asked = data.get("lang")
                    wanted[0] = normalize_language(lang_asked if isinstance(lang_asked, str) else "")
                if late and not late[0].done():
                    flood += 1
                    if flood > limits.resync_abuse:
                        await close(1008, "error.rate_resync")
                        break
                    continue
                wait = view_rate.take((live.id, seat))
                if wait is None:
                    await resync()
                else:
                    flood = 0
                    late[:] = [asyncio.create_task(resync_later(wait))]
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            for task in late:
                task.cancel()
            service.unsubscribe(live, sub)
            service.saw(live, seat, leaving=True)  # the time its player was last here
            if closing:
                await asyncio.gather(*closing, return_exceptions=True)

    return app
