"""A seat's live view (docs/web.md, "Live updates"): a websocket that receives a full view, then
deltas (server/table/updates.py), and may ask for a resync or another language; with `?chat=1` the
table talk too (server/community/chat.py); with `?follow=1` the board's edits and the log's new entries
too, once the views are sent (`follow` messages, server/table/screen.py; `board`, `since`: the drawing
and the log the screen holds).

The seat's actions may come over its socket too (`{"type": "act", "id": ..., "action": {...},
"client_action_id": "..."}`): the same validation, refusals, idempotency and limits as `POST
/api/games/{id}/actions` (routes/games.py), answered on the socket by `acted` or `refused` with
the request's `id`. The seat and the cookie's origin were checked when the socket opened
(`seat_of`); a seat revoked since has its sockets closed (server/table/actor.py, `take_seats`).

A full view costs the server a seat's whole view: each seat has `resync_burst` at once, then
`resync_per_minute`, for its sockets' openings and their resync/language messages. A socket
opened over the limit is closed (1013: the screen reconnects a second later); a resync over the
limit is sent when the allowance refills (once, in the latest language asked for), and a flood
meanwhile closes the socket (1008).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ...engine import RuleError
from ...i18n import gettext, normalize_language, request_language
from .. import logs
from ..deps import LimitsDep, RatesDep, ServiceDep, seat_of
from ..errors import ServiceError, invalid_request_body, refusal_body
from ..limits import Limits, RateLimiter
from ..table import updates
from ..table.screen import Followed, Screen
from ..table.service import GameService, LiveGame, Subscriber
from .games import SubmitAction

router = APIRouter()

MAX_REQUEST_ID = 100  # characters of an action's request id (a string), echoed in its answer


async def close_with_error(websocket: WebSocket, language: str, code: int, key: str, **params: Any) -> None:
    """Tells the client why in its language (an `error` message), then closes the socket; a
    socket already gone is left as it is. Seats' and spectators' sockets (routes/screen.py)."""
    try:
        await websocket.send_text(updates.error_message(key, gettext(language, key, **params)).decode())
        await websocket.close(code=code, reason=key)
    except Exception:  # noqa: BLE001 - the socket is already gone
        pass


def client_message(text: str) -> dict[str, Any] | None:
    """A client's JSON message as a dict, None when the text is no message of the protocol."""
    try:
        data: Any = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class SeatSocket:
    """One seat's open websocket: what it sends, the resyncs it owes, how it closes."""

    def __init__(
        self, websocket: WebSocket, service: GameService, live: LiveGame, seat: int, language: str, rate: RateLimiter
    ) -> None:
        self.websocket, self.service, self.live, self.seat = websocket, service, live, seat
        self.language = language
        self.rate = rate
        self.closing: list[asyncio.Task[None]] = []
        self.wanted: str | None = None  # the language of the resync owed
        self.late: list[asyncio.Task[None]] = []
        self.flood = 0
        self.sub: Subscriber | None = None
        self.followed: Followed | None = None  # with ?follow=1: the board and the log sent

    async def close(self, code: int, key: str) -> None:
        await close_with_error(self.websocket, self.language, code, key)

    async def pump(self, sub: Subscriber, first: bytes | None) -> None:
        if first is not None:  # else the copy is being reloaded: a full view follows
            await self.websocket.send_text(first.decode())
        # the full view sent is not kept for the socket's life by this frame (~10 KiB a socket)
        first = None
        while True:
            if self.followed is not None and sub.queue.empty():  # caught up: the board and the log
                screen: Screen = self.websocket.app.state.screen
                text = await screen.follow_message(self.live, sub.language, self.followed)
                if text is not None:
                    await self.websocket.send_text(text)
            await self.websocket.send_text((await sub.queue.get()).decode())

    async def resync(self) -> None:
        async with self.live.lock:
            language, self.wanted = self.wanted, None
            if self.sub in self.live.subscribers:
                assert self.sub is not None
                self.service.resync(self.live, self.sub, language)

    async def resync_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.rate.take((self.live.id, self.seat))  # the token that refilled meanwhile
        await self.resync()

    async def act(self, data: dict[str, Any], size: int, limits: Limits) -> None:
        """An action of the seat sent over its socket, submitted as `POST .../actions` submits it;
        answered `acted` ({"seq", "duplicate"}, as the HTTP answer) or `refused` (the HTTP
        refusal's status and body), with the message's `id`."""
        request_id = data.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, int | str):
            request_id = None
        elif isinstance(request_id, str):
            request_id = request_id[:MAX_REQUEST_ID]
        language = self.sub.language if self.sub is not None else self.language
        answer: dict[str, Any]
        try:
            if size > limits.max_body_bytes:  # the HTTP route's body limit (server/limits.py)
                raise ServiceError(413, "error.too_large", "the request is too large", limit=limits.max_body_bytes)
            body = SubmitAction.model_validate({k: v for k, v in data.items() if k not in ("type", "id")})
            if self.sub is None or self.sub not in self.live.subscribers:  # revoked, closing
                raise ServiceError(403, "error.seat_revoked", "this socket's seat was taken back")
            logs.bind_game(self.live.id)
            logs.bind_seat(self.seat)
            self.service.saw(self.live, self.seat)  # a sign of life, as a request is
            result = await self.service.submit(self.live, self.seat, body.action, body.client_action_id)
            answer = {"type": "acted", "id": request_id, **result}
        except ValidationError as exc:
            answer = {
                "type": "refused",
                "id": request_id,
                "status": 422,
                **invalid_request_body(exc.errors(), language),
            }
        except (ServiceError, RuleError) as exc:
            status, refused = refusal_body(exc, language)
            answer = {"type": "refused", "id": request_id, "status": status, **refused}
        await self.websocket.send_text(msgspec.json.encode(answer).decode())

    async def on_text(self, text: str, limits: Limits) -> bool:
        """A message of the client; False when the socket is to close."""
        data = client_message(text)
        if data is not None and data.get("type") == "act":
            await self.act(data, len(text.encode()), limits)
            return True
        if data is None or data.get("type") not in ("language", "resync"):
            return True  # not a message of the protocol: ignored
        if data["type"] == "language":  # no language or not a string: the default
            lang_asked = data.get("lang")
            self.wanted = normalize_language(lang_asked if isinstance(lang_asked, str) else "")
        if self.late and not self.late[0].done():
            self.flood += 1
            if self.flood > limits.resync_abuse:
                await self.close(1008, "error.rate_resync")
                return False
            return True
        wait = self.rate.take((self.live.id, self.seat))
        if wait is None:
            await self.resync()
        else:
            self.flood = 0
            self.late[:] = [asyncio.create_task(self.resync_later(wait))]
        return True

    async def receive(self, limits: Limits) -> None:
        """Until the client leaves, breaks the protocol or floods it."""
        while not self.closing:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("bytes") is not None:  # the protocol is JSON text
                await self.close(1003, "error.binary_frame")
                return
            if not await self.on_text(message.get("text") or "", limits):
                return


@router.websocket("/ws/games/{game_id}")
async def live_updates(
    websocket: WebSocket,
    game_id: str,
    service: ServiceDep,
    limits: LimitsDep,
    rates: RatesDep,
    lang: str | None = None,
    chat: bool = False,
    follow: bool = False,
    board: str = "",
    since: int = -1,
) -> None:
    """The seat's live view (docs/web.md, "Live updates"): a full view, then deltas. With
    `follow`, also the board's edits and the log's new entries once the view is sent
    (server/table/screen.py, `Screen.follow_message`)."""
    try:
        live = await service.get(game_id)
        seat = await seat_of(websocket, live)
        if chat:  # the table talk too (server/community/chat.py): loaded before the socket joins
            await service.chat.room(live)
            await service.chat.load_mutes(live, seat)
    except ServiceError as exc:
        await websocket.close(code=4403, reason=exc.key)
        return
    await websocket.accept()
    socket = SeatSocket(
        websocket, service, live, seat, request_language(websocket, lang, live.seats[seat]["language"]), rates.view
    )
    if rates.view.take((live.id, seat)) is not None:
        await socket.close(1013, "error.rate_resync")
        return
    async with live.lock:
        sub, first = service.subscribe(live, seat, socket.language)
        if chat:
            service.chat.greet(live, sub)  # its history at once, then each new message
    socket.sub = sub
    socket.followed = Followed(board=board[:64], since=since) if follow else None
    sub.close = lambda code, key: socket.closing.append(asyncio.create_task(socket.close(code, key)))
    sender = asyncio.create_task(socket.pump(sub, first))
    del first  # the pump sends it, then lets it go
    try:
        await socket.receive(limits)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()
        for task in socket.late:
            task.cancel()
        service.unsubscribe(live, sub)
        service.saw(live, seat, leaving=True)  # the time its player was last here
        if socket.closing:
            await asyncio.gather(*socket.closing, return_exceptions=True)
