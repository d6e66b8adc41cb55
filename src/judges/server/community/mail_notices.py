"""Notices by e-mail and the links they carry (docs/accounts.md "Paces and notices").

When a paced game's decision is owed by a seat bound to an account with an e-mail address, the
player is told by mail through SMTP (server/community/mailer.py, `JUDGES_SMTP_URL`): not at once, but
once the decision has waited `JUDGES_NOTICE_DELAY_MINUTES` (default 10), and then in one mail
for every game waiting for him then (a digest, not one mail per step). A player at the table
(a tab open) is not mailed: the page tells him (its title, and the browser's notification).
Each game in the mail comes with a link that signs the player in and opens his seat.

A forgotten password: `POST /api/password-reset {name}` mails the account's address, if it has
a confirmed one, a link valid `JUDGES_RESET_MINUTES` (default 60) that sets a new password; the
answer is the same whatever the name.

An address is one mailbox (server/community/mailer.py, `clean_email`), and nothing but the link that
confirms it is mailed to it before it is confirmed: at sign-up (and on `POST /api/me/email`)
the server mails a "verify" link, valid `VERIFY_LINK_HOURS`, that confirms the address it was
sent to. Every mail sent is recorded (table `mails_sent`): a recipient gets at most
`JUDGES_MAILS_PER_DAY` mails in 24 hours, of which `JUDGES_VERIFY_MAILS_PER_DAY` asking to
confirm the address; beyond, the mail is not sent.

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
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select

from ...i18n import gettext, normalize_language, request_language
from ..deps import rate_limited
from ..limits import RateLimiter, clean_name
from ..store import GameStore, accounts_table, hash_token, sessions_table
from ..store.base import _now, _rowcount, _utc
from ..table import seats as seat_keys
from ..table.service import ServiceError
from .account_store import Account, name_key
from .accounts import Accounts
from .mailer import Mailer, MailError, clean_email
from .paces import Paces
from .rating_tables import account_links_table, mails_sent_table
from .ratings import _page

log = logging.getLogger("judges.server")

SEAT_LINK_HOURS = 24  # a seat's link: once, within a day (a paced decision waits 24 hours or more)
VERIFY_LINK_HOURS = 24  # the link that confirms an address


class LinkStore:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def make(self, account_id: int, kind: str, game_id: str | None, lifetime: float, email: str | None = None) -> str:
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
                    email=email,
                )
            )
            session.commit()
        return code

    def find(self, code: str) -> Link | None:
        """A live link: its account, kind, game and (a "verify" link's) address."""
        links = account_links_table.c
        with self.store._session() as session:
            row = session.execute(
                select(accounts_table, links.kind, links.game_id, links.expires_at, links.email.label("link_email"))
                .join(account_links_table, accounts_table.c.id == links.account_id)
                .where(links.token_hash == hash_token(code))
            ).first()
        if row is None or _utc(row.expires_at) <= datetime.now(UTC):
            return None
        account = Account(row.id, row.name, row.email, row.password_hash, row.email_verified_at is not None)
        return Link(account, row.kind, row.game_id, row.link_email)

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
        """Each account's name and confirmed address (None: none, or not confirmed)."""
        with self.store._session() as session:
            rows = session.execute(
                select(
                    accounts_table.c.id,
                    accounts_table.c.name,
                    accounts_table.c.email,
                    accounts_table.c.email_verified_at,
                ).where(accounts_table.c.id.in_(account_ids))
            ).all()
        return {r.id: (r.name, r.email if r.email_verified_at is not None else None) for r in rows}

    def by_name(self, name: str) -> tuple[int, str, str | None] | None:
        """An account's id, name and confirmed address."""
        with self.store._session() as session:
            row = session.execute(
                select(
                    accounts_table.c.id,
                    accounts_table.c.name,
                    accounts_table.c.email,
                    accounts_table.c.email_verified_at,
                ).where(accounts_table.c.name_key == name_key(name))
            ).first()
        return (row.id, row.name, row.email if row.email_verified_at is not None else None) if row else None

    def may_send(self, recipient: str, kind: str, per_day: int, verify_per_day: int) -> bool:
        """Records a mail to `recipient` if the day's caps allow it (the last 24 hours: all
        mails, and those asking to confirm the address); whether it may be sent."""
        now = _now()
        mails = mails_sent_table.c
        with self.store._session(write=True) as session:
            if not self.store.is_sqlite:  # two processes mailing one recipient: one after the other
                session.execute(select(func.pg_advisory_xact_lock(func.hashtext(recipient))))
            rows = session.execute(
                select(mails.kind, func.count())
                .where(mails.recipient == recipient, mails.at > now - timedelta(days=1))
                .group_by(mails.kind)
            ).all()
            counts = {row[0]: int(row[1]) for row in rows}
            if sum(counts.values()) >= per_day or (kind == "verify" and counts.get("verify", 0) >= verify_per_day):
                return False
            session.execute(delete(mails_sent_table).where(mails.at < now - timedelta(days=2)))
            session.execute(mails_sent_table.insert().values(recipient=recipient, kind=kind, at=now))
            session.commit()
        return True


@dataclass(frozen=True)
class Link:
    account: Account
    kind: str  # "seat", "reset", "verify"
    game_id: str | None
    email: str | None  # the address a "verify" link confirms


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
        self.per_day = settings.mails_per_day
        self.verify_per_day = settings.verify_mails_per_day

    async def tick(self, now: float) -> int:
        """Mails each player the paced games whose decisions have waited `delay` for him
        (one mail a player); answers how many mails were sent."""
        if self.mailer is None:
            return 0
        service = self.service
        due: dict[int, list[tuple[str, int, float]]] = {}  # account -> (game, seat, owed since)
        for game_id in list(self.paces.paced):
            live = service.games.get(game_id)
            if live is None or live.played.is_over:
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
                        live,
                        datetime.fromtimestamp(deadline, UTC).strftime("%Y-%m-%d %H:%M"),
                        f"{self.public_url}/links/{code}",
                    )
                )
            if not lines:
                continue
            language = normalize_language(language)
            body = [gettext(language, "mail.turn_intro", name=name), ""]
            for table, due_at, link in lines:
                names = ", ".join(table.kit.names_for(table.names(), language).values())  # in the reader's words
                where = table.kit.where(table.game, language)  # its round (Rome: turn) and phase, the game's words
                game = table.kit.title(language)  # a digest may list tables of different games
                body.append(gettext(language, "mail.turn_game", game=game, names=names, where=where, deadline=due_at))
                body += [link, ""]
            body.append(gettext(language, "mail.turn_footer"))
            if await self.send(email, gettext(language, "mail.turn_subject"), "\n".join(body), "notice"):
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

    async def send(self, to: str, subject: str, body: str, kind: str) -> bool:
        """Sends one mail unless the recipient had the day's share (recorded in the store)."""
        assert self.mailer is not None
        recipient = clean_email(to)
        if recipient is None:
            log.warning("a mail was not sent: not one address")
            return False
        if not await self.service.db(self.links.may_send, recipient, kind, self.per_day, self.verify_per_day):
            log.info("a mail was not sent: its recipient had the day's mails")
            return False
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
        await self.send(email, gettext(language, "mail.reset_subject"), body, "reset")

    async def verify(self, account: Account, language: str) -> None:
        """Mails the account's address the link that confirms it (nothing else is mailed to an
        address before)."""
        email = clean_email(account.email)
        if email is None or account.email_verified or self.mailer is None:
            return
        code = await self.service.db(
            self.links.make, account.id, "verify", None, VERIFY_LINK_HOURS * 3600, account.email
        )
        body = gettext(
            language,
            "mail.verify_body",
            name=account.name,
            link=f"{self.public_url}/links/{code}",
            hours=VERIFY_LINK_HOURS,
        )
        await self.send(email, gettext(language, "mail.verify_subject"), body, "verify")


class ResetRequest(BaseModel):
    name: str = Field(max_length=200)


def _mail_routes(notices: Notices) -> APIRouter:
    """The routes that mail a link: a password reset, an address's confirmation again."""
    router = APIRouter()
    accounts = notices.accounts
    service = notices.service
    by_name = RateLimiter(3, 1.0, name="mail_link")
    by_address = RateLimiter(10, 4.0, name="mail_link")

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

    @router.post("/api/me/email", status_code=202)
    async def confirm_again(request: Request) -> dict[str, Any]:
        """Mails the signed-in account's address the link that confirms it, again (its first
        went at sign-up). `sent`: false when there is nothing to confirm; each recipient gets
        at most `JUDGES_VERIFY_MAILS_PER_DAY` such mails a day."""
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "accounts are used from this site's pages only")
        if notices.mailer is None:
            raise ServiceError(409, "error.no_mail", "this server sends no mail")
        account = await accounts.account(request)
        if account is None:
            raise ServiceError(401, "error.signed_out", "sign in to see your games")
        refuse(by_address, request.client.host if request.client else "")
        if not account.email or account.email_verified:
            return {"sent": False}
        service.rt.spawn(notices.verify(account, request_language(request)))
        return {"sent": True}

    return router


def _link_routes(notices: Notices) -> APIRouter:
    """A mailed link's page, and its use: it works once."""
    router = APIRouter()
    accounts = notices.accounts
    service = notices.service

    def spent(request: Request, lang: str | None) -> HTMLResponse:
        response = _page(request, "message.html", lang, key="ui.link_spent", error="error.link")
        response.status_code = 404
        return response

    @router.get("/links/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def link_page(request: Request, code: str, lang: str | None = None) -> HTMLResponse:
        found = await service.db(notices.links.find, code[:100])
        if found is None:
            return spent(request, lang)
        return _page(
            request,
            "link.html",
            lang,
            kind=found.kind,
            name=found.account.name,
            email=found.email,
            min=accounts.limits.password_min,
        )

    @router.post("/links/{code}", include_in_schema=False)
    async def use_link(request: Request, code: str, lang: str | None = None) -> Response:
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "links are used from this site's pages only")
        found = await service.db(notices.links.find, code[:100])
        if found is None:
            return spent(request, lang)
        account, kind, game_id = found.account, found.kind, found.game_id
        if kind == "verify":  # confirms the address it was mailed to; signs nobody in
            if not await service.db(notices.links.spend, code[:100]) or not found.email:
                return spent(request, lang)
            await service.db(accounts.store.verify_email, account.id, found.email)
            return RedirectResponse("/", status_code=303)
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


def notices_router(notices: Notices) -> APIRouter:
    router = APIRouter()
    router.include_router(_mail_routes(notices))
    router.include_router(_link_routes(notices))
    return router
