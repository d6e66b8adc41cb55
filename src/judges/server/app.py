"""The web server: a JSON API (documented at /docs by its OpenAPI schema), a websocket per
connected player, and the pages of the game screen."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import msgspec
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine import DEFAULT_RULES, RuleError, Rules
from ..engine.dice import commitment
from ..engine.state import PHASES
from ..i18n import LANGUAGES, gettext, normalize_language, render_error, request_language, ui_strings
from ..manual import manual_router
from ..protocol import protocol as published_protocol
from ..render.board import SEAT_COLOURS
from ..world import MapDataError, load_world, map_exists
from .screen import screen_router
from .service import SEAT_EVENT_IDS, TAKEOVER_BOT, GameService, ServiceError, encode_payload
from .store import GameStore

WEB = Path(__file__).resolve().parent.parent / "web"
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, description="bot name for a bot seat: random, greedy, mcts")
    name: str | None = None
    language: str | None = Field(default=None, description="the seat's language (default: the reader's browser)")
    open: bool = Field(default=False, description="a human seat left free for whoever takes it from the lobby")


class CreateGame(BaseModel):
    seats: list[SeatSpec] = Field(min_length=DEFAULT_RULES.min_players, max_length=DEFAULT_RULES.max_players)
    wave_pairs: int = Field(default=DEFAULT_RULES.default_wave_pairs, ge=1, le=DEFAULT_RULES.max_wave_pairs)
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**62,
        description="a SplitMix64 seed of the creator's choosing: refused unless the server "
        "allows seeds (tests, design); by default the server draws 256 random "
        "bits for the game's dice",
    )
    round_limit: int | None = Field(default=None, ge=1, le=10_000)
    turn_timer: float | None = Field(
        default=None, gt=0, le=86400, description="seconds a human may take over a decision before a bot plays the seat"
    )
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
    client_action_id: str | None = Field(default=None, max_length=100)


def create_app(database_url: str | None = None, allow_scenarios: bool = False, allow_seeds: bool = False) -> FastAPI:
    """The application. `allow_scenarios`: games may start from a scenario position;
    `allow_seeds`: a game's creator may choose its seed (which gives away every hand and die),
    for tests and design only."""
    store = GameStore(database_url)
    service = GameService(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(store.migrate)
        await service.start()  # the fan-out, the unfinished games, the watchdog
        yield
        await service.stop()

    app = FastAPI(
        title="Judges & Kings",
        version="1",
        lifespan=lifespan,
        description="The game server: create games, read your seat's view, submit actions.",
    )
    app.state.service = service
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    app.include_router(manual_router())

    def page(template: str, request: Request, language: str, **values) -> HTMLResponse:
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
                "detail": json.loads(json.dumps(exc.errors(), default=str)),
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
    async def game_page(request: Request, game_id: str, token: str | None = None, lang: str | None = None):
        live = await service.get(game_id)
        seat = live.seat_of(token)
        language = request_language(request, lang, live.seats[seat]["language"])
        return page("game.html", request, language, game_id=game_id, token=token, seat=seat, mode="play")

    # --- API -----------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create_game(spec: CreateGame, request: Request) -> dict:
        """Creates a game; answers one invitation link per human seat (keep them secret)."""
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
            rules = (
                DEFAULT_RULES
                if spec.rules is None
                else msgspec.convert({**msgspec.to_builtins(DEFAULT_RULES), **spec.rules}, Rules, str_keys=True)
            )
        except msgspec.ValidationError as exc:
            raise ServiceError(422, "error.options", f"rules: {exc}") from None
        live, tokens = await service.create(
            [s.model_dump() for s in spec.seats],
            spec.wave_pairs,
            spec.seed,
            spec.round_limit,
            spec.position,
            spec.turn_timer,
            spec.takeover_bot,
            rules,
        )
        base = str(request.base_url).rstrip("/")
        seats = []
        for i, (seat, token) in enumerate(zip(live.seats, tokens)):
            entry = {"seat": i, "name": seat["name"], "kind": seat["kind"], "bot": seat["bot"]}
            if token:
                entry["token"] = token
                entry["link"] = f"{base}/games/{live.id}?token={token}"
            seats.append(entry)
        service.wake_bots(live)
        # Published before the first die: the SHA-256 of the dice's seed, revealed at the end.
        return {
            "id": live.id,
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
    async def view(
        game_id: str,
        request: Request,
        lang: str | None = None,
        since: int = -1,
        token: str | None = Query(default=None),
        x_seat_token: str | None = Header(default=None),
    ) -> Response:
        """Your seat's view: the public state, your hand, what you may do, your notifications."""
        live = await service.get(game_id)
        seat = live.seat_of(x_seat_token or token)
        language = request_language(request, lang, live.seats[seat]["language"])
        async with live.lock:  # never show an action before it is committed
            payload = service.payload(live, seat, language, since)
        return Response(encode_payload(payload), media_type="application/json")

    @app.post("/api/games/{game_id}/actions")
    async def act(
        game_id: str,
        body: SubmitAction,
        x_seat_token: str | None = Header(default=None),
        token: str | None = Query(default=None),
    ) -> dict:
        """Submits one action of your seat. Refused actions answer 422 with the rule they break
        and change nothing; the same client_action_id is applied once."""
        live = await service.get(game_id)
        seat = live.seat_of(x_seat_token or token)
        return await service.submit(live, seat, body.action, body.client_action_id)

    @app.get("/api/games/{game_id}/export")
    async def export(
        game_id: str, token: str | None = Query(default=None), x_seat_token: str | None = Header(default=None)
    ) -> dict:
        """A finished game's export, for `judges verify`: options, the revealed seed, the
        commitment published at the start, the action log and the result. 409 until the game
        is over."""
        live = await service.get(game_id)
        live.seat_of(x_seat_token or token)
        return await service.export(live)

    @app.post("/api/games/{game_id}/seat/{move}")
    async def seat_control(
        game_id: str,
        move: Literal["away", "back"],
        x_seat_token: str | None = Header(default=None),
        token: str | None = Query(default=None),
    ) -> dict:
        """Hands your seat to a bot ("away") or takes it back ("back")."""
        live = await service.get(game_id)
        seat = live.seat_of(x_seat_token or token)
        await service.set_away(live, seat, move == "away", "left" if move == "away" else "returned")
        return {"seat": seat, "away": bool(live.seats[seat].get("away"))}

    @app.websocket("/ws/games/{game_id}")
    async def live_updates(websocket: WebSocket, game_id: str, token: str | None = None, lang: str | None = None):
        try:
            live = await service.get(game_id)
            seat = live.seat_of(token)
        except ServiceError as exc:
            await websocket.close(code=4403, reason=exc.message[:120])
            return
        await websocket.accept()
        language = request_language(websocket, lang, live.seats[seat]["language"])
        async with live.lock:
            sub = service.subscribe(live, seat, language)
            first = service.payload(live, seat, language)
        engine_ids = [n["id"] for n in first["notifications"] if n["id"] < SEAT_EVENT_IDS]
        if engine_ids:
            sub.last_notification = max(engine_ids)
        await websocket.send_text(encode_payload(first).decode())

        async def pump():
            while True:
                await websocket.send_text(encode_payload(await sub.queue.get()).decode())

        sender = asyncio.create_task(pump())
        try:
            while True:
                message = await websocket.receive_json()
                if isinstance(message, dict) and message.get("type") == "language":
                    sub.language = normalize_language(message.get("lang"))
        except (WebSocketDisconnect, RuntimeError, ValueError):
            pass
        finally:
            sender.cancel()
            service.unsubscribe(live, sub)

    return app
