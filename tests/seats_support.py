"""Seats for API tests: the host's credential comes with the new game, every other human seat
is taken by claiming its invitation, as its player would (server/seats.py)."""

from __future__ import annotations


def invitation_code(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def seat_tokens(client, data: dict, base: str = "") -> list[str | None]:
    """Each seat's credential (None for a bot's), from a create answer. The client's cookies
    are cleared afterwards: requests then show their seat by the X-Seat-Token header only."""
    tokens: list[str | None] = [None] * len(data["seats"])
    tokens[data["seat"]] = data["token"]
    for seat in data["seats"]:
        if "invitation" in seat:
            response = client.post(
                f"{base}/api/games/{data['id']}/claim", json={"invitation": invitation_code(seat["invitation"])}
            )
            assert response.status_code == 200, response.text
            tokens[seat["seat"]] = response.json()["token"]
    cookies = getattr(client, "cookies", None)
    if cookies is not None and hasattr(cookies, "clear"):
        cookies.clear()
    return tokens


def with_tokens(client, data: dict, base: str = "") -> dict:
    """The create answer with every human seat's credential as seats[i]["token"]."""
    for seat, token in zip(data["seats"], seat_tokens(client, data, base)):
        if token:
            seat["token"] = token
    return data
