"""The store's games: creating, seating, ending and deleting them, and the bots' lease."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    delete,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

if TYPE_CHECKING:
    from sqlalchemy.dialects.postgresql import Insert as PostgresInsert
    from sqlalchemy.dialects.sqlite import Insert as SQLiteInsert

from .base import (
    StoreBase,
    _now,
    _rowcount,
)
from .records import (
    SEAT_KINDS,
    GameExists,
    GameNotFound,
    SeatTable,
    StoreError,
)
from .schema import (
    GameRow,
    account_seats_table,
    actions_table,
    chat_table,
    games_table,
    presence_table,
    snapshots_table,
)


class GamesStore(StoreBase):
    # --- games ----------------------------------------------------------------------------

    def create_game(
        self, game_id: str, options: dict[str, Any], seed: int, rules_version: int, seats: list[dict[str, Any]]
    ) -> None:
        """Stores a new game with no actions. Raises GameExists if the id is taken."""
        if not isinstance(game_id, str) or not game_id:
            raise StoreError(f"a game id must be a non-empty string, not {game_id!r}")
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
                raise StoreError(f"seat {i}: a seat is a dict whose kind is one of {SEAT_KINDS}, not {seat!r}")
        now = _now()
        row = GameRow(
            id=game_id,
            created_at=now,
            updated_at=now,
            options=dict(options),
            seed=int(seed),
            rules_version=int(rules_version),
            seats=[dict(s) for s in seats],
            action_count=0,
            ending=None,
            winners=[],
        )
        with self._session(write=True) as session:
            session.add(row)
            try:
                session.commit()
            except IntegrityError as exc:  # the id is taken: the primary key refuses it (no SELECT first)
                raise GameExists(game_id) from exc

    def set_result(self, game_id: str, ending: str | None, winners: list[int]) -> None:
        """Records how the game ended."""
        with self._session(write=True) as session:
            result = session.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(ending=ending, winners=list(winners), updated_at=_now())
            )
            if _rowcount(result) != 1:
                raise GameNotFound(game_id)
            session.commit()

    def set_seats(self, game_id: str, seats: list[dict[str, Any]]) -> int:
        """Replaces the seats (a seat handed to a bot and back, its history); returns the new
        seats_version. Several processes changing seats use update_seat instead."""
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
                raise StoreError(f"seat {i}: a seat is a dict whose kind is one of {SEAT_KINDS}, not {seat!r}")
        with self._session(write=True) as session:
            version: int | None = session.scalar(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(
                    seats=[dict(s) for s in seats], seats_version=games_table.c.seats_version + 1, updated_at=_now()
                )
                .returning(games_table.c.seats_version)
            )
            if version is None:
                raise GameNotFound(game_id)
            session.commit()
        return version

    def update_seat(
        self,
        game_id: str,
        seat: int,
        change: Callable[..., bool],
        *,
        table: bool = False,
        quiet: bool = False,
        writer: str = "seat",
    ) -> tuple[list[dict[str, Any]], int]:
        """Changes one seat in place, reading and writing the stored seats in one transaction
        under the game's row lock, so that a change made by another process is never
        overwritten. `change(seat_dict)` returns whether it changed anything; with `table`,
        `change(seat_dict, SeatTable)`: it also reads every stored seat and the game's chat
        count as they are under the same lock (a chat message is stored under it too). A
        `quiet` change is one no other process needs to hear of (a player's last sign of
        life): the seats version does not move. Returns the stored seats and seats_version
        (unchanged if nothing changed, or quietly). `writer`: whose call it is (DbCalls)."""
        with self._session(write=True, writer=writer) as session:
            row = session.execute(
                select(games_table.c.seats, games_table.c.seats_version, games_table.c.chat_count)
                .where(games_table.c.id == game_id)
                .with_for_update()
            ).first()
            if row is None:
                raise GameNotFound(game_id)
            seats, version = [dict(s) for s in row.seats], row.seats_version
            if not 0 <= seat < len(seats):
                raise StoreError(f"game {game_id!r} has no seat {seat}")
            if table:  # every seat's player's latest sign of life (store_presence)
                presence = session.execute(
                    select(presence_table.c.seat, presence_table.c.token_hash, presence_table.c.seen).where(
                        presence_table.c.game_id == game_id
                    )
                ).all()
                for sign in presence:
                    if 0 <= sign.seat < len(seats):
                        info = seats[sign.seat]
                        if info.get("token_hash") == sign.token_hash and sign.seen > float(info.get("seen", 0.0)):
                            info["seen"] = sign.seen
            if not (change(seats[seat], SeatTable(seats, row.chat_count)) if table else change(seats[seat])):
                return seats, version
            if not quiet:
                version += 1
            session.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(seats=seats, seats_version=version, updated_at=_now())
            )
            session.commit()
        return seats, version

    def store_presence(self, signs: list[tuple[str, int, str, float]]) -> None:
        """Stores the players' signs of life, (game id, seat, the credential's hash, when), in
        one transaction of one statement: each seat keeps its latest. A table of its own
        (`seat_presence`): no game's row is locked, so no action's commit waits for it. What
        a change with `table` (update_seat) reads as the seat's `seen`, if its credential is
        still the seat's."""
        if not signs:
            return
        latest: dict[tuple[str, int], tuple[str, float]] = {}
        for game_id, seat, token_hash, seen in signs:
            if (game_id, seat) not in latest or latest[game_id, seat][1] < seen:
                latest[game_id, seat] = (token_hash, seen)
        # in key order: two processes' batches lock the rows they share in the same order
        rows = [
            {"game_id": game_id, "seat": seat, "token_hash": token_hash, "seen": seen}
            for (game_id, seat), (token_hash, seen) in sorted(latest.items())
        ]
        stmt: SQLiteInsert | PostgresInsert
        if self.is_sqlite:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            stmt = sqlite_insert(presence_table)
        else:
            from sqlalchemy.dialects.postgresql import insert as postgres_insert

            stmt = postgres_insert(presence_table)
        stmt = stmt.on_conflict_do_update(
            index_elements=["game_id", "seat"],
            set_={"token_hash": stmt.excluded.token_hash, "seen": stmt.excluded.seen},
            where=presence_table.c.seen < stmt.excluded.seen,
        )
        with self._session(write=True, writer="presence") as session:
            session.execute(stmt, rows)
            session.commit()

    def delete_game(self, game_id: str) -> bool:
        """Deletes a game with its actions and snapshots; False if there was no such game."""
        with self._session(write=True) as session:
            session.execute(delete(snapshots_table).where(snapshots_table.c.game_id == game_id))
            session.execute(delete(chat_table).where(chat_table.c.game_id == game_id))
            session.execute(delete(presence_table).where(presence_table.c.game_id == game_id))
            session.execute(delete(account_seats_table).where(account_seats_table.c.game_id == game_id))
            session.execute(delete(actions_table).where(actions_table.c.game_id == game_id))
            deleted = _rowcount(session.execute(delete(games_table).where(games_table.c.id == game_id)))
            session.commit()
        return deleted == 1

    # --- the bots' lease -------------------------------------------------------------------

    def take_bot_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Makes `holder` the process that plays the game's bots for the next `seconds`, if
        nobody else holds an unexpired lease (a holder renews its own). True if it holds it.
        The expiry is the writer's clock: the processes' clocks must agree (NTP) to well
        within the lease."""
        return game_id in self.take_bot_leases([game_id], holder, seconds)

    def take_bot_leases(self, game_ids: list[str], holder: str, seconds: float) -> set[str]:
        """take_bot_lease for several games in one statement (a process renews the leases it
        holds together): the games whose lease `holder` holds now."""
        if not game_ids:
            return set()
        now = time.time()
        with self._session(write=True, writer="lease") as session:
            taken = session.scalars(
                update(games_table)
                .where(
                    games_table.c.id.in_(sorted(set(game_ids))),
                    or_(
                        games_table.c.bot_holder.is_(None),
                        games_table.c.bot_holder == holder,
                        games_table.c.bot_lease_until < now,
                    ),
                )
                .values(bot_holder=holder, bot_lease_until=now + seconds)
                .returning(games_table.c.id)
            ).all()
            session.commit()
        return set(taken)

    def release_bot_lease(self, game_id: str, holder: str) -> None:
        """Gives the lease up (if `holder` has it), so that another process need not wait."""
        with self._session(write=True, writer="lease") as session:
            session.execute(
                update(games_table)
                .where(games_table.c.id == game_id, games_table.c.bot_holder == holder)
                .values(bot_holder=None, bot_lease_until=0.0)
            )
            session.commit()

    def bot_lease(self, game_id: str) -> tuple[str | None, float]:
        """(holder, expiry in seconds since the epoch) of the game's bots' lease."""
        with self._session() as session:
            row = session.execute(
                select(games_table.c.bot_holder, games_table.c.bot_lease_until).where(games_table.c.id == game_id)
            ).first()
        if row is None:
            raise GameNotFound(game_id)
        return row.bot_holder, row.bot_lease_until
