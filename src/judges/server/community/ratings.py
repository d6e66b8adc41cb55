"""Ratings (docs/accounts.md): rated games between accounts move their players'
OpenSkill Plackett-Luce ratings; bots are fixed anchors.

A finished game is considered once (table `rated_games`, whichever process gets there first):
it is rated when it started from the setup (no scenario position), every human seat is bound to
an account (server/community/accounts.py), the table was created without hints (a table with hints is
unrated from its creation, whether or not anyone asks for one), no takeover of a human seat by
the bot lasted into a second round (turn) after it began, no human seat's actions were half or
more the takeover bot's, it lasted the game's minimum (`Rating.min_progress`: rounds, turns),
every bot seat is one of the game's anchors, and it ended by the rules (not abandoned). At a
table whose every human seat is an account's, the takeover bot is the game's reference anchor
(server/table/bot_runner.py, `takeover_bot`). What differs between games is the game's
(games/served.py: `ServedGame.rating`, `placements`).
A player under a sanction (banned or suspended, server/community/moderation.py) when a game is rated keeps
his rating as it was; the others' move as the game says.
Each seat's rank is its place by the game's rules (`ServedGame.placements`); a player has one
rating per game (as on Board Game Arena): a game moves its own game's ratings only.

Routes: `GET /api/ratings?game=` (a game's leaderboard, the default game's without one, and
the anchors), `GET /api/players/{name}` (a player's rating in each game and history); pages
`/ratings?game=` and `/players/{name}`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from openskill.models import PlackettLuce
from sqlalchemy import and_, select
from sqlalchemy.exc import IntegrityError

from ...games.registry import GAMES, SERVED
from ...games.served import Rating
from ...i18n import LANGUAGES, gettext, request_language
from ..deps import rate_limited
from ..limits import clean_name
from ..store import GameStore, account_seats_table, accounts_table, games_table
from ..store.base import _now, _utc
from ..table import seats as seat_keys
from ..table.played import game_of, kit_of
from ..table.service import GameService, LiveGame, ServiceError
from .account_store import name_key
from .moderation_store import sanctioned_among
from .rating_tables import rated_games_table, rating_changes_table, ratings_table

log = logging.getLogger("judges.server")

WEB = Path(__file__).resolve().parents[2] / "web"  # src/judges/web
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6
NEW_MU, NEW_SIGMA = MODEL.mu, MODEL.sigma

# Bots are anchors: their ratings never move (each game's, `Rating.anchors`: the reference bot at
# a new player's mean, the others measured against it).
ANCHOR_SIGMA = 1.0

# why a finished game was not rated (rated_games.reason; the player page's words: rating.unrated.*)
# ("game": a game without the capability "ratings", games/served.py)
UNRATED = ("scenario", "guest", "hint", "takeover", "bot", "abandoned", "alone", "short", "game")

# A human seat whose actions the takeover bot played this share of, or more, is not rated.
MAX_BOT_SHARE = 0.5


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: mu - 3 sigma (the mean, less three deviations)."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Entry:
    seat: int
    rank: int
    account: int | None  # None: a bot anchor
    bot: str | None


@dataclass(frozen=True)
class Outcome:
    rated: bool
    reason: str | None
    entries: tuple[Entry, ...] = ()
    anchors: Mapping[str, float] = field(default_factory=dict)  # the game's (`Rating.anchors`)
    game: str = field(default_factory=lambda: game_of({}))  # the game rated: its ratings move (`game_of`)


def seat_account(seat: dict[str, Any]) -> int | None:
    return seat_keys.account_of(seat)


def rating_of(game: str) -> Rating:
    """What the ratings take from the game `game` (one with the capability "ratings")."""
    rating = SERVED[game].rating
    if rating is None:  # pragma: no cover - a game declaring "ratings" has its Rating
        raise ValueError(f"{game} has no ratings")
    return rating


def took_over_too_long(seat: dict[str, Any], last_round: int) -> bool:
    """Whether a bot played the human seat from one round (turn: the game's `progress`) into the
    second after it (the takeover
    events of the seat's history: away, then back; still away at the end counts to the end)."""
    since: int | None = None
    for event in seat.get("history", []):
        if "away" not in event:
            continue
        if event["away"] and since is None:
            since = int(event.get("round", 0))
        elif not event["away"] and since is not None:
            if int(event.get("round", 0)) - since > 1:
                return True
            since = None
    return since is not None and last_round - since > 1


def hinted_table(options: dict[str, Any], seats: list[dict[str, Any]]) -> bool:
    """Whether the table played with hints, which it decided at its creation (`hints`); a table
    stored before that choice was kept counts as hinted once a seat asked for one."""
    if "hints" in options:
        return bool(options["hints"])
    return any(int(seat.get("hints", 0) or 0) > 0 for seat in seats)


def played_by_bot(seat: dict[str, Any], player: int, log: list[Any]) -> bool:
    """Whether the takeover bot played `MAX_BOT_SHARE` of a human seat's actions, or more."""
    total = sum(1 for action in log if action.player == player)
    return total > 0 and seat_keys.bot_moves(seat, log, player) >= MAX_BOT_SHARE * total


def check(
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    ending: str | None,
    last_round: int | None,
    log: list[Any] | None = None,
) -> str | None:
    """Why a finished game of a game with ratings is not rated, or None: it is (the ranks aside).
    `last_round`: the game's `progress` at its end. Without it and the log, what the stored rows
    tell alone (the takeovers and the length unchecked)."""
    game = game_of(options)
    rating = rating_of(game)
    if ending not in (None, *GAMES[game].endings):
        return "abandoned"
    if options.get("position") is not None:
        return "scenario"
    accounts = []
    for seat in seats:
        if seat.get("kind") == "bot":
            if seat.get("bot") not in rating.anchors:
                return "bot"
            continue
        account = seat_account(seat)
        if account is None:
            return "guest"
        accounts.append(account)
    if hinted_table(options, seats):
        return "hint"
    if last_round is not None:
        if any(seat.get("kind") == "human" and took_over_too_long(seat, last_round) for seat in seats):
            return "takeover"
        if log is not None and any(
            seat.get("kind") == "human" and played_by_bot(seat, i, log) for i, seat in enumerate(seats)
        ):
            return "takeover"
        if last_round < rating.min_progress:
            return "short"
    if not accounts:
        return "alone"
    return None


def outcome_of(live: LiveGame, options: dict[str, Any], seats: list[dict[str, Any]], ending: str | None) -> Outcome:
    """The finished game's rating outcome (under the game's lock)."""
    played = live.played
    reason = check(options, seats, ending, played.progress, played.log())
    if reason is not None:
        return Outcome(False, reason)
    ranks = live.served.placements(played)
    entries = tuple(
        Entry(
            i,
            ranks[i],
            seat_account(seat) if seat.get("kind") == "human" else None,
            seat.get("bot") if seat.get("kind") == "bot" else None,
        )
        for i, seat in enumerate(seats)
    )
    game = game_of(options)
    return Outcome(True, None, entries, rating_of(game).anchors, game)


class RatingStore:
    """The ratings' tables (server/community/rating_tables.py), on the game store's engine."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def game_row(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]], str | None] | None:
        with self.store._session() as session:
            row = session.execute(
                select(games_table.c.options, games_table.c.seats, games_table.c.ending).where(
                    games_table.c.id == game_id
                )
            ).first()
        return (row.options, row.seats, row.ending) if row else None

    def unconsidered(self, limit: int) -> list[str]:
        """Finished games no process has considered yet (the oldest first)."""
        with self.store._session() as session:
            return list(
                session.scalars(
                    select(games_table.c.id)
                    .outerjoin(rated_games_table, rated_games_table.c.game_id == games_table.c.id)
                    .where(games_table.c.ending.is_not(None), rated_games_table.c.game_id.is_(None))
                    .order_by(games_table.c.updated_at)
                    .limit(limit)
                )
            )

    def considered(self, game_id: str) -> bool:
        with self.store._session() as session:
            return (
                session.scalar(select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id))
                is not None
            )

    def record(self, game_id: str, outcome: Outcome, attempts: int = 3) -> bool:
        """Records the game's outcome and moves the ratings, in one transaction; False if the
        game was considered already (by this process or another)."""
        for attempt in range(attempts):
            try:
                return self._record(game_id, outcome)
            except IntegrityError:
                # two games rated at once gave a new player a first rating twice: again, once
                if attempt == attempts - 1:
                    raise
        return False  # pragma: no cover

    def _record(self, game_id: str, outcome: Outcome) -> bool:
        now = _now()
        with self.store._session(write=True) as session:
            if session.scalar(select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)):
                return False
            try:
                session.execute(
                    rated_games_table.insert().values(
                        game_id=game_id, rated=outcome.rated, reason=outcome.reason, at=now
                    )
                )
                session.flush()
            except IntegrityError:
                session.rollback()
                return False  # another process's, a moment ago
            if outcome.rated:
                accounts = [e.account for e in outcome.entries if e.account is not None]
                query = select(ratings_table).where(
                    ratings_table.c.account_id.in_(accounts), ratings_table.c.game == outcome.game
                )
                if not self.store.is_sqlite:
                    query = query.with_for_update()  # games ending at once: one after the other
                current = {r.account_id: r for r in session.execute(query)}
                before: list[tuple[float, float]] = []
                for e in outcome.entries:
                    if e.account is None:
                        before.append((outcome.anchors[str(e.bot)], ANCHOR_SIGMA))
                    elif e.account in current:
                        before.append((current[e.account].mu, current[e.account].sigma))
                    else:
                        before.append((NEW_MU, NEW_SIGMA))
                after = rate(before, [e.rank for e in outcome.entries])
                frozen = sanctioned_among(
                    session, accounts, now
                )  # banned or suspended (server/community/moderation.py)
                for e, (mu0, sigma0), (mu1, sigma1) in zip(outcome.entries, before, after):
                    if e.account is None:
                        mu1, sigma1 = mu0, sigma0  # an anchor stays where it is
                    elif e.account in frozen:
                        mu1, sigma1 = mu0, sigma0  # a sanctioned player's rating is frozen
                    elif e.account in current:
                        session.execute(
                            ratings_table.update()
                            .where(ratings_table.c.account_id == e.account, ratings_table.c.game == outcome.game)
                            .values(mu=mu1, sigma=sigma1, games=current[e.account].games + 1, updated_at=now)
                        )
                    else:
                        session.execute(
                            ratings_table.insert().values(
                                account_id=e.account, game=outcome.game, mu=mu1, sigma=sigma1, games=1, updated_at=now
                            )
                        )
                    session.execute(
                        rating_changes_table.insert().values(
                            game_id=game_id,
                            seat=e.seat,
                            account_id=e.account,
                            bot=e.bot,
                            rank=e.rank,
                            mu_before=mu0,
                            sigma_before=sigma0,
                            mu_after=mu1,
                            sigma_after=sigma1,
                            at=now,
                        )
                    )
            session.commit()
        return True

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The players rated in the game `game`, the best first."""
        with self.store._session() as session:
            rows = session.execute(
                select(ratings_table, accounts_table.c.name)
                .join(accounts_table, accounts_table.c.id == ratings_table.c.account_id)
                .where(ratings_table.c.game == game)
            ).all()
        players = [
            {
                "name": r.name,
                "rating": round(ordinal(r.mu, r.sigma), 2),
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "games": r.games,
            }
            for r in rows
        ]
        players.sort(key=lambda p: (-p["rating"], name_key(p["name"])))
        return players[:limit]

    def player(self, name: str, limit: int) -> dict[str, Any] | None:
        """An account's rating in each game and its rated games, the latest first (with every
        seat's change); its top-level rating is the default game's."""
        with self.store._session() as session:
            account = session.execute(
                select(accounts_table.c.id, accounts_table.c.name).where(accounts_table.c.name_key == name_key(name))
            ).first()
            if account is None:
                return None
            rated = session.execute(select(ratings_table).where(ratings_table.c.account_id == account.id)).all()
            mine = (
                session.execute(
                    select(rating_changes_table)
                    .where(rating_changes_table.c.account_id == account.id)
                    .order_by(rating_changes_table.c.at.desc(), rating_changes_table.c.game_id)
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            games = [r["game_id"] for r in mine]
            others = (
                session.execute(
                    select(rating_changes_table, accounts_table.c.name, games_table.c.seats, games_table.c.options)
                    .join(games_table, games_table.c.id == rating_changes_table.c.game_id)
                    .outerjoin(accounts_table, accounts_table.c.id == rating_changes_table.c.account_id)
                    .where(rating_changes_table.c.game_id.in_(games))
                    .order_by(rating_changes_table.c.seat)
                )
                .mappings()
                .all()
            )
            bound = session.execute(
                select(games_table.c.seats, account_seats_table.c.seat)
                .join(account_seats_table, account_seats_table.c.game_id == games_table.c.id)
                .where(account_seats_table.c.account_id == account.id)
            ).all()
        table: dict[str, list[dict[str, Any]]] = {}
        played = {r["game_id"]: game_of(r["options"]) for r in others}  # each rated game's game
        for r in others:
            seat_name = r["seats"][r["seat"]]["name"] if r["seat"] < len(r["seats"]) else ""
            table.setdefault(r["game_id"], []).append(
                {"seat": r["seat"], "name": r["name"] or seat_name, "bot": r["bot"], "rank": r["rank"]}
            )
        # paced games' missed deadlines (server/community/paces.py), from the seats still the account's
        seats = [
            r.seats[r.seat] for r in bound if r.seat < len(r.seats) and seat_account(r.seats[r.seat]) == account.id
        ]
        ratings = {r.game: shown(r.mu, r.sigma, r.games) for r in rated}
        return {
            "name": account.name,
            "missed": sum(int(s.get("missed", 0)) for s in seats),
            "missed_row": max((int(s.get("missed_most", 0)) for s in seats), default=0),
            **ratings.get(game_of({}), shown(NEW_MU, NEW_SIGMA, 0)),
            # each game the player has a rating in, the registry's order
            "ratings": [{"game": name, **ratings[name]} for name in SERVED if name in ratings],
            "history": [
                {
                    "game": r["game_id"],
                    "game_name": played.get(r["game_id"], game_of({})),  # the rating it moved
                    "at": int(_utc(r["at"]).timestamp()),
                    "rank": r["rank"],
                    "players": len(table.get(r["game_id"], [])),
                    "table": table.get(r["game_id"], []),
                    "before": round(ordinal(r["mu_before"], r["sigma_before"]), 2),
                    "after": round(ordinal(r["mu_after"], r["sigma_after"]), 2),
                    "replay": f"/games/{r['game_id']}/replay",
                }
                for r in mine
            ],
        }

    def change_of(self, game_id: str, account_id: int) -> dict[str, Any] | None:
        with self.store._session() as session:
            r = session.execute(
                select(rating_changes_table).where(
                    and_(rating_changes_table.c.game_id == game_id, rating_changes_table.c.account_id == account_id)
                )
            ).first()
        if r is None:
            return None
        return {
            "before": round(ordinal(r.mu_before, r.sigma_before), 2),
            "after": round(ordinal(r.mu_after, r.sigma_after), 2),
        }


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the answers show it: `rating` (mu - 3 sigma), mu, sigma and its rated games."""
    return {"rating": round(ordinal(mu, sigma), 2), "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games}


def rate(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The library's Plackett-Luce update of a free-for-all game (one player a team)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=[float(r) for r in ranks])]


class Ratings:
    """The ratings of a server: considers each finished game once and moves the ratings."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = RatingStore(service.store)

    def game_ended(self, live: LiveGame) -> None:
        """The service's hook: a game just ended (its last action committed by this process)."""
        self.service.rt.spawn(self.consider(live.id))

    async def consider(self, game_id: str) -> bool:
        """Rates the finished game (or records why not); False if it was considered already."""
        service = self.service
        if await service.db(self.store.considered, game_id):
            return False
        row = await service.db(self.store.game_row, game_id)
        if row is None or row[2] is None:
            return False
        options, seats, ending = row
        game = game_of(options)
        # a game without ratings, or what the rows tell (the takeovers and the length: checked below)
        quick = "game" if "ratings" not in SERVED[game].capabilities else check(options, seats, ending, None)
        if quick is not None:
            outcome = Outcome(False, quick)  # decided without loading the game
        else:
            live = await service.get(game_id)
            async with live.lock:
                outcome = outcome_of(live, options, seats, ending)
        try:
            return bool(await service.db(self.store.record, game_id, outcome))
        except ServiceError:
            log.warning("game %s was not rated now: the database is away (the sweep tries again)", game_id)
            return False

    async def sweep(self, limit: int = 20) -> int:
        """Considers the finished games no process has considered yet (after a crash, or games
        finished before this server); answers how many."""
        done = 0
        for game_id in await self.service.db(self.store.unconsidered, limit):
            try:
                done += await self.consider(game_id)
            except ServiceError:  # a game beyond this server's bounds, or the database away
                continue
        return done


def _page(request: Request, template: str, lang: str | None, **values: Any) -> HTMLResponse:
    language = request_language(request, lang)
    return HTMLResponse(
        templates.get_template(template).render(
            lang=language, t=lambda key, **p: gettext(language, key, **p), languages=LANGUAGES, **values
        )
    )


def blank(name: str) -> dict[str, Any]:
    """The record of a player who never played a rated game (or of no account at all)."""
    return {
        "name": clean_name(name),
        "missed": 0,
        "missed_row": 0,
        **shown(NEW_MU, NEW_SIGMA, 0),
        "ratings": [],
        "history": [],
    }


def anchors() -> list[dict[str, Any]]:
    """Every rated game's anchors, game by game (the registry's order), the strongest first."""
    return [
        {"game": name, "bot": bot, "rating": round(ordinal(mu, ANCHOR_SIGMA), 2), "mu": mu, "sigma": ANCHOR_SIGMA}
        for name in rated_games()
        for bot, mu in sorted(rating_of(name).anchors.items(), key=lambda item: -item[1])
    ]


def rated_games() -> list[str]:
    """The games whose tables are rated, the registry's order."""
    return [name for name, served in SERVED.items() if served.rating is not None and "ratings" in served.capabilities]


def ratings_router(ratings: Ratings) -> APIRouter:
    router = APIRouter()
    service = ratings.service

    async def board(game: str | None, limit: int) -> dict[str, Any]:
        """The game's leaderboard (the default game's when none is named; 422
        `error.unknown_game` for a game the server does not host)."""
        game = game_of({}) if game is None else game
        kit_of(game)  # a game this server hosts
        players = await service.db(ratings.store.leaderboard, game, max(1, min(limit, 500)))
        for i, p in enumerate(players):
            p["place"] = i + 1
        return {"game": game, "players": players, "anchors": anchors()}

    async def player(request: Request, name: str, limit: int) -> dict[str, Any]:
        """A player's record. A name of no account answers as an account that never played a
        rated game (no one learns from it which names are accounts); per client address, the
        allowance of reads (`Limits.read_burst`, 429 `error.rate_reads`)."""
        address = request.client.host if request.client else ""
        rate_limited(request.app.state.rates.read, address, "error.rate_reads", "requests")
        found = await service.db(ratings.store.player, name[:200], max(1, min(limit, 500)))
        record = dict(found) if found is not None else blank(name)
        record["name"] = clean_name(name)  # as asked, whichever spelling the account has
        return record

    @router.get("/api/ratings")
    async def leaderboard(game: str | None = None, limit: int = 100) -> dict[str, Any]:
        """A game's rated players (`game`: the default game's without one), the best first
        (`rating`: mu - 3 sigma), and the bots' fixed anchors of every rated game."""
        return await board(game, limit)

    @router.get("/api/players/{name}")
    async def player_api(request: Request, name: str, limit: int = 100) -> dict[str, Any]:
        """A player's rating in each game and rated games, the latest first (rank, table, rating
        before and after); a name of no account answers as a player with none."""
        return await player(request, name, limit)

    @router.get("/ratings", response_class=HTMLResponse, include_in_schema=False)
    async def leaderboard_page(request: Request, game: str | None = None, lang: str | None = None) -> HTMLResponse:
        data = await board(game, 100)
        language = request_language(request, lang)
        for anchor in data["anchors"]:
            anchor["title"] = kit_of(anchor["game"]).title(language)
        # the games the reader may pick, each in his words
        data["games"] = [{"game": name, "title": kit_of(name).title(language)} for name in rated_games()]
        return _page(request, "ratings.html", lang, **data)

    @router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def player_page(request: Request, name: str, lang: str | None = None) -> HTMLResponse:
        data = await player(request, name, 100)
        language = request_language(request, lang)
        for entry in data["history"]:
            entry["date"] = datetime.fromtimestamp(entry["at"]).date().isoformat()
            entry["title"] = kit_of(entry["game_name"]).title(language)
        for rating in data["ratings"]:
            rating["title"] = kit_of(rating["game"]).title(language)
        return _page(request, "player.html", lang, player=data)

    return router
