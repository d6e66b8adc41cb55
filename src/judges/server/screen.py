"""What the game screen adds to the seat's view: the board drawing, the log, the lobby,
spectators and replays. Routes only; the live games are `service.GameService`'s.

- `GET /api/games/{id}/board.svg`: the board as the public state has it (render/svg.py, the
  one drawing), in the reader's language; nothing on the board is secret.
- `GET /api/games/{id}/log?since=`: the public actions after `since` (moves, purchases, cards
  played...), each in the reader's language; the engine's notifications (reports, battles with
  their dice, tallies) come with the view and carry `after` (the actions before them), so the
  screen merges both into one log. Votes and foresights stay secret (a discard does not: the
  discard pile is face up).
- `GET /api/lobby`: open tables (a free seat anyone may take) and games running or finished;
  `POST /api/games/{id}/join`: takes the first free seat (its token is made now).
- `GET /api/games/{id}/spectate` and `WS /ws/games/{id}/spectate`: the public view (no hand, no
  ballot), live: built and encoded once per version and language for all the game's
  spectators; at most `spectators_per_address` sockets per client address and
  `spectators_per_game` per game (server/limits.py), one more is closed with code 4429.
- `GET /api/games/{id}/replay?step=`: a finished game rebuilt from its options (the seed is
  revealed at the end) and its log up to `step`, every hand shown.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec
from fastapi import APIRouter, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse

from ..engine import Game, action_to_dict
from ..engine.decisions import secret_action_tags
from ..engine.state import PHASES
from ..engine.undo import taken_back
from ..i18n import gettext, normalize_language, render_action, request_language
from ..render.board import SEAT_COLOURS, describe_board
from ..render.svg import board_svg
from ..verify import new_game
from . import seats as seat_keys
from . import updates, wire
from .limits import DEFAULT_LIMITS
from .service import SERVER_OPTIONS, GameService, LiveGame, ServiceError, Subscriber
from .store import SeatTable, hash_token, new_token, verify_token

SPECTATOR = -1  # a subscriber that is nobody's seat
REPLAY_CHECKPOINT = 40  # actions between the replay's kept positions
REPLAY_GAMES = 8  # finished games whose replay positions are kept in memory


def log_entries(live: LiveGame, language: str, since: int = -1) -> list[dict[str, Any]]:
    """The public actions of the game after index `since`, each as a sentence. A step taken
    back says so (`undone`: the seq of its Undo), and an Undo names the step it took back
    (`undoes`: that step's seq; "Ana took back: moves general 2 to Shiloh")."""
    game, names = live.game, live.names()
    secret = secret_action_tags()
    costs = game.state.options.rules.costs
    undone = taken_back(game.log)
    undoes = {undo: step for step, undo in undone.items()}
    out = []
    for seq, action in enumerate(game.log):
        if seq <= since:
            continue
        data = action_to_dict(action)
        player = names.get(action.player, "?")
        entry: dict[str, Any] = {"seq": seq, "player": action.player, "type": data["type"]}
        if data["type"] in secret:  # the registry's secret kinds: who decided, never what
            entry["text"] = gettext(language, "log.secret_action", player=player)
        elif seq in undoes:
            step = action_to_dict(game.log[undoes[seq]])
            label = render_action(step, language, game.world, names, costs=costs)
            entry["text"] = gettext(language, "log.undo", player=player, action=label)
            entry["undoes"] = undoes[seq]
        else:
            label = render_action(data, language, game.world, names, costs=costs)
            entry["text"] = gettext(language, "log.action", player=player, action=label)
        if seq in undone:
            entry["undone"] = undone[seq]
        out.append(entry)
    return out


def public_notifications(game: Game, language: str, names: dict[int, str], since: int = -1) -> list[wire.Note]:
    """The notifications addressed to every player (what a spectator may read), rendered."""
    everyone = set(range(len(game.state.players)))
    return [
        wire.note(msgspec.to_builtins(n), language, game, names)  # server/wire.py (issue 32)
        for n in game.notifications
        if n.id > since and everyone <= set(n.to)
    ]


def public_payload(
    live: LiveGame, language: str, game: Game | None = None, reveal: bool = False, service: GameService | None = None
) -> wire.View:
    """The view of someone who holds no seat (server/wire.py, issue 32): the public state (every
    hand hidden, no ballot), who we wait for, the scores; with `reveal` (a replay of a finished
    game) the whole state. `service`: the table's options and limits as the seats see them."""
    game = game or live.game
    timer = service.turn_timers.get(live.id) if service is not None else None
    table = wire.Table(turn_timer=timer, takeover_bot=live.takeover_bot, hints=live.hints)
    limit = (service.limits if service is not None else DEFAULT_LIMITS).max_view_notifications
    public = wire.public(live.id, game, live.seats, table, limit, reveal=reveal)
    notes = public_notifications(game, language, live.names())
    return wire.view(public, None, language, notifications=notes, version=len(game.log))


class Replays:
    """Finished games rebuilt step by step: a position kept every REPLAY_CHECKPOINT actions,
    so that any step is at most that many actions away."""

    def __init__(self) -> None:
        # game id -> (kept positions, the step at which each round begins)
        self.kept: OrderedDict[str, tuple[list[Game], dict[str, int]]] = OrderedDict()

    def game_at(self, live: LiveGame, options: dict[str, Any], step: int) -> tuple[Game, dict[str, int]]:
        """The game after `step` actions, and the step at which each round begins."""
        if live.id not in self.kept:
            position = options.get("position")
            game = new_game({k: v for k, v in options.items() if k not in SERVER_OPTIONS}, position)
            checkpoints, rounds = [game.clone()], {str(game.state.round): 0}
            for seq, action in enumerate(live.game.log, start=1):
                game.apply(action)
                rounds.setdefault(str(game.state.round), seq)
                if seq % REPLAY_CHECKPOINT == 0:
                    checkpoints.append(game.clone())
            self.kept[live.id] = (checkpoints, rounds)
            while len(self.kept) > REPLAY_GAMES:
                self.kept.popitem(last=False)
        self.kept.move_to_end(live.id)
        checkpoints, rounds = self.kept[live.id]
        game = checkpoints[step // REPLAY_CHECKPOINT].clone()
        for action in live.game.log[len(game.log) : step]:
            game.apply(action)
        return game, rounds


def screen_router(service: GameService, page: Callable[..., HTMLResponse]) -> APIRouter:
    router = APIRouter()
    replays = Replays()
    svg_cache: OrderedDict[tuple[str, int, str], str] = OrderedDict()

    def names_of(live: LiveGame) -> dict[int, str]:
        return live.names()

    def svg_of(live: LiveGame, game: Game, language: str) -> str:
        key = (live.id, len(game.log), language)
        text = svg_cache.get(key)
        if text is None or game is not live.game:
            text = board_svg(describe_board(game.world, game.state, language), language, names_of(live))
            if game is live.game:
                svg_cache[key] = text
                while len(svg_cache) > 64:
                    svg_cache.popitem(last=False)
        return text

    # --- pages -----------------------------------------------------------------------------

    @router.get("/games/{game_id}/watch", response_class=HTMLResponse, include_in_schema=False)
    async def watch_page(request: Request, game_id: str, lang: str | None = None) -> HTMLResponse:
        await service.get(game_id)
        return page(
            "game.html", request, request_language(request, lang), game_id=game_id, token="", seat=-1, mode="watch"
        )

    @router.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, game_id: str, lang: str | None = None) -> HTMLResponse:
        await service.get(game_id)
        return page(
            "game.html", request, request_language(request, lang), game_id=game_id, token="", seat=-1, mode="replay"
        )

    # --- the board and the log ---------------------------------------------------------------

    @router.get("/api/games/{game_id}/board.svg")
    async def board(game_id: str, request: Request, lang: str | None = None) -> Response:
        """The board as the public state has it, in the reader's language (the one drawing:
        render/svg.py). Its groups carry data-hex, data-region, data-settlement, data-general."""
        live = await service.get(game_id)
        language = request_language(request, lang)
        async with live.lock:
            text = svg_of(live, live.game, language)
        return Response(text, media_type="image/svg+xml")

    @router.get("/api/games/{game_id}/log")
    async def game_log(game_id: str, request: Request, lang: str | None = None, since: int = -1) -> dict[str, Any]:
        """The public actions after index `since`, in the reader's language."""
        live = await service.get(game_id)
        language = request_language(request, lang)
        async with live.lock:
            return {"seq": len(live.game.log), "entries": log_entries(live, language, since)}

    # --- lobby -------------------------------------------------------------------------------

    @router.get("/api/lobby")
    async def lobby(limit: int = 40) -> dict[str, Any]:
        """Open tables (a free seat), games running (to watch) and finished (to replay)."""
        games = await service.db(service.store.list_games)
        open_, running, finished = [], [], []
        for g in games[: max(1, min(limit, 200)) * 3]:
            entry = {
                "id": g.id,
                "seats": [{"name": s["name"], "kind": s["kind"], "open": seat_keys.free(s)} for s in g.seats],
                "actions": g.action_count,
                "ending": g.ending,
                "winners": g.winners,
            }
            if g.ending is not None:
                finished.append(entry)
            elif any(seat_keys.free(s) for s in g.seats):
                open_.append(entry)
            else:
                running.append(entry)
        return {"open": open_[:limit], "running": running[:limit], "finished": finished[:limit]}

    @router.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        """Takes the first free seat of an open table: its credential is made now, set as the
        game's cookie (server/seats.py) and answered once (API clients send it as X-Seat-Token).
        A seat the host invited someone to is reserved for them; a player already seated at the
        table takes no second seat (409 `error.seat_held`)."""
        if not seat_keys.same_origin(request):
            raise ServiceError(403, "error.cross_origin", "a seat is taken from this site's pages only")
        live = await service.get(game_id)
        service.refuse_seated(live, seat_keys.credential(request, game_id)[0])
        await request.app.state.accounts.refuse_seated(request, live)  # server/accounts.py
        token = new_token()
        now = time.time()

        def take(info: dict[str, Any], table: SeatTable) -> bool:
            # decided on the stored seat, under its row lock: a seat another process gave away
            # stays taken, and one with an open invitation stays its invited player's
            if not seat_keys.free(info):
                return False
            seat_keys.hand_to(info, hash_token(token), table.chat_count, now)
            return True

        async with live.lock:
            if live.game.is_over:
                raise ServiceError(409, "error.no_free_seat", "this table has no free seat")
            seat = None
            for free in [i for i, s in enumerate(live.seats) if seat_keys.free(s)]:
                seats, _ = await service.update_seat(live, free, take, table=True)
                taken = verify_token(token, seats[free].get("token_hash"))
                if taken:
                    seat = free
                    break
            if seat is None:
                raise ServiceError(409, "error.no_free_seat", "this table has no free seat")
        service._publish(live)
        await service.broadcast(live)
        seat_keys.set_seat_cookie(response, request, live.id, token)
        await request.app.state.accounts.bind(request, live, seat, token)  # server/accounts.py
        base = str(request.base_url).rstrip("/")
        return {"seat": seat, "token": token, "link": f"{base}/games/{live.id}"}

    # --- spectators ----------------------------------------------------------------------------

    limits = service.limits
    # game id -> (the version of the game its texts are of, language -> the spectators' message):
    # the public view is built and encoded once per version and language, whatever the number
    # of spectators; a game's entry goes when its last spectator leaves.
    spectator_views: dict[str, tuple[tuple[int, ...], dict[str, str]]] = {}
    spectating: dict[str, int] = {}  # client address -> its spectator sockets open here

    def full_message(payload: wire.View) -> str:
        """A spectator's update: always the whole public view (as the seats' first message)."""
        return wire.encode({"type": "full", "version": payload.seq, "view": payload}).decode()

    def view_version(live: LiveGame) -> tuple[int, ...]:
        return (live.version, len(live.game.log), live.seats_version, id(live.game))

    async def spectator_message(live: LiveGame, language: str) -> str | None:
        """The spectators' message of the game's current version in `language` (None while the
        copy waits for its reload: the recovery's push wakes the spectators again)."""
        entry = spectator_views.get(live.id)
        if entry is not None and entry[0] == view_version(live) and language in entry[1]:
            return entry[1][language]  # built under the lock from this very version
        async with live.lock:
            if live.stale:
                return None
            version = view_version(live)
            entry = spectator_views.get(live.id)
            if entry is None or entry[0] != version:
                entry = spectator_views[live.id] = (version, {})
            text = entry[1].get(language)
            if text is None:
                text = entry[1][language] = full_message(public_payload(live, language, service=service))
            return text

    @router.get("/api/games/{game_id}/spectate")
    async def spectate(game_id: str, request: Request, lang: str | None = None) -> Response:
        """The public view: what a spectator sees (no hand, no ballot)."""
        live = await service.get(game_id)
        language = request_language(request, lang)
        async with live.lock:
            payload = public_payload(live, language, service=service)
        return Response(wire.encode(payload), media_type="application/json")

    @router.websocket("/ws/games/{game_id}/spectate")
    async def spectate_live(websocket: WebSocket, game_id: str, lang: str | None = None, chat: bool = False) -> None:
        try:
            live = await service.get(game_id)
            if chat:
                await service.chat.room(live)
        except ServiceError as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        language = request_language(websocket, lang)
        address = websocket.client.host if websocket.client else ""
        watching = service.watchers.get(live.id, [])
        refusal, limit = None, 0
        if spectating.get(address, 0) >= limits.spectators_per_address:
            refusal, limit = "error.too_many_spectators", limits.spectators_per_address
        elif len(watching) >= limits.spectators_per_game:
            refusal, limit = "error.spectators_full", limits.spectators_per_game
        if refusal is not None:
            try:
                await websocket.accept()
                text = gettext(language, refusal, limit=limit)
                await websocket.send_text(updates.error_message(refusal, text).decode())
                await websocket.close(code=4429, reason=refusal)
            except Exception:  # noqa: BLE001 - the socket is already gone
                pass
            return
        # A spectator's queue is filled by the service's broadcasts: each wakes this socket,
        # which sends the public view of the latest version, encoded once for all spectators.
        sub = Subscriber(seat=SPECTATOR, language=language, queue=asyncio.Queue(maxsize=64))
        sub.queue.put_nowait(None)  # the first message: the whole public view
        watching = service.watchers.setdefault(live.id, [])
        watching.append(sub)
        spectating[address] = spectating.get(address, 0) + 1
        if chat:
            service.chat.greet(live, sub)  # the public chat (server/chat.py), then each new message

        async def pump() -> None:
            while True:
                item = await sub.queue.get()
                if isinstance(item, bytes):  # a chat message, as it is
                    await websocket.send_text(item.decode())
                    continue
                text = await spectator_message(live, language)
                if text is not None:
                    await websocket.send_text(text)

        sender: asyncio.Task[None] | None = None
        try:
            await websocket.accept()
            sender = asyncio.create_task(pump())
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass  # until the spectator leaves (what they send, text or bytes, is ignored)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if sender is not None:
                sender.cancel()
            watching.remove(sub)
            if not watching and service.watchers.get(live.id) is watching:
                del service.watchers[live.id]
                spectator_views.pop(live.id, None)
            spectating[address] -= 1
            if not spectating[address]:
                del spectating[address]

    # --- replays -----------------------------------------------------------------------------

    @router.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request, step: int | None = None, lang: str | None = None) -> Response:
        """A finished game at `step` (default: the end), every hand shown; the steps where each
        round begins; the board and the log up to that step."""
        live = await service.get(game_id)
        language = normalize_language(lang) if lang else request_language(request)
        async with live.lock:
            if not live.game.is_over:
                raise ServiceError(409, "error.not_over", "a game is replayed once it is over")
            stored = await service.db(service.store.load, live.id)
            total = len(live.game.log)
            at = total if step is None else max(0, min(step, total))
            options = {**stored.options, **msgspec.to_builtins(live.game.state.options)}
            game, rounds = await asyncio.to_thread(replays.game_at, live, options, at)
            entries = [e for e in log_entries(live, language) if e["seq"] < at]
            names = live.names()
        payload = wire.ReplayView(
            **msgspec.structs.asdict(public_payload(live, language, game, reveal=True, service=service)),
            replay=wire.ReplayStep(step=at, steps=total, rounds=rounds),
            board_svg=board_svg(describe_board(game.world, game.state, language), language, names),
            log=entries,
        )
        return Response(wire.encode(payload), media_type="application/json")

    return router


__all__ = ["screen_router", "public_payload", "log_entries", "SEAT_COLOURS", "PHASES"]
