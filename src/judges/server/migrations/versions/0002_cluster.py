"""Many processes on one database: a version of the seats, and the bots' lease.

`seats_version` grows with every change of the seats (a seat handed to a bot and back), so a
process can tell that its copy of the seats is out of date. `bot_holder` / `bot_lease_until`
name the process that plays the game's bots and until when (seconds since the epoch): another
process takes the lease over once it has expired.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seats_version", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("bot_holder", sa.String(), nullable=True))
        batch.add_column(sa.Column("bot_lease_until", sa.Float(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_lease_until")
        batch.drop_column("bot_holder")
        batch.drop_column("seats_version")
