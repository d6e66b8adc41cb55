"""What every game's wire view holds alike, and what the table core asks of a game's view
builder (`GameViews`, a table kit's `views`: server/games/registry.py).

The table core builds none of a game's view: it hands the builder the table's options
(`Table`) and each seat's deadline, and receives the view's parts as bytes (each top-level
field a part, each field of `state` a part named "state.<field>": server/table/updates.py
sends a full view, then the parts whose bytes changed). The seats, the table's options, a
seat's sanction and a rendered notification (`Note`) are the same types in every game's view.

    views = live.kit.views
    public = views.public(live, table, max_notifications, deadlines, now, previous)   # once per version
    views.parts(live, public, seat, language, seat_events)  # seat None: a spectator
    views.notes(live, seat, after, limit)                   # the game's notifications, the latest id
    views.render_notes(live, notes, language)               # rendered (the core keeps their bytes)
    views.latest_note(live)
    views.payload(live, language, table, ...)   # the view of no seat as one object
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import msgspec
from msgspec import Struct

encode = msgspec.json.Encoder().encode


class Seat(Struct, kw_only=True):
    """A seat of the table as every seat sees it."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    bot: str | None
    away: bool  # a bot plays it while its player is away (server/table/seats.py)
    host: bool
    chat_closed: bool  # by the host (server/community/chat.py)
    hints: int  # hints its player asked for (server/advice/hints.py)
    # When the decision it owes passes to the takeover bot, on the server's clock (seconds since
    # the epoch; the view's `server_time` is that clock when the view was made): the turn timer
    # of a live table, the deadline of a paced one; None when it owes none or no clock runs.
    deadline: float | None


def seats_of(stored: list[dict[str, Any]], deadlines: dict[int, float]) -> list[Seat]:
    """The table's seats as stored (`LiveGame.seats`), with each one's deadline, as every
    seat sees them: the same for every game."""
    return [
        Seat(
            seat=i,
            name=s["name"],
            kind=s["kind"],
            bot=s["bot"],
            away=bool(s.get("away")),
            host=bool(s.get("host")),
            chat_closed=bool(s.get("chat_closed")),
            hints=s.get("hints", 0),
            deadline=deadlines.get(i),
        )
        for i, s in enumerate(stored)
    ]


class Table(Struct, kw_only=True):
    """The table's options: after how long a bot plays an idle seat (a live table's turn timer
    in seconds, or a paced table's hours per decision), which bot, and hints."""

    turn_timer: float | None
    pace_hours: float | None = None
    takeover_bot: str
    hints: bool


class Sanction(Struct, kw_only=True):
    """The seat's account is banned or suspended (server/community/moderation.py): the takeover bot holds
    the seat, and its player cannot take it back, until the sanction ends or is lifted."""

    kind: str | None  # "ban" or "suspend" (None: a seat marked before the kind was recorded)
    until: float | None  # a suspension's end, on the server's clock (seconds since the epoch)


class Note(Struct, kw_only=True):
    """A notification (the engine's, or a seat's event) rendered in the reader's language."""

    id: int
    round: int
    phase: str
    key: str
    title: str
    lines: list[str]
    params: dict[str, Any]
    chapter: str | None
    after: int  # the actions before it: where it stands in the log


def note_of(data: dict[str, Any], text: dict[str, Any], chapter: str | None) -> Note:
    """A notification's data (as `msgspec.to_builtins` gives it, or a seat's event) with its
    words (`text`: its title and lines in the reader's language) and the manual's chapter."""
    return Note(
        id=data["id"],
        round=data["round"],
        phase=data["phase"],
        key=data["key"],
        title=text["title"],
        lines=text["lines"],
        params=data["params"],
        chapter=chapter,
        after=data.get("after", 0),
    )


def table_of(live: Any, turn_timer: float | None) -> Table:
    """The table's options (`live`: a LiveGame) as every seat's view shows them."""
    return Table(turn_timer=turn_timer, pace_hours=live.pace_hours, takeover_bot=live.takeover_bot, hints=live.hints)


def sanctions(seats: list[dict[str, Any]], now: float) -> dict[int, Sanction]:
    """The seats whose account's sanction holds them (server/community/moderation.py marks them), but for
    a suspension ended by `now`: its player may take the seat back."""
    out = {}
    for i, s in enumerate(seats):
        mark = s.get("sanctioned")
        if not mark:
            continue
        kind, until = (mark.get("kind"), mark.get("until")) if isinstance(mark, dict) else (None, None)
        if until is None or until > now:
            out[i] = Sanction(kind=kind, until=until)
    return out


def ended_early(seats: list[dict[str, Any]]) -> str | None:
    """How a game ended before its rules ended it, as the seats record it: "closed" (an operator
    closed the table, server/community/moderation.py), "abandoned" (server/community/paces.py), or None."""
    if any(s.get("closed") for s in seats):
        return "closed"
    if any(s.get("abandoned") for s in seats):
        return "abandoned"
    return None


class GameViews(Protocol):
    """A game's view builder: what a seat and a spectator receive, built from a table (`live`:
    a LiveGame) under its lock. A seat's view never holds what the seat may not see."""

    def public(
        self,
        live: Any,
        table: Table,
        max_notifications: int,
        deadlines: dict[int, float],
        now: float,
        previous: Mapping[str, bytes] | None = None,
    ) -> Any:
        """The table at its current version as every seat shares it (built once per version);
        `deadlines`: when each seat's owed decision passes to a bot, on the server's clock `now`.
        `previous`: the parts its sockets last received; a part whose bytes are the same is
        given as that object (a delta compares the parts by identity first)."""

    def parts(
        self, live: Any, public: Any, seat: int | None, language: str, seat_events: list[dict[str, Any]]
    ) -> dict[str, bytes]:
        """The view of `seat` (None: a spectator) in `language` as the live updates send it: each
        part's bytes, in the view's order. `seat_events`: the seats' events as notifications
        (server/table/views.py, `seat_events`), for the builder to render as `Note`s."""

    def notes(self, live: Any, seat: int | None, after: int, limit: int) -> tuple[list[Any], int]:
        """The notifications `seat` (None: a spectator) may read after id `after` (the latest
        `limit`), as the game holds them, and the latest id. A notification object is never
        changed once posted: the table core keeps its rendered bytes for as long as it is the
        same object (server/table/views.py)."""

    def render_notes(self, live: Any, notes: list[Any], language: str) -> list[Any]:
        """Some of `notes`' notifications, in their order, rendered in `language`: each
        encodable (`encode`)."""

    def posted(self, live: Any) -> list[Any]:
        """Every notification the table holds now (what a kept rendering may still be of)."""

    def latest_note(self, live: Any) -> int:
        """The id of the table's latest notification (-1 before the first)."""

    def payload(
        self,
        live: Any,
        language: str,
        table: Table,
        max_notifications: int,
        deadlines: dict[int, float],
        now: float,
        game: Any = None,
        reveal: bool = False,
    ) -> Any:
        """The view of no seat as one object, encodable (`encode`): GET .../spectate's answer
        and a replay's view (`game`: the engine's game at the replay's step, `reveal`: every
        hand shown), with the notifications every player may read."""
