"""The hint route: the strong bot's choice for the decision a seat owes, with its reasons.

`GET /api/games/{id}/hint` (the seat's credential) answers `{action, text, reasons, alternatives}`
(bots/hint.py): the search runs from the seat's view only, on the bots' pool (`FairPool`, as a
search bot's thinking: other tables never wait for it) under the server's CPU budget for one
decision (`Limits.bot_cpu_seconds`). One search a position: asked again (or twice at once) for
the same position, the seat gets the same hint, searched once. Each position hinted is counted in
the seat's stored record (`hints`, shown in the view's seats); a table created with
`hints: false` refuses them (403).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from fastapi import APIRouter, Request
from starlette.requests import HTTPConnection

from ..bots.hint import Hint, hint_for, hint_json, render_hint
from ..i18n import request_language
from .service import GameService, LiveGame, ServiceError, bot_seed

MAX_KEPT = 10_000  # the last hint of this many seats is kept (asked again, it is not searched again)


def hints_router(service: GameService, seat_of: Callable[[HTTPConnection, LiveGame], Awaitable[int]]) -> APIRouter:
    """The hint's route; `seat_of` is the app's reading of a request's seat credential."""
    router = APIRouter()
    # (game, seat) -> (the position's digest, its hint's search): the last position asked
    searches: dict[tuple[str, int], tuple[bytes, asyncio.Task[Hint]]] = {}

    @router.get("/api/games/{game_id}/hint")
    async def hint(game_id: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """The strong bot's choice for the decision your seat owes, with its reasons in your
        language and the two best alternatives with their value (in % of the searched futures
        won). 403 on a table that refuses hints; 409 when your seat owes no decision."""
        live = await service.get(game_id)
        seat = await seat_of(request, live)
        if not live.hints:
            raise ServiceError(403, "error.hints_off", "this table plays without hints")
        language = request_language(request, lang, live.seats[seat]["language"])
        async with live.lock:
            game = live.game
            if game.is_over or seat not in game.waiting_for():
                raise ServiceError(409, "error.no_decision", "your seat owes no decision now")
            seq = len(game.log)
            legal = list(game.legal_actions(seat))
            view = game.view(seat, notifications=False)  # the hint sees what the seat sees, no more
            seed = bot_seed(game.state.options, seat) + seq
        # The position exactly (a move taken back and replaced reaches the same count elsewhere).
        position = hashlib.blake2b(msgspec.msgpack.encode(view), digest_size=16).digest()
        known = searches.get((live.id, seat))
        fresh = known is None or known[0] != position or (known[1].done() and known[1].exception() is not None)
        if fresh:
            if len(searches) >= MAX_KEPT:  # a bound on what the route keeps: the oldest go first
                for key in list(searches)[: MAX_KEPT // 2]:
                    del searches[key]
            searches.pop((live.id, seat), None)
            run = service.bot_pool.run(live.id, True, hint_for, seat, legal, view, seed, service.limits.bot_cpu_seconds)
            known = searches[(live.id, seat)] = (position, asyncio.ensure_future(run))
        assert known is not None
        found = await asyncio.shield(known[1])
        if fresh:
            async with live.lock:

                def count(info: dict[str, Any]) -> bool:
                    info["hints"] = int(info.get("hints", 0)) + 1
                    return True

                _, changed = await service.update_seat(live, seat, count)
            if changed:
                service.publish(live)
                await service.broadcast(live)
        names = {i: s["name"] for i, s in enumerate(live.seats)}
        out = render_hint(hint_json(found), language, view, live.game.world, names)
        out["seq"] = seq  # the position the hint is for
        return out

    return router
