"""The lobby's rows (`GET /api/lobby`, docs/web.md "The lobby"): what tells one table from
another at a glance, as a Board Game Arena regular reads a lobby: the table's number, where the
game is (its round and phase, in its game's and the reader's words), how long ago it began and
last moved, and at each seat its player: an account's name and rating, a guest's chosen name,
or a bot.

The rows come from the store's list of games; a running game's round, phase and the accounts
its seats are bound to come from its copy in memory (every unfinished game is loaded when the
server starts, `GameService.resume_all`), so the lobby reads no game's actions. The accounts'
names and ratings are one query for every row.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import select

from ..store import GameStore, accounts_table
from ..store.records import GameSummary
from ..table import seats as seat_keys
from ..table.played import game_of, kit_of
from ..table.tables import LiveGame
from .accounts import Accounts
from .rating_tables import ratings_table
from .ratings import ordinal

# A new account's rating: OpenSkill's default mu 25, sigma 25/3 (server/community/ratings.py), shown as 0.
NEW_RATING = 0.0


def table_number(game_id: str) -> int:
    """The table's number players call it by ("table 482913"): six digits drawn from its id,
    the same in every process and after every restart, with no column of its own."""
    return 100_000 + int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big") % 900_000


def players(store: GameStore, account_ids: set[int]) -> dict[int, tuple[str, dict[str, float]]]:
    """Each account's name and its rating in each game it has one in (mu - 3 sigma)."""
    if not account_ids:
        return {}
    with store._session() as session:
        rows = session.execute(
            select(
                accounts_table.c.id,
                accounts_table.c.name,
                ratings_table.c.game,
                ratings_table.c.mu,
                ratings_table.c.sigma,
            )
            .outerjoin(ratings_table, ratings_table.c.account_id == accounts_table.c.id)
            .where(accounts_table.c.id.in_(account_ids))
        ).all()
    found: dict[int, tuple[str, dict[str, float]]] = {}
    for r in rows:
        ratings = found.setdefault(r.id, (r.name, {}))[1]
        if r.game is not None:
            ratings[r.game] = round(ordinal(r.mu, r.sigma), 1)
    return found


def bound_accounts(summary: GameSummary, live: LiveGame | None) -> list[int | None]:
    """The account each seat is bound to now (a seat that changed hands is no longer its
    account's: checked on the copy in memory, which holds the seats' credentials)."""
    if live is None:
        return [None] * len(summary.seats)
    out: list[int | None] = []
    for seat in live.seats:
        account = seat.get("account")
        out.append(account if isinstance(account, int) and Accounts.bound(seat, account) else None)
    return out


def row(
    summary: GameSummary,
    live: LiveGame | None,
    accounts: list[int | None],
    known: dict[int, tuple[str, dict[str, float]]],
    language: str,
) -> dict[str, Any]:
    """One table of the lobby (see the module docstring); `where` in `language`; an account's
    rating is its rating in the table's game (a player never rated in it shows 0)."""
    game = game_of(summary.options)
    # an unnamed seat's name (a Rome faction's "Faction 2") in the reader's words
    names = kit_of(game).names_for({index: seat["name"] for index, seat in enumerate(summary.seats)}, language)
    seats = []
    for index, (seat, account) in enumerate(zip(summary.seats, accounts, strict=True)):
        entry: dict[str, Any] = {
            "name": names[index],
            "kind": seat["kind"],
            "open": seat_keys.free(seat),
            "bot": seat.get("bot") if seat["kind"] == "bot" else None,
        }
        if account is not None and account in known:
            entry["account"], ratings = known[account]
            entry["rating"] = ratings.get(game, NEW_RATING)
        seats.append(entry)
    entry = {
        "id": summary.id,
        "table": table_number(summary.id),
        "seats": seats,
        "actions": summary.action_count,
        "round": live.played.progress if live is not None else None,
        "phase": live.kit.lobby_phase(live.game) if live is not None else None,
        # its game's words for where it is: "round 3, Movement", "turn 2, Senate phase"
        "where": live.kit.where(live.game, language) if live is not None else None,
        "created": int(summary.created_at.timestamp()),
        "moved": int(summary.updated_at.timestamp()),
        "ending": summary.ending,
        "winners": summary.winners,
        # decided at creation: a table with hints is unrated (server/community/ratings.py)
        "hints": bool(summary.options.get("hints", True)),
    }
    if "game" in summary.options:  # a table of the default game names none (its rows as they always were)
        entry["game"] = game
    return entry
