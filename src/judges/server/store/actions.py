"""The store's action log: appending (one writer per action count), catching up, snapshots,
loading a game and listing the games."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from sqlalchemy.dialects.postgresql import Insert as PostgresInsert
    from sqlalchemy.dialects.sqlite import Insert as SQLiteInsert

from .base import (
    StoreBase,
    _action_record,
    _json_dumps,
    _now,
    _rowcount,
    _utc,
)
from .records import (
    Catchup,
    GameNotFound,
    GameSummary,
    GameVersion,
    SequenceConflict,
    StoredGame,
    StoredSnapshot,
    StoreError,
)
from .schema import (
    ActionRow,
    GameRow,
    SnapshotRow,
    actions_table,
    games_table,
    snapshots_table,
)

# What a summary of a stored seat leaves out: its secrets' hashes and the account binding's.
SEAT_SECRETS = frozenset({"token_hash", "account_for", "resume_hash"})


class ActionsStore(StoreBase):
    # --- actions --------------------------------------------------------------------------

    def append_action(
        self,
        game_id: str,
        seq: int,
        player: int,
        action: dict[str, Any],
        client_action_id: str | None = None,
        *,
        ending: str | None = None,
        winners: list[int] | None = None,
    ) -> bool:
        """Appends action number `seq` (0-based: the game's action count before it) and commits.
        `ending` (and `winners`): the game ended with this action, recorded in the same
        transaction, so a stored game whose last action ended it always says so.

        Returns False, storing nothing, if the game already has an action with this
        client_action_id (a retried request). Raises SequenceConflict (a StoreError) if `seq`
        is not the game's action count, GameNotFound if there is no such game."""
        if not isinstance(seq, int) or seq < 0:
            raise StoreError(f"seq must be a non-negative int, not {seq!r}")
        if not isinstance(action, dict):
            raise StoreError(f"an action is stored as a dict (action_to_dict), not {type(action).__name__}")
        if "player" in action and action["player"] != player:
            raise StoreError(f"player {player} does not match the action's player {action['player']}")
        now = _now()
        if not self.is_sqlite:
            return self._append_action_postgres(game_id, seq, player, action, client_action_id, now, ending, winners)
        values: dict[str, Any] = {"action_count": seq + 1, "updated_at": now}
        if ending is not None:
            values.update(ending=ending, winners=list(winners or []))
        try:
            with self._session(write=True, writer="action") as session:
                if client_action_id is not None and self._client_seq(session, game_id, client_action_id) is not None:
                    return False
                # advancing action_count first serializes writers of the game (row lock on PostgreSQL)
                advanced = _rowcount(
                    session.execute(
                        update(games_table)
                        .where(games_table.c.id == game_id, games_table.c.action_count == seq)
                        .values(**values)
                    )
                )
                if advanced != 1:
                    # PostgreSQL, READ COMMITTED: a concurrent writer may have committed meanwhile
                    if (
                        client_action_id is not None
                        and self._client_seq(session, game_id, client_action_id) is not None
                    ):
                        return False
                    count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
                    if count is None:
                        raise GameNotFound(game_id)
                    raise SequenceConflict(game_id, count, seq)
                session.execute(
                    actions_table.insert().values(
                        game_id=game_id,
                        seq=seq,
                        player=player,
                        action=action,
                        client_action_id=client_action_id,
                        created_at=now,
                    )
                )
                session.commit()
        except IntegrityError as exc:
            # the same client_action_id committed by a concurrent writer
            if client_action_id is not None and self.find_action_by_client_id(game_id, client_action_id) is not None:
                return False
            raise StoreError(f"game {game_id!r}: action {seq} could not be stored: {exc.orig}") from exc
        return True

    def _append_action_postgres(
        self,
        game_id: str,
        seq: int,
        player: int,
        action: dict[str, Any],
        client_action_id: str | None,
        now: datetime,
        ending: str | None,
        winners: list[int] | None,
    ) -> bool:
        """append_action on PostgreSQL: one statement, its own transaction (a server round trip
        and a fraction of the ORM's CPU: this is every action's commit). The UPDATE advances
        the action count under the game's row lock (a concurrent writer of the same `seq`
        waits, then finds the count moved and matches no row) unless the client's id is stored
        already; the INSERT adds the action only if the UPDATE matched. Nothing matched: a
        duplicate, a conflict or no game, told apart by reading (the rare path)."""
        sql = _APPEND_ENDING_SQL if ending is not None else _APPEND_SQL
        params = {
            "id": game_id,
            "seq": seq,
            "count": seq + 1,
            "now": now,
            "player": player,
            "action": _json_dumps(action),
            "cid": client_action_id,
            "ending": ending,
            "winners": _json_dumps(list(winners or [])),
        }
        try:
            inserted = self._run_append(sql, params)
        except IntegrityError as exc:
            # the same client_action_id committed by a concurrent writer
            if client_action_id is not None and self.find_action_by_client_id(game_id, client_action_id) is not None:
                return False
            raise StoreError(f"game {game_id!r}: action {seq} could not be stored: {exc.orig}") from exc
        if inserted == 1:
            return True
        with self._session() as session:
            if client_action_id is not None and self._client_seq(session, game_id, client_action_id) is not None:
                return False
            count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
        if count is None:
            raise GameNotFound(game_id)
        raise SequenceConflict(game_id, count, seq)

    def _run_append(self, sql: str, params: dict[str, Any]) -> int:
        """The append's statement on the actions' own pool (store/base.py): the rows it
        inserted. A connection found dead (the database restarted, an idle connection closed)
        invalidates the pool's older ones; the statement is then tried once more on a new
        connection. Trying again is safe: if the first had committed after all, the second
        matches no row (the count moved, or the client's id is stored) and the caller tells
        which it was."""
        for attempt in (1, 2):
            self.calls.count("action")
            try:
                with self.action_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                    return _rowcount(connection.exec_driver_sql(sql, params))
            except DBAPIError as exc:
                if attempt == 2 or not exc.connection_invalidated:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _client_seq(session: Session, game_id: str, client_action_id: str) -> int | None:
        return session.scalar(
            select(actions_table.c.seq).where(
                actions_table.c.game_id == game_id, actions_table.c.client_action_id == client_action_id
            )
        )

    def find_action_by_client_id(self, game_id: str, client_action_id: str) -> int | None:
        """The seq of the game's action with this client_action_id, or None."""
        with self._session() as session:
            return self._client_seq(session, game_id, client_action_id)

    def list_actions(self, game_id: str, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """Action records with start <= seq < stop, in seq order (see StoredGame.actions)."""
        with self._session() as session:
            query = select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq >= start)
            if stop is not None:
                query = query.where(ActionRow.seq < stop)
            return [_action_record(r) for r in session.scalars(query.order_by(ActionRow.seq))]

    def catch_up(self, game_id: str, start: int) -> Catchup:
        """What a copy of the game with `start` actions misses: the actions from `start` on and
        the current seats (one transaction, bounded by the action count it read)."""
        with self._session() as session:
            row = session.execute(
                select(games_table.c.action_count, games_table.c.seats, games_table.c.seats_version).where(
                    games_table.c.id == game_id
                )
            ).first()
            if row is None:
                raise GameNotFound(game_id)
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq >= start, ActionRow.seq < row.action_count)
                .order_by(ActionRow.seq)
            ).all()
            records = [_action_record(r) for r in rows]
        if [r["seq"] for r in records] != list(range(start, max(start, row.action_count))):
            raise StoreError(f"game {game_id!r}: the action log is not seq {start}..{row.action_count - 1}")
        return Catchup(row.action_count, row.seats, row.seats_version, records)

    def versions(self, game_ids: list[str]) -> dict[str, GameVersion]:
        """How far each of these games is (games that do not exist are left out)."""
        if not game_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(
                    games_table.c.id, games_table.c.action_count, games_table.c.seats_version, games_table.c.ending
                ).where(games_table.c.id.in_(game_ids))
            ).all()
        return {r.id: GameVersion(r.action_count, r.seats_version, r.ending) for r in rows}

    # --- snapshots ------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        """Stores the caller's snapshot of the game after `seq` actions (replacing one with the
        same seq). `seq` may not exceed the game's action count."""
        with self._session(write=True) as session:
            count = session.scalar(select(games_table.c.action_count).where(games_table.c.id == game_id))
            if count is None:
                raise GameNotFound(game_id)
            if not isinstance(seq, int) or not 0 <= seq <= count:
                raise StoreError(f"game {game_id!r} has {count} actions: no snapshot after {seq!r} actions")
            stmt: SQLiteInsert | PostgresInsert
            if self.is_sqlite:
                from sqlalchemy.dialects.sqlite import insert as sqlite_insert

                stmt = sqlite_insert(snapshots_table)
            else:
                from sqlalchemy.dialects.postgresql import insert as postgres_insert

                stmt = postgres_insert(snapshots_table)
            stmt = stmt.values(game_id=game_id, seq=seq, data=data)
            session.execute(
                stmt.on_conflict_do_update(index_elements=["game_id", "seq"], set_={"data": stmt.excluded.data})
            )
            session.commit()

    # --- reading --------------------------------------------------------------------------

    def load(self, game_id: str, all_actions: bool = False) -> StoredGame:
        """The game, its latest snapshot and the actions after it (and every action if asked).
        Raises GameNotFound (a KeyError too)."""
        with self._session() as session:
            game = session.get(GameRow, game_id)
            if game is None:
                raise GameNotFound(game_id)
            count = game.action_count
            # bounded by the count just read: consistent even while a writer appends
            snap = session.scalars(
                select(SnapshotRow)
                .where(SnapshotRow.game_id == game_id, SnapshotRow.seq <= count)
                .order_by(SnapshotRow.seq.desc())
                .limit(1)
            ).first()
            start = 0 if all_actions or snap is None else snap.seq
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq >= start, ActionRow.seq < count)
                .order_by(ActionRow.seq)
            ).all()
            records = [_action_record(r) for r in rows]
            if [r["seq"] for r in records] != list(range(start, count)):
                raise StoreError(f"game {game_id!r}: the action log is not seq {start}..{count - 1}")
            after = snap.seq if snap is not None else 0
            return StoredGame(
                id=game.id,
                options=game.options,
                seed=game.seed,
                rules_version=game.rules_version,
                seats=game.seats,
                action_count=count,
                ending=game.ending,
                winners=game.winners,
                created_at=_utc(game.created_at),
                updated_at=_utc(game.updated_at),
                snapshot=StoredSnapshot(snap.seq, snap.data) if snap is not None else None,
                actions=records[after - start :],
                all_actions=records if all_actions else None,
                seats_version=game.seats_version,
            )

    def list_games(self) -> list[GameSummary]:
        """Every game, the most recently changed first (seats without their token hashes)."""
        with self._session() as session:
            rows = session.scalars(select(GameRow).order_by(GameRow.updated_at.desc(), GameRow.id)).all()
            return [
                GameSummary(
                    id=g.id,
                    created_at=_utc(g.created_at),
                    updated_at=_utc(g.updated_at),
                    options=g.options,
                    rules_version=g.rules_version,
                    seats=[
                        {k: v for k, v in s.items() if k not in ("token_hash", "account_for", "resume_hash")}
                        for s in g.seats
                    ],
                    action_count=g.action_count,
                    ending=g.ending,
                    winners=g.winners,
                )
                for g in rows
            ]


# append_action on PostgreSQL (see _append_action_postgres), with or without the game's ending.
_APPEND_TEMPLATE = """
WITH advanced AS (
    UPDATE games SET action_count = %(count)s, updated_at = %(now)s{ending}
    WHERE id = %(id)s AND action_count = %(seq)s AND NOT EXISTS (
        SELECT 1 FROM actions WHERE game_id = %(id)s AND client_action_id = %(cid)s
    )
    RETURNING id
)
INSERT INTO actions (game_id, seq, player, action, client_action_id, created_at)
SELECT id, %(seq)s, %(player)s, %(action)s, %(cid)s, %(now)s FROM advanced
"""
_APPEND_SQL = _APPEND_TEMPLATE.format(ending="")
_APPEND_ENDING_SQL = _APPEND_TEMPLATE.format(ending=", ending = %(ending)s, winners = %(winners)s")
