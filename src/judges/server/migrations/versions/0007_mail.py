"""Confirmed e-mail addresses and the mails sent: server/community/rating_tables.py, store/schema.py.

`accounts.email_verified_at`: when the account's address was confirmed by the link mailed to it
(nothing else is mailed to an address before); `account_links.email`: the address a "verify"
link confirms; `mails_sent`: every mail sent (recipient, kind, time), so that no recipient gets
more than the day's cap. An address given before this migration is unconfirmed: its owner asks
for the link again (`POST /api/me/email`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("account_links", sa.Column("email", sa.String(), nullable=True))
    op.create_table(
        "mails_sent",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("recipient", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_mails_sent"),
    )
    op.create_index("ix_mails_sent_recipient", "mails_sent", ["recipient"])


def downgrade() -> None:
    op.drop_index("ix_mails_sent_recipient", table_name="mails_sent")
    op.drop_table("mails_sent")
    with op.batch_alter_table("account_links") as batch:
        batch.drop_column("email")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email_verified_at")
