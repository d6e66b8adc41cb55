"""What a seat receives, built from its table (`Views`): the parts every seat shares, each
seat's own, its notifications and the seats' events, encoded once (server/table/updates.py). The one
place the typed view becomes JSON (`encode_payload`)."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import msgspec

from ...engine import Game
from ...engine.state import Notification
from ..errors import StoreUnavailable
from ..games.judges import wire
from ..limits import DEFAULT_LIMITS, Limits
from . import served_wire, updates
from .played import DEFAULT_GAME
from .tables import SPECTATOR, LiveGame, deadlines

SEAT_EVENT_IDS = 1_000_000_000  # ids of the server's seat-takeover notifications start here


def encode_payload(payload: dict) -> bytes:
    """A payload as the JSON a client receives: the one place the typed view becomes JSON."""
    return _json_encoder.encode(payload)


_json_encoder = msgspec.json.Encoder()


# The tables whose rendered notifications a process keeps (the latest read), and how many
# notifications one table's keeps before it drops those no longer in its game.
NOTE_TABLES_KEPT = 256


class RenderedNotes:
    """One table's notifications rendered and encoded, by notification and language, for the
    seats' names they were rendered with. A notification is never changed once the engine
    posts it (an Undo drops it, a reloaded game makes new ones): each entry holds its
    notification and is used only for that very object."""

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.notes: dict[int, tuple[Notification, dict[str, bytes]]] = {}  # id(n) -> (n, language -> bytes)


class Views:
    """The views of the tables of a process, under its limits and turn timers."""

    def __init__(self, limits: Limits, turn_timers: dict[str, float]) -> None:
        self.limits = limits
        self.turn_timers = turn_timers  # game id -> seconds (a table's option)
        # Rendering a notification in a language (~0.1 ms) was most of a view's cost: a view
        # holds up to `max_view_notifications` of them, and every view read rendered them all.
        self._rendered: OrderedDict[str, RenderedNotes] = OrderedDict()

    def public_parts(self, live: LiveGame) -> Any:
        """The table's current version as every seat shares it (server/games/judges/wire.py; another
        game's table: server/table/served_wire.py), with each seat's deadline on the server's clock now."""
        timer, now = self.turn_timers.get(live.id), time.time()
        table = wire.Table(
            turn_timer=timer, pace_hours=live.pace_hours, takeover_bot=live.takeover_bot, hints=live.hints
        )
        if live.kind != DEFAULT_GAME:
            limit = self.limits.max_view_notifications
            return served_wire.public(live, table, limit, deadlines(live, timer, now), now)
        return wire.public(
            live.id,
            live.game,
            live.seats,
            table,
            self.limits.max_view_notifications,
            labels=live.labels,
            deadlines=deadlines(live, timer, now),
            now=now,
        )

    def seat_parts(self, live: LiveGame, public: Any, seat: int, language: str) -> dict[str, bytes]:
        """The view of `seat` in `language` as the live updates send it (server/games/judges/wire.py);
        SPECTATOR's is the view of no seat, without the seats' events (as `public_payload`)."""
        if live.kind != DEFAULT_GAME:
            if seat == SPECTATOR:
                return served_wire.parts(live, public, None, language)
            names = live.names()
            events = [served_wire.seat_event(n, language, names) for n in self.seat_events(live)]
            return served_wire.parts(live, public, seat, language, events)
        if seat == SPECTATOR:
            return wire.parts(wire.view(public, None, language), public)
        events = [self.render_note(live, n, language) for n in self.seat_events(live)]
        return wire.parts(wire.view(public, seat, language, seat_events=events), public)

    def render_note(self, live: LiveGame, data: dict, language: str) -> wire.Note:
        return wire.note(data, language, live.game, live.names())  # server/games/judges/wire.py

    def notes(self, live: LiveGame, seat: int, language: str, after: int) -> tuple[bytes, int]:
        """The seat's engine notifications after id `after` (the latest `max_view_notifications`),
        rendered and encoded, and the latest id. SPECTATOR's: those addressed to every player
        (`public_notifications`). Another game's: its report lines (server/table/served_wire.py)."""
        if live.kind != DEFAULT_GAME:
            lines, latest_id = served_wire.notes(live, language, after, self.limits.max_view_notifications)
            return updates.encode(lines), latest_id
        notes: list[Notification] = []
        players = len(live.game.state.players)
        for n in reversed(live.game.notifications):
            if n.id <= after or len(notes) == self.limits.max_view_notifications:
                break
            if for_everyone(n, players) if seat == SPECTATOR else seat in n.to:
                notes.append(n)
        notes.reverse()
        latest = live.game.notifications[-1].id if live.game.notifications else after
        return b"[" + b",".join(self._note_bytes(live, notes, language)) + b"]", max(after, latest)

    def _note_bytes(self, live: LiveGame, notes: list[Notification], language: str) -> list[bytes]:
        """Each notification rendered in `language` and encoded: kept from an earlier view of
        the table while its seats' names are the same."""
        names = live.names()
        kept = self._rendered.pop(live.id, None)
        if kept is None or kept.names != names:
            kept = RenderedNotes(names)
        self._rendered[live.id] = kept
        while len(self._rendered) > NOTE_TABLES_KEPT:
            self._rendered.popitem(last=False)
        if len(kept.notes) > 2 * self.limits.max_view_notifications:  # notifications taken back, a reload
            current = {id(n) for n in live.game.notifications}
            kept.notes = {k: v for k, v in kept.notes.items() if k in current}
        out = []
        for n in notes:
            entry = kept.notes.get(id(n))
            if entry is None or entry[0] is not n:
                entry = kept.notes[id(n)] = (n, {})
            data = entry[1].get(language)
            if data is None:
                data = entry[1][language] = updates.encode(self.render_note(live, msgspec.to_builtins(n), language))
            out.append(data)
        return out

    def latest_note(self, live: LiveGame) -> int:
        """The id of the table's latest notification (-1 before the first)."""
        if live.kind != DEFAULT_GAME:
            return served_wire.latest_note(live)
        return live.game.notifications[-1].id if live.game.notifications else -1

    def view_bytes(self, live: LiveGame, seat: int, language: str, since: int = -1) -> bytes:
        """The seat's whole view as JSON (GET .../view): the notifications after `since`. Call
        under the game's lock; StoreUnavailable while the copy waits for its reload."""
        if live.stale:
            raise StoreUnavailable()
        parts = self.seat_parts(live, self.public_parts(live), seat, language)
        notes, _ = self.notes(live, seat, language, since)
        return updates.view_bytes(parts, live.version, notes)

    def payload(self, live: LiveGame, seat: int, language: str, since: int = -1) -> dict:
        """The seat's view as a dict (tests, tools): the JSON of `view_bytes`, decoded."""
        return msgspec.json.decode(self.view_bytes(live, seat, language, since))

    # Seat events and the notification each one reads as; a revocation's `why` is its line.
    EVENT_KEYS = {
        "revoked": "notification.seat_revoked",
        "reinvited": "notification.seat_reinvited",
        "invited": "notification.seat_invited",
        "uninvited": "notification.seat_uninvited",
        "claimed": "notification.seat_claimed",
        "abandoned": "notification.game_abandoned",  # server/community/paces.py
        "closed": "notification.game_closed",  # an operator closed the table (server/community/moderation.py)
    }

    def seat_events(self, live: LiveGame) -> list[dict]:
        """The seats' events as notifications, ordered by the actions before them: takeovers
        (away, back), the host's revocations and invitations (who, and why: the player was
        away, absent, or the others agreed) and new players."""
        out = []
        for seat, info in enumerate(live.seats):
            for event in info.get("history", []):
                entries = []
                if "event" in event:
                    key = self.EVENT_KEYS[event["event"]]
                    params = {"player": seat, "by": event.get("by"), "why": event.get("why")}
                    if event.get("why") in ("away", "absent", "consent"):
                        why = {"player": seat, "voters": event.get("voters", [])}
                        entries.append({"key": f"notification.seat_why.{event['why']}", "params": why})
                else:
                    key = "notification.seat_bot" if event["away"] else "notification.seat_back"
                    params = {"player": seat, "reason": event["reason"]}
                out.append(
                    {
                        "id": SEAT_EVENT_IDS + event["after"] * 1000 + seat * 100 + event.get("n", 0) % 100,
                        "round": event["round"],
                        "phase": "",
                        "key": key,
                        "params": params,
                        "to": list(range(len(live.seats))),
                        "entries": entries,
                        "after": event["after"],
                    }
                )
        out.sort(key=lambda n: n["id"])
        return out


# --- the view of no seat (spectators, replays: server/table/screen.py) -----------------------------


def log_entries(live: LiveGame, language: str, since: int = -1) -> list[dict[str, Any]]:
    """The public actions of the table after index `since`, each as a sentence in `language`
    (server/games/judges/wire.py, `log_entries`: the words are the game's)."""
    return wire.log_entries(live.game, live.names(), language, since)


def for_everyone(n: Notification, players: int) -> bool:
    """Whether a notification is addressed to every player: what a spectator may read."""
    return set(range(players)) <= set(n.to)


def public_notifications(game: Game, language: str, names: dict[int, str], since: int = -1) -> list[wire.Note]:
    """The notifications addressed to every player (what a spectator may read), rendered."""
    players = len(game.state.players)
    return [
        wire.note(msgspec.to_builtins(n), language, game, names)  # server/games/judges/wire.py
        for n in game.notifications
        if n.id > since and for_everyone(n, players)
    ]


def public_payload(
    live: LiveGame,
    language: str,
    game: Game | None = None,
    reveal: bool = False,
    turn_timer: float | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> wire.View:
    """The view of someone who holds no seat (server/games/judges/wire.py): the public state (every
    hand hidden, no ballot), who we wait for, the scores; with `reveal` (a replay of a finished
    game) the whole state. `turn_timer`, `limits`: the table's options as the seats see them."""
    current = game is None or game is live.game
    game = game or live.game
    table = wire.Table(
        turn_timer=turn_timer, pace_hours=live.pace_hours, takeover_bot=live.takeover_bot, hints=live.hints
    )
    now = time.time()
    clock = deadlines(live, turn_timer, now) if current and not reveal and not game.is_over else {}
    public = wire.public(
        live.id, game, live.seats, table, limits.max_view_notifications, reveal=reveal, deadlines=clock, now=now
    )
    notes = public_notifications(game, language, live.names())
    return wire.view(public, None, language, notifications=notes, version=len(game.log))
