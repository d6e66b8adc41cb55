"""The `judges` command: simulate, board, scenario run."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from judges.cli import app
from judges.engine.state import ENDINGS

runner = CliRunner()
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def test_simulate_prints_a_summary():
    result = runner.invoke(app, ["simulate", "--players", "4", "--games", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "3 games, 4 players" in result.stdout
    assert "endings:" in result.stdout and "rounds per game" in result.stdout


def test_simulate_json_records_and_summary_are_the_same_byte_for_byte_for_a_seed():
    args = ["simulate", "--players", "3", "--games", "4", "--seed", "7", "--json"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    records, summary = lines[:-1], lines[-1]["summary"]
    assert [r["seed"] for r in records] == [7, 8, 9, 10]
    for r in records:
        assert r["ending"] in ENDINGS
        assert isinstance(r["winners"], list) and r["rounds"] >= 1
    assert summary["games"] == 4
    assert sum(summary["endings"].values()) == 4


def test_simulate_refuses_an_unknown_bot():
    result = runner.invoke(app, ["simulate", "--bot", "oracle"])
    assert result.exit_code != 0
    assert "unknown bot" in result.output


def test_board_writes_an_svg(tmp_path):
    out = tmp_path / "board.svg"
    result = runner.invoke(app, ["board", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")
    assert "Shiloh" in out.read_text()


def test_scenario_run_prints_the_resulting_state_pending_and_notifications():
    result = runner.invoke(app, ["scenario", "run", str(SCENARIOS / "election.json")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["error"] is None
    assert data["state"]["king"] == 12
    assert data["pending"] and data["pending"][0]["kind"] == "turn"
    assert any(n["key"] == "notification.election" for n in data["notifications"])


def test_scenario_run_reports_a_refused_action_with_its_rule(tmp_path):
    scenario = json.loads((SCENARIOS / "election.json").read_text())
    scenario["actions"][0]["candidate"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario))
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["error"]["rule"] == "§10 Election"
    assert data["error"]["action_index"] == 0
    assert data["applied_actions"] == 0


def test_scenario_run_refuses_bad_position_data_clearly(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"position": {"settlements": {"Atlantis": {"owner": 0}}}}))
    result = runner.invoke(app, ["scenario", "run", str(path)])
    assert result.exit_code == 2
    assert "unknown settlement 'Atlantis'" in result.output


def test_every_example_scenario_runs_without_error():
    for path in sorted(SCENARIOS.glob("*.json")):
        result = runner.invoke(app, ["scenario", "run", str(path)])
        assert result.exit_code == 0, f"{path.name}: {result.output}"


def test_the_general_elimination_scenario_ends_the_game_with_no_winner():
    result = runner.invoke(app, ["scenario", "run", str(SCENARIOS / "general-elimination.json")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ending"] == "general_elimination"
    assert data["winners"] == []
    assert [p["eliminated"] for p in data["state"]["players"]] == [True, True]
