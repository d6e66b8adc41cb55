"""A rematch with the same seats (docs/accounts.md "Rematch").

`POST /api/games/{id}/rematch`, by a player of the finished game (his seat's credential, or
signed in to the account it is bound to): the first player to ask makes a new table with the
same seats (names, bots, languages) and options (rules, pace or turn timer, takeover bot, hints;
new dice), where he is the host. Every other human seat gets an invitation (answered to him, as
at creation) and, when its player had an account, is kept for that account: he takes it from
his "My games" (the same route) without the link. The finished game remembers its rematch; a
player asking after it was made is seated in it (his kept seat), or told where it is.

One rematch per finished game, however many ask at once and through however many processes:
the maker first claims it in the store (table `rematches`: the first insert wins), the others
wait for the table he makes and are seated in it. Making a rematch counts as creating a game
(the address's creation allowance, 429 `error.rate_create`), and a game that started from a
scenario position (a lesson's table among them) gets a rematch only on a server that allows
scenarios (403 `error.scenarios_off`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from ...engine.rules import DEFAULT_RULES
from ..deps import rate_limited
from ..store import GameStore, SeatTable, hash_token, new_token, verify_token
from ..store.base import _now, _rowcount
from ..table import seats as seat_keys
from ..table.service import GameService, LiveGame, ServiceError
from .accounts import Accounts
from .paces import Paces, abandoned
from .rating_tables import rematches_table
from .ratings import RatingStore, seat_account

SeatOf = Callable[[HTTPConnection, LiveGame], Awaitable[int]]

CLAIM_STALE = 60.0  # seconds after which a claim whose table never came (its process died) is free again
WAIT = 5.0  # seconds a player waits for the table another request is making
POLL = 0.1


class RematchClaims:
    """The rematch of each finished game, claimed in the store (one transaction each)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def claim(self, game_id: str, stale: float = CLAIM_STALE) -> tuple[bool, str | None]:
        """(True, None): this caller makes the rematch; else (False, its id or None while it is
        being made). A claim left without a table for `stale` seconds is taken over."""
        now = _now()
        with self.store._session(write=True) as session:
            try:
                session.execute(rematches_table.insert().values(game_id=game_id, rematch_id=None, claimed_at=now))
                session.commit()
                return True, None
            except IntegrityError:
                session.rollback()
            taken = session.execute(
                rematches_table.update()
                .where(
                    rematches_table.c.game_id == game_id,
                    rematches_table.c.rematch_id.is_(None),
                    rematches_table.c.claimed_at < now - timedelta(seconds=stale),
                )
                .values(claimed_at=now)
            )
            if _rowcount(taken) == 1:
                session.commit()
                return True, None
            made = session.scalar(select(rematches_table.c.rematch_id).where(rematches_table.c.game_id == game_id))
        return False, made

    def made(self, game_id: str) -> str | None:
        with self.store._session() as session:
            found: str | None = session.scalar(
                select(rematches_table.c.rematch_id).where(rematches_table.c.game_id == game_id)
            )
        return found

    def done(self, game_id: str, rematch_id: str) -> None:
        with self.store._session(write=True) as session:
            session.execute(
                rematches_table.update().where(rematches_table.c.game_id == game_id).values(rematch_id=rematch_id)
            )
            session.commit()

    def release(self, game_id: str) -> None:
        """The table could not be made: the claim is free again."""
        with self.store._session(write=True) as session:
            session.execute(
                delete(rematches_table).where(
                    rematches_table.c.game_id == game_id, rematches_table.c.rematch_id.is_(None)
                )
            )
            session.commit()


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


class _Maker:
    """Makes a finished game's rematch, or finds the one another request is making."""

    def __init__(self, accounts: Accounts, paces: Paces) -> None:
        self.accounts = accounts
        self.paces = paces
        self.service: GameService = accounts.service
        self.claims = RematchClaims(self.service.store)

    async def made_by_another(self, game_id: str) -> str:
        """The rematch another request is making: waited for a few seconds."""
        stop = time.monotonic() + WAIT
        while time.monotonic() < stop:
            await asyncio.sleep(POLL)
            made = await self.service.db(self.claims.made, game_id)
            if made:
                return made
        raise ServiceError(
            409,
            "error.rematch_making",
            "the rematch is being made: try again in a moment",
            headers={"Retry-After": "1"},
            retry_after=1,
        )

    async def make(
        self, old: LiveGame, seat: int, options: dict[str, Any], request: Request, response: Response
    ) -> dict[str, Any]:
        """The rematch's table, claimed by this request."""
        service = self.service
        state_options = old.game.state.options
        specs = [
            {"kind": s["kind"], "bot": s.get("bot"), "name": s["name"], "language": s.get("language")}
            for s in old.seats
        ]
        pace = options.get("pace")
        # the options only Judges & Kings has (wave pairs, a round limit): another game's defaults
        live, token, invitations = await service.create(
            specs,
            getattr(state_options, "wave_pairs", DEFAULT_RULES.default_wave_pairs),
            None,
            getattr(state_options, "round_limit", None),
            options.get("position"),
            options.get("turn_timer"),
            old.takeover_bot,
            state_options.rules,
            seat,
            old.hints,
            {"pace": pace} if pace else None,
            old.kind,
        )
        await service.db(self.claims.done, old.id, live.id)
        if isinstance(pace, dict) and pace.get("hours"):
            self.paces.started(live.id, float(pace["hours"]))
        await self.keep_seats(old, live, seat)

        def remember(stored: dict[str, Any]) -> bool:
            if stored.get("rematch"):
                return False
            stored["rematch"] = live.id
            return True

        async with old.lock:
            await service.update_seat(old, 0, remember, quiet=True)
        seat_keys.set_seat_cookie(response, request, live.id, token)
        await self.accounts.bind(request, live, seat, token)
        service.wake_bots(live)
        return _made(request, live, seat, token, invitations)

    async def keep_seats(self, old: LiveGame, live: LiveGame, maker: int) -> None:
        """Every other human seat of an account is kept for that account at the new table."""
        async with live.lock:
            for i, info in enumerate(old.seats):
                account = seat_account(info) if info.get("kind") == "human" and i != maker else None
                if account is not None:

                    def keep(stored: dict[str, Any], account: int = account) -> bool:
                        stored["kept_for"] = account
                        return True

                    await self.service.update_seat(live, i, keep, quiet=True)


def rematch_router(accounts: Accounts, paces: Paces, seat_of: SeatOf) -> APIRouter:
    router = APIRouter()
    service: GameService = accounts.service
    games = RatingStore(service.store)
    maker = _Maker(accounts, paces)
    claims = maker.claims

    @router.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        """A new table with the finished game's seats: made by the first player who asks (its
        host: answers his credential and the other seats' invitations), or the seat kept for
        your account in the one made already. 409 while the game runs."""
        old = await service.get(game_id)
        seat = await seat_of(request, old)
        if not (old.played.is_over or abandoned(old)):
            raise ServiceError(409, "error.rematch_running", "a rematch is for a finished game")
        made = old.seats[0].get("rematch") or await service.db(claims.made, game_id)
        if made:
            return await _take_kept(accounts, request, response, await service.get(made))
        row = await service.db(games.game_row, game_id)
        options = row[0] if row else {}
        if options.get("position") is not None and not request.app.state.options.allow_scenarios:
            raise ServiceError(403, "error.scenarios_off", "this server does not start games from scenario positions")
        address = request.client.host if request.client else ""
        rate_limited(request.app.state.rates.create, address, "error.rate_create", "new games")
        claimed, made = await service.db(claims.claim, game_id)
        if not claimed:
            made = made or await maker.made_by_another(game_id)
            return await _take_kept(accounts, request, response, await service.get(made))
        try:
            return await maker.make(old, seat, options, request, response)
        except BaseException:
            await asyncio.shield(service.db(claims.release, game_id))
            raise

    return router
