"""Accounts: players who sign in, their sessions, and the seats bound to them.

`accounts` holds a player's name (unique case-folded, `name_key`), the argon2id hash of the
password and an optional e-mail; `sessions` the sha256 of each signed-in browser's session id
(the cookie itself is never stored); `account_seats` the seats bound to an account (the stored
seat carries `account` too). Guest games are untouched: no existing table changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("password_hash", sa.String(), nullable=False),
        sa.Column("email", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_sessions_account_id_accounts", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "account_seats",
        sa.Column("account_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("bound_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_account_seats_account_id_accounts", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_account_seats_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "game_id", name="pk_account_seats"),
    )


def downgrade() -> None:
    op.drop_table("account_seats")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
