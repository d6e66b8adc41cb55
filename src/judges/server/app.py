"""The web server: a JSON API (documented at /docs by its OpenAPI schema), a websocket per
connected player, and the pages of the game screen."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine import RuleError
from ..engine import constants as C
from ..engine.state import PHASES
from ..i18n import LANGUAGES, gettext, normalize_language, render_error, ui_strings
from ..manual import manual_router
from ..world import load_world
from .service import SEAT_EVENT_IDS, TAKEOVER_BOT, GameService, ServiceError, encode_payload
from .store import GameStore

WEB = Path(__file__).resolve().parent.parent / "web"
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, description="bot name for a bot seat: random, greedy, mcts")
    name: str | None = None
    language: str = "en"


class CreateGame(BaseModel):
    seats: list[SeatSpec] = Field(min_length=C.MIN_PLAYERS, max_length=C.MAX_PLAYERS)
    wave_pairs: int = Field(default=C.DEFAULT_WAVE_PAIRS, ge=1, le=C.MAX_WAVE_PAIRS)
    seed: int | None = Field(default=None, ge=0, le=2**62, description="the game's secret seed (default: random)")
    round_limit: int | None = Field(default=None, ge=1, le=10_000)
    turn_timer: float | None = Field(
        default=None, gt=0, le=86400, description="seconds a human may take over a decision before a bot plays the seat"
    )
    takeover_bot: str = Field(
        default=TAKEOVER_BOT,
        max_length=40,
        description="the bot that plays a seat whose player left or ran out of time",
    )
    position: dict[str, Any] | None = Field(
        default=None, description="a scenario position (docs/scenarios.md); only when the server allows scenarios"
    )


class SubmitAction(BaseModel):
    action: dict[str, Any]
    client_action_id: str | None = Field(default=None, max_length=100)


def create_app(database_url: str | None = None, allow_scenarios: bool = False) -> FastAPI:
    store = GameStore(database_url)
    service = GameService(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(store.migrate)
        await service.resume_all()
        yield

    app = FastAPI(
        title="Judges & Kings",
        version="1",
        lifespan=lifespan,
        description="The game server: create games, read your seat's view, submit actions.",
    )
    app.state.service = service
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    app.include_router(manual_router())

    def lang_of(request: Request, lang: str | None) -> str:
        if lang:
            return normalize_language(lang)
        header = request.headers.get("accept-language", "")
        return normalize_language(header.split(",")[0].strip() if header else "en")

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError):
        body = exc.to_dict()
        body["text"] = gettext(
            normalize_language(request.query_params.get("lang") or "en"),
            exc.key,
            **{"detail": exc.message, **exc.params},
        )
        return JSONResponse(status_code=exc.status, content=body)

    @app.exception_handler(RuleError)
    async def rule_error(request: Request, exc: RuleError):
        lang = normalize_language(request.query_params.get("lang") or "en")
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
        lang = normalize_language(request.query_params.get("lang") or "en")
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
        language = lang_of(request, lang)
        page = templates.get_template("home.html")
        return page.render(
            lang=language,
            t=lambda key, **p: gettext(language, key, **p),
            languages=LANGUAGES,
            min_players=C.MIN_PLAYERS,
            max_players=C.MAX_PLAYERS,
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(request: Request, game_id: str, token: str | None = None, lang: str | None = None):
        live = await service.get(game_id)
        seat = live.seat_of(token)
        language = normalize_language(lang or live.seats[seat]["language"])
        page = templates.get_template("game.html")
        return page.render(
            lang=language,
            t=lambda key, **p: gettext(language, key, **p),
            languages=LANGUAGES,
            game_id=game_id,
            token=token,
            seat=seat,
        )

    # --- API -----------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create_game(spec: CreateGame, request: Request) -> dict:
        """Creates a game; answers one invitation link per human seat (keep them secret)."""
        if spec.position is not None and not allow_scenarios:
            raise ServiceError(403, "error.scenarios_off", "this server does not start games from scenario positions")
        live, tokens = service.create(
            [s.model_dump() for s in spec.seats],
            spec.wave_pairs,
            spec.seed,
            spec.round_limit,
            spec.position,
            spec.turn_timer,
            spec.takeover_bot,
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
        return {"id": live.id, "seats": seats}

    @app.get("/api/world")
    async def world() -> dict:
        """The map: hexes (q, r, terrain, settlement), settlements, regions, ring, Tabernacle."""
        w = load_world()
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
            "wrath_threshold": C.WRATH_THRESHOLD,
            "costs": C.COSTS,
        }

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
        language = normalize_language(lang or live.seats[seat]["language"])
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
        language = normalize_language(lang or live.seats[seat]["language"])
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
