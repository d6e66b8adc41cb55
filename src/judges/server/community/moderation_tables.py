"""The tables of moderation (migration 0010), on the store's metadata (store/__init__.py imports
this module, so that `Base.metadata` always holds them). Server/moderation.py uses them.

  account_roles  (account_id, role) primary key, granted_at: an account's roles ("operator",
                 given by `judges admin grant NAME`)
  mutes          (muter_id, muted_id) primary key, created_at: a player who hides another's
                 chat and private messages from his own screens
  reports        id, reporter_id, account_id (whom), game_id, message_id, text (the message as
                 it read then), reason, created_at, resolved_at, resolved_by, resolution
  sanctions      id, account_id, kind ("ban", "suspend"), until (a suspension's end), reason,
                 by_id, created_at, lifted_at: an account kept out of the site
  audit_log      id, at, actor_id (null: the command line), action, account_id, game_id,
                 message_id, report_id, reason, detail: every operator's act, who and why
The chat's own `account_id` and `hidden_at` columns are store/schema.py's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    ColumnElement,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    exists,
    or_,
)

from ..store.schema import Base

BAN, SUSPEND = "ban", "suspend"  # the kinds of sanction

account_roles_table = Table(
    "account_roles",
    Base.metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    Column("role", String, primary_key=True),
    Column("granted_at", DateTime(timezone=True), nullable=False),
)

mutes_table = Table(
    "mutes",
    Base.metadata,
    Column("muter_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    Column("muted_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

reports_table = Table(
    "reports",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    Column("game_id", String, nullable=True),
    Column("message_id", Integer, nullable=True),
    Column("text", Text, nullable=True),
    Column("reason", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("resolved_at", DateTime(timezone=True), nullable=True),
    Column("resolved_by", Integer, nullable=True),
    Column("resolution", String, nullable=True),
    Index("ix_reports_resolved_at", "resolved_at"),
)

sanctions_table = Table(
    "sanctions",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String, nullable=False),
    Column("until", DateTime(timezone=True), nullable=True),
    Column("reason", Text, nullable=False),
    Column("by_id", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("lifted_at", DateTime(timezone=True), nullable=True),
)

audit_log_table = Table(
    "audit_log",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("actor_id", Integer, nullable=True),
    Column("action", String, nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("game_id", String, nullable=True),
    Column("message_id", Integer, nullable=True),
    Column("report_id", Integer, nullable=True),
    Column("reason", Text, nullable=False),
    Column("detail", JSON, nullable=True),
)


def active(now: datetime) -> ColumnElement[bool]:
    """The sanctions in force at `now`: not lifted, and a ban or a suspension not over."""
    return and_(
        sanctions_table.c.lifted_at.is_(None),
        or_(sanctions_table.c.kind == BAN, sanctions_table.c.until > now),
    )


def sanctioned(account_id: Any, now: datetime) -> ColumnElement[bool]:
    """Whether the account (a column or a value) is under a sanction at `now` (a SQL clause)."""
    return exists().where(sanctions_table.c.account_id == account_id, active(now))
