"""Ratings and e-mailed links: server/community/rating_tables.py.

`ratings` holds each rated account's OpenSkill rating, `rated_games` every finished game once
considered (rated or why not), `rating_changes` each seat's rating before and after a rated
game (a player's history), `account_links` the sha256 of each link sent by e-mail (a seat's
notice, a forgotten password).
Existing games, guest or not, are untouched: no existing table changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_ratings_account_id_accounts", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("account_id", name="pk_ratings"),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rated_games_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_rated_games"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_rating_changes_account_id_accounts", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rating_changes_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    op.create_table(
        "account_links",
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("game_id", sa.String(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_account_links_account_id_accounts", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_account_links_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_account_links"),
    )
    op.create_index("ix_account_links_account_id", "account_links", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_account_links_account_id", table_name="account_links")
    op.drop_table("account_links")
    op.drop_index("ix_rating_changes_account_id", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_games")
    op.drop_table("ratings")
