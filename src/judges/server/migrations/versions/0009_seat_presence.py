"""The players' signs of life in a table of their own: `seat_presence` (game, seat, the
credential's hash, when), written in batches by each process (server/table/seating.py) without
locking the game's row, which every action's commit locks. A seat's `seen` in the game's
seats stays what it was (the time its player took it); the later of the two counts.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_presence",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat_presence"),
    )


def downgrade() -> None:
    op.drop_table("seat_presence")
