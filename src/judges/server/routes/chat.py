"""The table talk's routes (server/community/chat.py): a seat's messages and history, what anyone may read,
a spectator's message, and the host closing a seat's chat."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ..deps import ServiceDep, seat_of
from ..errors import ServiceError
from ..table.tables import SPECTATOR
from ..table.views import encode_payload

router = APIRouter()


class SeatMessage(BaseModel):
    channel: Literal["table", "spectators", "private"] = "table"
    to: list[int] = Field(default_factory=list, max_length=8, description="the other seats of a private message")
    text: str = Field(max_length=4000, description="cleaned; at most 500 characters once cleaned")
    client_message_id: str | None = Field(default=None, max_length=100, description="unique per seat: sent once")


class SpectatorMessage(BaseModel):
    text: str = Field(max_length=4000)
    key: str = Field(min_length=8, max_length=100, description="a secret of the spectator's browser: their tag")
    client_message_id: str | None = Field(default=None, max_length=100)


def json_response(payload: dict[str, Any]) -> Any:
    return Response(encode_payload(payload), media_type="application/json")


@router.post("/api/games/{game_id}/chat")
async def post(game_id: str, body: SeatMessage, request: Request, service: ServiceDep) -> dict[str, Any]:
    """Your seat's message to the table, to the spectators' channel, or privately to other
    seats (`channel: "private"`, `to`). Answered once stored: `{"id", "duplicate"}`."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    return await service.chat.post_as_seat(live, seat, body.channel, body.to, body.text, body.client_message_id)


@router.get("/api/games/{game_id}/chat")
async def history(game_id: str, request: Request, service: ServiceDep, after: int = 0) -> Any:
    """The latest messages your seat may read, after id `after`."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    room = await service.chat.room(live)
    await service.chat.load_mutes(live, seat)
    return json_response({"messages": [r for r in service.chat.visible(live, room, seat) if r["id"] > after]})


@router.get("/api/games/{game_id}/chat/public")
async def public(game_id: str, service: ServiceDep, after: int = 0) -> Any:
    """What anyone may read: the table's messages and the spectators' channel."""
    live = await service.get(game_id)
    room = await service.chat.room(live)
    return json_response(
        {"messages": [r for r in service.chat.visible(live, room, SPECTATOR, True) if r["id"] > after]}
    )


@router.post("/api/games/{game_id}/chat/spectate")
async def spectate(game_id: str, body: SpectatorMessage, request: Request, service: ServiceDep) -> dict[str, Any]:
    """A spectator's message, in the spectators' channel."""
    live = await service.get(game_id)
    address = request.client.host if request.client else ""
    return await service.chat.post_as_spectator(live, address, body.key, body.text, body.client_message_id)


@router.post("/api/games/{game_id}/chat/seats/{target}/{move}")
async def close_chat(
    game_id: str, target: int, move: Literal["close", "open"], request: Request, service: ServiceDep
) -> dict:
    """The host closes (or opens again) the chat of another human seat."""
    live = await service.get(game_id)
    host = await seat_of(request, live)
    if not live.seats[host].get("host"):
        raise ServiceError(403, "error.not_host", "only the table's host may do this")
    if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == host:
        raise ServiceError(422, "error.chat_target", "the host can close the chat of another human seat only")
    closed = move == "close"
    async with live.lock:

        def change(info: dict[str, Any]) -> bool:
            if bool(info.get("chat_closed")) == closed:
                return False
            info["chat_closed"] = closed
            return True

        _, changed = await service.update_seat(live, target, change)
    if changed:
        service.publish(live)
        await service.broadcast(live)
    return {"seat": target, "chat_closed": closed}
