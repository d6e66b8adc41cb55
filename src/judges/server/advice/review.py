"""The review after the game: `GET /api/games/{id}/review` (the seat's credential).

Once a game is over, a human seat may ask for its costliest decisions, each measured beyond its
noise (bots/review.py: every decision screened, the candidates re-measured on 48 paired
samples against the hint's choice there, taken-back steps left out): the game is replayed and
searched on the bots' pool (`FairPool`, off the event loop; other tables never wait for it)
within `REVIEW_BUDGETS` times the CPU budget of one bot decision (`Limits.bot_cpu_seconds`).
One review a seat: asked again, or twice at once, it is searched once (asked again after its
search failed, searched again). The final table's screen
shows it (web/static/js/review.js).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from fastapi import APIRouter, Request
from starlette.requests import HTTPConnection

from ...bots.review import Costly
from ...i18n import gettext, render_action, request_language
from ..table.played import require_capability
from ..table.service import SERVER_OPTIONS, GameService, LiveGame, ServiceError, bot_seed
from ..workers import review_game

REVIEW_BUDGETS = 15  # a review's CPU: this many bot decisions' budget (30 s at the default 2 s)
MAX_KEPT = 1_000  # reviews kept in memory (the oldest go first)


def review_router(service: GameService, seat_of: Callable[[HTTPConnection, LiveGame], Awaitable[int]]) -> APIRouter:
    """The review's route; `seat_of` is the app's reading of a request's seat credential."""
    router = APIRouter()
    reviews: dict[tuple[str, int], asyncio.Task[list[Costly]]] = {}

    @router.get("/api/games/{game_id}/review")
    async def game_review(game_id: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """Your costliest decisions of a finished game (three at most), each beyond its noise: the
        round, the phase, what you chose and the hint's choice there, both valued in % of the
        searched futures won, the cost in points with its standard error, how sure the samples
        are (%), and how many paired samples measured it. 409 until the game is over."""
        live = await service.get(game_id)
        require_capability(live.served, "review")
        seat = await seat_of(request, live)
        language = request_language(request, lang, live.seats[seat]["language"])
        async with live.lock:
            game = live.game
            if not game.is_over:
                raise ServiceError(409, "error.not_over", "a game is reviewed once it is over")
            log = list(game.log)
            world = game.world
            costs = game.state.options.rules.costs
            options_now = msgspec.to_builtins(game.state.options)
            seed = bot_seed(game.state.options, seat)
        task = reviews.get((live.id, seat))
        if task is None or (task.done() and task.exception() is not None):
            stored = await service.db(service.store.load, live.id)
            options = {**stored.options, **options_now}
            if len(reviews) >= MAX_KEPT:
                for key in list(reviews)[: MAX_KEPT // 2]:
                    del reviews[key]
            budget = REVIEW_BUDGETS * service.limits.bot_cpu_seconds
            rules, position = {k: v for k, v in options.items() if k not in SERVER_OPTIONS}, options.get("position")
            run = service.bot_pool.run(live.id, True, review_game, rules, position, log, seat, seed, budget)
            task = reviews[(live.id, seat)] = asyncio.ensure_future(run)
        found = await asyncio.shield(task)
        names = live.names()

        def words(item: Costly, action: dict[str, Any]) -> str:
            return render_action(action, language, world, names, owners=item.owners, costs=costs, events=item.events)

        decisions = []
        for item in found:
            played, best = words(item, item.played), words(item, item.best)
            decisions.append(
                {
                    "seq": item.seq,
                    "round": item.round,
                    "phase": item.phase,
                    "played": {"action": item.played, "value": item.played_value, "text": played},
                    "best": {"action": item.best, "value": item.best_value, "text": best},
                    "cost": item.cost,
                    "error": item.error,
                    "sure": round(100 * item.sure),
                    "samples": item.samples,
                    "text": gettext(
                        language,
                        "review.item",
                        round=item.round,
                        phase=gettext(language, f"phase.{item.phase}"),
                        played=played,
                        best=best,
                        cost=round(item.cost),
                        error=max(1, round(item.error)),
                        sure=round(100 * item.sure),
                        samples=item.samples,
                    ),
                }
            )
        return {
            "seat": seat,
            "decisions": decisions,
            "title": gettext(language, "review.title", count=len(decisions))
            if decisions
            else gettext(language, "review.title_none"),
            "measure": gettext(language, "review.measure"),
            "none": gettext(language, "review.none"),
        }

    return router
