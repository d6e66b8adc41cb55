"""An error met while browsing answers a page in the reader's language with
a way back home (server/html.py); the API keeps its JSON errors. The browser's side:
tests/browser/test_29_error_pages.py."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from judges import i18n
from judges.server.app import create_app

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as c:
        yield c


def _page(response, status: int, key: str, lang: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    text = response.text
    assert f'data-error="{key}"' in text
    assert f'lang="{lang.replace("_", "-")}"' in text
    assert i18n.gettext(lang, "ui.error_title") in text
    assert 'href="/"' in text and i18n.gettext(lang, "ui.back_home") in text


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_29_8_a_bad_game_address_answers_a_page_in_the_readers_language(client, lang):
    for path in ("/games/no-such-game", "/games/no-such-game/watch", "/games/no-such-game/replay"):
        response = client.get(path, headers={"Accept-Language": lang.replace("_", "-")})
        _page(response, 404, "error.no_game", lang)
        assert i18n.gettext(lang, "error.no_game") in response.text


def test_29_8_an_unknown_address_answers_a_page(client):
    _page(client.get("/no/such/page", params={"lang": "es"}), 404, "error.http_404", "es")


def test_29_8_a_spent_invitation_answers_a_page(client):
    data = client.post("/api/games", json={"seats": SEATS}).json()
    client.cookies.clear()
    link = data["seats"][1]["invitation"]
    path = link[link.index("/join/") :]
    assert client.post(path, follow_redirects=False).status_code == 303  # Bo takes his seat
    client.cookies.clear()  # another browser opens the same link
    _page(client.get(path, params={"lang": "pt_BR"}), 404, "error.invitation", "pt_BR")
    spent = client.post(path, params={"lang": "es"}, follow_redirects=False)
    assert spent.status_code in (404, 409)
    assert spent.headers["content-type"].startswith("text/html")
    bad_game = client.get("/join/no-such-game/whatever", params={"lang": "en"})
    _page(bad_game, 404, "error.no_game", "en")


def test_29_8_the_replay_of_a_running_game_answers_a_page_not_a_blank_screen(client):
    data = client.post("/api/games", json={"seats": SEATS}).json()
    response = client.get(f"/games/{data['id']}/replay", params={"lang": "es"})
    _page(response, 409, "error.replay_running", "es")
    assert i18n.gettext("es", "error.replay_running") in response.text


def test_29_8_the_api_keeps_its_json_errors(client):
    for path in ("/api/games/no-such-game/view", "/api/games/no-such-game/world", "/api/no/such/route"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["key"] in ("error.no_game", "error.http_404")
