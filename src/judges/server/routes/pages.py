"""The pages of a table: home, a seat's game page, an invitation and taking its seat."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ...engine import DEFAULT_RULES
from ...i18n import request_language
from ..community.accounts import Accounts
from ..deps import AccountsDep, ServiceDep, seat_of
from ..errors import ServiceError
from ..html import no_screen_page, page
from ..store import hash_token, new_token, verify_token
from ..table import seats as seat_keys

router = APIRouter()


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def home(request: Request, lang: str | None = None) -> HTMLResponse:
    return page(
        "home.html",
        request,
        request_language(request, lang),
        min_players=DEFAULT_RULES.min_players,
        max_players=DEFAULT_RULES.max_players,
    )


@router.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def game_page(request: Request, game_id: str, service: ServiceDep, lang: str | None = None) -> HTMLResponse:
    live = await service.get(game_id)
    try:
        seat = await seat_of(request, live)
    except ServiceError as exc:
        language = request_language(request, lang)
        response = page("message.html", request, language, key="ui.no_seat", error=exc.key)
        response.status_code = exc.status
        return response
    language = request_language(request, lang, live.seats[seat]["language"])
    if (other := no_screen_page(request, language, live, seat=seat)) is not None:
        return other  # the seat plays through the API
    return page("game.html", request, language, game_id=game_id, seat=seat, mode="play")


@router.get("/join/{game_id}/{code}", response_class=HTMLResponse, include_in_schema=False)
async def invitation_page(
    request: Request, game_id: str, code: str, service: ServiceDep, lang: str | None = None
) -> HTMLResponse:
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
    # a game without a screen: the seat is taken through the API (a browser's seat could not play)
    if (other := no_screen_page(request, language, live, invitation=code)) is not None:
        return other
    return page("join.html", request, language, seat=seat, name=live.seats[seat]["name"])


@router.get("/resume/{game_id}/{code}", response_class=HTMLResponse, include_in_schema=False)
async def resume_page(
    request: Request, game_id: str, code: str, service: ServiceDep, lang: str | None = None
) -> HTMLResponse:
    """A seat's resume link (POST /api/games/{id}/resume): a button that brings the seat to
    this browser. Opening the link alone takes nothing (a link preview must not)."""
    live = await service.get(game_id)
    seat = seat_keys.resumed_seat(live.seats, code)
    language = request_language(request, lang, live.seats[seat]["language"] if seat is not None else None)
    if seat is None:
        response = page("message.html", request, language, key="ui.resume_spent", error="error.resume_link")
        response.status_code = 404
        return response
    return page("join.html", request, language, seat=seat, name=live.seats[seat]["name"], resume=True)


@router.post("/resume/{game_id}/{code}", include_in_schema=False)
async def resume_seat(request: Request, game_id: str, code: str, service: ServiceDep) -> RedirectResponse:
    """Takes the seat of a resume link: a new credential goes into this browser's cookie (the
    other browser's stops working), and the browser goes on to the game's page. A seat bound to
    an account stays the account's."""
    if not seat_keys.same_origin(request):
        raise ServiceError(403, "error.cross_origin", "a seat is taken from this site's pages only")
    live = await service.get(game_id)
    token = new_token()
    now = time.time()

    def change(info: dict[str, Any]) -> bool:
        if not seat_keys.held(info) or not verify_token(code, info.get("resume_hash")):
            return False  # spent meanwhile (a new link, the seat given away)
        bound = isinstance(info.get("account"), int) and Accounts.bound(info, info["account"])
        info["token_hash"] = hash_token(token)
        if bound:
            info["account_for"] = hash_token(info["token_hash"])
        info["seen"] = now
        return True

    async with live.lock:
        seat = seat_keys.resumed_seat(live.seats, code)
        if seat is None:
            raise ServiceError(404, "error.resume_link", "this link is not valid: a newer one replaced it")
        seats, _ = await service.update_seat(live, seat, change)
        if not verify_token(token, seats[seat].get("token_hash")):
            raise ServiceError(404, "error.resume_link", "this link is not valid: a newer one replaced it")
    service.publish(live)
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    seat_keys.set_seat_cookie(response, request, game_id, token)
    return response


@router.post("/join/{game_id}/{code}", include_in_schema=False)
async def take_seat(
    request: Request, game_id: str, code: str, service: ServiceDep, accounts: AccountsDep
) -> RedirectResponse:
    """Takes the invited seat: its credential goes into the game's cookie and the browser
    goes on to the game's page, whose address holds no secret. Another site's page cannot
    make a player's browser take a seat (and bind it to his account)."""
    if not seat_keys.same_origin(request):
        raise ServiceError(403, "error.cross_origin", "a seat is taken from this site's pages only")
    live = await service.get(game_id)
    await accounts.refuse_seated(request, live)
    seat, token = await service.claim(live, code, seat_keys.credential(request, game_id)[0])
    await accounts.bind(request, live, seat, token)
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    seat_keys.set_seat_cookie(response, request, game_id, token)
    return response
