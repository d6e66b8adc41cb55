"""The game screen's routes (server/table/screen.py): the watch and replay pages, the board drawing,
the public log (and both at once, `/follow`), the lobby and its free seats, spectators (a view
and a socket) and replays."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

import msgspec
from fastapi import APIRouter, Depends, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ...i18n import normalize_language, request_language
from ..community import lobby as lobby_rows
from ..deps import RatesDep, ServiceDep, rate_limited
from ..errors import ServiceError
from ..html import no_screen_page, page
from ..limits import clean_name
from ..store import SeatTable, hash_token, new_token, verify_token
from ..table import seats as seat_keys
from ..table.envelope import encode
from ..table.played import require_capability
from ..table.screen import Screen
from ..table.tables import reading
from ..table.views import public_payload
from .live import client_message, close_with_error

router = APIRouter()


async def get_screen(conn: HTTPConnection) -> Screen:  # async: no worker thread (deps.py)
    screen: Screen = conn.app.state.screen
    return screen


ScreenDep = Annotated[Screen, Depends(get_screen)]


@router.get("/games/{game_id}/watch", response_class=HTMLResponse, include_in_schema=False)
async def watch_page(request: Request, game_id: str, service: ServiceDep, lang: str | None = None) -> HTMLResponse:
    live = await service.get(game_id)
    language = request_language(request, lang)
    if (other := no_screen_page(request, language, live)) is not None:
        return other
    return page("game.html", request, language, game_id=game_id, token="", seat=-1, mode="watch")


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(request: Request, game_id: str, service: ServiceDep, lang: str | None = None) -> HTMLResponse:
    live = await service.get(game_id)
    language = request_language(request, lang)
    if not live.played.is_over:  # a page saying so (server/html.py, error_page), not a blank screen
        raise ServiceError(409, "error.replay_running", "a game is replayed once it is over")
    if (other := no_screen_page(request, language, live)) is not None:
        return other
    return page("game.html", request, language, game_id=game_id, token="", seat=-1, mode="replay")


@router.get("/api/games/{game_id}/board.svg")
async def board(
    game_id: str, request: Request, service: ServiceDep, screen: ScreenDep, lang: str | None = None
) -> Response:
    """The board as the public state has it, in the reader's language (the one drawing:
    render/svg.py). Its groups carry data-hex, data-region, data-settlement, data-general."""
    live = await service.get(game_id)
    require_capability(live.served, "world_map")
    language = request_language(request, lang)
    async with reading(live):
        text = screen.svg_of(live, live.game, language)
    return Response(text, media_type="image/svg+xml")


@router.get("/api/games/{game_id}/follow")
async def follow(
    game_id: str,
    request: Request,
    service: ServiceDep,
    screen: ScreenDep,
    lang: str | None = None,
    base: str = "",
    since: int = -1,
) -> Response:
    """What the screen fetches when the game moved, in one answer: the
    board drawing of the game's current step, and the public actions after index `since`
    (as `/log`). `base`: the `hash` of the drawing the screen holds; when the server still
    has that drawing, the board comes as the line edits from it (server/table/textdelta.py), a
    few hundred bytes instead of ~100 KiB; else whole.

        {"seq": S, "board": {"hash": H, "svg": "..."} | {"hash": H, "base": B, "edits": [...]},
         "log": {"seq": S, "entries": [...]}}"""
    live = await service.get(game_id)
    require_capability(live.served, "world_map")
    language = request_language(request, lang)
    return Response(await screen.follow(live, language, base, since), media_type="application/json")


def _limited(request: Request) -> None:
    """Replays and logs read the store and replay games: per client address, `read_burst` at
    once then `read_per_minute` (429 `error.rate_reads`)."""
    address = request.client.host if request.client else ""
    rate_limited(request.app.state.rates.read, address, "error.rate_reads", "requests")


@router.get("/api/games/{game_id}/log")
async def game_log(
    game_id: str, request: Request, service: ServiceDep, lang: str | None = None, since: int = -1
) -> dict[str, Any]:
    """The game's log after entry `since`, in the reader's language: `{"seq": the number of
    entries, "entries": [{"seq": its index, "text", ...}]}`, each game's own (`TableKit.log`)."""
    _limited(request)
    live = await service.get(game_id)
    require_capability(live.served, "action_log")
    language = request_language(request, lang)
    async with reading(live):
        return live.kit.log(live.game, live.names(), language, since)


@router.get("/api/lobby")
async def lobby(request: Request, service: ServiceDep, limit: int = 40, lang: str | None = None) -> dict[str, Any]:
    """Open tables (a free seat), games running (to watch) and finished (to replay), each row
    with its table's number, where it is (in the reader's language), age and players
    (server/community/lobby.py)."""
    games = await service.db(service.store.list_games)
    limit = max(1, min(limit, 200))
    listed = [g for g in games[: limit * 3] if not g.options.get("course")]  # a learner's table is his alone
    bound = {g.id: lobby_rows.bound_accounts(g, service.games.get(g.id)) for g in listed}
    ids = {a for accounts in bound.values() for a in accounts if a is not None}
    known = await service.db(lobby_rows.players, service.store, ids)
    language = request_language(request, lang)
    open_, running, finished = [], [], []
    for g in listed:
        entry = lobby_rows.row(g, service.games.get(g.id), bound[g.id], known, language)
        if g.ending is not None:
            finished.append(entry)
        elif any(seat_keys.free(s) for s in g.seats):
            open_.append(entry)
        else:
            running.append(entry)
    return {"open": open_[:limit], "running": running[:limit], "finished": finished[:limit]}


class Joining(BaseModel):
    name: str | None = Field(default=None, max_length=200)


async def from_this_site(request: Request) -> None:
    """Refuses another site's page before anything of the request is read (its body too)."""
    if not seat_keys.same_origin(request):
        raise ServiceError(403, "error.cross_origin", "a seat is taken from this site's pages only")


@router.post("/api/games/{game_id}/join")
async def join(
    game_id: str,
    request: Request,
    response: Response,
    service: ServiceDep,
    checked: Annotated[None, Depends(from_this_site)],
    body: Joining | None = None,
) -> dict[str, Any]:
    """Takes the first free seat of an open table: its credential is made now, set as the
    game's cookie (server/table/seats.py) and answered once (API clients send it as X-Seat-Token).
    A guest sits under the `name` he chose (none: the seat's); a player signed in, under his
    account's. A seat the host invited someone to is reserved for them; a player already
    seated at the table takes no second seat (409 `error.seat_held`); a name another seat of
    the table bears is refused (409 `error.name_at_table`)."""
    live = await service.get(game_id)
    name = clean_name(body.name if body else None, service.limits.max_name_chars)
    if name and any(s["name"].casefold() == name.casefold() for s in live.seats if not seat_keys.free(s)):
        raise ServiceError(409, "error.name_at_table", "another player at this table bears this name")
    service.refuse_seated(live, seat_keys.credential(request, game_id)[0])
    await request.app.state.accounts.refuse_seated(request, live)  # server/community/accounts.py
    token = new_token()
    now = time.time()

    def take(info: dict[str, Any], table: SeatTable) -> bool:
        # decided on the stored seat, under its row lock: a seat another process gave away
        # stays taken, and one with an open invitation stays its invited player's
        if not seat_keys.free(info):
            return False
        seat_keys.hand_to(info, hash_token(token), table.chat_count, now)
        if name:
            info["name"] = name
        return True

    async with live.lock:
        if live.played.is_over:
            raise ServiceError(409, "error.no_free_seat", "this table has no free seat")
        seat = None
        for free in [i for i, s in enumerate(live.seats) if seat_keys.free(s)]:
            seats, _ = await service.update_seat(live, free, take, table=True)
            taken = verify_token(token, seats[free].get("token_hash"))
            if taken:
                seat = free
                break
        if seat is None:
            raise ServiceError(409, "error.no_free_seat", "this table has no free seat")
    service.publish(live)
    await service.broadcast(live)
    seat_keys.set_seat_cookie(response, request, live.id, token)
    await request.app.state.accounts.bind(request, live, seat, token)  # server/community/accounts.py
    base = str(request.base_url).rstrip("/")
    return {"seat": seat, "token": token, "link": f"{base}/games/{live.id}"}


@router.get("/api/games/{game_id}/spectate")
async def spectate(
    game_id: str, request: Request, service: ServiceDep, screen: ScreenDep, lang: str | None = None
) -> Response:
    """The public view: what a spectator sees (no hand, no ballot)."""
    live = await service.get(game_id)
    language = request_language(request, lang)
    async with reading(live):
        payload = public_payload(live, language, **screen.table_options(live))  # the game's `views.payload`
    return Response(encode(payload), media_type="application/json")


async def _refuse(websocket: WebSocket, language: str, refusal: str, limit: int) -> None:
    try:
        await websocket.accept()
    except Exception:  # noqa: BLE001 - the socket is already gone
        return
    await close_with_error(websocket, language, 4429, refusal, limit=limit)


@router.websocket("/ws/games/{game_id}/spectate")
async def spectate_live(
    websocket: WebSocket,
    game_id: str,
    service: ServiceDep,
    screen: ScreenDep,
    rates: RatesDep,
    lang: str | None = None,
    chat: bool = False,
) -> None:
    """The public view live: the view of no seat, a full view then deltas as a seat's socket
    gets them (server/table/hub.py), and with `?chat=1` the public table talk. A spectator may ask
    for a resync (a full view) within its address's allowance; past it the socket is closed
    (1013: the screen reconnects for a full view). Anything else it sends is ignored."""
    try:
        live = await service.get(game_id)
        if chat:
            await service.chat.room(live)
    except ServiceError as exc:
        await websocket.close(code=4404, reason=exc.message[:120])
        return
    language = request_language(websocket, lang)
    address = websocket.client.host if websocket.client else ""
    refused = screen.refusal(live, address)
    if refused is not None:
        await _refuse(websocket, language, *refused)
        return
    sub, watching = screen.join(live, address, language)
    closing: list[asyncio.Task[None]] = []
    sub.close = lambda code, key: closing.append(asyncio.create_task(close_with_error(websocket, language, code, key)))

    async def pump(first: bytes | None) -> None:
        if first is not None:  # else the copy is being reloaded: a full view follows
            await websocket.send_text(first.decode())
        while True:  # the hub's deltas and the chat's messages, in order
            await websocket.send_text((await sub.queue.get()).decode())

    sender: asyncio.Task[None] | None = None
    try:
        await websocket.accept()
        async with live.lock:
            first = service.attach(live, sub)
            if chat:
                service.chat.greet(live, sub)  # the public chat (server/community/chat.py), then each new message
        sender = asyncio.create_task(pump(first))
        while not closing:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = client_message(message.get("text") or "")
            if data is None or data.get("type") != "resync":
                continue  # the screen asks for a full view when it missed a delta; the rest is ignored
            if rates.view.take((live.id, address)) is not None:
                sub.close(1013, "error.rate_resync")
                break
            async with live.lock:
                if sub in live.subscribers:
                    service.resync(live, sub)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if sender is not None:
            sender.cancel()
        service.unsubscribe(live, sub)
        screen.leave(live, address, sub, watching)
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)


@router.get("/api/games/{game_id}/replay")
async def replay(
    game_id: str,
    request: Request,
    service: ServiceDep,
    screen: ScreenDep,
    step: int | None = None,
    lang: str | None = None,
) -> Response:
    """A finished game at `step` (default: the end), every hand shown; the steps where each
    round and each phase begins; the log up to that step; as each game shows it (`TableKit.replay`:
    Judges & Kings' with its board)."""
    _limited(request)
    live = await service.get(game_id)
    require_capability(live.served, "replay")
    language = normalize_language(lang) if lang else request_language(request)
    async with reading(live):
        if not live.played.is_over:
            raise ServiceError(409, "error.not_over", "a game is replayed once it is over")
        stored = await service.db(service.store.load, live.id)
        total = len(live.game.log)
        at = total if step is None else max(0, min(step, total))
        options = {**stored.options, **msgspec.to_builtins(live.game.state.options)}
        game, rounds, phases = await asyncio.to_thread(screen.replays.game_at, live, options, at)
        where = {"step": at, "steps": total, "rounds": rounds, "phases": phases}
        body = live.kit.replay(live, game, where, language, screen.table_options(live))
    return Response(body, media_type="application/json")
