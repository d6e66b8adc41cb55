"""Accounts (issue 30, docs/accounts.md): a player who signs in keeps his seats on every device.

Routes: `POST /api/accounts {name, password, email?}` (201, signed in), `POST /api/session
{name, password}` (sign in), `DELETE /api/session` (sign out), `GET /api/me`, `GET /api/me/games`.

Passwords are stored as argon2id hashes (argon2-cffi's defaults). A signed-in browser holds a
session cookie (`jk_session`: HttpOnly, SameSite=Lax, Secure over https) whose random id is
stored only hashed (sha256); every sign-in makes a new id and ends the one the browser held.
Sign-in attempts are rate-limited per name and per address; a wrong password and an unknown
name answer alike (401 `error.sign_in`), and an unknown name is checked against a dummy hash so
that both take about as long.

A seat taken while signed in (created, claimed from an invitation, taken from the lobby) is
bound to the account: the stored seat holds `account` (the account's id) and `account_for` (the
sha256 of the seat's `token_hash` then). The binding holds while the seat keeps that
credential: a seat the host revokes or hands to someone else is no longer the account's. A
request signed in to the account (same site only, as for the seat's cookie) acts for the seat.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ..engine.state import PHASES
from ..settings import Settings
from ..settings import load as load_settings
from . import seats as seat_keys
from .account_store import Account, AccountStore, NameTaken, name_key
from .limits import RateLimiter, clean_name
from .service import GameService, LiveGame, ServiceError
from .store import hash_token

SESSION_COOKIE = "jk_session"


@dataclass(frozen=True)
class AccountLimits:
    """Each overridable by its environment variable (docs/accounts.md)."""

    session_days: float = 30.0  # JUDGES_SESSION_DAYS
    name_min: int = 2
    name_max: int = 40
    password_min: int = 8
    password_max: int = 200
    sign_in_burst: int = 5  # JUDGES_SIGN_IN_BURST: attempts at once, per name and per address
    sign_in_per_minute: float = 5.0  # JUDGES_SIGN_IN_PER_MINUTE
    sign_up_burst: int = 5
    sign_up_per_minute: float = 2.0

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> AccountLimits:
        """The defaults, with JUDGES_SESSION_DAYS and JUDGES_SIGN_IN_* (judges/settings.py)."""
        settings = settings or load_settings()
        names = ("session_days", "sign_in_burst", "sign_in_per_minute")
        return cls(**{name: getattr(settings, name) for name in names if getattr(settings, name) is not None})


class SignUp(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)
    email: str | None = Field(default=None, max_length=200)


class SignIn(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class Accounts:
    """The accounts of a server: its store, the password hasher, the sign-in rate limits."""

    def __init__(self, service: GameService, limits: AccountLimits | None = None) -> None:
        self.service = service
        self.limits = limits or AccountLimits.from_settings(service.settings)
        self.store = AccountStore(service.store)
        self.hasher = PasswordHasher()
        self._dummy_hash: str | None = None
        self.by_name = RateLimiter(self.limits.sign_in_burst, self.limits.sign_in_per_minute)
        self.by_address = RateLimiter(self.limits.sign_in_burst * 4, self.limits.sign_in_per_minute * 4)
        self.sign_ups = RateLimiter(self.limits.sign_up_burst, self.limits.sign_up_per_minute)

    @property
    def dummy_hash(self) -> str:
        """What an unknown name's password is checked against (made once, when first needed)."""
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy_hash

    # --- sessions ---------------------------------------------------------------------------

    async def account(self, conn: HTTPConnection) -> Account | None:
        """The account a request is signed in to (its session cookie), or None."""
        session_id = conn.cookies.get(SESSION_COOKIE)
        if not session_id or len(session_id) > 100:
            return None
        return await self.service.db(self.store.session_account, hash_token(session_id))

    async def sign_in(self, conn: HTTPConnection, response: Response, account: Account) -> None:
        """A fresh session id (the one the browser held, if any, ends)."""
        session_id = secrets.token_urlsafe(32)
        old = conn.cookies.get(SESSION_COOKIE)
        lifetime = self.limits.session_days * 86400
        await self.service.db(
            self.store.open_session, hash_token(session_id), account.id, lifetime, hash_token(old) if old else None
        )
        response.set_cookie(
            SESSION_COOKIE,
            session_id,
            max_age=int(lifetime),
            path="/",
            httponly=True,
            samesite="lax",
            secure=conn.url.scheme in ("https", "wss"),
        )

    # --- seats ------------------------------------------------------------------------------

    @staticmethod
    def bound(seat: dict[str, Any], account_id: int) -> bool:
        """Whether the seat is the account's now: bound to it, with the credential it had then."""
        token_hash = seat.get("token_hash")
        return (
            seat.get("account") == account_id
            and bool(token_hash)
            and seat.get("account_for") == hash_token(str(token_hash))
        )

    def seat_in(self, live: LiveGame, account_id: int) -> int | None:
        return next((i for i, s in enumerate(live.seats) if self.bound(s, account_id)), None)

    async def bound_seat(self, conn: HTTPConnection, live: LiveGame) -> int | None:
        """The seat of `live` bound to the account the request is signed in to (cookie: from
        this site's pages only), or None."""
        if SESSION_COOKIE not in conn.cookies or not seat_keys.same_origin(conn):
            return None
        account = await self.account(conn)
        if account is None:
            return None
        seat = self.seat_in(live, account.id)
        if seat is None and self.service.fanout.shared:
            # bound a moment ago through another process? its seats may not have reached this one
            if await self.service.db(self.store.seat_in, account.id, live.id) is not None:
                async with live.lock:
                    await self.service.caught_up_quietly(live)
                seat = self.seat_in(live, account.id)
        return seat

    async def refuse_seated(self, conn: HTTPConnection, live: LiveGame) -> None:
        """A player holds one seat of a table: an account with a seat here takes no other."""
        account = await self.account(conn) if SESSION_COOKIE in conn.cookies else None
        if account is not None and self.seat_in(live, account.id) is not None:
            raise ServiceError(409, "error.seat_held", "you already hold a seat at this table")

    async def bind(self, conn: HTTPConnection, live: LiveGame, seat: int, token: str) -> None:
        """A seat just taken with credential `token`: bound to the account the request is
        signed in to, if any (an account holds one seat of a table: a second stays a guest's)."""
        if not seat_keys.same_origin(conn):
            return  # the session is honoured from this site's pages only
        account = await self.account(conn)
        if account is None or self.seat_in(live, account.id) is not None:
            return
        token_hash = hash_token(token)

        def change(info: dict[str, Any]) -> bool:
            if info.get("token_hash") != token_hash:
                return False  # the seat changed hands meanwhile
            info["account"] = account.id
            info["account_for"] = hash_token(token_hash)
            return True

        async with live.lock:
            _, changed = await self.service.update_seat(live, seat, change)
        if changed:
            self.service.publish(live)
            await self.service.db(self.store.bind_seat, account.id, live.id, seat)


def account_payload(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "email": account.email}


def accounts_router(accounts: Accounts) -> APIRouter:
    router = APIRouter()
    service = accounts.service
    limits = accounts.limits

    def refuse(limiter: RateLimiter, key: Any) -> None:
        wait = limiter.take(key)
        if wait is not None:
            seconds = max(1, int(wait + 0.999))
            raise ServiceError(
                429,
                "error.rate_sign_in",
                f"too many attempts: try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
                retry_after=seconds,
            )

    def same_site(request: Request) -> None:
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "accounts are used from this site's pages only")

    @router.post("/api/accounts", status_code=201)
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        """Makes an account and signs the browser in to it."""
        same_site(request)
        name = clean_name(body.name, limits.name_max)
        if len(name) < limits.name_min:
            raise ServiceError(
                422,
                "error.account_name",
                f"a name has {limits.name_min} to {limits.name_max} characters",
                min=limits.name_min,
                max=limits.name_max,
            )
        if not limits.password_min <= len(body.password) <= limits.password_max:
            raise ServiceError(
                422,
                "error.password_length",
                f"a password has {limits.password_min} to {limits.password_max} characters",
                min=limits.password_min,
                max=limits.password_max,
            )
        email = (body.email or "").strip() or None
        if email is not None and (
            "@" not in email or any(c.isspace() or unicodedata.category(c).startswith("C") for c in email)
        ):
            raise ServiceError(422, "error.email", "this is not an e-mail address")
        refuse(accounts.sign_ups, request.client.host if request.client else "")
        password_hash = await asyncio.to_thread(accounts.hasher.hash, body.password)
        try:
            account = await service.db(accounts.store.create, name, password_hash, email)
        except NameTaken:
            raise ServiceError(409, "error.name_taken", "this name is taken: choose another") from None
        await accounts.sign_in(request, response, account)
        return {"account": account_payload(account)}

    @router.post("/api/session")
    async def sign_in(body: SignIn, request: Request, response: Response) -> dict[str, Any]:
        """Signs the browser in (a new session id). A wrong name or password: 401, the same
        answer for both."""
        same_site(request)
        refuse(accounts.by_address, request.client.host if request.client else "")
        name = clean_name(body.name, limits.name_max)  # as it was cleaned at sign-up
        refuse(accounts.by_name, name_key(name))
        account = await service.db(accounts.store.by_name, name)

        def check() -> bool:
            try:
                accounts.hasher.verify(account.password_hash if account else accounts.dummy_hash, body.password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
            return account is not None

        if not await asyncio.to_thread(check):  # argon2 takes its time: off the event loop
            raise ServiceError(401, "error.sign_in", "wrong name or password")
        assert account is not None
        if accounts.hasher.check_needs_rehash(account.password_hash):
            new_hash = await asyncio.to_thread(accounts.hasher.hash, body.password)
            await service.db(accounts.store.set_password_hash, account.id, new_hash)
        await accounts.sign_in(request, response, account)
        return {"account": account_payload(account)}

    @router.delete("/api/session")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        """Signs the browser out (its session ends on the server too)."""
        session_id = request.cookies.get(SESSION_COOKIE)
        if session_id:
            await service.db(accounts.store.close_session, hash_token(session_id))
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return {"account": None}

    @router.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        """The account this browser is signed in to (`account`: null for a guest)."""
        account = await accounts.account(request)
        return {"account": account_payload(account) if account else None}

    @router.get("/api/me/games")
    async def my_games(request: Request, limit: int = 50) -> dict[str, Any]:
        """The account's games: running ones first (the decisions owed by you first, then the
        longest waiting), each with the table's names, round, phase, `your_turn` and `waiting`
        (seconds since the last move); then the finished ones with their result and replay."""
        account = await accounts.account(request)
        if account is None:
            raise ServiceError(401, "error.signed_out", "sign in to see your games")
        running, finished = [], []
        now = time.time()
        # finished games as stored (not loaded into memory); running ones from their live copy
        for stored in await service.db(accounts.store.games_of, account.id, max(1, min(limit, 200))):
            if not 0 <= stored.seat < len(stored.seats) or not accounts.bound(stored.seats[stored.seat], account.id):
                continue  # the seat was handed to someone else
            entry: dict[str, Any] = {
                "id": stored.id,
                "seat": stored.seat,
                "names": [s["name"] for s in stored.seats],
                "link": f"/games/{stored.id}",
            }
            if stored.ending is not None:
                entry.update(
                    ending=stored.ending,
                    winners=stored.winners,
                    won=stored.seat in stored.winners,
                    replay=f"/games/{stored.id}/replay",
                    at=int(stored.updated_at.timestamp()),
                )
                finished.append(entry)
                continue
            try:
                live = await service.get(stored.id)
            except ServiceError:
                continue
            game = live.game
            count = len(game.log)
            last = await service.db(service.store.list_actions, stored.id, count - 1) if count else []
            since = last[-1]["created_at"].timestamp() if last else stored.updated_at.timestamp()
            entry.update(
                round=game.state.round,
                phase=PHASES[game.state.phase - 1],
                your_turn=not game.is_over and stored.seat in game.waiting_for(),
                waiting=round(max(0.0, now - since)),
            )
            running.append(entry)
        running.sort(key=lambda e: (not e["your_turn"], -e["waiting"]))
        return {"running": running, "finished": finished}

    return router
