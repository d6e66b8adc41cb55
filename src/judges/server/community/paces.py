"""Games over days and abandoned games (docs/accounts.md "Paces and notices").

A table's pace: live (the default: today's turn timer, if any) or a deadline per decision
(`"pace": {"hours": 24}` or `{"days": 2}` on create, stored in the game's options). Every round
of upkeep (server/upkeep.py) looks at each paced game: a human seat that owes a decision gets
its deadline (`owed` in the stored seat: since when, and which decisions: `owed_decisions`).
The deadline holds until the decision is answered: the free steps of a turn and their Undo
answer nothing (the seat still owes the same turn), so moving and taking back does not push
it back. Past it, the takeover bot plays the seat's overdue turn (the seat is handed to the
bot, reason "deadline") and the seat comes back to its player once it owes nothing. Each
missed deadline is counted in the seat's record (`missed`, `missed_row`: in a row, reset only
when the player answers a decision himself, `missed_most`), shown on the player's page.

Abandoned games: a running game in which nobody has moved for `JUDGES_ABANDON_HOURS` (default
24; a paced game: that plus its pace), or a paced game in which every human seat has missed
`JUDGES_ABANDON_MISSED` deadlines in a row (default 3), ends as "abandoned": stored as its
ending (the lobby lists it as finished), no one plays it any more, and every player's bell says
so. It is not rated.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field, model_validator
from sqlalchemy import and_, func, or_, select

from ..store import GameStore, actions_table, games_table
from ..store.base import _utc
from ..table.service import GameService, LiveGame, ServiceError
from ..table.tables import owed_decisions, pace_hours

log = logging.getLogger("judges.server")

MAX_PACE_HOURS = 24 * 14


class Pace(BaseModel):
    """A deadline per decision: `hours` or `days` (one of them)."""

    hours: float | None = Field(default=None, ge=1, le=MAX_PACE_HOURS)
    days: float | None = Field(default=None, gt=0, le=MAX_PACE_HOURS / 24)

    @model_validator(mode="after")
    def one_of(self) -> Pace:
        if (self.hours is None) == (self.days is None):
            raise ValueError("a pace is {hours} or {days}")
        if self.days is not None and self.days * 24 < 1:
            raise ValueError("a pace is at least an hour")
        return self

    def in_hours(self) -> float:
        return self.hours if self.hours is not None else float(self.days or 0) * 24


def abandoned(live: LiveGame) -> bool:
    return any(s.get("abandoned") for s in live.seats)


def step(info: dict[str, Any], owing: list[str], now: float, limit: float) -> str | None:
    """One look at a paced human seat (its stored dict, changed in place): what happened.

    `owing`: the decisions the seat owes now (`owed_decisions`; empty: none); `limit`: seconds
    per decision. The deadline belongs to the decisions it was set for: it holds while any of
    them is still owed, whatever the seat did meanwhile (moves, Undo). Answers "owed" (a new
    decision: its deadline starts), "late" (the deadline passed: counted; the caller hands the
    seat to the bot), "back" (the bot played the overdue turn: the caller gives the seat back),
    "done" (the player decided), or None (nothing changed)."""
    owed = info.get("owed")
    if info.get("away"):
        if isinstance(owed, dict) and owed.get("missed") and not owing:
            del info["owed"]
            return "back"
        return None
    current = owed if isinstance(owed, dict) and not owed.get("missed") else None
    answered = current is not None and not set(current.get("decisions") or ()) & set(owing)
    if answered:
        info["missed_row"] = 0  # the player answered himself
    if not owing:
        if owed is not None:
            del info["owed"]
            return "done"
        return None
    if current is None or answered:
        info["owed"] = {"since": now, "decisions": owing}
        return "owed"
    if now - float(current["since"]) >= limit:
        current["missed"] = True
        info["missed"] = int(info.get("missed", 0)) + 1
        info["missed_row"] = int(info.get("missed_row", 0)) + 1
        info["missed_most"] = max(int(info.get("missed_most", 0)), info["missed_row"])
        return "late"
    return None


@dataclass(frozen=True)
class Running:
    id: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    last_move: datetime  # the last action's time, or the game's creation


class PaceStore:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def running(self, idle_since: datetime) -> list[Running]:
        """The unfinished games a scan looks at, with the time of their last move: the paced
        ones, and the others nobody moved in since `idle_since` (only those may be abandoned).
        One query; the many live games in play are not read (their options and seats are
        the bulk of the rows)."""
        last = actions_table.alias("last")
        moved_at = func.coalesce(last.c.created_at, games_table.c.created_at)
        with self.store._session(writer="paces_scan") as session:
            rows = session.execute(
                select(
                    games_table.c.id,
                    games_table.c.options,
                    games_table.c.seats,
                    moved_at.label("moved_at"),
                )
                .outerjoin(last, and_(last.c.game_id == games_table.c.id, last.c.seq == games_table.c.action_count - 1))
                .where(
                    games_table.c.ending.is_(None),
                    or_(games_table.c.options["pace"].as_string().is_not(None), moved_at < idle_since),
                )
            ).all()
        return [Running(r.id, r.options, r.seats, _utc(r.moved_at)) for r in rows]


class Paces:
    """The paced games' deadlines and the abandoned games' ends, one round at a time."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = PaceStore(service.store)
        self.abandon_hours = service.settings.abandon_hours
        self.abandon_missed = service.settings.abandon_missed
        self.paced: dict[str, float] = {}  # game id -> hours per decision

    def started(self, game_id: str, hours: float) -> None:
        self.paced[game_id] = hours

    async def scan(self, now: float) -> None:
        """Learns the paced games (made by any process) and ends the abandoned ones."""
        idle_since = datetime.fromtimestamp(now - self.abandon_hours * 3600, UTC)
        running = await self.service.db(self.store.running, idle_since)
        self.paced = {}
        for game in running:
            hours = pace_hours(game.options)
            if hours is not None:
                self.paced[game.id] = hours
            idle = now - game.last_move.timestamp()
            limit = (self.abandon_hours + (hours or 0.0)) * 3600
            humans = [s for s in game.seats if s.get("kind") == "human"]
            gone = (
                hours is not None
                and bool(humans)
                and all(int(s.get("missed_row", 0)) >= self.abandon_missed for s in humans)
            )
            if idle >= limit or gone:
                try:
                    await self.abandon(game.id)
                except ServiceError:
                    continue

    async def abandon(self, game_id: str) -> None:
        """Ends the game as abandoned: marked in its first seat (every process's copy stops
        playing it; every player's bell says so) and stored as its ending."""
        service = self.service
        live = await service.get(game_id)
        if live.played.is_over:
            return
        async with live.lock:

            def change(info: dict[str, Any]) -> bool:
                if info.get("abandoned"):
                    return False
                info["abandoned"] = True
                service.seating.note(info, service.seating.event(live, "abandoned"))
                return True

            _, changed = await service.update_seat(live, 0, change)
        await service.db(service.store.set_result, game_id, "abandoned", [])
        self.paced.pop(game_id, None)
        if changed:
            log.info("game %s abandoned", game_id)
            service.publish(live)
            await service.broadcast(live)

    async def tick(self, now: float) -> None:
        """Every paced game's deadlines."""
        for game_id, hours in list(self.paced.items()):
            try:
                live = await self.service.get(game_id)
                await self.pace(live, hours * 3600, now)
            except ServiceError:
                continue

    async def pace(self, live: LiveGame, limit: float, now: float) -> None:
        service = self.service
        if live.played.is_over or abandoned(live):
            self.paced.pop(live.id, None)
            return
        late, back, started = [], [], False
        async with live.lock:
            if live.stale:
                return
            for seat, info in enumerate(live.seats):
                if info.get("kind") != "human":
                    continue
                owing = owed_decisions(live.game, seat)
                if step(copy.deepcopy(info), owing, now, limit) is None:
                    continue  # nothing to store: no write transaction
                outcome: list[str | None] = []

                def change(
                    stored: dict[str, Any], owing: list[str] = owing, outcome: list[str | None] = outcome
                ) -> bool:
                    outcome.append(step(stored, owing, now, limit))
                    return outcome[-1] is not None

                await service.update_seat(live, seat, change, quiet=True)
                started = started or (bool(outcome) and outcome[-1] == "owed")
                if outcome and outcome[-1] == "late":
                    late.append(seat)
                elif outcome and outcome[-1] == "back":
                    back.append(seat)
        if started and not late:  # a deadline began: the seats' views show it (wire.Seat.deadline)
            await service.broadcast(live)
        for seat in late:
            await service.set_away(live, seat, True, "deadline")
        for seat in back:
            await service.set_away(live, seat, False, "deadline")
