"""What the store raises and returns: its errors, seat credentials' tokens, database URLs, and
the records of `load`, `catch_up`, `versions` and `list_games`."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ...settings import load as load_settings

if TYPE_CHECKING:
    pass


DATABASE_URL_ENV = "JUDGES_DATABASE_URL"
SEAT_KINDS = ("human", "bot")


# --- errors -------------------------------------------------------------------------------


class StoreError(Exception):
    """The store refused an operation (or found its data inconsistent)."""


class GameNotFound(StoreError, KeyError):
    """No game has this id. Also a KeyError, so `except KeyError` works."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game {game_id!r}")
        self.game_id = game_id

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class GameExists(StoreError):
    """create_game with an id that is already taken."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"a game {game_id!r} already exists")
        self.game_id = game_id


class SequenceConflict(StoreError):
    """append_action with a seq other than the game's action count: another writer got there
    first, or the caller's game is out of date. Reload the game from the store."""

    def __init__(self, game_id: str, expected: int, got: int) -> None:
        super().__init__(
            f"game {game_id!r}: action seq {got} cannot be appended, the game has "
            f"{expected} actions (expected seq {expected}; a concurrent writer?)"
        )
        self.game_id = game_id
        self.expected = expected
        self.got = got


# --- tokens -----------------------------------------------------------------------------


def new_token() -> str:
    """A fresh secret for a seat (shown once to its player, stored only hashed)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The sha256 hex digest stored in a seat's "token_hash"."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def verify_token(token: str | None, token_hash: str | None) -> bool:
    """Whether `token` hashes to `token_hash` (constant-time comparison)."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


# --- URLs -------------------------------------------------------------------------------


def database_url() -> str:
    """JUDGES_DATABASE_URL (judges/settings.py), or a SQLite file judges.db in the current directory."""
    return load_settings().database_url


def normalize_url(url: str) -> str:
    """postgres:// and postgresql:// mean psycopg 3 (the driver this project installs)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


# --- what load / list_games return ------------------------------------------------------------


class StoredSnapshot(NamedTuple):
    """The caller's snapshot data after `seq` actions (a tuple: `seq, data = snapshot`)."""

    seq: int
    data: dict[str, Any]


@dataclass
class StoredGame:
    id: str
    options: dict[str, Any]
    seed: int
    rules_version: int
    seats: list[dict[str, Any]]
    action_count: int
    ending: str | None
    winners: list[int]
    created_at: datetime
    updated_at: datetime
    snapshot: StoredSnapshot | None
    # the actions from snapshot.seq (or 0) on, in seq order; each a record
    # {"seq", "player", "action", "client_action_id", "created_at"}
    actions: list[dict[str, Any]]
    # every action record from seq 0, when load(..., all_actions=True); else None
    all_actions: list[dict[str, Any]] | None = None
    seats_version: int = 0

    @property
    def actions_start(self) -> int:
        """The seq of `actions[0]`: the snapshot's seq, or 0."""
        return self.snapshot.seq if self.snapshot is not None else 0


class GameVersion(NamedTuple):
    """How far a stored game is: its action count and the version of its seats."""

    action_count: int
    seats_version: int
    ending: str | None


@dataclass
class Catchup:
    """What a process whose copy has `start` actions is missing (GameStore.catch_up)."""

    action_count: int
    seats: list[dict[str, Any]]
    seats_version: int
    actions: list[dict[str, Any]]  # action records from seq `start` on


@dataclass(frozen=True)
class SeatTable:
    """What a seat's change may read besides the seat (GameStore.update_seat with `table`):
    every stored seat (not to be changed) and the game's chat count, under the row lock."""

    seats: list[dict[str, Any]]
    chat_count: int


@dataclass
class GameSummary:
    id: str
    created_at: datetime
    updated_at: datetime
    options: dict[str, Any]
    rules_version: int
    seats: list[dict[str, Any]]  # the seats without their token_hash
    action_count: int
    ending: str | None
    winners: list[int]

    @property
    def players(self) -> int:
        return len(self.seats)
