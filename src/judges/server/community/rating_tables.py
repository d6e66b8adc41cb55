"""The tables of the ratings and e-mailed links (migration 0005), on the store's
metadata (store.py imports this module, so that `Base.metadata` always holds them).

  ratings         (account_id, game) primary key, mu, sigma, games, updated_at: a player's OpenSkill
                  Plackett-Luce rating in one game (server/community/ratings.py; `game` since migration
                  0011); bots are fixed anchors, not stored
  rated_games     game_id primary key, rated, reason, at: every finished game considered once
                  (rated, or why not), so that no game moves the ratings twice
  rating_changes  (game_id, seat) primary key, account_id (null for a bot), bot, rank, the
                  rating before and after: a player's history
  account_links   token_hash primary key, account_id, kind, game_id, expires_at: the links sent
                  by e-mail (server/community/mail_notices.py): "seat" signs the player in and opens the seat of
                  game_id, "reset" sets a forgotten password, "verify" confirms the
                  address `email` (migration 0007); only the link's sha256 is stored
  mails_sent      id, recipient, kind, at (migration 0007): every mail sent, so that no
                  recipient gets more than the day's cap (server/community/mail_notices.py)
  rematches       game_id primary key, rematch_id, claimed_at (migration 0006): the claim of a
                  finished game's one rematch (server/community/rematch.py): the first insert wins in every
                  process; rematch_id is null while the claimer makes the table
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, Float, ForeignKey, Integer, String, Table

from ..store.schema import Base

ratings_table = Table(
    "ratings",
    Base.metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    Column("game", String, primary_key=True),  # the game rated (a table's `game_of`), one rating per game
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rated_games_table = Table(
    "rated_games",
    Base.metadata,
    Column("game_id", String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("reason", String, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

rating_changes_table = Table(
    "rating_changes",
    Base.metadata,
    Column("game_id", String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("bot", String, nullable=True),
    Column("rank", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

account_links_table = Table(
    "account_links",
    Base.metadata,
    Column("token_hash", String, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String, nullable=False),
    Column("game_id", String, ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("email", String, nullable=True),  # a "verify" link: the address it confirms (migration 0007)
)

mails_sent_table = Table(
    "mails_sent",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("recipient", String, nullable=False, index=True),
    Column("kind", String, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

rematches_table = Table(
    "rematches",
    Base.metadata,
    Column("game_id", String, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("rematch_id", String, nullable=True),
    Column("claimed_at", DateTime(timezone=True), nullable=False),
)
