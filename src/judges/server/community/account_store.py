"""Persistence of accounts, sessions and the seats bound to accounts (tables: store.py,
migration 0004). Synchronous, like GameStore, whose engine it shares; the server calls it in
its database threads (`GameService.db`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..store import (
    GameStore,
    account_seats_table,
    accounts_table,
    games_table,
    sessions_table,
)
from ..store.base import _now, _utc
from .moderation_tables import sanctioned


class NameTaken(Exception):
    """An account with this name (case-folded) exists already."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    email: str | None
    password_hash: str
    email_verified: bool = False  # confirmed by the link mailed to it: only then is anything else mailed


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.email, row.password_hash, row.email_verified_at is not None)


def name_key(name: str) -> str:
    """What makes two names the same account: case and surrounding spaces do not count."""
    return name.strip().casefold()


# Letters of other scripts (and a few signs) drawn like Latin letters, mapped to the letter they
# pass for: a small table after Unicode's confusables (UTS #39, confusables.txt), lower case
# only (the skeleton is taken of the case-folded name).
CONFUSABLES = {
    **dict(zip("аеорсухіјѕԁһԛԝӏвкмнтг", "aeopcyxijsdhqwlbkmhtr", strict=True)),  # Cyrillic
    **dict(zip("αοορυικνχτεζηβ", "aoopuikvxtezhb", strict=True)),  # Greek (ο twice: harmless)
    **dict(zip("ɑɡıȷ01|", "agijoll", strict=True)),  # Latin look-alikes, digits, a bar
}
SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))  # pairs drawn like one letter


def name_skeleton(name: str) -> str:
    """What makes two names look the same (UTS #39's skeleton, with a table of our own): NFKC
    (full-width `ａｄａ` is `ada`), case-folded, decomposed, each look-alike letter mapped to the
    letter it passes for (Cyrillic `аda` is `ada`), letter pairs drawn like one letter joined,
    spaces removed. No two accounts share a skeleton."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(CONFUSABLES.get(ch, ch) for ch in text if not ch.isspace())
    for pair, letter in SEQUENCES:
        text = text.replace(pair, letter)
    return unicodedata.normalize("NFC", text)


@dataclass(frozen=True)
class AccountGame:
    id: str
    seat: int
    seats: list[dict[str, Any]]
    ending: str | None
    winners: list[int]
    updated_at: datetime


class AccountStore:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def create(self, name: str, password_hash: str, email: str | None) -> Account:
        with self.store._session(write=True) as session:
            try:
                account_id = session.scalar(
                    accounts_table.insert()
                    .values(
                        name=name,
                        name_key=name_key(name),
                        name_skeleton=name_skeleton(name),
                        password_hash=password_hash,
                        email=email,
                        created_at=_now(),
                    )
                    .returning(accounts_table.c.id)
                )
                session.commit()
            except IntegrityError:
                raise NameTaken(name) from None
        assert account_id is not None
        return Account(account_id, name, email, password_hash)

    def by_name(self, name: str) -> Account | None:
        with self.store._session() as session:
            row = session.execute(select(accounts_table).where(accounts_table.c.name_key == name_key(name))).first()
        return _account(row) if row else None

    def verify_email(self, account_id: int, email: str) -> bool:
        """Confirms the account's address, if it is still `email`; whether it is confirmed now."""
        with self.store._session(write=True) as session:
            session.execute(
                accounts_table.update()
                .where(
                    accounts_table.c.id == account_id,
                    accounts_table.c.email == email,
                    accounts_table.c.email_verified_at.is_(None),
                )
                .values(email_verified_at=_now())
            )
            session.commit()
            row = session.execute(select(accounts_table).where(accounts_table.c.id == account_id)).first()
        return row is not None and row.email == email and row.email_verified_at is not None

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.store._session(write=True) as session:
            session.execute(
                accounts_table.update().where(accounts_table.c.id == account_id).values(password_hash=password_hash)
            )
            session.commit()

    # --- sessions -------------------------------------------------------------------------

    def open_session(self, id_hash: str, account_id: int, lifetime: float, replaces: str | None = None) -> None:
        """Stores a new session (the hash of its id); `replaces`: the hash of the session the
        browser held before, ended in the same transaction (the id is rotated at sign-in)."""
        now = _now()
        with self.store._session(write=True) as session:
            if replaces:
                session.execute(delete(sessions_table).where(sessions_table.c.id_hash == replaces))
            session.execute(delete(sessions_table).where(sessions_table.c.expires_at < now))
            session.execute(
                sessions_table.insert().values(
                    id_hash=id_hash,
                    account_id=account_id,
                    created_at=now,
                    expires_at=now + timedelta(seconds=lifetime),
                )
            )
            session.commit()

    def close_session(self, id_hash: str) -> None:
        with self.store._session(write=True) as session:
            session.execute(delete(sessions_table).where(sessions_table.c.id_hash == id_hash))
            session.commit()

    def session_account(self, id_hash: str) -> Account | None:
        """The account a live (unexpired) session is signed in to; none for an account under a
        sanction (server/community/moderation.py: its sessions end with the sanction, and a session opened
        meanwhile by another process counts for nothing)."""
        with self.store._session() as session:
            row = session.execute(
                select(accounts_table, sessions_table.c.expires_at)
                .join(sessions_table, sessions_table.c.account_id == accounts_table.c.id)
                .where(sessions_table.c.id_hash == id_hash, ~sanctioned(accounts_table.c.id, _now()))
            ).first()
        if row is None or _utc(row.expires_at) <= datetime.now(UTC):
            return None
        return _account(row)

    # --- seats ----------------------------------------------------------------------------

    def bind_seat(self, account_id: int, game_id: str, seat: int) -> None:
        with self.store._session(write=True) as session:
            session.execute(
                delete(account_seats_table).where(
                    account_seats_table.c.account_id == account_id, account_seats_table.c.game_id == game_id
                )
            )
            try:
                session.execute(
                    account_seats_table.insert().values(
                        account_id=account_id, game_id=game_id, seat=seat, bound_at=_now()
                    )
                )
                session.commit()
            except IntegrityError:  # bound at once through another process: one binding stays
                session.rollback()

    def seat_in(self, account_id: int, game_id: str) -> int | None:
        with self.store._session() as session:
            seat: int | None = session.scalar(
                select(account_seats_table.c.seat).where(
                    account_seats_table.c.account_id == account_id, account_seats_table.c.game_id == game_id
                )
            )
        return seat

    def games_of(self, account_id: int, limit: int) -> list[AccountGame]:
        """The games where a seat was bound to the account, the most recently changed first, as
        stored (the caller checks that the seat is still the account's)."""
        with self.store._session() as session:
            rows = session.execute(
                select(
                    games_table.c.id,
                    games_table.c.seats,
                    games_table.c.ending,
                    games_table.c.winners,
                    games_table.c.updated_at,
                    account_seats_table.c.seat,
                )
                .join(account_seats_table, account_seats_table.c.game_id == games_table.c.id)
                .where(account_seats_table.c.account_id == account_id)
                .order_by(games_table.c.updated_at.desc())
                .limit(limit)
            ).all()
        return [AccountGame(r.id, r.seat, r.seats, r.ending, list(r.winners or []), _utc(r.updated_at)) for r in rows]
