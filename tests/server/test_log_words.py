"""The log's action lines say what the buttons said: a general an action named comes with his
owner ("Assassin against General #5 (Simeon)"), though he died since, in every language."""

from __future__ import annotations

import pytest

from judges.bots import bot_seed, make_bot
from judges.engine import Options
from judges.i18n import LANGUAGES
from judges.play import play_game
from judges.server.table.tables import LiveGame
from judges.server.table.views import log_entries

NAMES = ("Ada", "Bo", "Cy", "Di")
NAMED_GENERAL = ("play_assassin", "execute", "release", "appoint_judge")


@pytest.mark.parametrize("seed", [4, 13])  # whole games with assassins, an execution, appointments
def test_no_log_line_of_a_whole_game_lacks_a_generals_owner(seed):
    game = play_game(Options(players=4, seed=seed), [make_bot("greedy", bot_seed(seed, s)) for s in range(4)])
    assert game.is_over
    died = {e.params["general"] for n in game.notifications for e in n.entries if e.key == "general.died"}
    targets = {a.target for a in game.log if a.__struct_config__.tag == "play_assassin"}
    assert targets & died  # an Assassin's line names a general who is no longer on the board
    live = LiveGame(id="g", game=game, seats=[{"name": n, "kind": "bot", "bot": "greedy"} for n in NAMES])
    owners = game.general_owners()
    for language in LANGUAGES:
        entries = log_entries(live, language)
        assert len(entries) == len(game.log)
        bad = [e["text"] for e in entries if "?" in e["text"]]
        assert not bad, (language, bad[:5])
        for entry, action in zip(entries, game.log, strict=True):
            if entry["type"] in NAMED_GENERAL:
                general = getattr(action, "target", None) if entry["type"] == "play_assassin" else action.general
                assert f"({NAMES[owners[general]]})" in entry["text"], (language, entry["text"])
