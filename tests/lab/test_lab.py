"""The lab: `judges lab`, constant overrides, variants, seat rotation, the report files."""

from __future__ import annotations

import csv
import json
import re

import pytest
from typer.testing import CliRunner

from judges.cli import app
from judges.engine import DEFAULT_RULES
from judges.lab import (
    LabConfig,
    OverrideError,
    make_tasks,
    parse_override,
    parse_variant,
    replay_record,
    rotated,
    rules_with,
    run_games,
)
from judges.lab.records import game_record
from judges.lab.report import PLOTS, wilson

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def test_a_short_lab_run_writes_the_report(tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        [
            "lab",
            "--players",
            "3",
            "--games",
            "8",
            "--bots",
            "greedy,random,greedy",
            "--seed",
            "3",
            "--out",
            str(out),
            "--workers",
            "2",
            "--round-limit",
            "40",
        ],
    )
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text(encoding="utf-8")
    referenced = set(re.findall(r'<img src="([^"]+)"', page))
    assert referenced == set(PLOTS)
    for name in referenced:
        data = (out / name).read_bytes()
        assert data.startswith(PNG), name
    with (out / "games.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["seed"]) for r in rows] == list(range(3, 11))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    default = summary["variants"]["default"]
    assert default["games"] == 8 and sum(default["endings"].values()) == 8
    assert set(default["wins_by_bot"]) == {"greedy", "random"}
    assert default["wins_by_bot"]["greedy"]["games"] == 16 and default["wins_by_bot"]["random"]["games"] == 8
    records = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(r["seed"] for r in records) == list(range(3, 11))
    assert "games.csv" in page and "summary.json" in page and 'href="records.jsonl"' in page


def test_seat_rotation_gives_each_bot_each_seat():
    config = LabConfig(players=3, games=6, bots=["mcts", "greedy", "random"], seed=10)
    tasks = make_tasks(config)
    assert [t.seed for t in tasks] == list(range(10, 16))
    assert tasks[0].bots == ("mcts", "greedy", "random") and tasks[1].bots == ("greedy", "random", "mcts")
    for bot in config.bots:
        assert sorted(t.bots.index(bot) for t in tasks[:3]) == [0, 1, 2]
    assert rotated(["a", "b"], 3) == ["b", "a"]
    assert LabConfig(players=4, bots=["greedy", "random"]).seat_bots() == ["greedy", "random", "greedy", "random"]
    with pytest.raises(OverrideError):
        LabConfig(players=2, bots=["greedy", "random", "greedy"]).seat_bots()
    with pytest.raises(OverrideError):
        LabConfig(players=2, bots=["grumpy"]).seat_bots()


def test_set_overrides_change_the_games_on_the_same_seeds():
    config = LabConfig(
        players=3,
        games=6,
        bots=["greedy"],
        seed=1,
        workers=1,
        round_limit=40,
        variants=[parse_variant("wrath3:WRATH_THRESHOLD=3")],
    )
    records = run_games(config)
    by = {v: [r for r in records if r["variant"] == v] for v in ("default", "wrath3")}
    assert [r["seed"] for r in by["default"]] == [r["seed"] for r in by["wrath3"]] == list(range(1, 7))
    assert sum(r["judgments"] for r in by["wrath3"]) > sum(r["judgments"] for r in by["default"])
    assert DEFAULT_RULES.wrath_threshold == 13  # nothing patched
    assert all(r["options"]["rules"]["wrath_threshold"] == 3 for r in by["wrath3"])
    assert all(r["options"]["rules"]["wrath_threshold"] == 13 for r in by["default"])


def test_a_variant_record_replays_to_the_same_end_under_its_stored_rules():
    config = LabConfig(
        players=3,
        games=2,
        bots=["greedy", "random", "greedy"],
        seed=5,
        workers=1,
        round_limit=30,
        variants=[parse_variant("harsh:wrath_threshold=4,costs.wall=3")],
        baseline=False,
    )
    for stored in json.loads(json.dumps(run_games(config))):  # as summary.json keeps them
        assert stored["options"]["rules"]["costs"]["wall"] == 3
        game = replay_record(stored)
        assert game.state.options.rules == rules_with(
            [parse_override("wrath_threshold=4"), parse_override("costs.wall=3")]
        )
        again = game_record(
            game,
            variant=stored["variant"],
            index=stored["game"],
            seed=stored["seed"],
            bots=stored["bots"],
            seconds=stored["seconds"],
        )
        assert json.loads(json.dumps(again)) == stored


def test_set_applies_to_every_variant():
    config = LabConfig(
        players=2, games=2, bots=["greedy"], sets=["COSTS.wall=8"], variants=[parse_variant("cheap:COSTS.troop=2")]
    )
    variants = {v.name: v for v in config.all_variants()}
    assert [o.text for o in variants["default"].overrides] == ["COSTS.wall=8"]
    assert [o.text for o in variants["cheap"].overrides] == ["COSTS.wall=8", "COSTS.troop=2"]
    rules = variants["cheap"].rules
    assert rules.costs["wall"] == 8 and rules.costs["troop"] == 2
    assert DEFAULT_RULES.costs["wall"] == 10 and DEFAULT_RULES.costs["troop"] == 1


def test_override_parsing():
    assert parse_override("WRATH_THRESHOLD=3").value == 3
    assert parse_override("wrath_threshold=3").name == parse_override("WRATH_THRESHOLD=3").name == "wrath_threshold"
    o = parse_override("COSTS.wall=8")
    assert (o.name, o.key, o.value) == ("costs", "wall", 8)
    o = parse_override("EVENT_TERRAIN_BY_DIE.1=plain")
    assert (o.key, o.value) == (1, "plain")
    assert parse_override("CANAANITE_CITY_WALLS=false").value is False
    whole = parse_override('TERRAIN_MOVE_COST={"plain": 1, "desert": 2, "mountains": 2}')
    assert whole.value == {"plain": 1, "desert": 2, "mountains": 2}
    v = parse_variant('slow:TERRAIN_MOVE_COST={"plain": 2, "desert": 2, "mountains": 3},MOVEMENT_POINTS=4')
    assert [o.name for o in v.overrides] == ["terrain_move_cost", "movement_points"]
    v = parse_variant("slow:terrain_move_cost.desert=2,movement_points=4")
    assert v.rules.terrain_move_cost["desert"] == 2 and v.rules.movement_points == 4
    assert parse_variant("plain:").overrides == ()


@pytest.mark.parametrize(
    "text, message",
    [
        ("WRATH_TRESHOLD=3", "unknown rule 'WRATH_TRESHOLD'; did you mean WRATH_THRESHOLD"),
        ("wrath_treshold=3", "unknown rule 'wrath_treshold'; did you mean wrath_threshold"),
        ("NO_SUCH_THING=1", "unknown rule"),
        ('WRATH_THRESHOLD="high"', "WRATH_THRESHOLD must be an integer"),
        ("WRATH_THRESHOLD=true", "WRATH_THRESHOLD must be an integer"),
        ("WRATH_THRESHOLD=2.5", "must be an integer"),
        ("WRATH_THRESHOLD=", "is not a JSON value"),
        ("COSTS.castle=3", "COSTS has no key 'castle'"),
        ("COSTS.wall=cheap", "is not a JSON value"),
        ('COSTS={"wall": 8}', "must list every key"),
        ("WRATH_THRESHOLD.x=1", "is not a dict"),
        ("CANAANITE_CITY_WALLS=1", "must be true/false"),
        ("RULES_VERSION=2", "unknown rule"),
        ("WRATH_THRESHOLD", "expected NAME=VALUE"),
    ],
)
def test_bad_overrides_are_refused_with_a_clear_message(text, message):
    with pytest.raises(OverrideError, match=re.escape(message)):
        parse_override(text)


def test_the_command_refuses_bad_names_and_bad_variants(tmp_path):
    for args in (
        ["--set", "WRATH_TRESHOLD=3"],
        ["--variant", "x:COSTS.castle=1"],
        ["--variant", "no colon"],
        ["--bots", "greedy,nobot"],
    ):
        result = runner.invoke(app, ["lab", "--players", "2", "--games", "1", "--out", str(tmp_path / "r")] + args)
        assert result.exit_code == 2, (args, result.output)
        assert "judges lab:" in result.output
    assert not (tmp_path / "r").exists()


def test_wilson_interval():
    rate, low, high = wilson(5, 10)
    assert rate == 0.5 and low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[1] == 0.0 and wilson(0, 10)[2] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0, 0.0)


def test_overrides_build_a_new_rules_value_and_patch_nothing():
    rules = rules_with([parse_override("MOVEMENT_POINTS=9"), parse_override("costs.wall=8")])
    assert (rules.movement_points, rules.costs["wall"]) == (9, 8)
    assert (DEFAULT_RULES.movement_points, DEFAULT_RULES.costs["wall"]) == (3, 10)


@pytest.mark.parametrize(
    "texts, message",
    [
        (["wrath_threshold=0"], "rule wrath_threshold must be at least 1"),
        (["costs.wall=0"], "rule costs.wall must be a positive number of coins"),
        (["attacker_hit_min=7"], "rule attacker_hit_min is a die face"),
        (["map=atlantis"], "no map called 'atlantis'"),
        (["min_players=5", "max_players=4"], "min_players (5) exceeds max_players (4)"),
        (["min_players=7"], "rule min_players may be at most 6, not 7"),
        (["free_draw=30000000"], "rule free_draw may be at most 10"),
    ],
)
def test_rules_no_game_could_be_played_under_are_refused(texts, message):
    with pytest.raises(OverrideError, match=re.escape(message)):
        rules_with([parse_override(t) for t in texts])
    with pytest.raises(OverrideError, match=re.escape(message)):
        LabConfig(sets=texts).all_variants()
