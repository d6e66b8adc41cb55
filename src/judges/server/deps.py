"""What the routes depend on (FastAPI `Depends`): the app's service, accounts, limits, rate
limiters and options, all kept on `app.state` by `create_app`, and a request's seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from . import logs
from .community.accounts import SESSION_COOKIE, Accounts
from .errors import ServiceError
from .limits import DEFAULT_LIMITS, Limits, RateLimiter
from .table import seats as seat_keys
from .table.service import GameService, LiveGame


@dataclass(frozen=True)
class Rates:
    """The app's own rate limits (each request's route takes from one)."""

    create: RateLimiter  # new games, per client address
    away: RateLimiter  # a seat handed to a bot and back, per seat
    view: RateLimiter  # a seat's full views (a socket opened, a resync, a language): what a view costs
    # hints, per client address (server/advice/hints.py)
    hint: RateLimiter = field(
        default_factory=lambda: RateLimiter(DEFAULT_LIMITS.hint_burst, DEFAULT_LIMITS.hint_per_minute, name="hint")
    )
    # replays, logs and players' records, per client address (routes/screen.py, server/community/ratings.py)
    read: RateLimiter = field(
        default_factory=lambda: RateLimiter(DEFAULT_LIMITS.read_burst, DEFAULT_LIMITS.read_per_minute, name="read")
    )

    @classmethod
    def of(cls, limits: Limits) -> Rates:
        return cls(
            RateLimiter(limits.create_burst, limits.create_per_minute, name="create"),
            RateLimiter(limits.away_burst, limits.away_per_minute, name="away"),
            RateLimiter(limits.resync_burst, limits.resync_per_minute, name="view"),
            RateLimiter(limits.hint_burst, limits.hint_per_minute, name="hint"),
            RateLimiter(limits.read_burst, limits.read_per_minute, name="read"),
        )


@dataclass(frozen=True)
class Options:
    """What the server allows beyond its defaults (create_app's arguments)."""

    allow_scenarios: bool = False  # games may start from a scenario position
    allow_seeds: bool = False  # a game's creator may choose its seed (tests and design only)


# The getters are `async def`: FastAPI runs a plain `def` dependency on a worker thread, one
# thread hop per request for reading an attribute (~4 % of a loaded server's CPU).
async def get_service(conn: HTTPConnection) -> GameService:
    service: GameService = conn.app.state.service
    return service


async def get_accounts(conn: HTTPConnection) -> Accounts:
    accounts: Accounts = conn.app.state.accounts
    return accounts


async def get_limits(conn: HTTPConnection) -> Limits:
    service: GameService = conn.app.state.service
    return service.limits


async def get_rates(conn: HTTPConnection) -> Rates:
    rates: Rates = conn.app.state.rates
    return rates


async def get_options(conn: HTTPConnection) -> Options:
    options: Options = conn.app.state.options
    return options


ServiceDep = Annotated[GameService, Depends(get_service)]
AccountsDep = Annotated[Accounts, Depends(get_accounts)]
LimitsDep = Annotated[Limits, Depends(get_limits)]
RatesDep = Annotated[Rates, Depends(get_rates)]
OptionsDep = Annotated[Options, Depends(get_options)]


async def seat_of(conn: HTTPConnection, live: LiveGame) -> int:
    """The seat a request's credential (X-Seat-Token, or the game's cookie) belongs to; the
    request is a sign of life of its player (server/table/seats.py, `present`)."""
    service, accounts = await get_service(conn), await get_accounts(conn)
    token, from_cookie = seat_keys.credential(conn, live.id)
    by_header = bool(token) and not from_cookie
    cookies = from_cookie or SESSION_COOKIE in conn.cookies
    if not by_header and cookies and not seat_keys.same_origin(conn):
        raise ServiceError(403, "error.cross_origin", "a seat's cookie is accepted from this site's pages only")
    bound = None if by_header else await accounts.bound_seat(conn, live)
    if bound is not None:  # signed in to the account the seat is bound to (server/community/accounts.py)
        service.saw(live, bound)
        logs.bind_seat(bound)  # the request's log lines are this seat's (server/logs.py)
        return bound
    seat = await service.seat_for(live, token)
    service.saw(live, seat)
    logs.bind_seat(seat)
    return seat


def rate_limited(limiter: RateLimiter, key: Any, error: str, what: str) -> None:
    """429 with Retry-After when `key` has used up its allowance."""
    wait = limiter.take(key)
    if wait is not None:
        seconds = max(1, int(wait + 0.999))
        raise ServiceError(
            429,
            error,
            f"too many {what}: try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
            retry_after=seconds,
        )
