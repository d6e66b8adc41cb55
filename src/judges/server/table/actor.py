"""The table actor: the one writer of each game in this process (as lila's round actor and
boardgame.io's master). Every change of a table goes through it, under the game's lock: create,
load, submit (validate and apply by the engine, then commit to the store, and only then
acknowledge), reload a copy that fell behind or failed, change a stored seat and take the stored
seats. After each commit it emits typed events (server/table/events.py): `Committed` (the cross-process
sync publishes it), `Stale` (its own recovery listens), `Settled` (the sockets' hub and the bots
listen); the seating (server/table/seating.py) emits `SeatChanged` after a seat change it made here.

A commit that fails leaves the in-memory copy unusable ("stale"): a recovery task reloads it
from the store as soon as the database answers. Many processes may serve one database: the
store appends an action only at the game's current action count, so a process whose copy is
behind gets SequenceConflict, reloads and tries again (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import msgspec

from ...engine import Action
from ...engine.dice import KEY_BYTES
from ...engine.errors import RuleError, SetupError
from ...engine.rules import DEFAULT_RULES, Rules, RulesError
from ...i18n import DEFAULT_LANGUAGE, normalize_language
from .. import logs, metrics
from ..errors import ServiceError, StoreUnavailable
from ..limits import clean_name
from ..store import SequenceConflict, StoreError
from . import seats as seat_keys
from .events import Committed, Stale
from .hub import Hub
from .played import DEFAULT_GAME, game_of, kit_of, require_capability
from .runtime import Runtime
from .tables import (
    SERVER_OPTIONS,
    TAKEOVER_BOT,
    LiveGame,
    check_bot,
    client_key,
    pace_hours,
    same_action,
    stored_client_id,
)

log = logging.getLogger("judges.server")

SNAPSHOT_EVERY = 100  # actions between snapshots
COMMIT_ATTEMPTS = 5  # a client's action against other processes' commits, at most


class TableActor:
    def __init__(self, rt: Runtime, hub: Hub) -> None:
        self.rt = rt
        self.hub = hub
        self._loads: dict[str, asyncio.Task[LiveGame]] = {}

    async def create(
        self,
        seats: list[dict],
        wave_pairs: int = DEFAULT_RULES.default_wave_pairs,
        seed: int | None = None,
        round_limit: int | None = None,
        position: dict | None = None,
        turn_timer: float | None = None,
        takeover_bot: str = TAKEOVER_BOT,
        rules: Rules = DEFAULT_RULES,
        host: int | None = None,
        hints: bool = True,
        extra_options: dict[str, Any] | None = None,  # server options (a pace)
        game_name: str = DEFAULT_GAME,
        language: str = DEFAULT_LANGUAGE,
    ) -> tuple[LiveGame, str, dict[int, str]]:
        """A new game of `game_name` (games/registry.py) under `rules`, the game's own (stored with
        its options, so it replays under them for ever). Returns the game, the credential of the
        host's seat (`host`, default: the first human seat) and an invitation code for every other
        human seat (server/table/seats.py). An unnamed seat is named by the game (`TableKit.seat_name`)
        in the seat's language, else in `language` (the creator's)."""
        kit = kit_of(game_name)
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise ServiceError(422, "error.players", f"a game has {rules.min_players} to {rules.max_players} seats")
        if not any(s.get("kind") == "human" for s in seats):
            raise ServiceError(422, "error.no_human", "at least one seat must be a human's")
        # Every game rolls the strong dice, keyed by 256 fresh bits nobody chose; only a server
        # started with allow_seeds lets the creator pick a SplitMix64 seed (tests, design).
        dice = dict(dice="blake2b", key=secrets.token_hex(KEY_BYTES)) if seed is None else dict(seed=seed)
        # the options only some games have (wave pairs, a round limit: capabilities of the game)
        extra = {
            name: value
            for name, value in (("wave_pairs", wave_pairs), ("round_limit", round_limit))
            if name in kit.served.capabilities
        }
        try:
            options = kit.options(len(seats), rules, dice, **extra)
            # off the event loop: a scenario position may be large (every other table goes on)
            game = await asyncio.to_thread(kit.new, msgspec.to_builtins(options), position)
        except SetupError as exc:
            raise ServiceError(422, "error.options", str(exc)) from None
        if host is None:
            humans = [i for i, s in enumerate(seats) if s.get("kind", "human") == "human"]
            host = next((i for i in humans if not seats[i].get("open")), humans[0] if humans else 0)
        if not (0 <= host < len(seats) and seats[host].get("kind", "human") == "human"):
            raise ServiceError(422, "error.host_seat", "the host's seat must be a human seat of the table")
        stored_seats, host_token, invitations = self._stored_seats(seats, host, kit.name, language)
        check_bot(takeover_bot, "takeover bot", kit.name)
        game_id = secrets.token_urlsafe(9)
        stored_options = msgspec.to_builtins(options, str_keys=True)  # as JSON keeps it
        stored_options["takeover_bot"] = takeover_bot
        if position is not None:
            stored_options["position"] = position  # a game started from a scenario position
        if turn_timer:
            stored_options["turn_timer"] = turn_timer  # a server option, not a rule
            self.rt.turn_timers[game_id] = turn_timer
        # a server option decided at creation: a table with hints is not rated (server/community/ratings.py)
        stored_options["hints"] = hints
        stored_options.update(extra_options or {})  # a pace (server/community/paces.py)
        if game_of(stored_options) != kit.name:  # a server option: the game the table plays
            stored_options["game"] = kit.name
        await self.rt.db(
            self.rt.store.create_game, game_id, stored_options, options.seed, kit.rules_version(), stored_seats
        )
        metrics.GAMES_CREATED.inc()
        logs.bind_game(game_id)
        live = LiveGame(
            id=game_id,
            game=game,
            seats=stored_seats,
            takeover_bot=takeover_bot,
            hints=hints,
            pace_hours=pace_hours(stored_options),
            kind=kit.name,
        )
        self.rt.games[game_id] = live
        return live, host_token, invitations

    def _stored_seats(
        self, seats: list[dict], host: int, game: str = DEFAULT_GAME, language: str = DEFAULT_LANGUAGE
    ) -> tuple[list[dict[str, Any]], str, dict[int, str]]:
        """The seats as stored, the host's credential and the other human seats' invitations."""
        kit = kit_of(game)
        stored_seats: list[dict[str, Any]] = []
        host_token, invitations = "", {}
        for i, s in enumerate(seats):
            kind = s.get("kind", "human")
            if kind not in ("human", "bot"):
                raise ServiceError(422, "error.seat_kind", f"seat {i + 1}: kind must be human or bot")
            bot = s.get("bot") or kit_of(game).default_bot
            if kind == "bot":
                check_bot(bot, f"seat {i + 1}", game)
            spoken = normalize_language(s["language"]) if s.get("language") else None
            name = clean_name(s.get("name"), self.rt.limits.max_name_chars) or kit.seat_name(i, spoken or language)
            seat: dict[str, Any] = {
                "kind": kind,
                "bot": bot if kind == "bot" else None,
                "name": name,
                "language": spoken,
                "token_hash": None,
                "invite_hash": None,
            }
            if i == host:
                seat["host"] = True
                host_token = seat_keys.new_credential(seat)
                seat["holder"], seat["seen"] = 1, time.time()
            elif kind == "human" and s.get("open"):
                # An open seat waits for whoever takes it from the lobby (server/routes/screen.py):
                # neither credential nor invitation until then.
                seat["open"] = True
            elif kind == "human":
                invitations[i] = seat_keys.new_invitation(seat)
            stored_seats.append(seat)
        return stored_seats, host_token, invitations

    async def get(self, game_id: str) -> LiveGame:
        """The game in memory, loaded from the store the first time (one load per game at a
        time; a slow load of one game delays no other). A copy whose commit failed is reloaded
        first: StoreUnavailable while the database does not answer."""
        logs.bind_game(game_id)  # this context's log lines are the game's (server/logs.py)
        live = self.rt.games.get(game_id)
        if live is None:
            load = self._loads.get(game_id)
            if load is None:
                load = self._loads[game_id] = asyncio.get_running_loop().create_task(self._load_into_memory(game_id))
                load.add_done_callback(lambda _: self._loads.pop(game_id, None))
            live = await asyncio.shield(load)
        if live.stale:
            async with live.lock:
                if live.stale:
                    await self.refresh(live)
        return live

    async def _load_into_memory(self, game_id: str) -> LiveGame:
        live = self.rt.games.get(game_id)
        if live is None:
            live = await self.rt.db(self.load_copy, game_id)
            self.rt.games[game_id] = live
            gc.freeze()  # a loaded game lives on: out of the collector's full walks
        return live

    def load_copy(self, game_id: str) -> LiveGame:
        """Rebuilds a game from the store: the latest snapshot, then the actions after it."""
        try:
            stored = self.rt.store.load(game_id, all_actions=True)
        except KeyError:
            raise ServiceError(404, "error.no_game", f"there is no game {game_id!r}") from None
        records = stored.all_actions or []  # every record: all_actions=True
        kit = kit_of(game_of(stored.options))
        try:
            # The stored options are checked as a new table's are (Rules' bounds, RULE_MAXIMA):
            # a game stored before the bounds, or written by hand, is refused, not replayed.
            if stored.snapshot is not None:
                game = kit.from_snapshot(stored.snapshot.data)
                game.log = [kit.action_from_dict(a["action"]) for a in records[: stored.snapshot.seq]]
            else:
                game = kit.new(
                    {k: v for k, v in stored.options.items() if k not in SERVER_OPTIONS},
                    stored.options.get("position"),
                )
        except (SetupError, RulesError, msgspec.ValidationError, ValueError) as exc:
            log.warning("game %s is not loaded: its options break the server's bounds (%s)", game_id, exc)
            raise ServiceError(
                422, "error.game_bounds", "this game's rules are beyond this server's limits: it cannot be opened"
            ) from None
        if stored.options.get("turn_timer"):
            self.rt.turn_timers[game_id] = stored.options["turn_timer"]
        for record in stored.actions:
            game.apply(kit.action_from_dict(record["action"]))
        # Games stored before the option existed were taken over by the greedy bot.
        live = LiveGame(
            id=game_id,
            game=game,
            seats=stored.seats,
            takeover_bot=stored.options.get("takeover_bot", "greedy"),
            hints=stored.options.get("hints", True),
            pace_hours=pace_hours(stored.options),
            seats_version=stored.seats_version,
            kind=kit.name,
        )
        for record in records:
            if record.get("client_action_id"):
                key = client_key(record["player"], record["client_action_id"])
                live.client_ids[key] = record["seq"] + 1  # the count after it
        return live

    async def submit(self, live: LiveGame, seat: int, action_data: Any, client_action_id: str | None) -> dict:
        """Validates, applies, commits, then broadcasts one action of `seat`; counted and timed
        in the metrics (server/metrics.py)."""
        start = time.perf_counter()
        try:
            answer = await self._submit(live, seat, action_data, client_action_id)
        except (RuleError, ServiceError):
            metrics.ACTIONS_REFUSED.inc()
            raise
        if not answer["duplicate"]:
            metrics.PLAYER_ACTIONS.inc()
            metrics.ACTION_SECONDS.observe(time.perf_counter() - start)
        return answer

    async def _submit(self, live: LiveGame, seat: int, action_data: Any, client_action_id: str | None) -> dict:
        if not isinstance(action_data, dict):
            raise ServiceError(422, "error.malformed_action", "the action must be a JSON object")
        action_data = {**action_data, "player": action_data.get("player", seat)}
        if action_data.get("type") == "undo":  # a take-back: only a game with the capability
            require_capability(live.served, "undo")
        async with live.lock:
            if client_action_id and (seat, client_action_id) in live.client_ids:
                return {"seq": same_action(live, seat, client_action_id, action_data), "duplicate": True}
            action = live.kit.action_from_dict(action_data)  # MalformedAction: a RuleError
            if action.player != seat:
                raise ServiceError(403, "error.wrong_seat", f"your token acts for seat {seat}, not {action.player}")
            if live.seats[seat].get("away"):
                raise ServiceError(409, "error.seat_away", "a bot plays your seat now: take it back first")
            if any(s.get("abandoned") for s in live.seats):  # server/community/paces.py
                raise ServiceError(409, "error.game_abandoned", "this game was abandoned: it is over")
            seq, duplicate = await self.apply_and_commit(live, action, client_action_id)
            reloaded = live.full_next  # a duplicate found by reloading: the sockets need the copy
        if not duplicate or reloaded:
            await self.rt.events.settle(live)
        return {"seq": seq, "duplicate": duplicate}

    async def apply_and_commit(
        self, live: LiveGame, action: Action, client_action_id: str | None, attempts: int = COMMIT_ATTEMPTS
    ) -> tuple[int, bool]:
        """Applies and commits one action under the game's lock; returns (the action count
        after it, whether it was a duplicate of one already stored).

        Another process may have committed first (SequenceConflict): the copy is reloaded and
        the action tried again on the fresh position, up to `attempts` times (a bot passes 1:
        its choice was made for the old position). A database failure leaves the copy stale
        and raises StoreUnavailable; the recovery task takes it from there."""
        for attempt in range(attempts):
            if live.stale:
                await self.refresh(live)
            game = live.game
            seq = len(game.log)
            try:
                game.apply(action)  # raises RuleError before changing anything
            except RuleError:
                # refused on a copy that may be behind another process's commits: look once
                if attempt == 0 and self.rt.fanout.shared and await self.caught_up_quietly(live):
                    continue
                raise
            outcome = live.played.outcome()
            ending = outcome.ending if outcome is not None else None
            action_dict = live.kit.action_to_dict(action)
            stored_id = stored_client_id(action.player, client_action_id)
            try:
                stored = await self.rt.commit(
                    self.rt.store.append_action,
                    live.id,
                    seq,
                    action.player,
                    action_dict,
                    stored_id,
                    ending=ending,
                    winners=list(outcome.winners) if outcome is not None and ending else None,
                )
            except SequenceConflict:
                # another process got there first: this copy is behind (and holds our action)
                live.stale = True
                await self.refresh_or_lose(live)
                if client_action_id and (action.player, client_action_id) in live.client_ids:
                    return same_action(live, action.player, client_action_id, action), True
                if attempts == 1:
                    raise
                continue
            except (StoreUnavailable, StoreError):
                log.warning("action %s of game %s was not stored: the game is reloaded", seq, live.id)
                self.lose_copy(live)
                raise StoreUnavailable() from None
            if not stored:
                # this id was stored before (through another process): the copy applied it twice
                live.stale = True
                await self.refresh_or_lose(live)
                if client_action_id and (action.player, client_action_id) in live.client_ids:
                    return same_action(live, action.player, client_action_id, action), True
                return len(live.game.log), True
            live.acted[action.player] = live.acted.get(action.player, 0) + 1
            if client_action_id:
                live.client_ids[action.player, client_action_id] = seq + 1
            self.rt.events.emit(Committed(live, action.player, action_dict, stored_id))
            if (seq + 1) % SNAPSHOT_EVERY == 0 and (data := live.kit.snapshot(game)) is not None:
                # written in the background: the action's acknowledgement and broadcast (every
                # hundredth action's, so exactly the p99 of delivery) never wait for it
                self.rt.spawn(self._save_snapshot(live.id, seq + 1, data))
            return seq + 1, False
        raise StoreUnavailable()  # other processes kept committing first: the client retries

    async def _save_snapshot(self, game_id: str, count: int, data: dict) -> None:
        """Stores the state after `count` actions: only a shortcut for loading, so a failure
        costs nothing but time."""
        try:
            await self.rt.db(self.rt.store.save_snapshot, game_id, count, data)
        except (StoreUnavailable, StoreError) as exc:
            log.warning("snapshot of game %s after %s actions not saved: %s", game_id, count, exc)

    async def refresh(self, live: LiveGame) -> None:
        """Replaces the copy by the store's (under the game's lock): the sockets and tasks stay
        attached to the same LiveGame. Raises StoreUnavailable while the database fails."""
        fresh = await self.rt.db(self.load_copy, live.id)
        live.game = fresh.game
        self.take_seats(live, fresh.seats, fresh.seats_version)
        live.client_ids = fresh.client_ids
        live.bots = {}  # rebuilt from their seeds on their next move
        live.heard.clear()
        live.stale = False
        live.full_next = True

    async def update_seat(
        self, live: LiveGame, seat: int, change: Callable[..., bool], *, table: bool = False, quiet: bool = False
    ) -> tuple[list[dict[str, Any]], bool]:
        """Changes one stored seat under its row lock (`GameStore.update_seat`, with its `table`
        and `quiet`) and takes the stored seats into the copy; answers the seats and whether
        their version moved. The caller holds the game's lock."""
        seats, version = await self.rt.db(self.rt.store.update_seat, live.id, seat, change, table=table, quiet=quiet)
        changed = version != live.seats_version
        self.take_seats(live, seats, version)
        return seats, changed

    def take_seats(self, live: LiveGame, seats: list[dict[str, Any]], version: int) -> None:
        """The stored seats replace the copy's (under the game's lock). The sockets of a seat
        whose credential changed (revoked or reissued, here or by another process) are closed."""
        for seat, (old, new) in enumerate(zip(live.seats, seats, strict=False)):
            if old.get("token_hash") and old.get("token_hash") != new.get("token_hash"):
                for sub in [s for s in live.subscribers if s.seat == seat]:
                    self.hub.unsubscribe(live, sub)
                    sub.close(1008, "error.seat_revoked")
        live.seats, live.seats_version = seats, version

    async def refresh_or_lose(self, live: LiveGame) -> None:
        try:
            await self.refresh(live)
        except ServiceError:
            self.lose_copy(live)
            raise StoreUnavailable() from None

    def lose_copy(self, live: LiveGame) -> None:
        """The copy holds what the store may not: hide it until a reload succeeds."""
        live.stale = True
        metrics.STALE_COPIES.inc()
        self.rt.events.emit(Stale(live))

    def recover_soon(self, event: Stale) -> None:
        """The listener of `Stale`: one recovery task per copy."""
        live = event.live
        if live.recovery is None or live.recovery.done():
            live.recovery = asyncio.get_running_loop().create_task(self._recover(live))

    async def _recover(self, live: LiveGame) -> None:
        """Reloads a stale copy as soon as the database answers (pausing longer each time),
        then sends every socket a full view and restarts the bots."""
        logs.bind_game(live.id)
        logs.bind_seat(None)
        pause = 0.2
        while live.stale:
            try:
                async with live.lock:
                    if live.stale:
                        await self.refresh(live)
            except ServiceError as exc:
                if exc.status == 404:  # the game was deleted meanwhile
                    self.rt.games.pop(live.id, None)
                    return
                # the pause ends early when another path (a submission, the fan-out) reloaded
                # the copy: its sockets and bots must not wait out the whole pause
                deadline = asyncio.get_running_loop().time() + pause
                while live.stale and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.1)
                pause = min(5.0, pause * 2)
        metrics.STALE_RECOVERED.inc()
        log.warning("game %s reloaded from the store after a failed commit", live.id)
        await self.rt.events.settle(live, full=True)

    async def catch_up(self, live: LiveGame) -> bool:
        """Applies the actions other processes committed and takes their seat changes (under
        the game's lock). Whether anything changed."""
        caught = await self.rt.db(self.rt.store.catch_up, live.id, len(live.game.log))
        if caught.action_count < len(live.game.log):  # the copy is ahead of the store: not ours to trust
            await self.refresh(live)
            return True
        for record in caught.actions:
            if not self.apply_committed(live, record["player"], record["action"], record["client_action_id"]):
                await self.refresh(live)
                return True
        changed = bool(caught.actions)
        if caught.seats_version != live.seats_version:
            self.take_seats(live, caught.seats, caught.seats_version)
            changed = True
        return changed

    def apply_committed(self, live: LiveGame, player: int, data: dict[str, Any], client_id: str | None) -> bool:
        """Applies to the copy (under the game's lock) the action the store holds at the copy's
        length; False if it does not replay (never expected: the caller reloads the copy)."""
        seq = len(live.game.log)
        action = live.kit.action_from_dict(data)
        try:
            live.game.apply(action)
        except RuleError:  # pragma: no cover - a stored action always replays
            log.exception("game %s: stored action %s does not replay on the copy", live.id, seq)
            return False
        live.acted[action.player] = live.acted.get(action.player, 0) + 1
        if client_id:
            live.client_ids[client_key(player, client_id)] = seq + 1
        return True

    async def caught_up_quietly(self, live: LiveGame) -> bool:
        try:
            changed: bool = await self.catch_up(live)
        except ServiceError:
            return False
        return changed

    async def export(self, live: LiveGame) -> dict:
        """A finished game's export (judges/verify.py): options, revealed seed, commitment,
        action log and result. The seed is secret until the end: 409 before."""
        async with live.lock:
            if not live.played.is_over:
                raise ServiceError(409, "error.not_over", "a game is exported once it is over")
            stored = await self.rt.db(self.rt.store.load, live.id)
            return live.kit.export(live.game, stored.options, live.id)
