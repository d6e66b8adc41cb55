"""`judges simulate --game rome`: Republic of Rome's games from the command line; `--game judges`
(the default) is Judges & Kings' simulate, unchanged."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from judges.cli import app

runner = CliRunner()


def test_simulate_rome_plays_whole_games_and_summarises_them():
    done = runner.invoke(app, ["simulate", "--game", "rome", "--players", "4", "--games", "3", "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout.strip().splitlines()[-1])["summary"]
    assert summary["games"] == 3 and sum(summary["endings"].values()) == 3
    assert summary["turns"]["min"] >= 1 and summary["actions_per_game"] > 0
    text = runner.invoke(app, ["simulate", "--game", "rome", "--players", "5", "--games", "2"])
    assert text.exit_code == 0 and "games of Republic of Rome, 5 factions" in text.stdout


def test_simulate_refuses_what_rome_cannot_play():
    assert runner.invoke(app, ["simulate", "--game", "rome", "--players", "2", "--games", "1"]).exit_code != 0
    assert runner.invoke(app, ["simulate", "--game", "rome", "--bot", "greedy", "--games", "1"]).exit_code != 0
    assert runner.invoke(app, ["simulate", "--game", "chess", "--games", "1"]).exit_code != 0


def test_the_default_game_is_judges_and_kings():
    a = runner.invoke(app, ["simulate", "--games", "2", "--seed", "5", "--json"])
    b = runner.invoke(app, ["simulate", "--game", "judges", "--games", "2", "--seed", "5", "--json"])
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout and '"endings"' in a.stdout
