"""Notices by e-mail and the links they carry (issue 30, docs/accounts.md "Paces and notices").

When a paced game's decision is owed by a seat bound to an account with an e-mail address, the
player is told by mail through SMTP (server/mailer.py, `JUDGES_SMTP_URL`): not at once, but
once the decision has waited `JUDGES_NOTICE_DELAY_MINUTES` (default 10), and then in one mail
for every game waiting for him then (a digest, not one mail per step). A player at the table
(a tab open) is not mailed: the page tells him (its title, and the browser's notification).
Each game in the mail comes with a link that signs the player in and opens his seat.

A forgotten password: `POST /api/password-reset {name}` mails the account's address, if it has
one, a link valid `JUDGES_RESET_MINUTES` (default 60) that sets a new password; the answer is
the same whatever the name.

Links (`/links/{code}`) are random 256-bit codes stored only as their sha256 (table
`account_links`); opening one shows a button (a mail client's preview takes nothing), pressing
it acts and spends the link: each link works once. A seat's link lives `SEAT_LINK_HOURS`, a
reset's `JUDGES_RESET_MINUTES`; a new password deletes every link of the account (and ends its
sessions), so a link mailed before it opens nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, select

from ..engine.state import PHASES
from ..i18n import gettext, normalize_language, request_language
from . import seats as seat_keys
from .account_store import Account, name_key
from .accounts import Accounts
from .deps import rate_limited
from .limits import RateLimiter, clean_name
from .mailer import Mailer, MailError
from .paces import Paces
from .rating_tables import account_links_table
from .ratings import _page
from .service import ServiceError
from .store import GameStore, accounts_table, hash_token, sessions_table
from .store.base import _now, _rowcount, _utc

log = logging.getLogger("judges.server")

SEAT_LINK_HOURS = 24  # a seat's link: once, within a day (a paced decision waits 24 hours or more)


class LinkStore:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def make(self, account_id: int, kind: str, game_id: str | None, lifetime: float) -> str:
        code = secrets.token_urlsafe(32)
        now = _now()
        with self.store._session(write=True) as session:
            session.execute(delete(account_links_table).where(account_links_table.c.expires_at < now))
            session.execute(
                account_links_table.insert().values(
                    token_hash=hash_token(code),
                    account_id=account_id,
                    kind=kind,
                    game_id=game_id,
                    expires_at=now + timedelta(seconds=lifetime),
                )
            )
            session.commit()
        return code

    def find(self, code: str) -> tuple[Account, str, str | None] | None:
        """The account, kind and game of a live link."""
        with self.store._session() as session:
            row = session.execute(
                select(account_links_table, accounts_table)
                .join(accounts_table, accounts_table.c.id == account_links_table.c.account_id)
                .where(account_links_table.c.token_hash == hash_token(code))
            ).first()
        if row is None or _utc(row.expires_at) <= datetime.now(UTC):
            return None
        return Account(row.account_id, row.name, row.email, row.password_hash), row.kind, row.game_id

    def spend(self, code: str) -> bool:
        """Deletes a live link: True for the one caller that did (a link works once, also when
        two presses race, in one process or several)."""
        with self.store._session(write=True) as session:
            spent = session.execute(
                delete(account_links_table).where(
                    account_links_table.c.token_hash == hash_token(code),
                    account_links_table.c.expires_at > _now(),
                )
            )
            session.commit()
        return _rowcount(spent) == 1

    def password_changed(self, account_id: int) -> None:
        """A new password: every link of the account (seats' and resets') is spent and every
        browser signed in is signed out."""
        with self.store._session(write=True) as session:
            session.execute(delete(account_links_table).where(account_links_table.c.account_id == account_id))
            session.execute(delete(sessions_table).where(sessions_table.c.account_id == account_id))
            session.commit()

    def contacts(self, account_ids: list[int]) -> dict[int, tuple[str, str | None]]:
        with self.store._session() as session:
            rows = session.execute(
                select(accounts_table.c.id, accounts_table.c.name, accounts_table.c.email).where(
                    accounts_table.c.id.in_(account_ids)
                )
            ).all()
        return {r.id: (r.name, r.email) for r in rows}

    def by_name(self, name: str) -> tuple[int, str, str | None] | None:
        with self.store._session() as session:
            row = session.execute(
                select(accounts_table.c.id, accounts_table.c.name, accounts_table.c.email).where(
                    accounts_table.c.name_key == name_key(name)
                )
            ).first()
        return (row.id, row.name, row.email) if row else None


class Notices:
    def __init__(self, accounts: Accounts, paces: Paces) -> None:
        self.accounts = accounts
        self.service = accounts.service
        self.paces = paces
        self.links = LinkStore(self.service.store)
        settings = self.service.settings
        self.mailer = Mailer.from_settings(settings)
        self.delay = settings.notice_delay_minutes * 60
        self.reset_minutes = settings.reset_minutes
        self.public_url = settings.public_url.rstrip("/")

    async def tick(self, now: float) -> int:
        """Mails each player the paced games whose decisions have waited `delay` for him
        (one mail a player); answers how many mails were sent."""
        if self.mailer is None:
            return 0
        service = self.service
        due: dict[int, list[tuple[str, int, float]]] = {}  # account -> (game, seat, owed since)
        for game_id in list(self.paces.paced):
            live = service.games.get(game_id)
            if live is None or live.game.is_over:
                continue
            for seat, info in enumerate(live.seats):
                owed, account = info.get("owed"), info.get("account")
                if (
                    not isinstance(owed, dict)
                    or owed.get("noticed")
                    or owed.get("missed")
                    or info.get("away")
                    or not isinstance(account, int)
                    or not Accounts.bound(info, account)
                    or now - float(owed["since"]) < self.delay
                    or seat_keys.present(info, now, service.limits.absent_after)
                ):
                    continue
                due.setdefault(account, []).append((game_id, seat, float(owed["since"])))
        if not due:
            return 0
        contacts = await service.db(self.links.contacts, list(due))
        sent = 0
        for account, entries in due.items():
            name, email = contacts.get(account, ("", None))
            if not email:
                continue
            lines, language = [], "en"
            for game_id, seat, since in entries:
                live = service.games.get(game_id)
                if live is None or not await self._claim(live.id, seat, since):
                    continue  # decided meanwhile, or told by another process
                language = live.seats[seat].get("language") or language
                code = await service.db(self.links.make, account, "seat", game_id, SEAT_LINK_HOURS * 3600)
                deadline = since + self.paces.paced.get(game_id, 0.0) * 3600
                lines.append(
                    (
                        ", ".join(s["name"] for s in live.seats),
                        live.game.state.round,
                        PHASES[live.game.state.phase - 1],
                        datetime.fromtimestamp(deadline, UTC).strftime("%Y-%m-%d %H:%M"),
                        f"{self.public_url}/links/{code}",
                    )
                )
            if not lines:
                continue
            language = normalize_language(language)
            body = [gettext(language, "mail.turn_intro", name=name), ""]
            for names, round_, phase, due_at, link in lines:
                body.append(
                    gettext(
                        language,
                        "mail.turn_game",
                        names=names,
                        round=round_,
                        phase=gettext(language, f"phase.{phase}"),
                        deadline=due_at,
                    )
                )
                body += [link, ""]
            body.append(gettext(language, "mail.turn_footer"))
            if await self.send(email, gettext(language, "mail.turn_subject"), "\n".join(body)):
                sent += 1
        return sent

    async def _claim(self, game_id: str, seat: int, since: float) -> bool:
        """Marks the decision noticed in the stored seat (one process mails it)."""
        live = self.service.games[game_id]

        def change(info: dict[str, Any]) -> bool:
            owed = info.get("owed")
            if not isinstance(owed, dict) or owed.get("since") != since or owed.get("noticed"):
                return False
            owed["noticed"] = True
            return True

        async with live.lock:
            before = live.seats[seat].get("owed")
            seats, _ = await self.service.update_seat(live, seat, change, quiet=True)
        owed = seats[seat].get("owed")
        return isinstance(owed, dict) and bool(owed.get("noticed")) and not (before or {}).get("noticed")

    async def send(self, to: str, subject: str, body: str) -> bool:
        assert self.mailer is not None
        try:
            await asyncio.to_thread(self.mailer.send, to, subject, body)
        except MailError as exc:
            log.warning("a mail was not sent: %s", exc)
            return False
        return True

    async def reset(self, name: str, language: str) -> None:
        """Mails a forgotten password's link to the account's address, if it has one."""
        found = await self.service.db(self.links.by_name, name)
        if found is None or not found[2] or self.mailer is None:
            return
        account_id, account_name, email = found
        code = await self.service.db(self.links.make, account_id, "reset", None, self.reset_minutes * 60)
        body = gettext(
            language,
            "mail.reset_body",
            name=account_name,
            link=f"{self.public_url}/links/{code}",
            minutes=round(self.reset_minutes),
        )
        await self.send(email, gettext(language, "mail.reset_subject"), body)


class ResetRequest(BaseModel):
    name: str = Field(max_length=200)


def notices_router(notices: Notices) -> APIRouter:
    router = APIRouter()
    accounts = notices.accounts
    service = notices.service
    by_name = RateLimiter(3, 1.0)
    by_address = RateLimiter(10, 4.0)

    def refuse(limiter: RateLimiter, key: Any) -> None:
        rate_limited(limiter, key, "error.rate_sign_in", "attempts")  # as signing in (routes/accounts.py)

    @router.post("/api/password-reset", status_code=202)
    async def password_reset(body: ResetRequest, request: Request) -> dict[str, Any]:
        """Mails a link that sets a new password to the account's e-mail address, if it has one.
        The same answer whatever the name (202); 409 `error.no_mail` if the server sends no mail."""
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "accounts are used from this site's pages only")
        if notices.mailer is None:
            raise ServiceError(409, "error.no_mail", "this server sends no mail")
        refuse(by_address, request.client.host if request.client else "")
        name = clean_name(body.name, accounts.limits.name_max)
        refuse(by_name, name_key(name))
        # in the background: the answer takes as long whether the name exists or not
        service.rt.spawn(notices.reset(name, request_language(request)))
        return {"sent": True}

    def spent(request: Request, lang: str | None) -> HTMLResponse:
        response = _page(request, "message.html", lang, key="ui.link_spent", error="error.link")
        response.status_code = 404
        return response

    @router.get("/links/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def link_page(request: Request, code: str, lang: str | None = None) -> HTMLResponse:
        found = await service.db(notices.links.find, code[:100])
        if found is None:
            return spent(request, lang)
        account, kind, _ = found
        return _page(request, "link.html", lang, kind=kind, name=account.name, min=accounts.limits.password_min)

    @router.post("/links/{code}", include_in_schema=False)
    async def use_link(request: Request, code: str, lang: str | None = None) -> Response:
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "links are used from this site's pages only")
        found = await service.db(notices.links.find, code[:100])
        if found is None:
            return spent(request, lang)
        account, kind, game_id = found
        if kind == "reset":
            form = parse_qs((await request.body()).decode("utf-8", "replace"))
            password = (form.get("password") or [""])[0]
            limits = accounts.limits
            if not limits.password_min <= len(password) <= limits.password_max:
                page = _page(
                    request, "link.html", lang, kind=kind, name=account.name, min=limits.password_min, short=True
                )
                page.status_code = 422
                return page
            new_hash = await accounts.checks.run(accounts.hasher.hash, password)  # 503 when busy: the link stays good
            if not await service.db(notices.links.spend, code[:100]):
                return spent(request, lang)
            await service.db(accounts.store.set_password_hash, account.id, new_hash)
            await service.db(notices.links.password_changed, account.id)
            target = "/"
        else:
            if not await service.db(notices.links.spend, code[:100]):
                return spent(request, lang)
            target = f"/games/{game_id}"
        response = RedirectResponse(target, status_code=303)
        await accounts.sign_in(request, response, account)
        return response

    return router
