"""The wire view of a table whose game brings no screen module of its own to the server
(*Republic of Rome*): the table's envelope — its seats and options, who owes what, the seat's
decisions and legal actions as the game's codec writes them, the dice's commitment — around the
game's own view (`ServedGame.seat_view` / `spectator_view`: hidden information removed by the
engine). Each top-level field is a part, and each field of the game's view a part of `state`
(server/table/updates.py sends a full view, then the parts whose bytes changed: the same deltas as
*Judges & Kings*' wire view). The game's report lines are the view's notifications, rendered
from their message keys in the reader's language; the report is not repeated in `state`.

    {"game": "rome", "game_id", "seq", "progress", "waiting_for", "pending": [{"seat", "kind"}],
     "dice": {"generator", "commitment", "seed"}, "seats", "table", "ending", "winners",
     "max_notifications", "server_time", "seat", "my_decisions", "legal_actions", "sanction",
     "language", "seat_events", "state": {...the game's view}, "version", "notifications"}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from ...engine.dice import seed_text
from ...i18n import render_notification
from ..games.judges import wire
from .updates import STATE_PREFIX

encode = msgspec.json.Encoder().encode
#: the game view's field the notifications carry (not repeated in `state`)
REPORT = "report"


@dataclass(eq=False)
class Public:
    """One version of the table as every seat shares it: the envelope's shared fields, the
    spectators' view of the game, and the bytes of the shared parts encoded so far."""

    shared: dict[str, Any]  # the envelope's parts every seat shares, in the view's order
    spectator: dict[str, Any]  # the game's view of no seat
    ended: str | None
    sanctions: dict[int, wire.Sanction]
    encoded: dict[str, bytes] = field(default_factory=dict)


def public(live: Any, table: wire.Table, max_notifications: int, deadlines: dict[int, float], now: float) -> Public:
    """The table at its current version as every seat shares it (`live`: a LiveGame)."""
    played, served = live.played, live.served
    ended = wire.ended_early(live.seats)
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
        "seats": wire.seats_of(live.seats, deadlines),
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
        sanctions=wire.sanctions(live.seats, now),
    )


def _shared(pub: Public, key: str, value: Any) -> bytes:
    data = pub.encoded.get(key)
    if data is None:
        data = pub.encoded[key] = encode(value)
    return data


def parts(
    live: Any, pub: Public, seat: int | None, language: str, seat_events: list[wire.Note] | None = None
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


def seat_event(data: dict[str, Any], language: str, names: dict[int, str]) -> wire.Note:
    """A seat's event (server/table/views.py, `seat_events`) rendered: the server's own words."""
    text = render_notification(data, language, None, names)
    return wire.Note(
        id=data["id"],
        round=data["round"],
        phase=data["phase"],
        key=data["key"],
        title=text["title"],
        lines=text["lines"],
        params=data["params"],
        chapter=None,
        after=data.get("after", 0),
    )
