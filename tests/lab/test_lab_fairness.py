"""`judges lab-fairness`: wins by seat for several player counts, the table's arithmetic, and the
same table from the same seeds (in one process or two)."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from judges.cli import app
from judges.lab import OverrideError
from judges.lab.fairness import FairnessConfig, _chi2_sf, format_table, run_fairness, seat_table
from judges.lab.report import wilson
from judges.play import simulate_one

runner = CliRunner()


def _record(winners: list[int], rounds: int, seed: int, bots: list[str]) -> dict:
    return {"variant": "default", "game": seed, "seed": seed, "winners": winners, "rounds": rounds, "bots": bots}


def test_the_table_counts_wins_by_seat_with_wilson_intervals_and_the_spread():
    bots = ["greedy"] * 3
    records = [
        _record([0], 8, 1, bots),
        _record([0], 10, 2, bots),
        _record([2], 12, 3, bots),
        _record([], 60, 4, bots),  # nobody won (the round cap)
        _record([0, 2], 9, 5, bots),  # a shared victory: a win for each winner
    ]
    row = seat_table(list(reversed(records)))
    assert [s["wins"] for s in row["seats"]] == [3, 0, 2]
    assert all(s["games"] == 5 for s in row["seats"])
    rate, low, high = wilson(3, 5)
    assert row["seats"][0] == {"wins": 3, "games": 5, "rate": 0.6, "low": round(low, 4), "high": round(high, 4)}
    assert rate == 0.6 and low < 0.6 < high
    assert row["spread_pp"] == 60.0  # 60 % (seat 0) minus 0 % (seat 1)
    assert row["mean_rate"] == round((3 + 0 + 2) / 15, 4)
    # seat 1 won nothing: its interval [0, 43 %] still holds the mean of 33 %; none is outside
    assert row["seats"][1]["low"] == 0.0 and row["seats"][1]["high"] > row["mean_rate"]
    assert row["outside"] == []
    assert row["no_winner"] == 1
    assert row["rounds"] == {"median": 10, "mean": round((8 + 10 + 12 + 60 + 9) / 5, 2)}
    assert row["seeds"] == [1, 5]


def test_a_seat_whose_interval_leaves_out_the_mean_is_named():
    bots = ["greedy"] * 2
    records = [_record([0], 9, seed, bots) for seed in range(1, 41)]
    row = seat_table(records)
    assert row["spread_pp"] == 100.0 and row["mean_rate"] == 0.5
    assert row["outside"] == [0, 1]


def test_seats_whose_intervals_do_not_overlap_are_named_apart_with_the_chi_squared_p_value():
    """The bar of a fair table: no seat's interval outside the others' (no pair apart); the
    chi-squared test that every seat wins equally often says how likely seats this uneven are."""
    bots = ["greedy"] * 3
    wins = [0] * 60 + [1] * 25 + [2] * 15  # 60, 25 and 15 of 100
    row = seat_table([_record([w], 9, seed, bots) for seed, w in enumerate(wins, start=1)])
    assert row["apart"] == [[0, 1], [0, 2]]  # seat 0 above both; 1 and 2 overlap
    # Pearson: expected 33.3 a seat, chi2 = (26.7^2 + 8.3^2 + 18.3^2) / 33.3 = 33.5 on 2 df
    assert row["chi2_p"] == round(math.exp(-33.5 / 2), 4) == 0.0
    even = seat_table([_record([seed % 3], 9, seed, bots) for seed in range(1, 301)])
    assert even["apart"] == [] and even["chi2_p"] == 1.0
    # 3 degrees of freedom (an odd count, the erfc form): chi2 = 7.815 is the 5 % point
    assert abs(_chi2_sf(7.815, 3) - 0.05) < 1e-4 and abs(_chi2_sf(11.07, 5) - 0.05) < 1e-4
    assert "| apart | χ² p |" in format_table({"rows": [row], "guest": None})


def test_the_guest_rotates_over_every_seat_and_is_counted_by_seat():
    config = FairnessConfig(players=[3], games=6, seed=40, guest="random", workers=1)
    labs = config.lab_config(3)
    from judges.lab import make_tasks

    seats = [t.bots.index("random") for t in make_tasks(labs)]
    assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    table = run_fairness(config)
    row = table["rows"][0]
    assert [g["games"] for g in row["guest_by_seat"]] == [2, 2, 2]
    assert row["guest_overall"]["games"] == 6
    assert "random (one seat, rotating) wins by seat" in format_table(table)


def test_the_same_seeds_give_the_games_of_simulate_and_the_same_table_on_one_or_two_processes():
    one = run_fairness(FairnessConfig(players=[3, 4], games=4, seed=777, workers=1))
    two = run_fairness(FairnessConfig(players=[3, 4], games=4, seed=777, workers=2))
    assert one == two
    for row in one["rows"]:
        n = row["players"]
        sims = [simulate_one(777 + i, n, ["greedy"]) for i in range(4)]
        assert [s["wins"] for s in row["seats"]] == [sum(seat in r.winners for r in sims) for seat in range(n)]
        assert row["games"] == 4 and row["seeds"] == [777, 780]


def test_the_command_prints_the_table_and_writes_json_and_the_labs_report(tmp_path):
    out = tmp_path / "fair"
    result = runner.invoke(
        app,
        ["lab-fairness", "--players", "3", "--games", "3", "--seed", "5", "--workers", "1"]
        + ["--json", str(tmp_path / "t.json"), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    table = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert table["games"] == 3 and [r["players"] for r in table["rows"]] == [3]
    assert format_table(table) in result.output
    assert (out / "players-3" / "wins_by_seat.png").read_bytes().startswith(b"\x89PNG")
    assert len((out / "players-3" / "records.jsonl").read_text(encoding="utf-8").splitlines()) == 3


def test_more_than_two_processes_and_unknown_rules_are_refused():
    with pytest.raises(OverrideError):
        run_fairness(FairnessConfig(players=[3], games=1, workers=3))
    with pytest.raises(OverrideError):
        run_fairness(FairnessConfig(players=[3], games=1, workers=1, sets=["no_such_rule=1"]))
    result = runner.invoke(app, ["lab-fairness", "--players", "9", "--games", "1"])
    assert result.exit_code != 0


def test_the_plot_command_draws_the_tables_side_by_side(tmp_path):
    bots = ["greedy"] * 3
    rows = [seat_table([_record([0], 9, 1, bots), _record([1], 9, 2, bots)])]
    for label in ("before", "after"):
        (tmp_path / f"{label}.json").write_text(json.dumps({"rows": rows}), encoding="utf-8")
    out = tmp_path / "plot.png"
    result = runner.invoke(
        app,
        ["lab-fairness-plot", f"before={tmp_path / 'before.json'}", f"after={tmp_path / 'after.json'}"]
        + ["--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")
    assert runner.invoke(app, ["lab-fairness-plot", "no-label", "--out", str(out)]).exit_code != 0
