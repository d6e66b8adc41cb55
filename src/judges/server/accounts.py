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

import secrets
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from fastapi import Response
from starlette.requests import HTTPConnection

from ..settings import Settings
from ..settings import load as load_settings
from . import seats as seat_keys
from .account_store import Account, AccountStore
from .limits import RateLimiter
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
