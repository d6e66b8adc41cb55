"""A rematch with the same seats (issue 30, docs/accounts.md "Rematch").

`POST /api/games/{id}/rematch`, by a player of the finished game (his seat's credential, or
signed in to the account it is bound to): the first player to ask makes a new table with the
same seats (names, bots, languages) and options (rules, pace or turn timer, takeover bot, hints;
new dice), where he is the host. Every other human seat gets an invitation (answered to him, as
at creation) and, when its player had an account, is kept for that account: he takes it from
his "My games" (the same route) without the link. The finished game remembers its rematch; a
player asking after it was made is seated in it (his kept seat), or told where it is.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from . import seats as seat_keys
from .accounts import Accounts
from .paces import Paces, abandoned
from .ratings import RatingStore, seat_account
from .service import GameService, LiveGame, ServiceError
from .store import SeatTable, hash_token, new_token, verify_token

SeatOf = Callable[[HTTPConnection, LiveGame], Awaitable[int]]


async def _take_kept(accounts: Accounts, request: Request, response: Response, live: LiveGame) -> dict[str, Any]:
    """Seats the signed-in player in the rematch's seat kept for his account."""
    service = accounts.service
    account = await accounts.account(request)
    if account is None:
        raise ServiceError(409, "error.rematch_made", "the rematch is made: ask its host for your invitation")
    token = new_token()
    now = time.time()

    def take(info: dict[str, Any], table: SeatTable) -> bool:
        if info.get("kept_for") != account.id or seat_keys.held(info):
            return False
        seat_keys.hand_to(info, hash_token(token), table.chat_count, now)
        return True

    seat = accounts.seat_in(live, account.id)
    if seat is None:
        async with live.lock:
            for i, info in enumerate(live.seats):
                if info.get("kept_for") == account.id:
                    seats, _ = await service.update_seat(live, i, take, table=True)
                    if verify_token(token, seats[i].get("token_hash")):
                        seat = i
                    break
        if seat is None:
            raise ServiceError(409, "error.rematch_made", "the rematch is made: ask its host for your invitation")
        service.publish(live)
        await service.broadcast(live)
        seat_keys.set_seat_cookie(response, request, live.id, token)
        await accounts.bind(request, live, seat, token)
    base = str(request.base_url).rstrip("/")
    return {"id": live.id, "seat": seat, "link": f"{base}/games/{live.id}", "made": False}


def _made(request: Request, live: LiveGame, seat: int, token: str, invitations: dict[int, str]) -> dict[str, Any]:
    """The answer to the rematch's maker: its credential, the invitations and the kept seats."""
    base = str(request.base_url).rstrip("/")
    links = {i: seat_keys.invitation_link(base, live.id, code) for i, code in invitations.items()}
    return {
        "id": live.id,
        "seat": seat,
        "token": token,
        "link": f"{base}/games/{live.id}",
        "made": True,
        "seats": [
            {
                "seat": i,
                "name": s["name"],
                "kind": s["kind"],
                **({"invitation": links[i]} if i in links else {}),
                **({"kept": True} if s.get("kept_for") else {}),
            }
            for i, s in enumerate(live.seats)
        ],
    }


def rematch_router(accounts: Accounts, paces: Paces, seat_of: SeatOf) -> APIRouter:
    router = APIRouter()
    service: GameService = accounts.service
    games = RatingStore(service.store)

    @router.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        """A new table with the finished game's seats: made by the first player who asks (its
        host: answers his credential and the other seats' invitations), or the seat kept for
        your account in the one made already. 409 while the game runs."""
        old = await service.get(game_id)
        seat = await seat_of(request, old)
        if not (old.game.is_over or abandoned(old)):
            raise ServiceError(409, "error.rematch_running", "a rematch is for a finished game")
        made = old.seats[0].get("rematch")
        if made:
            return await _take_kept(accounts, request, response, await service.get(made))
        row = await service.db(games.game_row, game_id)
        options = row[0] if row else {}
        state_options = old.game.state.options
        specs = [
            {"kind": s["kind"], "bot": s.get("bot"), "name": s["name"], "language": s.get("language")}
            for s in old.seats
        ]
        pace = options.get("pace")
        live, token, invitations = await service.create(
            specs,
            state_options.wave_pairs,
            None,
            state_options.round_limit,
            options.get("position"),
            options.get("turn_timer"),
            old.takeover_bot,
            state_options.rules,
            seat,
            old.hints,
            {"pace": pace} if pace else None,
        )
        if isinstance(pace, dict) and pace.get("hours"):
            paces.started(live.id, float(pace["hours"]))
        async with live.lock:
            for i, info in enumerate(old.seats):
                account = seat_account(info) if info.get("kind") == "human" and i != seat else None
                if account is not None:

                    def keep(stored: dict[str, Any], account: int = account) -> bool:
                        stored["kept_for"] = account
                        return True

                    await service.update_seat(live, i, keep, quiet=True)

        def remember(stored: dict[str, Any]) -> bool:
            if stored.get("rematch"):
                return False
            stored["rematch"] = live.id
            return True

        async with old.lock:
            await service.update_seat(old, 0, remember, quiet=True)
        seat_keys.set_seat_cookie(response, request, live.id, token)
        await accounts.bind(request, live, seat, token)
        service.wake_bots(live)
        return _made(request, live, seat, token, invitations)

    return router
