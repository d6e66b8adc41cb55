"""*Republic of Rome*'s view builder (`RomeViews`, a `GameViews`: server/table/envelope.py): the
table's envelope — its seats and options, who owes what, the seat's decisions and legal actions as
the game's codec writes them, the dice's commitment — around the game's own view
(`ServedGame.seat_view` / `spectator_view`: hidden information removed by the engine). Each
top-level field is a part, and each field of the game's view a part of `state`
(server/table/updates.py sends a full view, then the parts whose bytes changed: the same deltas as
*Judges & Kings*' wire view). The game's report lines are the view's notifications, rendered from
their message keys in the reader's language; the report is not repeated in `state`.

    {"game": "rome", "game_id", "seq", "progress", "waiting_for", "pending": [{"seat", "kind"}],
     "dice": {"generator", "commitment", "seed"}, "seats", "table", "ending", "winners",
     "max_notifications", "server_time", "seat", "my_decisions", "legal_actions", "sanction",
     "language", "seat_events", "state": {...the game's view}, "version", "notifications"}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ....engine.dice import seed_text
from ....i18n import render_notification
from ...table.envelope import Note, Sanction, Table, encode, ended_early, note_of, sanctions, seats_of
from ...table.updates import STATE_PREFIX

#: the game view's field the notifications carry (not repeated in `state`)
REPORT = "report"


@dataclass(eq=False)
class Public:
    """One version of the table as every seat shares it: the envelope's shared fields, the
    spectators' view of the game, and the bytes of the shared parts encoded so far."""

    shared: dict[str, Any]  # the envelope's parts every seat shares, in the view's order
    spectator: dict[str, Any]  # the game's view of no seat
    ended: str | None
    sanctions: dict[int, Sanction]
    encoded: dict[str, bytes] = field(default_factory=dict)
    # A view's parts at an earlier version (the sockets' last): a shared part encoded to the same
    # bytes is that object, so that the next delta finds it unchanged by identity.
    previous: Mapping[str, bytes] = field(default_factory=dict)


def public(
    live: Any,
    table: Table,
    max_notifications: int,
    deadlines: dict[int, float],
    now: float,
    previous: Mapping[str, bytes] | None = None,
) -> Public:
    """The table at its current version as every seat shares it (`live`: a LiveGame); `previous`:
    a view's parts at an earlier version, whose bytes the shared parts equal to them reuse."""
    played, served = live.played, live.served
    ended = ended_early(live.seats)
    deadlines = deadlines if ended is None else {}
    outcome = played.outcome()
    options = live.game.state.options
    over = played.is_over
    waiting = [] if ended is not None else played.to_move()
    shared = {
        "game": served.name,
        "game_id": live.id,
        "seq": len(live.game.log),
        "progress": played.progress,
        "waiting_for": waiting,
        "pending": [] if ended is not None else [{"seat": o.seat, "kind": o.kind} for o in played.owed()],
        "dice": {
            "generator": options.dice,
            "commitment": served.commitment(played),
            "seed": seed_text(options) if over else None,  # revealed once the game is over
        },
        "seats": seats_of(live.seats, deadlines),
        "table": table,
        "ending": ended if ended is not None else (outcome.ending if outcome is not None else None),
        "winners": list(outcome.winners) if outcome is not None else [],
        "max_notifications": max_notifications,
        "server_time": now,
    }
    return Public(
        shared=shared,
        spectator=served.spectator_view(played),
        ended=ended,
        sanctions=sanctions(live.seats, now),
        previous=previous if previous is not None else {},
    )


def _shared(pub: Public, key: str, value: Any) -> bytes:
    data = pub.encoded.get(key)
    if data is None:
        data = encode(value)
        before = pub.previous.get(key)
        pub.encoded[key] = data = before if before is not None and before == data else data
    return data


def parts(
    live: Any, pub: Public, seat: int | None, language: str, seat_events: list[Note] | None = None
) -> dict[str, bytes]:
    """The view of `seat` (None: a spectator) in `language` as the live updates send it: each
    part's bytes; what every seat shares is encoded once per version."""
    out = {name: _shared(pub, name, value) for name, value in pub.shared.items()}
    played = live.played
    if seat is None or pub.ended is not None:
        mine, legal = [], []
    else:
        mine = [o.kind for o in played.owed() if o.seat == seat]
        legal = [live.kit.action_to_dict(a) for a in played.legal_actions(seat)] if mine else []
    out["seat"] = encode(seat)
    out["my_decisions"] = encode(mine)
    out["legal_actions"] = encode(legal)
    out["sanction"] = encode(None if seat is None else pub.sanctions.get(seat))
    out["language"] = encode(language)
    out["seat_events"] = encode(seat_events or [])
    if seat is None:
        for name, value in pub.spectator.items():
            if name != REPORT:
                out[STATE_PREFIX + name] = _shared(pub, STATE_PREFIX + name, value)
    else:
        view = live.served.seat_view(played, seat)
        for name, value in view.items():
            if name == REPORT:
                continue
            # a field the seat sees as a spectator does shares the spectators' bytes
            same = pub.spectator.get(name)
            key = STATE_PREFIX + name
            out[key] = _shared(pub, key, value) if same == value else encode(value)
    return out


def latest_note(live: Any) -> int:
    """The id of the game's latest report line (its index), -1 before the first."""
    return len(live.game.state.report) - 1


def notes(live: Any, language: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The game's report lines after id `after` (the latest `limit`), rendered from their message
    keys in `language` (the game's default language if it has not this one) as its log renders
    them (`TableKit.log`: a faction by its seat's name), and the latest id. The report is public:
    every seat and spectator reads the same lines."""
    report = live.game.state.report
    start = max(after + 1, len(report) - limit, 0)
    lines = live.kit.log(live.game, live.names(), language, start - 1)["entries"]
    out = [{"id": e["seq"], "key": e["key"], "params": e["params"], "text": e["text"]} for e in lines]
    return out, max(after, len(report) - 1)


def seat_event(data: dict[str, Any], language: str, names: dict[int, str]) -> Note:
    """A seat's event (server/table/views.py, `seat_events`) rendered: the server's own words."""
    text = render_notification(data, language, None, names)
    return note_of(data, text, None)


class RomeViews:
    """*Republic of Rome*'s `GameViews`: the envelope around the game's own view, its report
    lines as notifications; no log in words (the game has no "action_log" capability)."""

    def public(
        self,
        live: Any,
        table: Table,
        max_notifications: int,
        deadlines: dict[int, float],
        now: float,
        previous: Mapping[str, bytes] | None = None,
    ) -> Public:
        return public(live, table, max_notifications, deadlines, now, previous)

    def parts(
        self, live: Any, pub: Public, seat: int | None, language: str, seat_events: list[dict[str, Any]]
    ) -> dict[str, bytes]:
        if seat is None:
            return parts(live, pub, None, language)
        names = live.names()
        return parts(live, pub, seat, language, [seat_event(n, language, names) for n in seat_events])

    def notes(self, live: Any, seat: int | None, after: int, limit: int) -> tuple[list[Any], int]:
        """The report's lines after id `after` (their index), each as (index, line): the report
        is public, the same for every seat."""
        report = live.game.state.report
        start = max(after + 1, len(report) - limit, 0)
        return list(enumerate(report[start:], start)), max(after, len(report) - 1)

    def render_notes(self, live: Any, notes: list[tuple[int, Any]], language: str) -> list[dict[str, Any]]:
        """The lines as the log renders them (`TableKit.log`), each under its index as `id`."""
        if not notes:
            return []
        wanted = {i for i, _ in notes}
        entries = live.kit.log(live.game, live.names(), language, notes[0][0] - 1)["entries"]
        return [
            {"id": e["seq"], "key": e["key"], "params": e["params"], "text": e["text"]}
            for e in entries
            if e["seq"] in wanted
        ]

    def posted(self, live: Any) -> list[Any]:
        return []  # a line's (index, line) pair is made afresh at each read: none is kept

    def latest_note(self, live: Any) -> int:
        return latest_note(live)

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
    ) -> dict[str, Any]:
        """The view of no seat as one object, with the latest report lines (`game` and `reveal`
        are a replay's: the game has none)."""
        pub = public(live, table, max_notifications, deadlines, now)
        lines, _ = notes(live, language, -1, max_notifications)
        seen = parts(live, pub, None, language)
        return {
            **{k: msgspec.json.decode(v) for k, v in seen.items() if not k.startswith(STATE_PREFIX)},
            "state": {k: v for k, v in pub.spectator.items() if k != REPORT},
            "version": len(live.game.log),
            "notifications": lines,
        }
