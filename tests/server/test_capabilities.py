"""What only some games have (games/served.py, `CAPABILITIES`): the server offers a route or an
option of a capability only at a table whose game has it, and answers any other a typed 422,
`error.not_in_game`, naming the capability (server/table/played.py, `require_capability`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import judges.server
from judges import i18n
from judges.games import SERVED
from judges.games.served import CAPABILITIES
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
    for lang in i18n.LANGUAGES:
        text = i18n.gettext(lang, error.key, strict=True, detail=error.message, **error.params)
        assert capability in text, (lang, text)


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
