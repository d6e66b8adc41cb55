"""Republic of Rome scenario files (`judges scenario run`, docs/scenarios.md): the State of the
Republic example (ror-digest E7, R75 with the population table), a seat's view hiding the other
factions' hands (VG 1.04.9), a refused action naming its rule, malformed files refused clearly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from judges.cli import app

EXAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "rome-state-of-the-republic.json"
runner = CliRunner()


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def run(tmp_path: Path, data: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return runner.invoke(app, ["scenario", "run", str(path), *args])


def test_r75_e7_state_of_the_republic_14_minus_unrest_2_with_popularity_minus_2_is_10():
    result = runner.invoke(app, ["scenario", "run", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["game"] == "rome" and out["error"] is None
    report = {line["key"]: line["params"] for line in out["report"]}
    assert report["rome.population.roll"] == {"senator": "1", "int": 10}
    # the table's row for 10 raises unrest by one: 2 -> 3
    assert report["rome.population.result"] == {"int": 3}
    assert out["state"]["unrest"] == 3
    # the Senate has opened: someone owes a decision
    assert out["phase"] == "senate" and out["pending"]


def test_r75_a_different_roll_gives_a_different_row(tmp_path):
    data = example()
    data["dice"] = [6, 6, 5]  # 17 - 2 - 2 = 13: unrest unchanged
    out = json.loads(run(tmp_path, data).stdout)
    assert out["state"]["unrest"] == 2


def test_vg_1_04_9_seat_view_hides_the_other_factions_hands_and_the_deck():
    result = runner.invoke(app, ["scenario", "run", str(EXAMPLE), "--seat", "1"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert "state" not in out and out["seat"] == 1
    factions = {f["seat"]: f for f in out["view"]["factions"]}
    assert factions[1]["hand"] == ["seduction"]
    assert factions[0]["hand"] == 1 and factions[0]["treasury"] is None
    assert '"assassin"' not in result.stdout
    assert isinstance(out["view"]["deck"], int)
    assert set(out["legal_actions"]) == {"1"}


def test_r1_an_action_from_a_faction_that_owes_nothing_is_refused_with_its_rule(tmp_path):
    data = example()
    baseline = json.loads(run(tmp_path, data).stdout)
    idle = next(s for s in range(3) if all(d["player"] != s for d in baseline["pending"]))
    data["actions"] = [{"type": "done", "player": idle}]
    result = run(tmp_path, data)
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"]["action_index"] == 0
    assert out["error"]["rule"] == "R1 Sequence of play"
    assert out["error"]["key"] == "rome.error.not_your_decision"
    assert out["applied_actions"] == 0
    assert out["state"]["unrest"] == 3  # the refused action changed nothing


def test_a_malformed_action_is_refused_as_malformed(tmp_path):
    data = example()
    data["actions"] = [{"type": "no_such_action", "player": 0}]
    result = run(tmp_path, data)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["key"] == "rome.error.malformed_action"


def test_an_unknown_key_is_refused_with_exit_2_naming_it(tmp_path):
    data = example()
    data["position"]["senators"]["1"]["charisma"] = 3
    result = run(tmp_path, data)
    assert result.exit_code == 2
    assert "position.senators.1" in result.output and "charisma" in result.output


def test_a_value_of_the_wrong_kind_is_refused_with_exit_2_naming_it(tmp_path):
    data = example()
    data["position"]["unrest"] = "two"
    result = run(tmp_path, data)
    assert result.exit_code == 2
    assert "position" in result.output and "unrest" in result.output


def test_an_unknown_phase_an_unknown_rule_and_bad_dice_are_refused_with_exit_2(tmp_path):
    for change, words in (
        (("position", "phase", "banquet"), "banquet"),
        (("options", "rules", {"no_such_rule": 1}), "no_such_rule"),
        (("dice", None, [4, "five"]), "die faces"),
    ):
        data = example()
        section, key, value = change
        if key is None:
            data[section] = value
        else:
            data[section][key] = value
        result = run(tmp_path, data)
        assert result.exit_code == 2, (change, result.output)
        assert words in result.output


def test_running_out_of_scripted_dice_is_a_scenario_error(tmp_path):
    data = example()
    data["dice"] = [4, 5]
    result = run(tmp_path, data)
    assert result.exit_code == 2
    assert "dice script" in result.output


def test_without_a_position_the_standard_setup_is_played(tmp_path):
    result = run(tmp_path, {"game": "rome", "options": {"players": 3, "seed": 7}})
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert len(out["state"]["factions"]) == 3 and out["pending"]


def test_the_documented_example_runs_and_its_action_is_accepted(tmp_path):
    doc = (EXAMPLE.parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    block = doc.split("## Republic of Rome", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    result = run(tmp_path, json.loads(block))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["applied_actions"] == 1


def test_a_rules_change_of_the_wrong_kind_is_refused_with_exit_2(tmp_path):
    data = example()
    data["options"]["rules"] = {"hand_limit": "five"}
    result = run(tmp_path, data)
    assert result.exit_code == 2
    assert "options.rules" in result.output and "hand_limit" in result.output
