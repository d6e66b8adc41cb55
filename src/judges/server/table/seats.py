"""Private seats: every seat has its own credential, and nobody else learns it.

Creating a table gives the creator (the host) the credential of their own seat and one
invitation per other human seat. Whoever opens an invitation and takes the seat receives the
seat's credential, once: as an HttpOnly, SameSite cookie named after the game (browsers), and
in the answer (API clients, which send it back as `X-Seat-Token`). The invitation is then
spent. The host may revoke a seat (its credential stops working and the takeover bot plays
it) and issue a new invitation for it.

What is stored, in each seat of `games.seats` (a JSON column): `token_hash` (the seat's
credential, hashed; None while the seat is unclaimed), `invite_hash` (the open invitation,
hashed; None once it is spent) and `host` (the creator's seat). Neither secret is stored in
clear, so the database does not give them away either.

The host cannot take a seat's secrets: a seat whose player is present (`present`:
the seat is held, not handed to a bot, and its player's last sign of life, `seen`, is recent)
is handed over only with the consent of the other players present (`consent`); a player holds
one seat of a table; and a seat's new player (`hand_to`: `holder` counts them) reads its
private conversations only from the chat id at which they took it (`chat_from`): the
previous player's stay theirs. The hand passes with the seat: it is the game's.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..store import hash_token, new_token, verify_token

COOKIE_PREFIX = "jk_seat_"
COOKIE_MAX_AGE = 30 * 86400
HEADER = "x-seat-token"


def cookie_name(game_id: str) -> str:
    """One cookie per game (a game's id is URL-safe base64, valid in a cookie's name)."""
    return COOKIE_PREFIX + game_id


def credential(conn: HTTPConnection, game_id: str) -> tuple[str | None, bool]:
    """The seat credential a request carries: the X-Seat-Token header (API clients), else the
    game's cookie (browsers). The flag says it came from the cookie."""
    token = conn.headers.get(HEADER)
    if token:
        return token, False
    token = conn.cookies.get(cookie_name(game_id))
    return (token, True) if token else (None, False)


# The methods that change nothing: a link followed from another site may open a page with them.
SAFE_METHODS = frozenset({"GET", "HEAD"})


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a request may use the site's cookies: it comes from one of the site's own pages,
    or the player opened it himself, or it is no browser's. A cookie rides along with requests
    from other sites' pages too (SameSite=Lax lets a same-site page, another port of the same
    host, send it with a form), so a request it authenticates must show where it comes from:

    - `Sec-Fetch-Site` (fetch metadata: set by the browser, no page can forge it) is trusted
      when sent: `same-origin`, or `none` (typed, a bookmark, a link in a mail program); from
      another site (`same-site`, `cross-site`) only a link followed to a page, a top-level GET
      navigation, which changes nothing;
    - else `Origin` (a browser without fetch metadata): this site's; `null` (a sandboxed frame,
      a page whose referrer policy hides it) is refused;
    - else, for a request that may change something, `Referer` if sent: this site's;
    - else it is a client that is no browser (an API client): its cookies are its own.

    The pages are served with `Referrer-Policy: same-origin`, so a browser names this site in
    its own requests' `Origin` and `Referer` (under `no-referrer` it sent `Origin: null`)."""
    headers = conn.headers
    host = headers.get("host")
    changes = conn.scope["type"] != "http" or conn.scope.get("method") not in SAFE_METHODS
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site in ("same-origin", "none"):
            return True
        return (
            not changes and headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") == "document"
        )
    origin = headers.get("origin")
    if origin is not None:
        return origin != "null" and urlsplit(origin).netloc == host
    referer = headers.get("referer")
    if referer and changes:
        return urlsplit(referer).netloc == host
    return True


def set_seat_cookie(response: Response, conn: HTTPConnection, game_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(game_id),
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=conn.url.scheme in ("https", "wss"),
    )


def new_invitation(seat: dict[str, Any]) -> str:
    """Opens a fresh invitation for `seat` (replacing any earlier one); returns its code."""
    code = new_token()
    seat["invite_hash"] = hash_token(code)
    return code


def new_credential(seat: dict[str, Any]) -> str:
    """Gives `seat` a fresh credential (any earlier one stops working); returns it."""
    token = new_token()
    seat["token_hash"] = hash_token(token)
    return token


def invited_seat(seats: list[dict[str, Any]], code: str | None) -> int | None:
    """The seat whose open invitation `code` is, or None."""
    for i, seat in enumerate(seats):
        if verify_token(code, seat.get("invite_hash")):
            return i
    return None


def invitation_link(base: str, game_id: str, code: str) -> str:
    return f"{base}/join/{game_id}/{code}"


def new_resume_code(seat: dict[str, Any]) -> str:
    """Opens a fresh resume link for `seat` (an earlier one stops working); returns its code.
    A guest's seat lives in one browser's cookie: the link brings it to another browser."""
    code = new_token()
    seat["resume_hash"] = hash_token(code)
    return code


def resumed_seat(seats: list[dict[str, Any]], code: str | None) -> int | None:
    """The held seat whose resume link `code` is, or None."""
    for i, seat in enumerate(seats):
        if held(seat) and verify_token(code, seat.get("resume_hash")):
            return i
    return None


def resume_link(base: str, game_id: str, code: str) -> str:
    return f"{base}/resume/{game_id}/{code}"


def host_seat(seats: list[dict[str, Any]]) -> int | None:
    return next((i for i, s in enumerate(seats) if s.get("host")), None)


def free(seat: dict[str, Any]) -> bool:
    """A seat the lobby offers: left open at creation, and no invitation reserves it."""
    return bool(seat.get("open")) and not seat.get("invite_hash")


def held(seat: dict[str, Any]) -> bool:
    """Whether someone holds the seat's credential now."""
    return bool(seat.get("token_hash"))


def present(seat: dict[str, Any], now: float, absent_after: float) -> bool:
    """Whether the seat's player is at the table, as the store knows it: the seat is held, not
    handed to a bot (away: left, or the turn timer ran out), and its player showed a sign of
    life (a socket open, a request) less than `absent_after` seconds ago."""
    return held(seat) and not seat.get("away") and now - float(seat.get("seen", 0.0)) < absent_after


def had_holder(seat: dict[str, Any]) -> bool:
    """Whether anyone held the seat before (seats stored before `holder` existed: a credential,
    or a revocation in their history)."""
    return (
        bool(seat.get("holder"))
        or held(seat)
        or any(event.get("reason") == "revoked" for event in seat.get("history", []))
    )


def hand_to(seat: dict[str, Any], token_hash: str, chat_count: int, now: float) -> bool:
    """Gives `seat` to a new player (an invitation claimed, a free seat taken from the lobby):
    their credential, no invitation, no consent to hand it over; if the seat had a player
    before, its private conversations start afresh after `chat_count` (the game's chat count,
    read under the same row lock). Returns whether the seat had a player before."""
    previous = had_holder(seat)
    seat["token_hash"] = token_hash
    seat["invite_hash"] = None
    seat.pop("open", None)
    seat.pop("consent", None)
    seat["seen"] = now
    seat["holder"] = int(seat.get("holder") or previous) + 1
    if previous:
        seat["chat_from"] = chat_count
    return previous


def private_from(seat: dict[str, Any]) -> int:
    """The chat id after which the seat's current player reads its private conversations."""
    return int(seat.get("chat_from", 0))


def account_of(seat: dict[str, Any]) -> int | None:
    """The account the seat is bound to now (server/community/accounts.py): bound to it, with the
    credential it had then; None for a guest's seat or one that changed hands."""
    account, token_hash = seat.get("account"), seat.get("token_hash")
    if isinstance(account, int) and token_hash and seat.get("account_for") == hash_token(str(token_hash)):
        return account
    return None


def bot_moves(seat: dict[str, Any], log: list[Any], player: int) -> int:
    """The actions of a human seat its takeover bot played: those counted when the player came
    back (`bot_moves`), and those since it left if it is away now (`bot_from`: the log's length
    then)."""
    moves = int(seat.get("bot_moves", 0))
    if seat.get("away") and isinstance(seat.get("bot_from"), int):
        moves += sum(1 for action in log[seat["bot_from"] :] if action.player == player)
    return moves
