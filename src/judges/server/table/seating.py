"""The seats of a table (server/table/seats.py): away and back, invitations claimed, the host's
revocations and the table's consent, the seat of a credential, and the players' signs of life.
Each change is decided on the stored seat under its row lock (`GameStore.update_seat`), through
the table's writer (server/table/actor.py), so that no process overwrites another's change."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import ServiceError
from ..store import SeatTable, StoreError, hash_token, new_token, verify_token
from . import seats as seat_keys
from .actor import TableActor
from .events import SeatChanged
from .runtime import Runtime
from .tables import (
    LiveGame,
)

# The players' signs of life are stored in batches (Seating.flush_presence): one transaction
# at most this often per process (less when `absent_after` is short: a twentieth of it), of at
# most PRESENCE_BATCH seats each.
PRESENCE_FLUSH_SECONDS = 1.0
PRESENCE_BATCH = 500


class Seating:
    def __init__(self, rt: Runtime, actor: TableActor) -> None:
        self.rt = rt
        self.actor = actor
        # (game id, seat) -> when this process last kept a sign of life of the seat's player
        self._seen: dict[tuple[str, int], float] = {}
        # (game id, seat) -> (the credential's hash, when): signs not stored yet (flush_presence)
        self._pending: dict[tuple[str, int], tuple[str, float]] = {}
        self._flusher: asyncio.Task[None] | None = None

    async def set_away(self, live: LiveGame, seat: int, away: bool, reason: str) -> None:
        """Hands a human seat to a bot (the player left, or the turn timer ran out), or gives
        it back. Stored with the game; every player's bell says so."""
        async with live.lock:
            if live.seats[seat]["kind"] != "human":
                return
            log = live.game.log
            event = {"away": away, "reason": reason, "round": live.played.progress, "after": len(log)}

            def change(info: dict) -> bool:
                # decided on the stored seat, under its row lock: another process's change stands
                if info["kind"] != "human" or bool(info.get("away")) == away:
                    return False
                if away:  # the bot's share of the seat's actions (a rated game's, server/community/ratings.py)
                    info["bot_from"] = len(log)
                else:
                    info["bot_moves"] = seat_keys.bot_moves(info, log, seat)
                    info.pop("bot_from", None)
                info["away"] = away
                self.note(info, event)
                return True

            _, changed = await self.actor.update_seat(live, seat, change)
        if changed:
            self.rt.events.emit(SeatChanged(live))
            await self.rt.events.settle(live)

    def note(self, info: dict[str, Any], event: dict[str, Any]) -> None:
        """Appends an event to a stored seat's history (in a change under its row lock), numbered
        per seat (`n`: its notification's id is unique); a view lists the latest only."""
        number = int(info.get("events", len(info.get("history", []))))
        info["events"] = number + 1
        history = info.setdefault("history", [])
        history.append({**event, "n": number})
        del history[: -self.rt.limits.max_seat_history]

    def event(self, live: LiveGame, kind: str, **params: Any) -> dict[str, Any]:
        return {"event": kind, "round": live.played.progress, "after": len(live.game.log), **params}

    def holds_a_seat(self, live: LiveGame, token: str | None) -> int | None:
        """The seat of this game whose credential `token` is, or None."""
        try:
            return live.seat_of(token) if token else None
        except ServiceError:
            return None

    def refuse_seated(self, live: LiveGame, token: str | None) -> None:
        """A player holds one seat of a table: a credential of this game (the host's among them)
        cannot claim or take another."""
        if self.holds_a_seat(live, token) is not None:
            raise ServiceError(409, "error.seat_held", "you already hold a seat at this table")

    async def claim(self, live: LiveGame, code: str, current: str | None = None) -> tuple[int, str]:
        """Spends an invitation: its seat gets a fresh credential, returned to the claimer only.
        A seat that a bot played meanwhile (revoked) comes back to its new player, whose private
        conversations start now (server/table/seats.py, `hand_to`). `current`: the credential the
        claimer already holds, if any (refused if it is a seat of this game). Decided on the
        stored seat (another process may have spent or replaced the invitation)."""
        self.refuse_seated(live, current)
        caught = False
        async with live.lock:
            seat = seat_keys.invited_seat(live.seats, code)
            if seat is None and self.rt.fanout.shared and await self.actor.caught_up_quietly(live):
                caught = True
                seat = seat_keys.invited_seat(live.seats, code)  # opened by another process
            if seat is None:
                raise ServiceError(
                    404, "error.invitation", "this invitation is not valid: it was used, revoked or never issued"
                )
            token = new_token()
            now = time.time()
            claimed = self.event(live, "claimed")
            back = {"away": False, "reason": "claimed", "round": claimed["round"], "after": claimed["after"]}

            def change(info: dict[str, Any], table: SeatTable) -> bool:
                if not verify_token(code, info.get("invite_hash")):
                    return False
                was_away = bool(info.get("away"))
                info["away"] = False
                if seat_keys.hand_to(info, hash_token(token), table.chat_count, now):
                    self.note(info, claimed)  # a new player: the table reads it
                elif was_away:
                    self.note(info, back)
                return True

            seats, changed = await self.actor.update_seat(live, seat, change, table=True)
            taken = verify_token(token, seats[seat].get("token_hash"))
        if changed:
            self.rt.events.emit(SeatChanged(live))
        if changed or caught:  # the copy took other processes' changes: its sockets see them now
            await self.rt.events.settle(live)
        if not taken:
            raise ServiceError(
                404, "error.invitation", "this invitation is not valid: it was used, revoked or never issued"
            )
        return seat, token

    async def seat_for(self, live: LiveGame, token: str | None) -> int:
        """The seat of a credential. A credential this copy does not know may have been made a
        moment ago by another process (an invitation claimed, a seat taken from the lobby):
        before refusing it, the copy takes the stored seats once, so that a player is never
        refused his own new seat (the fan-out may not have reached this process yet)."""
        try:
            return live.seat_of(token)
        except ServiceError as exc:
            if exc.key != "error.token_wrong" or not self.rt.fanout.shared:
                raise
        async with live.lock:
            await self.actor.caught_up_quietly(live)
        return live.seat_of(token)

    def check_host(self, live: LiveGame, seat: int, target: int) -> None:
        if not live.seats[seat].get("host"):
            raise ServiceError(403, "error.not_host", "only the table's host may do this")
        if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == seat:
            raise ServiceError(422, "error.seat_target", "the host can revoke or invite another human seat only")

    async def revoke(self, live: LiveGame, host: int, target: int, invite: bool) -> str | None:
        """The host takes a seat from its player: its credential and invitation stop working
        and the takeover bot plays it; with `invite`, a new invitation (returned) is opened,
        which reserves the seat (the lobby no longer offers it). A seat whose player is present
        (server/table/seats.py, `present`) is taken only with the consent of every other player
        present, at least one (409 `error.seat_present` otherwise). Decided on the stored seats;
        every seat's bell says who did it and why."""
        self.check_host(live, host, target)
        code = new_token() if invite else None
        now = time.time()
        absent_after = self.rt.limits.absent_after
        refused = False
        await self.flush_presence()  # the signs of life this process kept: the change reads them
        async with live.lock:
            event = self.event(live, "reinvited" if invite else "revoked", by=host)

            def change(info: dict[str, Any], table: SeatTable) -> bool:
                nonlocal refused
                why, voters = "unheld", []
                if seat_keys.held(info):
                    why = "away" if info.get("away") else "absent"
                    if seat_keys.present(info, now, absent_after):
                        voters = [
                            i
                            for i, other in enumerate(table.seats)
                            if i not in (host, target)
                            and other["kind"] == "human"
                            and seat_keys.present(other, now, absent_after)
                        ]
                        if not voters or not set(voters) <= set(info.get("consent", [])):
                            refused = True
                            return False
                        why = "consent"
                    info["holder"] = max(1, int(info.get("holder") or 0))
                else:  # nobody held it: an invitation opened, or withdrawn
                    event["event"] = "invited" if invite else "uninvited"
                info["token_hash"] = None
                info["invite_hash"] = hash_token(code) if code else None
                if code:
                    info.pop("open", None)  # reserved for the invited player
                info.pop("consent", None)
                info["away"] = True
                self.note(info, {**event, "why": why, "voters": voters})
                return True

            _, changed = await self.actor.update_seat(live, target, change, table=True)  # closes its sockets here
        if refused:
            raise ServiceError(
                409,
                "error.seat_present",
                "this player is at the table: their seat is handed over once they leave it, run out of time "
                f"or have been gone {absent_after:g} seconds, or if the other players present agree",
                seconds=round(absent_after),
            )
        if changed:
            self.rt.events.emit(SeatChanged(live))  # ...and in the others
            await self.rt.events.settle(live)
        return code

    async def consent(self, live: LiveGame, voter: int, target: int, agree: bool) -> None:
        """A player agrees (or no longer agrees) that another human seat be handed over by the
        host even though its player is present. Kept with the stored seat until it changes
        hands; only the consents of the players present when the host acts count."""
        if not 0 <= target < len(live.seats) or live.seats[target]["kind"] != "human" or target == voter:
            raise ServiceError(
                422, "error.consent_target", "you can agree to hand over another human player's seat only"
            )

        def change(info: dict[str, Any]) -> bool:
            given = set(info.get("consent", []))
            if (voter in given) == agree:
                return False
            info["consent"] = sorted(given | {voter} if agree else given - {voter})
            return True

        async with live.lock:  # no view shows it: the other processes need not hear of it
            await self.actor.update_seat(live, target, change, quiet=True)

    def saw(self, live: LiveGame, seat: int, leaving: bool = False) -> None:
        """A sign of life of the seat's player (a request, a socket open here; `leaving`: its
        last socket here closed), kept at most every quarter of `absent_after` per seat and
        process (and when the last socket leaves). What the host's revocation reads
        (server/table/seats.py, `present`): the process stores the signs it kept in batches, one
        transaction every PRESENCE_FLUSH_SECONDS at most (`flush_presence`), in a table of
        their own that no action's commit waits for (GameStore.store_presence). No view shows
        them; the seats' version does not move and the copy is not touched."""
        token_hash = live.seats[seat].get("token_hash") if 0 <= seat < len(live.seats) else None
        if live.played.is_over or not token_hash:
            return
        now = time.time()
        if leaving:
            leaving = not any(sub.seat == seat for sub in live.subscribers)
        if not leaving and now - self._seen.get((live.id, seat), 0.0) < self.rt.limits.absent_after / 4:
            return
        self._seen[live.id, seat] = now
        self._pending[live.id, seat] = (token_hash, now)
        if self._flusher is None or self._flusher.done():
            self._flusher = self.rt.spawn(self._flush_soon())

    def presence_interval(self) -> float:
        """Seconds between two batches of signs of life: a small part of `absent_after`, so
        that a stored sign is never much older than the player's last one."""
        return min(PRESENCE_FLUSH_SECONDS, self.rt.limits.absent_after / 20)

    async def _flush_soon(self) -> None:
        while self._pending:
            await asyncio.sleep(self.presence_interval())
            await self.flush_presence()

    async def flush_presence(self) -> None:
        """Stores the signs of life kept since the last batch, PRESENCE_BATCH at a time. The
        database away: they are kept for the next batch (unless a later sign replaced them)."""
        pending, self._pending = self._pending, {}
        items = list(pending.items())
        for start in range(0, len(items), PRESENCE_BATCH):
            batch = items[start : start + PRESENCE_BATCH]
            signs = [(game_id, seat, token_hash, seen) for (game_id, seat), (token_hash, seen) in batch]
            try:
                await self.rt.db(self.rt.store.store_presence, signs)
            except (ServiceError, StoreError):
                for key, sign in items[start:]:
                    self._pending.setdefault(key, sign)
                return
