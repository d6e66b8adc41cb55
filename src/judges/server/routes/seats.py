"""A table's seats: the host's control of another human seat, and a player's own away/back."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request

from ..deps import RatesDep, ServiceDep, rate_limited, seat_of
from ..table import seats as seat_keys

router = APIRouter()


@router.post("/api/games/{game_id}/seats/{target}/{move}")
async def host_control(
    game_id: str,
    target: int,
    move: Literal["revoke", "invitation", "consent", "withhold"],
    request: Request,
    service: ServiceDep,
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


@router.post("/api/games/{game_id}/resume")
async def resume_link(game_id: str, request: Request, service: ServiceDep, rates: RatesDep) -> dict:
    """A link that brings your seat to another browser (a guest's seat lives in one browser's
    cookie): opened there, it takes the seat, and this browser's credential stops working. A
    new link replaces the previous one. A few a minute, as away and back."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    rate_limited(rates.away, (game_id, seat), "error.rate_away", "seat changes")
    codes: list[str] = []

    def change(info: dict[str, Any]) -> bool:
        codes[:] = [seat_keys.new_resume_code(info)]
        return True

    async with live.lock:
        await service.update_seat(live, seat, change)
    service.publish(live)  # another process may serve the link
    return {"seat": seat, "link": seat_keys.resume_link(str(request.base_url).rstrip("/"), game_id, codes[0])}


@router.post("/api/games/{game_id}/seat/{move}")
async def seat_control(
    game_id: str, move: Literal["away", "back"], request: Request, service: ServiceDep, rates: RatesDep
) -> dict:
    """Hands your seat to a bot ("away") or takes it back ("back"); a few times a minute."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    rate_limited(rates.away, (game_id, seat), "error.rate_away", "seat changes")
    if move == "back":  # a seat taken from a banned or suspended account stays the bot's meanwhile
        await request.app.state.moderation.may_come_back(live, seat)
    await service.set_away(live, seat, move == "away", "left" if move == "away" else "returned")
    return {"seat": seat, "away": bool(live.seats[seat].get("away"))}
