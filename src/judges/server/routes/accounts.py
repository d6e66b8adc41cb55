"""Accounts' routes (server/community/accounts.py): sign up, sign in and out, the signed-in account and its
games."""

from __future__ import annotations

import time
from typing import Any

from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from ...i18n import request_language
from ..community.account_store import NameTaken, name_key
from ..community.accounts import SESSION_COOKIE, account_payload
from ..community.lobby import table_number
from ..community.mailer import clean_email
from ..community.moderation import refusal
from ..community.moderation_store import ModerationStore
from ..deps import AccountsDep, ServiceDep, rate_limited
from ..errors import ServiceError
from ..limits import RateLimiter, clean_name
from ..store import hash_token
from ..table import seats as seat_keys
from ..table.played import game_named

router = APIRouter()


class SignUp(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)
    email: str | None = Field(default=None, max_length=200)


class SignIn(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


def _refuse(limiter: RateLimiter, key: Any) -> None:
    rate_limited(limiter, key, "error.rate_sign_in", "attempts")  # the same answer whatever the name


def _same_site(request: Request) -> None:
    if not seat_keys.same_origin(request):
        raise ServiceError(403, "error.cross_origin", "accounts are used from this site's pages only")


@router.post("/api/accounts", status_code=201)
async def sign_up(
    body: SignUp, request: Request, response: Response, service: ServiceDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Makes an account and signs the browser in to it."""
    _same_site(request)
    name = clean_name(body.name, accounts.limits.name_max)
    if len(name) < accounts.limits.name_min:
        raise ServiceError(
            422,
            "error.account_name",
            f"a name has {accounts.limits.name_min} to {accounts.limits.name_max} characters",
            min=accounts.limits.name_min,
            max=accounts.limits.name_max,
        )
    if not accounts.limits.password_min <= len(body.password) <= accounts.limits.password_max:
        raise ServiceError(
            422,
            "error.password_length",
            f"a password has {accounts.limits.password_min} to {accounts.limits.password_max} characters",
            min=accounts.limits.password_min,
            max=accounts.limits.password_max,
        )
    email = None
    if (body.email or "").strip():
        email = clean_email(body.email)  # one plain address: no list, no name, no comment
        if email is None:
            raise ServiceError(422, "error.email", "this is not an e-mail address")
    address = request.client.host if request.client else ""
    _refuse(accounts.sign_ups, address)
    password_hash = await accounts.checks.run(accounts.hasher.hash, body.password)
    try:
        account = await service.db(accounts.store.create, name, password_hash, email)
    except NameTaken:
        raise ServiceError(409, "error.name_taken", "this name is taken: choose another") from None
    accounts.remember(name_key(name), address)
    await accounts.sign_in(request, response, account)
    upkeep = getattr(request.app.state, "upkeep", None)
    if (
        email is not None and upkeep is not None
    ):  # the link that confirms the address (server/community/mail_notices.py)
        service.rt.spawn(upkeep.notices.verify(account, request_language(request)))
    return {"account": account_payload(account)}


@router.post("/api/session")
async def sign_in(
    body: SignIn, request: Request, response: Response, service: ServiceDep, accounts: AccountsDep
) -> dict[str, Any]:
    """Signs the browser in (a new session id). A wrong name or password: 401, the same
    answer for both. 429 `error.rate_sign_in` past the address's attempts or the failures on
    this name (from this address, or from everywhere but the owner's addresses); 503
    `error.busy_sign_in` when too many passwords wait to be checked."""
    _same_site(request)
    address = request.client.host if request.client else ""
    _refuse(accounts.by_address, address)
    name = clean_name(body.name, accounts.limits.name_max)  # as it was cleaned at sign-up
    key = name_key(name)
    # a failure's tokens are taken now (attempts at once count) and given back on success
    _refuse(accounts.by_pair, (key, address))
    known = accounts.is_known(key, address)
    if not known:
        try:
            _refuse(accounts.by_name, key)
        except ServiceError:
            accounts.by_pair.give_back((key, address))
            raise
    account = await service.db(accounts.store.by_name, name)

    def check() -> bool:
        try:
            accounts.hasher.verify(account.password_hash if account else accounts.dummy_hash, body.password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return account is not None

    right = False
    try:
        # argon2 takes its time: off the event loop, in turn (the owner's addresses first)
        right = await accounts.checks.run(check, first=known)
    except ServiceError:  # busy (503): no guess was checked, the tokens go back
        right = True
        raise
    finally:
        if right:
            accounts.by_pair.give_back((key, address))
            if not known:
                accounts.by_name.give_back(key)
    if not right:
        raise ServiceError(401, "error.sign_in", "wrong name or password")
    assert account is not None
    sanction = await service.db(ModerationStore(service.store).sanction_of, account.id)
    if sanction is not None:  # banned or suspended (server/community/moderation.py): told so, not signed in
        raise refusal(sanction)
    accounts.remember(key, address)
    if accounts.hasher.check_needs_rehash(account.password_hash):
        new_hash = await accounts.checks.run(accounts.hasher.hash, body.password)
        await service.db(accounts.store.set_password_hash, account.id, new_hash)
    await accounts.sign_in(request, response, account)
    return {"account": account_payload(account)}


@router.delete("/api/session")
async def sign_out(request: Request, response: Response, service: ServiceDep, accounts: AccountsDep) -> dict[str, Any]:
    """Signs the browser out (its session ends on the server too)."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        await service.db(accounts.store.close_session, hash_token(session_id))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return {"account": None}


@router.get("/api/me")
async def me(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """The account this browser is signed in to (`account`: null for a guest)."""
    account = await accounts.account(request)
    return {"account": account_payload(account) if account else None}


@router.get("/api/me/games")
async def my_games(
    request: Request, service: ServiceDep, accounts: AccountsDep, limit: int = 50, lang: str | None = None
) -> dict[str, Any]:
    """The account's games: running ones first (the decisions owed by you first, then the
    longest waiting), each with the table's names, round, phase (`where`: both in the reader's
    words), `your_turn` and `waiting` (seconds since the last move); then the finished ones with
    their result and replay."""
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
            "table": table_number(stored.id),  # as the lobby calls it (server/community/lobby.py)
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
                rematch=stored.seats[0].get("rematch") if stored.seats else None,  # server/community/rematch.py
            )
            finished.append(entry)
            continue
        try:
            live = await service.get(stored.id)
        except ServiceError:
            continue
        game, played = live.game, live.played
        count = len(game.log)
        last = await service.db(service.store.list_actions, stored.id, count - 1) if count else []
        since = last[-1]["created_at"].timestamp() if last else stored.updated_at.timestamp()
        entry.update(
            round=played.progress,  # Judges & Kings' round, Republic of Rome's turn
            phase=live.kit.phase(game),  # the phase's name, as the game's catalog has it
            where=live.kit.where(game, request_language(request, lang)),
            your_turn=not played.is_over and stored.seat in played.to_move(),
            waiting=round(max(0.0, now - since)),
        )
        entry.update(game_named(live.kind))
        _deadline(request, entry, stored.id, live.seats[stored.seat])  # a paced game's deadline
        running.append(entry)
    running.sort(key=lambda e: (not e["your_turn"], -e["waiting"]))
    return {"running": running, "finished": finished}


def _deadline(request: Request, entry: dict[str, Any], game_id: str, seat: dict[str, Any]) -> None:
    """A paced game's decision owed by you: its deadline (server/community/paces.py)."""
    upkeep = getattr(request.app.state, "upkeep", None)
    hours = upkeep.paces.paced.get(game_id) if upkeep else None
    owed = seat.get("owed")
    if hours and entry["your_turn"] and isinstance(owed, dict) and not owed.get("missed"):
        entry["deadline"] = round(float(owed["since"]) + hours * 3600)
