"""*Judges & Kings*' view builder (server/table/envelope.py, `GameViews`): a seat's view and a
spectator's from its wire view (wire.py), its notifications (the engine's, each addressed to
some seats), its log in words, and the view of no seat as one object (the spectate route, a
replay's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from ....engine import Game
from ....engine.state import Notification
from . import wire


def for_everyone(n: Notification, players: int) -> bool:
    """Whether a notification is addressed to every player: what a spectator may read."""
    return set(range(players)) <= set(n.to)


def public_notifications(game: Game, language: str, names: dict[int, str], since: int = -1) -> list[wire.Note]:
    """The notifications addressed to every player (what a spectator may read), rendered."""
    players = len(game.state.players)
    return [
        wire.note(msgspec.to_builtins(n), language, game, names)
        for n in game.notifications
        if n.id > since and for_everyone(n, players)
    ]


class JudgesViews:
    """*Judges & Kings*' `GameViews`: `live` is a LiveGame whose `game` is the engine's Game."""

    def public(
        self,
        live: Any,
        table: wire.Table,
        max_notifications: int,
        deadlines: dict[int, float],
        now: float,
        previous: Mapping[str, bytes] | None = None,
    ) -> wire.Public:
        return wire.public(
            live.id,
            live.game,
            live.seats,
            table,
            max_notifications,
            labels=live.labels,
            deadlines=deadlines,
            now=now,
            previous=previous,
        )

    def parts(
        self, live: Any, public: wire.Public, seat: int | None, language: str, seat_events: list[dict[str, Any]]
    ) -> dict[str, bytes]:
        if seat is None:
            return wire.parts(wire.view(public, None, language), public)
        names = live.names()
        events = [wire.note(n, language, live.game, names) for n in seat_events]
        return wire.parts(wire.view(public, seat, language, seat_events=events), public)

    def notes(self, live: Any, seat: int | None, after: int, limit: int) -> tuple[list[Any], int]:
        """The engine's notifications addressed to `seat` (a spectator: to every player)."""
        game = live.game
        notes: list[Notification] = []
        players = len(game.state.players)
        for n in reversed(game.notifications):
            if n.id <= after or len(notes) == limit:
                break
            if for_everyone(n, players) if seat is None else seat in n.to:
                notes.append(n)
        notes.reverse()
        latest = game.notifications[-1].id if game.notifications else after
        return notes, max(after, latest)

    def render_notes(self, live: Any, notes: list[Notification], language: str) -> list[wire.Note]:
        names = live.names()
        return [wire.note(msgspec.to_builtins(n), language, live.game, names) for n in notes]

    def posted(self, live: Any) -> list[Any]:
        notifications: list[Any] = live.game.notifications
        return notifications

    def latest_note(self, live: Any) -> int:
        return live.game.notifications[-1].id if live.game.notifications else -1

    def payload(
        self,
        live: Any,
        language: str,
        table: wire.Table,
        max_notifications: int,
        deadlines: dict[int, float],
        now: float,
        game: Any = None,
        reveal: bool = False,
    ) -> wire.View:
        """The view of no seat as one object: the public state (every hand hidden, no ballot),
        who we wait for, the scores, every notification addressed to every player; `game` (a
        replay's position, else the table's) with `reveal`: the whole state."""
        game = game or live.game
        public = wire.public(
            live.id, game, live.seats, table, max_notifications, reveal=reveal, deadlines=deadlines, now=now
        )
        notes = public_notifications(game, language, live.names())
        return wire.view(public, None, language, notifications=notes, version=len(game.log))
