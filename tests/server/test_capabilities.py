"""What only some games have (games/served.py, `CAPABILITIES`): the server offers a route or an
option of a capability only at a table whose game has it, and answers any other a typed 422,
`error.not_in_game`, naming the capability (server/table/played.py, `require_capability`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import judges.server
from judges import i18n
from judges.games import SERVED
from judges.games.served import CAPABILITIES
from judges.server.app import create_app
from judges.server.errors import ServiceError
from judges.server.routes.games import GAME_OPTIONS
from judges.server.table.played import require_capability

SERVER = Path(judges.server.__file__).resolve().parent


@pytest.mark.parametrize("capability", sorted(CAPABILITIES))
@pytest.mark.parametrize("game", ["judges", "rome"])
def test_a_capability_the_game_lacks_is_a_typed_422_naming_it(game, capability):
    served = SERVED[game]
    if capability in served.capabilities:
        require_capability(served, capability)  # offered: nothing to refuse
        return
    with pytest.raises(ServiceError) as refused:
        require_capability(served, capability)
    error = refused.value
    assert (error.status, error.key) == (422, "error.not_in_game")
    assert error.params == {"game": game, "capability": capability}
    for lang in i18n.LANGUAGES:  # the text names it in the reader's words, not by its identifier
        words = i18n.label(lang, "capability", capability, strict=True)
        text = i18n.gettext(lang, error.key, strict=True, **error.text_params(lang))
        assert words in text, (lang, text)
        assert capability in words or capability not in text, (lang, text)


def test_judges_and_kings_keeps_every_capability_and_rome_declares_only_known_ones():
    """Every route the server grew for Judges & Kings stays offered at its tables; a game
    declares no capability the server does not know."""
    assert SERVED["judges"].capabilities == CAPABILITIES
    for served in SERVED.values():
        assert served.capabilities <= CAPABILITIES, served.name
    assert CAPABILITIES - SERVED["rome"].capabilities  # Rome lacks some: the refusal is reached


def test_the_server_checks_every_capability_somewhere():
    """A capability no route or option checks would be offered to every game alike."""
    source = "".join(p.read_text(encoding="utf-8") for p in SERVER.rglob("*.py") if "migrations" not in p.parts)
    checked = set(re.findall(r'require_capability\([^()]*"(\w+)"\)', source))
    checked |= set(re.findall(r'"(\w+)" (?:not )?in [\w.\[\]]*capabilities', source))
    checked |= {capability for _, capability in GAME_OPTIONS}
    assert CAPABILITIES <= checked, sorted(CAPABILITIES - checked)


def test_the_refusal_s_text_is_in_the_reader_s_language(tmp_path):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "neutral"}, {"kind": "bot", "bot": "neutral"}]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        answers = {
            lang: client.post(f"/api/games?lang={lang}", json={"game": "rome", "seats": seats, "round_limit": 3})
            for lang in i18n.LANGUAGES
        }
    for lang, answer in answers.items():
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["key"] == "error.not_in_game"
        assert body["params"] == {"game": "rome", "capability": "round_limit"}
        assert body["text"] == i18n.gettext(
            lang, "error.not_in_game", capability=i18n.label(lang, "capability", "round_limit")
        )
        assert "round_limit" not in body["text"]
