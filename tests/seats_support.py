"""Seats for API tests: the host's credential comes with the new game, every other human seat
is taken by claiming its invitation, as its player would (server/table/seats.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.limits import Limits

THREE_HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]


@contextmanager
def app_clients(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Yields `make(client_address=..., **limits)`: a started test client of a new app on
    `db_url` (seeds allowed, a client's mistake answered, not raised); all are closed at the end."""
    clients: list[TestClient] = []

    def make(client_address: tuple[str, int] = ("testclient", 50000), **limits) -> TestClient:
        app = create_app(db_url, allow_seeds=True, limits=Limits(**limits))
        client = TestClient(app, raise_server_exceptions=False, client=client_address)
        clients.append(client.__enter__())
        return client

    try:
        yield make
    finally:
        for client in clients:
            client.__exit__(None, None, None)


def invitation_code(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def clear_cookies(client) -> None:
    """Forgets the seat cookies a test client holds (an httpx module holds none)."""
    cookies = getattr(client, "cookies", None)
    if cookies is not None and hasattr(cookies, "clear"):
        cookies.clear()


def seat_tokens(client, data: dict, base: str = "") -> list[str | None]:
    """Each seat's credential (None for a bot's), from a create answer. Each invitation is
    claimed as from its player's own browser (a player already seated at the table, the host
    among them, takes no other seat); the client's cookies are cleared afterwards: requests
    then show their seat by the X-Seat-Token header only."""
    tokens: list[str | None] = [None] * len(data["seats"])
    tokens[data["seat"]] = data["token"]
    for seat in data["seats"]:
        if "invitation" in seat:
            clear_cookies(client)
            response = client.post(
                f"{base}/api/games/{data['id']}/claim", json={"invitation": invitation_code(seat["invitation"])}
            )
            assert response.status_code == 200, response.text
            tokens[seat["seat"]] = response.json()["token"]
    clear_cookies(client)
    return tokens


def with_tokens(client, data: dict, base: str = "") -> dict:
    """The create answer with every human seat's credential as seats[i]["token"]."""
    for seat, token in zip(data["seats"], seat_tokens(client, data, base)):
        if token:
            seat["token"] = token
    return data


def new_table(client, seats: list[dict] = THREE_HUMANS, game=None, **extra) -> tuple[str, list[str | None]]:
    """A new game of seed 7 and each seat's credential (see seat_tokens). `game`: the game's
    driver (tests/games_support.py), whose bots replace J&K's in `seats`; None: Judges & Kings."""
    body = {"seats": seats, "seed": 7, **extra}
    if game is not None:
        if extra.get("takeover_bot") == "greedy":  # J&K's light bot: the game's own
            extra["takeover_bot"] = game.bot
        body = game.body(game.with_game(seats), seed=7, **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], seat_tokens(client, data)
