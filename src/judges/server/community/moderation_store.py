"""Persistence of moderation (tables: server/community/moderation_tables.py, migration 0010): roles, mutes,
reports, sanctions, hidden chat messages and the audit log. Synchronous, on the game store's
engine; the server calls it in its database threads (`GameService.db`), the command line
directly. Every operator's act is written with its audit row in one transaction: no act
without its record, no record without its act."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..store import GameStore, account_seats_table, accounts_table, chat_table, games_table, sessions_table
from ..store.base import _chat_record, _now, _utc
from ..store.schema import ChatRow
from .account_store import name_key
from .moderation_tables import (
    BAN,
    SUSPEND,
    account_roles_table,
    active,
    audit_log_table,
    mutes_table,
    reports_table,
    sanctioned,
    sanctions_table,
)

__all__ = ["BAN", "OPERATOR", "SUSPEND", "ModerationStore", "Sanction", "sanctioned", "sanctioned_among"]

OPERATOR = "operator"  # the role that moderates (`judges admin grant NAME`)
REPORT_CONTEXT = 3  # messages of the same channel shown before a reported one


@dataclass(frozen=True)
class Sanction:
    kind: str  # BAN or SUSPEND
    until: datetime | None  # a suspension's end
    reason: str


def sanctioned_among(session: Session, account_ids: list[int], now: datetime) -> set[int]:
    """Which of these accounts are under a sanction at `now` (the ratings freeze theirs)."""
    if not account_ids:
        return set()
    return set(
        session.scalars(
            select(sanctions_table.c.account_id).where(sanctions_table.c.account_id.in_(account_ids), active(now))
        )
    )


class ModerationStore:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    # --- the audit log ------------------------------------------------------------------------

    @staticmethod
    def _audit(
        session: Session,
        actor: int | None,
        action: str,
        reason: str,
        *,
        account_id: int | None = None,
        game_id: str | None = None,
        message_id: int | None = None,
        report_id: int | None = None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        session.execute(
            audit_log_table.insert().values(
                at=_now(),
                actor_id=actor,
                action=action,
                account_id=account_id,
                game_id=game_id,
                message_id=message_id,
                report_id=report_id,
                reason=reason,
                detail=detail,
            )
        )

    def record(self, actor: int | None, action: str, reason: str, **about: Any) -> None:
        """An act done elsewhere (a table closed: server/community/moderation.py), written to the log."""
        with self.store._session(write=True) as session:
            self._audit(session, actor, action, reason, **about)
            session.commit()

    def audit(self, limit: int = 200) -> list[dict[str, Any]]:
        """The latest acts, the newest first, with the names of who and whom."""
        actor = accounts_table.alias("actor")
        whom = accounts_table.alias("whom")
        with self.store._session() as session:
            rows = session.execute(
                select(audit_log_table, actor.c.name.label("actor_name"), whom.c.name.label("account_name"))
                .outerjoin(actor, actor.c.id == audit_log_table.c.actor_id)
                .outerjoin(whom, whom.c.id == audit_log_table.c.account_id)
                .order_by(audit_log_table.c.id.desc())
                .limit(limit)
            ).all()
        return [
            {
                "id": r.id,
                "at": _utc(r.at).isoformat(timespec="seconds"),
                "actor": r.actor_name,
                "action": r.action,
                "account": r.account_name,
                "game": r.game_id,
                "message": r.message_id,
                "report": r.report_id,
                "reason": r.reason,
                "detail": r.detail,
            }
            for r in rows
        ]

    # --- accounts and roles -------------------------------------------------------------------

    def account_id(self, name: str) -> int | None:
        with self.store._session() as session:
            found: int | None = session.scalar(
                select(accounts_table.c.id).where(accounts_table.c.name_key == name_key(name))
            )
        return found

    def account_name(self, account_id: int) -> str | None:
        with self.store._session() as session:
            name: str | None = session.scalar(select(accounts_table.c.name).where(accounts_table.c.id == account_id))
        return name

    def grant(self, account_id: int, role: str, actor: int | None, reason: str) -> bool:
        """Gives the role (False: the account had it already)."""
        with self.store._session(write=True) as session:
            try:
                session.execute(
                    account_roles_table.insert().values(account_id=account_id, role=role, granted_at=_now())
                )
                session.flush()
            except IntegrityError:
                session.rollback()
                return False
            self._audit(session, actor, "grant", reason, account_id=account_id, detail={"role": role})
            session.commit()
        return True

    def revoke(self, account_id: int, role: str, actor: int | None, reason: str) -> bool:
        """Takes the role back (False: the account did not have it)."""
        with self.store._session(write=True) as session:
            result = session.execute(
                delete(account_roles_table).where(
                    account_roles_table.c.account_id == account_id, account_roles_table.c.role == role
                )
            )
            if not getattr(result, "rowcount", 0):
                return False
            self._audit(session, actor, "revoke", reason, account_id=account_id, detail={"role": role})
            session.commit()
        return True

    def has_role(self, account_id: int, role: str) -> bool:
        with self.store._session() as session:
            return (
                session.scalar(
                    select(account_roles_table.c.role).where(
                        account_roles_table.c.account_id == account_id, account_roles_table.c.role == role
                    )
                )
                is not None
            )

    # --- mutes ---------------------------------------------------------------------------------

    def mute(self, muter: int, muted: int) -> None:
        with self.store._session(write=True) as session:
            known = session.scalar(
                select(mutes_table.c.muted_id).where(mutes_table.c.muter_id == muter, mutes_table.c.muted_id == muted)
            )
            if known is None:
                try:
                    session.execute(mutes_table.insert().values(muter_id=muter, muted_id=muted, created_at=_now()))
                    session.commit()
                except IntegrityError:  # muted at once from two screens: one row stays
                    session.rollback()

    def unmute(self, muter: int, muted: int) -> None:
        with self.store._session(write=True) as session:
            session.execute(delete(mutes_table).where(mutes_table.c.muter_id == muter, mutes_table.c.muted_id == muted))
            session.commit()

    def mutes_of(self, muter: int) -> dict[int, str]:
        """The accounts `muter` muted: id -> name."""
        with self.store._session() as session:
            rows = session.execute(
                select(accounts_table.c.id, accounts_table.c.name)
                .join(mutes_table, mutes_table.c.muted_id == accounts_table.c.id)
                .where(mutes_table.c.muter_id == muter)
                .order_by(accounts_table.c.name_key)
            ).all()
        return {r.id: r.name for r in rows}

    # --- reports -------------------------------------------------------------------------------

    def chat_message(self, game_id: str, message_id: int) -> dict[str, Any] | None:
        with self.store._session() as session:
            row = session.scalars(select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.id == message_id)).first()
        return _chat_record(row) if row is not None else None

    def report(
        self,
        reporter: int,
        reason: str,
        account_id: int | None = None,
        game_id: str | None = None,
        message_id: int | None = None,
        text: str | None = None,
    ) -> int:
        with self.store._session(write=True) as session:
            report_id = session.scalar(
                reports_table.insert()
                .values(
                    reporter_id=reporter,
                    account_id=account_id,
                    game_id=game_id,
                    message_id=message_id,
                    text=text,
                    reason=reason,
                    created_at=_now(),
                )
                .returning(reports_table.c.id)
            )
            session.commit()
        assert report_id is not None
        return int(report_id)

    def open_reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """The reports no operator has resolved, the oldest first, each with the reported
        message and the messages of its channel just before it (its context)."""
        reporter = accounts_table.alias("reporter")
        whom = accounts_table.alias("whom")
        with self.store._session() as session:
            rows = session.execute(
                select(reports_table, reporter.c.name.label("reporter_name"), whom.c.name.label("account_name"))
                .join(reporter, reporter.c.id == reports_table.c.reporter_id)
                .outerjoin(whom, whom.c.id == reports_table.c.account_id)
                .where(reports_table.c.resolved_at.is_(None))
                .order_by(reports_table.c.id)
                .limit(limit)
            ).all()
            out = []
            for r in rows:
                context: list[dict[str, Any]] = []
                if r.game_id is not None and r.message_id is not None:
                    message = session.scalars(
                        select(ChatRow).where(ChatRow.game_id == r.game_id, ChatRow.id == r.message_id)
                    ).first()
                    if message is not None:
                        before = session.scalars(
                            select(ChatRow)
                            .where(
                                ChatRow.game_id == r.game_id,
                                ChatRow.channel == message.channel,
                                ChatRow.id < message.id,
                            )
                            .order_by(ChatRow.id.desc())
                            .limit(REPORT_CONTEXT)
                        ).all()
                        context = [_chat_record(m) for m in [*reversed(before), message]]
                out.append(
                    {
                        "id": r.id,
                        "at": _utc(r.created_at).isoformat(timespec="seconds"),
                        "reporter": r.reporter_name,
                        "account": r.account_name,
                        "account_id": r.account_id,
                        "game": r.game_id,
                        "message": r.message_id,
                        "text": r.text,
                        "reason": r.reason,
                        "context": context,
                    }
                )
        return out

    def report_row(self, report_id: int) -> dict[str, Any] | None:
        with self.store._session() as session:
            row = session.execute(select(reports_table).where(reports_table.c.id == report_id)).first()
        return dict(row._mapping) if row is not None else None

    @staticmethod
    def _resolve(session: Session, report_id: int | None, actor: int, resolution: str) -> None:
        if report_id is not None:
            session.execute(
                update(reports_table)
                .where(reports_table.c.id == report_id, reports_table.c.resolved_at.is_(None))
                .values(resolved_at=_now(), resolved_by=actor, resolution=resolution)
            )

    def dismiss(self, report_id: int, actor: int, reason: str) -> bool:
        with self.store._session(write=True) as session:
            result = session.execute(
                update(reports_table)
                .where(reports_table.c.id == report_id, reports_table.c.resolved_at.is_(None))
                .values(resolved_at=_now(), resolved_by=actor, resolution="dismiss")
            )
            if not getattr(result, "rowcount", 0):
                return False
            self._audit(session, actor, "dismiss", reason, report_id=report_id)
            session.commit()
        return True

    # --- operators' acts -----------------------------------------------------------------------

    def hidden_messages(self, game_ids: list[str]) -> dict[str, set[int]]:
        """The hidden chat messages of these games: game id -> message ids (games with none left out)."""
        out: dict[str, set[int]] = {}
        if not game_ids:
            return out
        with self.store._session() as session:
            rows = session.execute(
                select(chat_table.c.game_id, chat_table.c.id).where(
                    chat_table.c.game_id.in_(game_ids), chat_table.c.hidden_at.is_not(None)
                )
            ).all()
        for row in rows:
            out.setdefault(row.game_id, set()).add(row.id)
        return out

    def hide_message(self, game_id: str, message_id: int, actor: int, reason: str, report_id: int | None) -> bool:
        """Hides a chat message from everyone (kept in the store); False: no such message."""
        with self.store._session(write=True) as session:
            row = session.execute(
                select(chat_table.c.account_id, chat_table.c.hidden_at).where(
                    chat_table.c.game_id == game_id, chat_table.c.id == message_id
                )
            ).first()
            if row is None:
                return False
            if row.hidden_at is None:
                session.execute(
                    update(chat_table)
                    .where(chat_table.c.game_id == game_id, chat_table.c.id == message_id)
                    .values(hidden_at=_now())
                )
            self._resolve(session, report_id, actor, "hide")
            self._audit(
                session,
                actor,
                "hide",
                reason,
                account_id=row.account_id,
                game_id=game_id,
                message_id=message_id,
                report_id=report_id,
            )
            session.commit()
        return True

    def sanction(
        self, account_id: int, kind: str, until: datetime | None, actor: int, reason: str, report_id: int | None
    ) -> None:
        """Bans (or suspends until `until`) the account: the sanctions in force before are
        lifted (the new one replaces them), its sessions end, all in one transaction."""
        now = _now()
        with self.store._session(write=True) as session:
            session.execute(
                update(sanctions_table)
                .where(sanctions_table.c.account_id == account_id, active(now))
                .values(lifted_at=now)
            )
            session.execute(
                sanctions_table.insert().values(
                    account_id=account_id, kind=kind, until=until, reason=reason, by_id=actor, created_at=now
                )
            )
            session.execute(delete(sessions_table).where(sessions_table.c.account_id == account_id))
            self._resolve(session, report_id, actor, kind)
            detail = {"until": until.isoformat(timespec="seconds")} if until is not None else None
            self._audit(session, actor, kind, reason, account_id=account_id, report_id=report_id, detail=detail)
            session.commit()

    def lift(self, account_id: int, actor: int, reason: str) -> bool:
        """Ends the account's sanction in force (False: none was)."""
        now = _now()
        with self.store._session(write=True) as session:
            result = session.execute(
                update(sanctions_table)
                .where(sanctions_table.c.account_id == account_id, active(now))
                .values(lifted_at=now)
            )
            if not getattr(result, "rowcount", 0):
                return False
            self._audit(session, actor, "lift", reason, account_id=account_id)
            session.commit()
        return True

    def close_record(self, actor: int, game_id: str, reason: str, report_id: int | None) -> None:
        """A table closed (server/community/moderation.py ended it): its report resolved, the act logged."""
        with self.store._session(write=True) as session:
            self._resolve(session, report_id, actor, "close")
            self._audit(session, actor, "close", reason, game_id=game_id, report_id=report_id)
            session.commit()

    def session_account_id(self, id_hash: str) -> int | None:
        """The account of a stored session, sanctioned or not."""
        with self.store._session() as session:
            found: int | None = session.scalar(
                select(sessions_table.c.account_id).where(sessions_table.c.id_hash == id_hash)
            )
        return found

    def sanction_of(self, account_id: int) -> Sanction | None:
        """The account's sanction in force now, or None."""
        with self.store._session() as session:
            row = session.execute(
                select(sanctions_table.c.kind, sanctions_table.c.until, sanctions_table.c.reason)
                .where(sanctions_table.c.account_id == account_id, active(_now()))
                .order_by(sanctions_table.c.id.desc())
            ).first()
        if row is None:
            return None
        return Sanction(row.kind, _utc(row.until) if row.until is not None else None, row.reason)

    def running_seats(self, account_id: int) -> list[tuple[str, int]]:
        """(game, seat) of the account's seats in games not over (the caller checks each seat is
        still the account's)."""
        with self.store._session() as session:
            rows = session.execute(
                select(account_seats_table.c.game_id, account_seats_table.c.seat)
                .join(games_table, games_table.c.id == account_seats_table.c.game_id)
                .where(account_seats_table.c.account_id == account_id, games_table.c.ending.is_(None))
            ).all()
        return [(r.game_id, r.seat) for r in rows]
