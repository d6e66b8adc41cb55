"""Seats for API tests: the host's credential comes with the new game, every other human seat
is taken by claiming its invitation, as its player would (server/seats.py)."""

from __future__ import annotations


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
