"""The store's table talk (server/community/chat.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    pass

from .base import (
    StoreBase,
    _chat_record,
    _now,
)
from .records import (
    GameNotFound,
    StoreError,
)
from .schema import (
    ChatRow,
    games_table,
)


class ChatStore(StoreBase):
    # --- chat (server/community/chat.py) --------------------------------------------------------------

    def append_chat(
        self,
        game_id: str,
        channel: str,
        sender: int,
        name: str,
        text: str,
        client_message_id: str | None = None,
        account: int | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Stores a chat message under the next id of the game (its row lock orders the writers
        of every process) and commits. Returns (the message's record, False); with a
        client_message_id already stored, (that message's record, True) and stores nothing.
        Raises GameNotFound."""
        try:
            with self._session(write=True) as session:
                if client_message_id is not None:
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                    if known is not None:
                        return known, True
                number: int | None = session.scalar(
                    update(games_table)
                    .where(games_table.c.id == game_id)
                    .values(chat_count=games_table.c.chat_count + 1)
                    .returning(games_table.c.chat_count)
                )
                if number is None:
                    raise GameNotFound(game_id)
                if client_message_id is not None:  # committed meanwhile (PostgreSQL, READ COMMITTED)
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                    if known is not None:
                        return known, True
                row = ChatRow(
                    game_id=game_id,
                    id=number,
                    channel=channel,
                    sender=sender,
                    name=name,
                    text=text,
                    client_message_id=client_message_id,
                    created_at=_now(),
                    account_id=account,
                )
                session.add(row)
                session.commit()
                return _chat_record(row), False
        except IntegrityError as exc:
            if client_message_id is not None:
                with self._session() as session:
                    known = self._chat_by_client_id(session, game_id, client_message_id)
                if known is not None:
                    return known, True
            raise StoreError(f"game {game_id!r}: a chat message could not be stored: {exc.orig}") from exc

    @staticmethod
    def _chat_by_client_id(session: Session, game_id: str, client_message_id: str) -> dict[str, Any] | None:
        row = session.scalars(
            select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.client_message_id == client_message_id)
        ).first()
        return _chat_record(row) if row is not None else None

    def list_chat(self, game_id: str, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The game's chat messages with id > `after`, in id order (the latest `limit` if given)."""
        with self._session() as session:
            query = select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.id > after)
            if limit is not None:
                rows = list(session.scalars(query.order_by(ChatRow.id.desc()).limit(limit)))
                rows.reverse()
            else:
                rows = list(session.scalars(query.order_by(ChatRow.id)))
            return [_chat_record(r) for r in rows]

    def chat_counts(self, game_ids: list[str]) -> dict[str, int]:
        """How many chat messages each of these games has (games that do not exist are left out)."""
        if not game_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(games_table.c.id, games_table.c.chat_count).where(games_table.c.id.in_(game_ids))
            ).all()
        return {r.id: r.chat_count for r in rows}
