"""The claim of a finished game's rematch: server/community/rating_tables.py `rematches`.

One row per finished game whose rematch was asked for: the first process to insert it makes the
table (the primary key refuses every other), so concurrent requests, in one process or many,
make one rematch. Existing games are untouched: a rematch made before this table exists is
still found in the finished game's first seat (`rematch`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("rematch_id", sa.String(), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rematches_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_rematches"),
    )


def downgrade() -> None:
    op.drop_table("rematches")
