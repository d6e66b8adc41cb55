"""One rating per game: `ratings.game` (server/community/rating_tables.py), the primary key
becomes (account_id, game). The ratings kept before were earned at Judges & Kings' tables
(the game a table names by default, server/table/played.py `game_of`) and become its
ratings; `rating_changes` is untouched (its rows name their game_id).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the game of the ratings kept before: written out, as it was when this migration was made
OLD_RATINGS_GAME = "judges"


def upgrade() -> None:
    # the existing rows take the default through the server default, dropped once they have it
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("game", sa.String(), nullable=False, server_default=OLD_RATINGS_GAME))
    with op.batch_alter_table("ratings") as batch:
        batch.alter_column("game", existing_type=sa.String(), existing_nullable=False, server_default=None)
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["account_id", "game"])


def downgrade() -> None:
    # one rating an account again: its default game's (the others' are dropped)
    op.execute(sa.text("DELETE FROM ratings WHERE game <> :game").bindparams(game=OLD_RATINGS_GAME))
    with op.batch_alter_table("ratings") as batch:
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["account_id"])
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("game")
