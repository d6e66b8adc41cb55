"""The tables of the game store (SQLAlchemy declarative rows; migrations/versions/ makes them)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

if TYPE_CHECKING:
    pass


# --- tables -----------------------------------------------------------------------------

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    action_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ending: Mapped[str | None] = mapped_column(String, nullable=True)
    winners: Mapped[list[int]] = mapped_column(JSON)
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bot_holder: Mapped[str | None] = mapped_column(String, nullable=True)
    bot_lease_until: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    chat_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "client_action_id"),)

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_action_id: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SnapshotRow(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


def _table(row_class: type[Base]) -> Table:
    """The Table a row class is mapped to. Declarative types `__table__` as any FromClause
    (a class may be mapped to a subquery); these classes are mapped to tables."""
    table = row_class.__table__
    assert isinstance(table, Table)
    return table


class ChatRow(Base):
    """A chat message (server/community/chat.py): ids are ordered per game (games.chat_count)."""

    __tablename__ = "chat"
    __table_args__ = (UniqueConstraint("game_id", "client_message_id"),)

    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    channel: Mapped[str] = mapped_column(String)
    sender: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String)
    text: Mapped[str] = mapped_column(Text)
    client_message_id: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # the account the sender's seat was bound to (a reader's mutes name accounts), and when an
    # operator hid the message from everyone (migration 0010): kept, never shown again
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountRow(Base):
    """A player's account (server/community/accounts.py): `name_key` is the name case-folded (unique),
    `name_skeleton` what it looks like (unique: no look-alike of another account's name; None
    for an account made before migration 0008 that looked like an older one),
    `password_hash` an argon2id hash (PHC string)."""

    __tablename__ = "accounts"
    __table_args__ = (
        UniqueConstraint("name_key", name="uq_accounts_name_key"),
        UniqueConstraint("name_skeleton", name="uq_accounts_name_skeleton"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String)
    name_key: Mapped[str] = mapped_column(String)
    name_skeleton: Mapped[str | None] = mapped_column(String, nullable=True)
    password_hash: Mapped[str] = mapped_column(String)
    email: Mapped[str | None] = mapped_column(String, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # when the address was confirmed by its link (migration 0007); nothing else is mailed before
    email_verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the sha256 of its random session id (the cookie), never the id."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatRow(Base):
    """A seat bound to an account (the seat's own `account` says so too: this is the index
    that lists an account's games)."""

    __tablename__ = "account_seats"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    game_id: Mapped[str] = mapped_column(String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    bound_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """A seat's player's last sign of life as a process stored it (server/table/seating.py): the
    credential's hash it came with and when (seconds since the epoch). A table of its own, so
    that storing it locks no game's row (an action's commit locks it). No foreign key either
    (its check would lock the game's row): deleting a game deletes its rows."""

    __tablename__ = "seat_presence"

    game_id: Mapped[str] = mapped_column(String, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    token_hash: Mapped[str] = mapped_column(String)
    seen: Mapped[float] = mapped_column(Float)


games_table = _table(GameRow)
chat_table = _table(ChatRow)
actions_table = _table(ActionRow)
snapshots_table = _table(SnapshotRow)
accounts_table = _table(AccountRow)
sessions_table = _table(SessionRow)
account_seats_table = _table(AccountSeatRow)
presence_table = _table(PresenceRow)
