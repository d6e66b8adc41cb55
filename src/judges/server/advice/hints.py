"""The hint route: the strong bot's choice for the decision a seat owes, with its reasons.

`POST /api/games/{id}/hint` (the seat's credential; a cookie from this site's pages only, so
another site can neither ask a hint for the player nor mark the game as hinted) answers
`{action, text, reasons, alternatives, seq, at}` (bots/hint.py): the paired comparison runs from
the seat's view only, on the bots' pool within the hint's own CPU bound (`hint.CPU_SECONDS`) or
the server's budget for one decision (`Limits.bot_cpu_seconds`), whichever is smaller.

One hint per decision owed (`tables.owed_decisions`: a turn keeps its name through its free
steps and their Undo): the first request for a decision searches, once; asked again for the
same decision, in whatever position of it, the seat gets that same hint (`seq`: the position
it was searched for; `at`: the decision's round, phase and step). The hint is kept in the
stored seat (`hinted`), so every process and a restarted server answer it alike, and the
decisions hinted are counted in the seat's record (`hints`, shown in the view's seats; a
hinted game is not rated). A table created with
`hints: false` refuses them (403).

What hints may take (server/limits.py): `hint_burst` then `hint_per_minute` per client address
(429 `error.rate_hint`); every table's hints share one share of the bots' pool (`HINTS`: served
as one table's bots, never ahead of the tables whose bots used less), at most `hint_queue`
waiting (503 `error.hints_busy`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from starlette.requests import HTTPConnection

from ...bots.hint import CPU_SECONDS, hint_for, hint_json, render_hint
from ...i18n import request_language
from .. import metrics
from ..deps import rate_limited
from ..limits import HINTS
from ..table.played import require_capability
from ..table.service import GameService, LiveGame, ServiceError, bot_seed
from ..table.tables import owed_decisions

MAX_KEPT = 10_000  # searches under way kept by the route (a bound on its memory)
CLAIM_SECONDS = 60.0  # a search claimed by a process that never stored its hint may be claimed again


def given(info: dict[str, Any], owing: list[str]) -> dict[str, Any] | None:
    """The hint the stored seat holds for the decisions it owes now, if any."""
    hinted = info.get("hinted")
    if isinstance(hinted, dict) and hinted.get("decisions") == owing and "hint" in hinted:
        return hinted
    return None


class Searches:
    """The hints being searched in this process: one search a seat's decision, shared by the
    requests that ask for it meanwhile, claimed in the stored seat (one process searches it)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        # (game, seat) -> (the decisions, the search)
        self.running: dict[tuple[str, int], tuple[list[str], asyncio.Task[dict[str, Any]]]] = {}

    def start(self, request: Request, live: LiveGame, seat: int, owing: list[str]) -> asyncio.Task[dict[str, Any]]:
        """The search of the seat's decision: the one under way, or a new one within the limits."""
        known = self.running.get((live.id, seat))
        if known is not None and known[0] == owing and not known[1].done():
            return known[1]
        address = request.client.host if request.client else ""
        rate_limited(request.app.state.rates.hint, address, "error.rate_hint", "hints")
        if self.service.bot_pool.pending(HINTS) >= self.service.limits.hint_queue:
            metrics.HINT_SEARCHES.labels("busy").inc()
            raise ServiceError(
                503, "error.hints_busy", "too many hints are waiting: ask again", headers={"Retry-After": "5"}
            )
        if len(self.running) >= MAX_KEPT:  # the oldest go first
            for key in list(self.running)[: MAX_KEPT // 2]:
                del self.running[key]
        task = asyncio.ensure_future(self.search(live, seat, owing))
        self.running[(live.id, seat)] = (owing, task)
        task.add_done_callback(lambda _: self._forget(live.id, seat, task))
        return task

    def _forget(self, game_id: str, seat: int, task: asyncio.Task[dict[str, Any]]) -> None:
        known = self.running.get((game_id, seat))
        if known is not None and known[1] is task:
            del self.running[(game_id, seat)]

    async def search(self, live: LiveGame, seat: int, owing: list[str]) -> dict[str, Any]:
        """Searches the decision's hint (once: claimed in the stored seat) and stores it."""
        service = self.service
        async with live.lock:
            game = live.game
            if game.is_over or owed_decisions(game, seat) != owing:
                raise ServiceError(409, "error.no_decision", "your seat owes no decision now")
            seq = len(game.log)
            legal = list(game.legal_actions(seat))
            view = game.view(seat, notifications=False)  # the hint sees what the seat sees, no more
            seed = bot_seed(game.state.options, seat) + seq
            # the decision's place in the round: the screen shows the hint while it is owed
            state = game.state
            hinted: dict[str, Any] = {"decisions": owing, "seq": seq, "at": [state.round, state.phase, state.step]}

            def claim(info: dict[str, Any]) -> bool:
                before = info.get("hinted") or {}
                if given(info, owing) is not None:
                    return False
                if before.get("decisions") == owing and time.time() - float(before.get("claimed", 0)) < CLAIM_SECONDS:
                    return False  # searched meanwhile by another process
                if before.get("decisions") != owing:
                    info["hints"] = int(info.get("hints", 0)) + 1  # a decision hinted, on record
                info["hinted"] = {**hinted, "claimed": time.time()}
                return True

            _, claimed = await service.update_seat(live, seat, claim)
        if not claimed:
            metrics.HINT_SEARCHES.labels("busy").inc()
            raise ServiceError(
                503, "error.hints_busy", "the hint is being searched: ask again", headers={"Retry-After": "2"}
            )
        service.publish(live)
        await service.broadcast(live)
        budget = min(CPU_SECONDS, service.limits.bot_cpu_seconds)
        try:
            try:
                found = await service.bot_pool.run(HINTS, True, hint_for, seat, legal, view, seed, budget)
            except Exception:
                metrics.HINT_SEARCHES.labels("failed").inc()
                raise
            metrics.HINT_SEARCHES.labels("found").inc()
            hinted["hint"] = hint_json(found)
        finally:  # the hint stored; or, when the search failed, the claim given up (asked again: searched)
            async with live.lock:

                def keep(info: dict[str, Any]) -> bool:
                    if (info.get("hinted") or {}).get("decisions") != owing:
                        return False  # the seat has moved on to another decision meanwhile
                    info["hinted"] = hinted if "hint" in hinted else {**hinted, "claimed": 0}
                    return True

                await service.update_seat(live, seat, keep, quiet=True)
        return hinted


def hints_router(service: GameService, seat_of: Callable[[HTTPConnection, LiveGame], Awaitable[int]]) -> APIRouter:
    """The hint's route; `seat_of` is the app's reading of a request's seat credential."""
    router = APIRouter()
    searches = Searches(service)

    @router.post("/api/games/{game_id}/hint")
    async def hint(game_id: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """The strong bot's choice for the decision your seat owes, with its reasons in your
        language and the two nearest alternatives: how far behind each is, in points of the
        searched futures won with its standard error, or that it is about even; one per decision
        (asked again, the same hint). 403 on a table that refuses hints;
        409 when your seat owes no decision; 429 past your address's allowance."""
        live = await service.get(game_id)
        require_capability(live.served, "hints")
        seat = await seat_of(request, live)
        if not live.hints:
            raise ServiceError(403, "error.hints_off", "this table plays without hints")
        language = request_language(request, lang, live.seats[seat]["language"])
        owing = owed_decisions(live.game, seat)
        if live.game.is_over or not owing:
            raise ServiceError(409, "error.no_decision", "your seat owes no decision now")
        hinted = given(live.seats[seat], owing)
        if hinted is None:
            hinted = await asyncio.shield(searches.start(request, live, seat, owing))
        names = {i: s["name"] for i, s in enumerate(live.seats)}
        view = live.game.view(seat, notifications=False)
        out = render_hint(hinted["hint"], language, view, live.game.world, names)
        out["seq"] = hinted["seq"]  # the position the hint was searched for
        out["at"] = hinted["at"]  # the decision's round, phase and step
        return out

    return router
