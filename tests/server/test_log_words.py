"""The log's action lines say what the buttons said: a general an action named comes with his
owner ("Assassin against General #5 (Simeon)"), though he died since, in every language. A
Republic of Rome table's log is its report in words: every event the engine can emit has its
words in English, Spanish and Portuguese, and a whole game's log reads in each."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import judges.rome.engine
import judges.rome.i18n as rome_i18n
from judges.bots import bot_seed, make_bot
from judges.engine import Options
from judges.i18n import LANGUAGES
from judges.play import play_game
from judges.rome.engine.messages import MESSAGES as ROME_MESSAGES
from judges.rome.engine.state import RomeOptions
from judges.rome.play import play_random
from judges.server.games.registry import KITS
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


# --- Republic of Rome: the log is the report in words (server/games/rome/kit.py, `log`) ---------

ROME_ENGINE = Path(judges.rome.engine.__file__).resolve().parent


def rome_emitted_keys() -> set[str]:
    """Every report key the Rome engine's source can emit: the first argument of each
    `<ctx>.report(...)` call, which must be a literal key (a computed one would escape this)."""
    keys: set[str] = set()
    for path in ROME_ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "report":
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (path.name, node.lineno)
                keys.add(first.value)
    return keys


def test_every_event_the_rome_engine_can_emit_has_its_words_in_every_language():
    emitted = rome_emitted_keys()
    assert len(emitted) > 100  # the scan finds the engine's reports
    assert emitted <= set(ROME_MESSAGES), sorted(emitted - set(ROME_MESSAGES))
    for language in ("en", "es", "pt_BR"):
        assert language in rome_i18n.LANGUAGES
        missing = emitted - set(rome_i18n.catalog(language))
        assert not missing, (language, sorted(missing))


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_rome_games_log_is_its_report_in_each_readers_words(seed):
    """One entry per report line, every parameter in words (no field left, no "?"); a player's
    own name as it is, an unnamed seat's ("Faction 2", stored in its creator's words) in the
    reader's."""
    game = play_random(RomeOptions(players=4, seed=seed), bot_seed=seed)
    assert game.over
    kit = KITS["rome"]
    names = {0: "Ada", 1: kit.seat_name(1, "es"), 2: kit.seat_name(2, "en"), 3: "Cy"}
    faction_lines = [i for i, e in enumerate(game.state.report) if e.params.get("faction") in (1, 2)]
    assert faction_lines
    for language in rome_i18n.LANGUAGES:
        log = kit.log(game, names, language)
        assert log["seq"] == len(game.state.report) == len(log["entries"])
        assert [e["key"] for e in log["entries"]] == [e.key for e in game.state.report]
        bad = [e["text"] for e in log["entries"] if "?" in e["text"] or "{" in e["text"]]
        assert not bad, (language, bad[:5])
        for i in faction_lines:
            seat = game.state.report[i].params["faction"]
            assert kit.seat_name(seat, language) in log["entries"][i]["text"], (language, log["entries"][i])
        named = [e for e in log["entries"] if e["params"].get("faction") == 0]
        assert named and all("Ada" in e["text"] for e in named)
        later = kit.log(game, names, language, since=len(game.state.report) - 3)
        assert [e["seq"] for e in later["entries"]] == [len(game.state.report) - 2, len(game.state.report) - 1]
