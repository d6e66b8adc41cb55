"""Table talk: the chat messages of each game, and the game's message count.

`games.chat_count` is the number of messages the game has: a new message takes the next id
under the game's row lock, so ids are ordered per game across processes. `chat` holds the
messages: the channel ("table", "spectators", or "seats:0.2" for a private conversation of
those seats), the sender (a seat, or -1 for a spectator), the sender's name when it was
written, the cleaned text, and the client's id of the message (unique per game: a retried
send is stored once).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("chat_count", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("sender", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("client_message_id", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "id", name="pk_chat"),
        sa.UniqueConstraint("game_id", "client_message_id", name="uq_chat_game_id_client_message_id"),
    )


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("chat_count")
