"""Moderation (docs/accounts.md "Muting and reporting", docs/operations.md "Moderation").

Players signed in to an account:
- mute another account (`POST /api/me/mutes {game, seat}` or `{name}`, `DELETE /api/me/mutes/{name}`,
  `GET /api/me/mutes`): the muted player's table chat and private messages never reach the
  muter's screens (filtered by the server, server/community/chat.py), at every table;
- report a chat message (`POST /api/reports {game, message, reason}`) or a player (`{game, seat,
  reason}` or `{name, reason}`), a few a minute.

Operators (accounts with the role "operator": `judges admin grant NAME`, `judges admin revoke
NAME`) see the open reports with the message and what was said before it (`GET /admin`, `GET
/api/admin/reports`) and act, each act with a reason, kept in the audit log with who, whom and
when (`GET /api/admin/audit`, on the same page):
- hide a message from everyone (`POST /api/admin/hide`): kept in the store, never shown again;
- ban or suspend until a time (`POST /api/admin/sanction`), or lift it (`POST /api/admin/lift`):
  the account's sessions end, it cannot sign in (403 `error.account_banned` or
  `error.account_suspended` with the end), a request of a session it held creates no table, its
  seats in running games go to the takeover bot (it cannot take them back while the sanction
  lasts, nor write in their chat), its rating stays as it was for the games that end meanwhile;
  nothing of its games or messages is deleted;
- close a table (`POST /api/admin/close`): the game ends as abandoned (every process's copy
  stops; each player's bell says an operator closed it), nothing deleted;
- dismiss a report (`POST /api/admin/dismiss`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ...i18n import request_language
from ..deps import rate_limited
from ..errors import ServiceError
from ..html import page
from ..limits import RateLimiter, clean_text
from ..store import hash_token
from ..table import seats as seat_keys
from ..table.service import GameService, LiveGame
from .account_store import Account
from .accounts import SESSION_COOKIE, Accounts
from .moderation_store import BAN, OPERATOR, SUSPEND, ModerationStore, Sanction
from .paces import Paces, abandoned

REASON_MIN, REASON_MAX = 3, 500  # characters of a reason, once cleaned
REPORT_BURST, REPORTS_PER_MINUTE = 5, 2.0  # a player's reports


def refusal(sanction: Sanction) -> ServiceError:
    """What an account under a sanction is told when it signs in or creates a table."""
    if sanction.kind == SUSPEND and sanction.until is not None:
        until = sanction.until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        message = f"this account is suspended until {until} UTC"
        return ServiceError(
            403,
            "error.account_suspended",
            message,
            until=until,
        )
    return ServiceError(403, "error.account_banned", "this account is banned")


def clean_reason(text: str) -> str:
    reason = clean_text(text)
    if not REASON_MIN <= len(reason) <= REASON_MAX:
        raise ServiceError(
            422,
            "error.reason_needed",
            f"give a reason of {REASON_MIN} to {REASON_MAX} characters",
            min=REASON_MIN,
            max=REASON_MAX,
        )
    return reason


class Moderation:
    """The moderation of a server: the players' mutes and reports, the operators' acts."""

    def __init__(self, service: GameService, accounts: Accounts, paces: Paces) -> None:
        self.service = service
        self.accounts = accounts
        self.paces = paces
        self.store = ModerationStore(service.store)
        self.reports = RateLimiter(REPORT_BURST, REPORTS_PER_MINUTE, name="report")

    async def db(self, call: Any, *args: Any) -> Any:
        return await self.service.db(call, *args)

    # --- who asks ---------------------------------------------------------------------------

    async def player(self, conn: HTTPConnection) -> Account:
        if not seat_keys.same_origin(conn):
            raise ServiceError(403, "error.cross_origin", "accounts are used from this site's pages only")
        account = await self.accounts.account(conn)
        if account is None:
            raise ServiceError(401, "error.signed_out", "sign in first")
        return account

    async def operator(self, conn: HTTPConnection) -> Account:
        account = await self.player(conn)
        if not await self.db(self.store.has_role, account.id, OPERATOR):
            raise ServiceError(403, "error.not_operator", "only an operator may do this")
        return account

    async def refuse_sanctioned(self, conn: HTTPConnection) -> None:
        """A request from a session of an account under a sanction changes nothing (a new table)."""
        session_id = conn.cookies.get(SESSION_COOKIE)
        if session_id and len(session_id) <= 100:
            account_id = await self.db(self.store.session_account_id, hash_token(session_id))
            sanction = await self.db(self.store.sanction_of, account_id) if account_id is not None else None
            if sanction is not None:
                raise refusal(sanction)

    async def target(self, name: str | None, game: str | None, seat: int | None) -> tuple[int, str]:
        """The account named, or the one a seat of a table is bound to."""
        if game is not None and seat is not None:
            live = await self.service.get(game)
            account = seat_keys.account_of(live.seats[seat]) if 0 <= seat < len(live.seats) else None
            if account is None:
                raise ServiceError(422, "error.not_an_account", "this seat is no account's: a guest or a bot")
            return account, live.seats[seat]["name"]
        if name:
            account = await self.db(self.store.account_id, name)
            if account is not None:
                return account, await self.db(self.store.account_name, account)
        raise ServiceError(404, "error.no_account", "there is no such account")

    # --- mutes ------------------------------------------------------------------------------

    async def mute(self, muter: int, muted: int, on: bool) -> dict[int, str]:
        if muter == muted:
            raise ServiceError(422, "error.mute_self", "you cannot mute yourself")
        await self.db(self.store.mute if on else self.store.unmute, muter, muted)
        mutes: dict[int, str] = await self.db(self.store.mutes_of, muter)
        self.service.chat.set_mutes(muter, frozenset(mutes))  # his screens, in every process
        return mutes

    # --- reports ----------------------------------------------------------------------------

    async def report(
        self, account: Account, reason: str, game: str | None, message: int | None, name: str | None, seat: int | None
    ) -> int:
        reason = clean_reason(reason)
        rate_limited(self.reports, account.id, "error.rate_reports", "reports")
        text = None
        if message is not None:
            if game is None:
                raise ServiceError(422, "error.report_target", "name the game of the message")
            live = await self.service.get(game)
            record = await self.db(self.store.chat_message, game, message)
            reader = self.accounts.seat_in(live, account.id)
            from .chat import can_read

            if record is None or not can_read(record["channel"], reader if reader is not None else -1):
                raise ServiceError(404, "error.no_message", "there is no such message you could read")
            account_id, text = record["account"], record["text"]
        elif name is not None or (game is not None and seat is not None):
            account_id, _ = await self.target(name, game, seat)
        else:
            raise ServiceError(422, "error.report_target", "report a message or a player")
        if account_id == account.id:
            raise ServiceError(422, "error.report_self", "you cannot report yourself")
        report_id: int = await self.db(self.store.report, account.id, reason, account_id, game, message, text)
        return report_id

    # --- operators' acts --------------------------------------------------------------------

    async def hide(self, actor: Account, game: str, message: int, reason: str, report: int | None) -> None:
        if not await self.db(self.store.hide_message, game, message, actor.id, clean_reason(reason), report):
            raise ServiceError(404, "error.no_message", "there is no such message")
        self.service.chat.hide(game, message)  # gone from every screen, in every process

    async def sanction(
        self, actor: Account, account_id: int, kind: str, until: datetime | None, reason: str, report: int | None
    ) -> None:
        reason = clean_reason(reason)
        if kind == SUSPEND:
            if until is None:
                raise ServiceError(422, "error.suspend_until", "a suspension needs its end, in the future")
            until = until if until.tzinfo is not None else until.replace(tzinfo=UTC)
            if until <= datetime.now(UTC):
                raise ServiceError(422, "error.suspend_until", "a suspension needs its end, in the future")
        else:
            until = None
        if account_id == actor.id:
            raise ServiceError(422, "error.sanction_self", "an operator does not sanction himself")
        await self.db(self.store.sanction, account_id, kind, until, actor.id, reason, report)
        await self.take_seats(account_id, {"kind": kind, "until": until.timestamp() if until else None})

    async def take_seats(self, account_id: int, mark: dict[str, Any]) -> None:
        """The account's seats in running games go to the takeover bot, marked with the sanction
        (its kind, a suspension's end) so that their player cannot take them back, nor write in
        their chat, while it lasts; their views say so (server/games/judges/wire.py)."""
        service = self.service
        for game_id, seat in await self.db(self.store.running_seats, account_id):
            try:
                live = await service.get(game_id)
            except ServiceError:
                continue
            if not Accounts.bound(live.seats[seat], account_id) or live.played.is_over or abandoned(live):
                continue

            def change(info: dict[str, Any]) -> bool:
                if info.get("sanctioned") == mark:
                    return False
                info["sanctioned"] = dict(mark)
                return True

            async with live.lock:
                await service.update_seat(live, seat, change)
            await service.set_away(live, seat, True, "sanction")
            service.publish(live)
            await service.broadcast(live)

    async def may_come_back(self, live: LiveGame, seat: int) -> None:
        """A seat taken from a sanctioned account comes back only once the sanction is over."""
        if not live.seats[seat].get("sanctioned"):
            return
        account = seat_keys.account_of(live.seats[seat])
        sanction = await self.db(self.store.sanction_of, account) if account is not None else None
        if sanction is not None:
            raise refusal(sanction)

        def change(info: dict[str, Any]) -> bool:
            return info.pop("sanctioned", None) is not None

        async with live.lock:
            await self.service.update_seat(live, seat, change)

    async def lift(self, actor: Account, account_id: int, reason: str) -> None:
        if not await self.db(self.store.lift, account_id, actor.id, clean_reason(reason)):
            raise ServiceError(409, "error.no_sanction", "this account is under no sanction")
        await self.release_seats(account_id)

    async def release_seats(self, account_id: int) -> None:
        """The account's seats in running games lose their sanction's mark: their views offer
        the seat back again, and their player may take it and write in their chat."""
        service = self.service
        for game_id, seat in await self.db(self.store.running_seats, account_id):
            try:
                live = await service.get(game_id)
            except ServiceError:
                continue
            if not Accounts.bound(live.seats[seat], account_id) or not live.seats[seat].get("sanctioned"):
                continue

            def change(info: dict[str, Any]) -> bool:
                return info.pop("sanctioned", None) is not None

            async with live.lock:
                _, changed = await service.update_seat(live, seat, change)
            if changed:
                service.publish(live)
                await service.broadcast(live)

    async def close(self, actor: Account, game_id: str, reason: str, report: int | None) -> None:
        """Ends the game as abandoned, marked closed in its first seat (every process's copy
        stops playing it; each player's bell says an operator closed it), and logs the act."""
        reason = clean_reason(reason)
        service = self.service
        live = await service.get(game_id)
        if live.played.is_over or abandoned(live):
            raise ServiceError(409, "error.table_over", "this game is over already")
        async with live.lock:

            def change(info: dict[str, Any]) -> bool:
                if info.get("abandoned"):
                    return False
                info["abandoned"] = True
                info["closed"] = True
                service.seating.note(info, service.seating.event(live, "closed"))
                return True

            _, changed = await service.update_seat(live, 0, change)
        if not changed:
            raise ServiceError(409, "error.table_over", "this game is over already")
        await service.db(service.store.set_result, game_id, "abandoned", [])
        self.paces.paced.pop(game_id, None)
        await self.db(self.store.close_record, actor.id, game_id, reason, report)
        service.publish(live)
        await service.broadcast(live)

    async def dismiss(self, actor: Account, report: int, reason: str) -> None:
        if not await self.db(self.store.dismiss, report, actor.id, clean_reason(reason)):
            raise ServiceError(404, "error.no_report", "there is no such open report")


# --- routes --------------------------------------------------------------------------------------


class MuteBody(BaseModel):
    name: str | None = Field(default=None, max_length=200, description="the account's name")
    game: str | None = Field(default=None, max_length=100, description="or a table and one of its seats")
    seat: int | None = Field(default=None, ge=0, le=16)


class ReportBody(BaseModel):
    reason: str = Field(max_length=4000)
    game: str | None = Field(default=None, max_length=100)
    message: int | None = Field(default=None, ge=1, description="a chat message of the game")
    seat: int | None = Field(default=None, ge=0, le=16, description="a player of the game")
    name: str | None = Field(default=None, max_length=200, description="or an account by name")


class HideBody(BaseModel):
    game: str = Field(max_length=100)
    message: int = Field(ge=1)
    reason: str = Field(max_length=4000)
    report: int | None = None


class SanctionBody(BaseModel):
    name: str = Field(max_length=200)
    kind: Literal["ban", "suspend"]
    until: datetime | None = Field(default=None, description="a suspension's end")
    reason: str = Field(max_length=4000)
    report: int | None = None


class LiftBody(BaseModel):
    name: str = Field(max_length=200)
    reason: str = Field(max_length=4000)


class CloseBody(BaseModel):
    game: str = Field(max_length=100)
    reason: str = Field(max_length=4000)
    report: int | None = None


class DismissBody(BaseModel):
    report: int
    reason: str = Field(max_length=4000)


def moderation_router(moderation: Moderation) -> APIRouter:
    """The players' routes (mutes, reports) and the operators' (/admin, /api/admin/...)."""
    router = APIRouter()
    _player_routes(router, moderation)
    _operator_routes(router, moderation)
    return router


def _player_routes(router: APIRouter, moderation: Moderation) -> None:
    db = moderation.db
    store = moderation.store

    def mute_list(mutes: dict[int, str]) -> dict[str, Any]:
        return {"mutes": [{"name": name} for name in mutes.values()]}

    @router.get("/api/me/mutes")
    async def my_mutes(request: Request, game: str | None = None) -> dict[str, Any]:
        """The accounts you muted (`signed_in`: false, and none, for a guest); with `game`, also
        the seats of that table bound to an account (`members`: the ones a mute on the server
        can name; a guest's seat is muted by the browser)."""
        members: list[int] = []
        if game is not None:
            live = await moderation.service.get(game)
            members = [i for i, s in enumerate(live.seats) if seat_keys.account_of(s) is not None]
        account = await moderation.accounts.account(request) if seat_keys.same_origin(request) else None
        if account is None:
            return {"mutes": [], "signed_in": False, "members": members}
        return {**mute_list(await db(store.mutes_of, account.id)), "signed_in": True, "members": members}

    @router.post("/api/me/mutes")
    async def mute(body: MuteBody, request: Request) -> dict[str, Any]:
        """Mutes an account (by name, or the one a seat of a table is bound to): its chat and
        private messages no longer reach you, at any table."""
        account = await moderation.player(request)
        muted, _ = await moderation.target(body.name, body.game, body.seat)
        return mute_list(await moderation.mute(account.id, muted, True))

    @router.delete("/api/me/mutes/{name}")
    async def unmute(name: str, request: Request) -> dict[str, Any]:
        account = await moderation.player(request)
        muted, _ = await moderation.target(name, None, None)
        return mute_list(await moderation.mute(account.id, muted, False))

    @router.post("/api/reports", status_code=201)
    async def report(body: ReportBody, request: Request) -> dict[str, Any]:
        """Reports a chat message or a player to the operators, with a reason."""
        account = await moderation.player(request)
        report_id = await moderation.report(account, body.reason, body.game, body.message, body.name, body.seat)
        return {"report": report_id}


def _operator_routes(router: APIRouter, moderation: Moderation) -> None:
    db = moderation.db
    store = moderation.store

    @router.get("/api/admin/reports")
    async def reports(request: Request) -> dict[str, Any]:
        """The open reports, the oldest first, each with the message and its context."""
        await moderation.operator(request)
        return {"reports": await db(store.open_reports, 100)}

    @router.get("/api/admin/audit")
    async def audit(request: Request, limit: int = 200) -> dict[str, Any]:
        """The operators' acts, the newest first: who, what, whom, why, when."""
        await moderation.operator(request)
        return {"audit": await db(store.audit, max(1, min(limit, 1000)))}

    @router.post("/api/admin/hide")
    async def hide(body: HideBody, request: Request) -> dict[str, Any]:
        actor = await moderation.operator(request)
        await moderation.hide(actor, body.game, body.message, body.reason, body.report)
        return {"hidden": body.message}

    @router.post("/api/admin/sanction")
    async def sanction(body: SanctionBody, request: Request) -> dict[str, Any]:
        actor = await moderation.operator(request)
        account_id, name = await moderation.target(body.name, None, None)
        kind = BAN if body.kind == "ban" else SUSPEND
        await moderation.sanction(actor, account_id, kind, body.until, body.reason, body.report)
        return {"account": name, "kind": kind}

    @router.post("/api/admin/lift")
    async def lift(body: LiftBody, request: Request) -> dict[str, Any]:
        actor = await moderation.operator(request)
        account_id, name = await moderation.target(body.name, None, None)
        await moderation.lift(actor, account_id, body.reason)
        return {"account": name}

    @router.post("/api/admin/close")
    async def close(body: CloseBody, request: Request) -> dict[str, Any]:
        actor = await moderation.operator(request)
        await moderation.close(actor, body.game, body.reason, body.report)
        return {"closed": body.game}

    @router.post("/api/admin/dismiss")
    async def dismiss(body: DismissBody, request: Request) -> dict[str, Any]:
        actor = await moderation.operator(request)
        await moderation.dismiss(actor, body.report, body.reason)
        return {"dismissed": body.report}

    @router.get("/admin", response_class=HTMLResponse, include_in_schema=False)
    async def admin_page(request: Request, lang: str | None = None) -> HTMLResponse:
        """The operators' page: the open reports and their acts, the audit log."""
        language = request_language(request, lang)
        await moderation.operator(request)
        return page(
            "admin.html",
            request,
            language,
            reports=await db(store.open_reports, 100),
            audit=await db(store.audit, 200),
        )
