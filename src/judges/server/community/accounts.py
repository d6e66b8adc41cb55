"""Accounts (docs/accounts.md): a player who signs in keeps his seats on every device.

Routes: `POST /api/accounts {name, password, email?}` (201, signed in), `POST /api/session
{name, password}` (sign in), `DELETE /api/session` (sign out), `GET /api/me`, `GET /api/me/games`.

Passwords are stored as argon2id hashes (argon2-cffi's defaults). A signed-in browser holds a
session cookie (`jk_session`: HttpOnly, SameSite=Lax, Secure over https) whose random id is
stored only hashed (sha256); every sign-in makes a new id and ends the one the browser held.
Sign-in attempts are limited per address (every attempt), and failures per name and address
together: a stranger's wrong guesses spend his own allowance on the name, never the owner's. A
name's failures from all addresses together are limited too (a guessing spread over many
addresses), but an address the account signed in or up from before is exempt: the owner at
home still gets in. A wrong password and an unknown name answer alike (401 `error.sign_in`),
and an unknown name is checked against a dummy hash so that both take about as long.

Every password hashed or checked (sign-in, sign-up, a new password) waits its turn in one
bounded queue (`PasswordChecks`): `password_checks` at a time on threads of their own (argon2
costs ~0.1-0.2 s of CPU and 64 MiB each), `password_queue` waiting; beyond, or after waiting
`password_wait` seconds, 503 `error.busy_sign_in` with Retry-After. A flood of sign-ins cannot
take more CPU or memory than that; a sign-in from an address the account used before goes
first, so its owner waits for the checks under way at most.

A seat taken while signed in (created, claimed from an invitation, taken from the lobby) is
bound to the account: the stored seat holds `account` (the account's id) and `account_for` (the
sha256 of the seat's `token_hash` then). The binding holds while the seat keeps that
credential: a seat the host revokes or hands to someone else is no longer the account's. A
request signed in to the account (same site only, as for the seat's cookie) acts for the seat.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from fastapi import Response
from starlette.requests import HTTPConnection

from ...settings import Settings
from ...settings import load as load_settings
from ..limits import RateLimiter
from ..store import hash_token
from ..table import seats as seat_keys
from ..table.service import GameService, LiveGame, ServiceError
from .account_store import Account, AccountStore

SESSION_COOKIE = "jk_session"
T = TypeVar("T")


@dataclass(frozen=True)
class AccountLimits:
    """Each overridable by its environment variable (docs/accounts.md)."""

    session_days: float = 30.0  # JUDGES_SESSION_DAYS
    name_min: int = 2
    name_max: int = 40
    password_min: int = 8
    password_max: int = 200
    sign_in_burst: int = 5  # JUDGES_SIGN_IN_BURST: failures at once, per name and address
    sign_in_per_minute: float = 5.0  # JUDGES_SIGN_IN_PER_MINUTE
    address_factor: int = 4  # attempts per address (any names, right or wrong): this many times that
    name_factor: int = 6  # failures per name from addresses it never signed in from: this many times that
    sign_up_burst: int = 5
    sign_up_per_minute: float = 2.0
    password_checks: int = max(1, min(4, (os.cpu_count() or 2) // 2))  # argon2 runs at once
    password_queue: int = 16  # waiting for one, beyond which 503
    password_wait: float = 5.0  # seconds one may wait
    known_addresses: int = 100_000  # (name, address) pairs remembered as the owner's

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
        limits = self.limits
        self.by_address = RateLimiter(
            limits.sign_in_burst * limits.address_factor,
            limits.sign_in_per_minute * limits.address_factor,
            name="sign_in",
        )
        self.by_pair = RateLimiter(limits.sign_in_burst, limits.sign_in_per_minute, name="sign_in")
        self.by_name = RateLimiter(
            limits.sign_in_burst * limits.name_factor, limits.sign_in_per_minute * limits.name_factor, name="sign_in"
        )
        self.known: OrderedDict[tuple[str, str], None] = OrderedDict()  # (name key, address) signed in from
        self.sign_ups = RateLimiter(limits.sign_up_burst, limits.sign_up_per_minute, name="sign_up")
        self.checks = PasswordChecks(limits.password_checks, limits.password_queue, limits.password_wait)

    def is_known(self, key: str, address: str) -> bool:
        return (key, address) in self.known

    def remember(self, key: str, address: str) -> None:
        """The account signed in (or up) from this address: its owner's, exempt from the name's
        limit on failures from everywhere."""
        self.known[(key, address)] = None
        self.known.move_to_end((key, address))
        while len(self.known) > self.limits.known_addresses:
            self.known.popitem(last=False)

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
        return seat_keys.account_of(seat) == account_id

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
        signed in to, if any (an account holds one seat of a table: a second stays a guest's).
        The seat takes the account's name: the table knows the player as the lobby and the
        ratings do."""
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
            info["name"] = account.name
            return True

        async with live.lock:
            _, changed = await self.service.update_seat(live, seat, change)
        if changed:
            self.service.publish(live)
            await self.service.db(self.store.bind_seat, account.id, live.id, seat)
            await self.service.broadcast(live)  # the seat's new name, on every screen


def account_payload(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "email": account.email, "email_verified": account.email_verified}


class PasswordChecks:
    """The one queue where passwords are hashed and checked: `workers` at a time on threads of
    their own, at most `queue` waiting, each at most `wait` seconds; beyond, 503 with
    Retry-After (the server stays within `workers` times argon2's CPU and memory). A sign-in
    from an address its account used before (`first`) waits in a lane of its own, served
    before the others: a flood of strangers' sign-ins does not keep the owner out."""

    def __init__(self, workers: int, queue: int, wait: float) -> None:
        self.workers = max(1, workers)
        self.queue = queue
        self.wait = wait
        self.executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="password")
        self._lanes: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (deque(), deque())
        self.waiting = [0, 0]  # the first lane's, the others'
        self.running = 0
        self.most = 0  # the most run at once (tests, benchmarks)

    def _busy(self) -> ServiceError:
        seconds = max(1, round(self.wait / 2))
        return ServiceError(
            503,
            "error.busy_sign_in",
            f"too many sign-ins at once: try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
            retry_after=seconds,
        )

    def _dispatch(self) -> None:
        """Hands free workers to the waiting, the first lane first."""
        for lane in self._lanes:
            while lane and self.running < self.workers:
                turn = lane.popleft()
                if not turn.done():  # not given up (timed out, or its request went away)
                    self.running += 1
                    turn.set_result(None)

    def _release(self) -> None:
        self.running -= 1
        self._dispatch()

    async def run(self, fn: Callable[..., T], *args: Any, first: bool = False) -> T:
        lane = 0 if first else 1
        if self.waiting[lane] >= self.queue:
            raise self._busy()
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        self._lanes[lane].append(turn)
        self.waiting[lane] += 1
        try:
            self._dispatch()
            await asyncio.wait_for(turn, self.wait)
        except TimeoutError:
            raise self._busy() from None
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._release()  # given a worker, then cancelled: the worker goes back
            raise
        finally:
            self.waiting[lane] -= 1
        self.most = max(self.most, self.running)
        try:
            return await loop.run_in_executor(self.executor, fn, *args)
        finally:
            self._release()
