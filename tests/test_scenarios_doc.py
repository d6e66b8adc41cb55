"""docs/scenarios.md documents the scenario format whole: every action type the engine accepts
(derived from the decision registry) and every position key, each with an example that the
engine accepts; `judges scenario run --seat N` prints that seat's view and the output carries
every player's score by source."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from judges.cli import app
from judges.engine.actions import action_from_dict, action_tag
from judges.engine.decisions import KINDS
from judges.engine.scenario import ENTRY_KEYS, POSITION_KEYS, build_game, run_scenario
from judges.engine.victory import score

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
SCENARIOS = ROOT / "scenarios"
runner = CliRunner()


def section(title: str) -> str:
    start = DOC.index(f"### `{title}`")
    end = DOC.find("\n#", start + 1)
    return DOC[start : end if end >= 0 else None]


def table_rows(text: str) -> dict[str, str]:
    """First-column key (in backticks) -> the row."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `([a-z_]+)` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


# --- actions ----------------------------------------------------------------------------------


def accepted_action_types() -> set[str]:
    return {tag for kind in KINDS.values() for tag in kind.action_tags}


def test_the_registry_accepts_the_action_types_this_test_knows_about():
    # Not a copy of the list: a sanity floor, so that an empty registry cannot pass the test below.
    assert len(accepted_action_types()) >= 23


def test_every_action_type_the_engine_accepts_is_documented_with_an_example():
    rows = table_rows(section("actions"))
    assert set(rows) == accepted_action_types()
    for tag, row in rows.items():
        examples = re.findall(r"`(\{\"type\".*?\})`", row)
        assert examples, f"{tag}: no example"
        for text in examples:
            action = action_from_dict(json.loads(text))
            assert action_tag(type(action)) == tag


# --- position ---------------------------------------------------------------------------------


def position_example() -> dict:
    text = DOC.split("<!-- example: position -->", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))


def test_every_position_key_is_documented_with_an_example():
    rows = table_rows(section("position"))
    assert set(rows) == POSITION_KEYS
    for key, row in rows.items():
        assert f'`"{key}":' in row, f"{key}: no example in its row"


def test_the_full_position_example_uses_every_key_and_every_entry_key():
    example = position_example()
    assert set(example) == POSITION_KEYS
    for key, allowed in ENTRY_KEYS.items():
        entries = example[key].values() if isinstance(example[key], dict) else example[key]
        used = {k for entry in entries for k in entry}
        assert used == allowed, f"{key}: {sorted(allowed - used)} not shown"


def test_the_full_position_example_builds():
    example = position_example()
    game = build_game({"options": {"players": 3, "seed": 1}, "position": example})
    state = game.state
    assert state.round == 2 and state.king == 20
    assert 1 not in state.generals and state.generals[22].captor == 0
    assert state.players[2].eliminated is True


# --- the command's output ---------------------------------------------------------------------


def test_scenario_output_carries_each_players_score_by_source():
    data = json.loads((SCENARIOS / "election.json").read_text())
    result = run_scenario(data)
    game = build_game(data)
    for spec in data["actions"]:
        game.apply(action_from_dict(spec))
    expected = [{"seat": p.seat, **score(game.state, game.world, p.seat)} for p in game.state.players]
    assert result["scores"] == expected
    # General 12 was crowned: his player has a Judge title and the King.
    assert result["scores"][2] == {"seat": 2, "judges": 1, "king": 1, "tabernacle": 0, "total": 2}


def test_scenario_run_with_a_seat_prints_that_seats_view_and_hides_the_rest():
    result = runner.invoke(app, ["scenario", "run", str(SCENARIOS / "election.json"), "--seat", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "state" not in data and "notifications" not in data
    view = data["view"]
    assert view["seat"] == 1 and data["seat"] == 1
    players = view["state"]["players"]
    assert players[1]["hand"] and players[0]["hand"] == [] and players[2]["hand"] == []
    assert view["hand_sizes"][0] > 0  # player 0 holds cards: their count shows, not the cards
    assert view["state"]["deck"] == [] and view["deck_size"] > 0
    assert view["state"]["rng"] == 0
    assert all(1 in n["to"] for n in view["notifications"])
    assert all(a["player"] == 1 for a in data["legal_actions"])
    assert [s["total"] for s in data["scores"]] == [1, 1, 2]


def test_scenario_run_refuses_a_seat_the_game_does_not_have():
    result = runner.invoke(app, ["scenario", "run", str(SCENARIOS / "election.json"), "--seat", "5"])
    assert result.exit_code == 2
    assert "seat 5" in result.output
