"""What a seat receives, built from its table (`Views`) by its game's view builder (the table
kit's `views`, server/table/envelope.py): the parts every seat shares, each seat's own, its
notifications and the seats' events, encoded once (server/table/updates.py). The one place the
typed view becomes JSON (`encode_payload`)."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import msgspec

from ..errors import StoreUnavailable
from ..limits import DEFAULT_LIMITS, Limits
from . import updates
from .envelope import table_of
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
    seats' names they were rendered with. A notification is never changed once the game posts
    it (an Undo drops it, a reloaded game makes new ones): each entry holds its notification
    and is used only for that very object."""

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.notes: dict[int, tuple[Any, dict[str, bytes]]] = {}  # id(n) -> (n, language -> bytes)


class Views:
    """The views of the tables of a process, under its limits and turn timers."""

    def __init__(self, limits: Limits, turn_timers: dict[str, float]) -> None:
        self.limits = limits
        self.turn_timers = turn_timers  # game id -> seconds (a table's option)
        # Rendering a notification in a language (~0.1 ms) was most of a view's cost: a view
        # holds up to `max_view_notifications` of them, and every view read rendered them all.
        self._rendered: OrderedDict[str, RenderedNotes] = OrderedDict()

    def public_parts(self, live: LiveGame) -> Any:
        """The table's current version as every seat shares it (its game's `views.public`), with
        each seat's deadline on the server's clock now. The parts its sockets last received go
        with it: a part encoded to the same bytes is that object (their delta compares by
        identity first)."""
        timer, now = self.turn_timers.get(live.id), time.time()
        limit = self.limits.max_view_notifications
        group = next(iter(live.groups.values()), None)
        previous = group.parts if group is not None else None
        return live.kit.views.public(live, table_of(live, timer), limit, deadlines(live, timer, now), now, previous)

    def seat_parts(self, live: LiveGame, public: Any, seat: int, language: str) -> dict[str, bytes]:
        """The view of `seat` in `language` as the live updates send it (its game's `views.parts`);
        SPECTATOR's is the view of no seat, without the seats' events (as `public_payload`)."""
        if seat == SPECTATOR:
            return live.kit.views.parts(live, public, None, language, [])
        return live.kit.views.parts(live, public, seat, language, self.seat_events(live))

    def render_notes(self, live: LiveGame, notes: list[Any], language: str) -> list[Any]:
        return live.kit.views.render_notes(live, notes, language)

    def notes(self, live: LiveGame, seat: int, language: str, after: int) -> tuple[bytes, int]:
        """The seat's notifications after id `after` (the latest `max_view_notifications`),
        rendered and encoded, and the latest id. SPECTATOR's: those every player may read."""
        limit = self.limits.max_view_notifications
        notes, latest = live.kit.views.notes(live, None if seat == SPECTATOR else seat, after, limit)
        if not notes:  # most pushes: nothing new for the seat
            return b"[]", latest
        return b"[" + b",".join(self._note_bytes(live, notes, language)) + b"]", latest

    def _note_bytes(self, live: LiveGame, notes: list[Any], language: str) -> list[bytes]:
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
            current = {id(n) for n in live.kit.views.posted(live)}
            kept.notes = {k: v for k, v in kept.notes.items() if k in current}
        entries = []
        for n in notes:
            entry = kept.notes.get(id(n))
            if entry is None or entry[0] is not n:
                entry = kept.notes[id(n)] = (n, {})
            entries.append(entry)
        missing = [entry for entry in entries if language not in entry[1]]
        if missing:  # rendered together: a game renders a batch at the cost of one
            rendered = self.render_notes(live, [entry[0] for entry in missing], language)
            for entry, note in zip(missing, rendered, strict=True):
                entry[1][language] = updates.encode(note)
        return [entry[1][language] for entry in entries]

    def latest_note(self, live: LiveGame) -> int:
        """The id of the table's latest notification (-1 before the first)."""
        return live.kit.views.latest_note(live)

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
    """The table's log after index `since`, each entry in `language` (its kit's `log`: the
    words are the game's)."""
    entries: list[dict[str, Any]] = live.kit.log(live.game, live.names(), language, since)["entries"]
    return entries


def public_payload(
    live: LiveGame,
    language: str,
    game: Any = None,
    reveal: bool = False,
    turn_timer: float | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Any:
    """The view of someone who holds no seat as one object (its game's `views.payload`): the
    public state, who we wait for, the scores; with `reveal` (a replay of a finished game, at
    the position `game`) the whole state. `turn_timer`, `limits`: the table's options as the
    seats see them."""
    current = game is None or game is live.game
    now = time.time()
    clock = deadlines(live, turn_timer, now) if current and not reveal and not live.played.is_over else {}
    table = table_of(live, turn_timer)
    return live.kit.views.payload(
        live, language, table, limits.max_view_notifications, clock, now, game=game, reveal=reveal
    )
