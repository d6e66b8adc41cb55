"""`judges lab --game rome` and `judges simulate --game rome` on the lab's runner, with Rome's
statistics; and Judges & Kings' headless loop through the game protocol, unchanged."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from judges.bots import bot_seed, make_bot
from judges.cli import app
from judges.engine import Game, Options
from judges.engine.actions import CODEC as JUDGES_CODEC
from judges.games.actions import ActionCodec
from judges.lab import LabConfig, OverrideError, run_lab
from judges.lab.records import read_records
from judges.play import play_game
from judges.rome.engine.actions import CODEC as ROME_CODEC

runner = CliRunner()


def test_a_rome_lab_plays_through_the_runner_and_reports_rome(tmp_path):
    config = LabConfig(players=4, games=4, bots=["random"], seed=3, out=tmp_path, workers=1, game="rome")
    summary = run_lab(config)
    assert summary is not None
    s = summary["variants"]["default"]
    records = read_records(tmp_path / "records.jsonl")
    assert len(records) == 4 and all(r["game_name"] == "rome" for r in records)
    fell = [r for r in records if r["ending"] in ("wars", "people_revolt", "bankruptcy")]
    assert s["rome_fell"]["games"] == len(fell) and sum(s["rome_fell"]["by"].values()) == len(fell)
    assert [x["wins"] for x in s["wins_by_seat"]] == [sum(seat in r["winners"] for r in records) for seat in range(4)]
    assert s["turns"]["min"] == min(r["turns"] for r in records)
    for r in records:  # the winners' offices are offices their factions hold
        assert set(r["winner_offices"]) <= {o for o, f in r["offices"].items() if f in r["winners"]}
    for name in ("index.html", "games.csv", "summary.json", "wins_by_seat.png", "endings.png"):
        assert (tmp_path / name).exists()
    assert "Republic of Rome" in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_a_rome_lab_refuses_judges_and_kings_rules_and_bots(tmp_path):
    for config in (
        LabConfig(players=4, games=1, bots=["random"], out=tmp_path, game="rome", sets=["wrath_threshold=10"]),
        LabConfig(players=4, games=1, bots=["greedy"], out=tmp_path, game="rome"),
    ):
        try:
            config.all_variants() and config.seat_bots()
        except OverrideError:
            continue
        raise AssertionError(f"{config} was accepted")
    done = runner.invoke(app, ["lab", "--game", "rome", "--players", "2", "--games", "1", "--out", str(tmp_path)])
    assert done.exit_code != 0


def test_simulate_rome_reports_falls_fairness_turns_offices_and_wars():
    done = runner.invoke(app, ["simulate", "--game", "rome", "--players", "5", "--games", "6", "--seed", "2", "--json"])
    assert done.exit_code == 0, done.output
    lines = [json.loads(x) for x in done.stdout.strip().splitlines()]
    games, summary = lines[:-1], lines[-1]["summary"]
    assert len(games) == 6 and summary["rome_fell"]["games"] == sum(g["fell"] for g in games)
    wars = sum(len(g["wars"]) for g in games if g["ending"] == "wars")
    assert sum(summary["wars_when_rome_fell_to_wars"].values()) == wars
    text = runner.invoke(app, ["simulate", "--game", "rome", "--players", "5", "--games", "6", "--seed", "2"])
    assert "Rome fell in" in text.stdout and "win rate by seat" in text.stdout


def _old_loop(options: Options, specs: list[str]) -> Game:
    """The headless loop as it was before the protocol: the engine's Game, asked directly."""
    bots = [make_bot(spec, bot_seed(options.seed, seat)) for seat, spec in enumerate(specs)]
    game = Game.new(options, undoable=False)
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply_legal(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
    return game


def test_judges_and_kings_plays_the_same_games_through_the_protocol():
    for seed, specs in ((3, ["random"] * 3), (4, ["greedy", "random", "greedy", "random"])):
        options = Options(players=len(specs), seed=seed)
        bots = [make_bot(spec, bot_seed(seed, seat)) for seat, spec in enumerate(specs)]
        new, old = play_game(options, bots), _old_loop(options, specs)
        assert new.log == old.log and new.state_json() == old.state_json()


def test_both_games_share_one_action_encoding():
    assert type(JUDGES_CODEC) is type(ROME_CODEC) is ActionCodec
    assert JUDGES_CODEC.by_tag["vote"] is not ROME_CODEC.by_tag["vote"]  # each game's own "vote"
    vote = ROME_CODEC.from_dict({"type": "vote", "player": 1, "choice": "yea"})
    assert ROME_CODEC.to_dict(vote) == {"type": "vote", "player": 1, "choice": "yea", "talents": 0}
