"""A view's notifications: each rendered once per language and kept for the table's later
views (a view holds up to `max_view_notifications` of them, and every read of a view rendered
them all), rendered again when the seats' names change, dropped with an Undo or a reload."""

from __future__ import annotations

import msgspec
import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.table.views import Views
from seats_support import with_tokens


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def played_table(client) -> tuple[str, list[str]]:
    """Two humans, their turns ended until the table holds a few notifications."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Barak"}]
    data = with_tokens(client, client.post("/api/games", json={"seats": seats, "seed": 3}).json())
    game, tokens = data["id"], [s["token"] for s in data["seats"]]
    live = client.app.state.service.games[game]
    while len(live.game.notifications) < 4:
        seat = live.game.state.pending[0].player
        legal = view(client, game, tokens[seat])["legal_actions"]
        action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
        answer = client.post(
            f"/api/games/{game}/actions", headers={"X-Seat-Token": tokens[seat]}, json={"action": action}
        )
        assert answer.status_code == 200, answer.text
    return game, tokens


def view(client, game: str, token: str, lang: str = "en") -> dict:
    answer = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token}, params={"lang": lang})
    assert answer.status_code == 200, answer.text
    return answer.json()


def counting(monkeypatch) -> list[int]:
    rendered: list[int] = []
    render = Views.render_notes

    def count(self, live, notes, language):  # noqa: ANN001, ANN202
        rendered.extend(n.id for n in notes)  # Judges & Kings' notifications (its kit's `views.notes`)
        return render(self, live, notes, language)

    monkeypatch.setattr(Views, "render_notes", count)
    return rendered


def fresh(client, game: str, seat: int, language: str) -> list:
    """The seat's notifications as a view rendered from scratch gives them."""
    service = client.app.state.service
    live = service.games[game]
    notes, _ = Views(service.views.limits, {}).notes(live, seat, language, -1)
    return msgspec.json.decode(notes)


def test_a_tables_notifications_are_rendered_once_per_language(client, monkeypatch):
    game, tokens = played_table(client)
    rendered = counting(monkeypatch)
    first = view(client, game, tokens[0])["notifications"]
    assert first and set(rendered) <= {n["id"] for n in first}  # those no view has rendered yet
    rendered.clear()
    assert view(client, game, tokens[0])["notifications"] == first
    assert rendered == []
    other = view(client, game, tokens[1])["notifications"]
    assert [n for n in rendered if n in {n["id"] for n in first}] == []  # the other seat's own only
    assert other == fresh(client, game, 1, "en")
    rendered.clear()
    spanish = view(client, game, tokens[0], "es")["notifications"]
    assert sorted(rendered) == sorted(n["id"] for n in spanish) and spanish != first
    assert spanish == fresh(client, game, 0, "es")


def test_kept_notifications_follow_the_seats_names_and_the_game(client):
    game, tokens = played_table(client)
    view(client, game, tokens[0])  # rendered and kept
    live = client.app.state.service.games[game]
    live.seats[1]["name"] = "Yael"  # as a claim or a rename stores it
    renamed = view(client, game, tokens[0])["notifications"]
    assert renamed == fresh(client, game, 0, "en")
    assert "Yael" in msgspec.json.encode(renamed).decode()
    del live.game.notifications[-2:]  # as an Undo takes them back
    assert view(client, game, tokens[0])["notifications"] == fresh(client, game, 0, "en")
