"""A table's API: creating a game, a seat's view and actions, claiming an invitation, the export."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from ...engine import DEFAULT_RULES
from ...engine.setup import ROUND_LIMIT_MAX
from ...games.served import RulesRefused
from ...i18n import request_language
from ..community.paces import Pace
from ..deps import AccountsDep, LimitsDep, Options, OptionsDep, RatesDep, ServiceDep, rate_limited, seat_of
from ..errors import ServiceError
from ..limits import Limits
from ..table import seats as seat_keys
from ..table.played import DEFAULT_GAME, game_named, kit_of, require_capability
from ..table.tables import reading

router = APIRouter()


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(
        default=None, max_length=40, description="bot name for a bot seat: random, greedy, mcts, or mcts:N:H:S"
    )
    name: str | None = Field(
        default=None, max_length=200, description="cleaned of control characters, at most 40 characters"
    )
    language: str | None = Field(default=None, description="the seat's language (default: the reader's browser)")
    open: bool = Field(default=False, description="a human seat left free for whoever takes it from the lobby")


class CreateGame(BaseModel):
    game: str = Field(
        default=DEFAULT_GAME,
        max_length=40,
        description='the game the table plays: "judges" (Judges & Kings) or "rome" (Republic of Rome)',
    )
    seats: list[SeatSpec] = Field(min_length=DEFAULT_RULES.min_players, max_length=DEFAULT_RULES.max_players)
    host_seat: int | None = Field(
        default=None, ge=0, description="the creator's own seat (a human seat; default: the first)"
    )
    wave_pairs: int = Field(default=DEFAULT_RULES.default_wave_pairs, ge=1, le=DEFAULT_RULES.max_wave_pairs)
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**62,
        description="a SplitMix64 seed of the creator's choosing: refused unless the server "
        "allows seeds (tests, design); by default the server draws 256 random "
        "bits for the game's dice",
    )
    round_limit: int | None = Field(default=None, ge=1, le=ROUND_LIMIT_MAX)
    turn_timer: float | None = Field(
        default=None,
        gt=0,
        le=86400,
        description="seconds a human may take over a decision before a bot plays the seat (at least 10)",
    )
    hints: bool = Field(
        default=False,
        description="whether the players may ask for hints (server/advice/hints.py); a table with hints is "
        "not rated, a table without them may be (server/community/ratings.py)",
    )
    pace: Pace | None = Field(  # server/community/paces.py
        default=None, description='a deadline per decision, {"hours": 24} or {"days": 2} (default: live)'
    )
    takeover_bot: str | None = Field(
        default=None,
        max_length=40,
        description="the bot that plays a seat whose player left or ran out of time "
        '(default: Judges & Kings "mcts", Republic of Rome "neutral")',
    )
    rules: dict[str, Any] | None = Field(
        default=None,
        description='rules differing from the defaults, by name (e.g. {"map": "canaan", '
        '"wrath_threshold": 10}); stored with the game',
    )
    position: dict[str, Any] | None = Field(
        default=None, description="a scenario position (docs/scenarios.md); only when the server allows scenarios"
    )


class SubmitAction(BaseModel):
    action: dict[str, Any]
    client_action_id: str | None = Field(default=None, max_length=100, description="unique per seat")


class Claim(BaseModel):
    invitation: str = Field(max_length=100, description="the code at the end of the invitation link")


# The options of a new table only some games have, and the capability each needs.
GAME_OPTIONS = (("wave_pairs", "wave_pairs"), ("round_limit", "round_limit"), ("position", "scenarios"))


def _check_creation(spec: CreateGame, limits: Limits, options: Options) -> None:
    """What the server refuses of a new table before the rules see it."""
    served = kit_of(spec.game).served  # 422 for a game this server does not host
    for option, capability in GAME_OPTIONS:
        if option in spec.model_fields_set and getattr(spec, option) is not None:
            require_capability(served, capability)
    if spec.hints:
        require_capability(served, "hints")
    if spec.turn_timer is not None and spec.turn_timer < limits.min_turn_timer:
        raise ServiceError(
            422,
            "error.turn_timer",
            f"a turn timer is at least {limits.min_turn_timer:g} seconds",
            limit=limits.min_turn_timer,
        )
    if spec.pace is not None and spec.turn_timer is not None:  # a paced table has no turn timer
        raise ServiceError(422, "error.pace_timer", "a table has a pace or a turn timer, not both")
    if spec.position is not None and not options.allow_scenarios:
        raise ServiceError(403, "error.scenarios_off", "this server does not start games from scenario positions")
    if spec.seed is not None and not options.allow_seeds:
        raise ServiceError(
            422,
            "error.seed_refused",
            "the server draws every game's seed itself: a game cannot be created with a seed of its creator's choosing",
        )


@router.post("/api/games", status_code=201)
async def create_game(
    spec: CreateGame,
    request: Request,
    response: Response,
    service: ServiceDep,
    accounts: AccountsDep,
    limits: LimitsDep,
    rates: RatesDep,
    options: OptionsDep,
) -> dict:
    """Creates a game. Answers the credential of the creator's own seat (also set as the
    game's cookie) and one invitation link per other human seat: whoever opens it takes
    that seat and receives its own credential, which the creator never sees."""
    rate_limited(rates.create, request.client.host if request.client else "", "error.rate_create", "new games")
    _check_creation(spec, limits, options)
    await request.app.state.moderation.refuse_sanctioned(request)  # a banned account makes no table
    served = kit_of(spec.game).served
    try:
        rules = served.parse_rules(spec.rules)
    except RulesRefused as exc:  # an unknown rule, a wrong kind, or one beyond the game's bounds
        raise ServiceError(422, exc.key, exc.message, **exc.params) from None
    live, token, invitations = await service.create(
        [s.model_dump() for s in spec.seats],
        spec.wave_pairs,
        spec.seed,
        spec.round_limit,
        spec.position,
        spec.turn_timer,
        spec.takeover_bot or kit_of(served.name).takeover_bot,
        rules,
        spec.host_seat,
        spec.hints,
        {"pace": {"hours": spec.pace.in_hours()}} if spec.pace else None,  # server options: the pace
        served.name,
        request_language(request),  # an unnamed seat's name is in its creator's words
    )
    if spec.pace:  # the deadlines (server/community/paces.py)
        request.app.state.upkeep.paces.started(live.id, spec.pace.in_hours())
    host = seat_keys.host_seat(live.seats)
    if host is not None:  # signed in: the host's seat is his account's, and takes its name
        await accounts.bind(request, live, host, token)
    base = str(request.base_url).rstrip("/")
    seats = []
    for i, seat in enumerate(live.seats):
        entry = {"seat": i, "name": seat["name"], "kind": seat["kind"], "bot": seat["bot"]}
        if i in invitations:
            entry["invitation"] = seat_keys.invitation_link(base, live.id, invitations[i])
        if seat.get("open"):
            entry["open"] = True  # taken from the lobby (POST /api/games/{id}/join)
        seats.append(entry)
    seat_keys.set_seat_cookie(response, request, live.id, token)
    service.wake_bots(live)
    # Published before the first die: the SHA-256 of the dice's seed, revealed at the end.
    answer = {
        "id": live.id,
        "seat": host,
        "token": token,
        "link": f"{base}/games/{live.id}",
        "seats": seats,
        "dice": {"generator": live.game.state.options.dice, "commitment": served.commitment(live.played)},
    }
    return answer | game_named(served.name)


@router.get("/api/games/{game_id}/view")
async def view(
    game_id: str, request: Request, service: ServiceDep, lang: str | None = None, since: int = -1
) -> Response:
    """Your seat's view: the public state, your hand, what you may do, your notifications
    (after id `since`). Your seat: the X-Seat-Token header, or the game's cookie."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    language = request_language(request, lang, live.seats[seat]["language"])
    async with reading(live):  # never show an action before it is committed
        body = service.view_bytes(live, seat, language, since)
    return Response(body, media_type="application/json")


@router.post("/api/games/{game_id}/actions")
async def act(game_id: str, body: SubmitAction, request: Request, service: ServiceDep) -> dict:
    """Submits one action of your seat. Refused actions answer 422 with the rule they break
    and change nothing; a seat's same client_action_id is applied once."""
    live = await service.get(game_id)
    seat = await seat_of(request, live)
    return await service.submit(live, seat, body.action, body.client_action_id)


@router.post("/api/games/{game_id}/claim")
async def claim(
    game_id: str, body: Claim, request: Request, response: Response, service: ServiceDep, accounts: AccountsDep
) -> dict:
    """Takes the seat of an invitation (API clients): answers the seat's own credential,
    to send as X-Seat-Token (also set as the game's cookie). The invitation is spent."""
    live = await service.get(game_id)
    await accounts.refuse_seated(request, live)
    seat, token = await service.claim(live, body.invitation, seat_keys.credential(request, game_id)[0])
    await accounts.bind(request, live, seat, token)
    seat_keys.set_seat_cookie(response, request, game_id, token)
    return {"seat": seat, "token": token}


@router.get("/api/games/{game_id}/export")
async def export(game_id: str, request: Request, service: ServiceDep) -> dict:
    """A finished game's export, for `judges verify`: options, the revealed seed, the
    commitment published at the start, the action log and the result. 409 until the game
    is over."""
    live = await service.get(game_id)
    await seat_of(request, live)
    return await service.export(live)
