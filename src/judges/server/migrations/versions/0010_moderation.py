"""Moderation: roles, mutes, reports, sanctions and the audit log (server/community/moderation_tables.py),
and two chat columns: `chat.account_id` (the account the sender's seat was bound to: a reader's
mutes name accounts) and `chat.hidden_at` (an operator hid the message from everyone; it is
kept). Messages stored before have no account: only the browser's own mutes hide them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("account_id", sa.Integer(), nullable=True))
    op.add_column("chat", sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "account_roles",
        sa.Column("account_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_account_roles_account_id_accounts", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("account_id", "role", name="pk_account_roles"),
    )
    op.create_table(
        "mutes",
        sa.Column("muter_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("muted_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["muter_id"], ["accounts.id"], name="fk_mutes_muter_id_accounts", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["muted_id"], ["accounts.id"], name="fk_mutes_muted_id_accounts", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("muter_id", "muted_id", name="pk_mutes"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.Integer(), nullable=True),
        sa.Column("resolution", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(
            ["reporter_id"], ["accounts.id"], name="fk_reports_reporter_id_accounts", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_reports_account_id_accounts", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_resolved_at", "reports", ["resolved_at"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_sanctions_account_id_accounts", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sanctions"),
    )
    op.create_index("ix_sanctions_account_id", "sanctions", ["account_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_audit_log"),
    )


def downgrade() -> None:
    op.drop_table("audit_log")
    op.drop_index("ix_sanctions_account_id", table_name="sanctions")
    op.drop_table("sanctions")
    op.drop_index("ix_reports_resolved_at", table_name="reports")
    op.drop_table("reports")
    op.drop_table("mutes")
    op.drop_table("account_roles")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("hidden_at")
        batch.drop_column("account_id")
