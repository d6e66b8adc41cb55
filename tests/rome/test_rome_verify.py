"""A Republic of Rome game's export and `judges verify`: the dice's seed is committed to at the
start (SHA-256, as Judges & Kings'), revealed at the end, and the actions replay to the result."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from judges.cli import app
from judges.games.protocol import GameProtocol, play_to_end
from judges.games.registry import GAMES, SERVED
from judges.rome.verify import ROME_EXPORT_FORMAT
from judges.verify import VerificationError, verify_export

KEY = "5e" * 32


def _finished(seed: int = 1) -> GameProtocol[Any, Any]:
    served = SERVED["rome"]
    game = served.new_table(3, None, KEY, None)
    return play_to_end(game, GAMES["rome"].seat_bots(["random"] * 3, seed))


@pytest.fixture(scope="module")
def finished() -> tuple[GameProtocol[Any, Any], dict[str, Any], str]:
    served = SERVED["rome"]
    game = _finished()
    return game, served.export(game, "r1"), served.commitment(game)


def test_a_finished_game_verifies_against_the_commitment_shown_at_its_start(finished: Any) -> None:
    game, export, committed = finished
    assert export["format"] == ROME_EXPORT_FORMAT
    assert export["dice"] == {"generator": "blake2b", "seed": KEY, "commitment": committed}
    verified = verify_export(json.loads(json.dumps(export)), committed)
    outcome = game.outcome()
    assert (verified.game, verified.ending, verified.winners) == ("rome", outcome.ending, list(outcome.winners))
    assert verified.actions == len(game.log()) and verified.rounds == game.progress


def test_a_game_still_playing_has_no_export() -> None:
    served = SERVED["rome"]
    with pytest.raises(ValueError, match="over"):
        served.export(served.new_table(3, None, KEY, None), "r2")


def _tampered(export: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(export)
    change(out)
    return out


TAMPERINGS = {
    "another seed": lambda e: e["dice"].update(seed="6f" * 32),
    "another key in the options": lambda e: e["options"].update(key="6f" * 32),
    "another commitment": lambda e: e["dice"].update(commitment="0" * 64),
    "another generator": lambda e: e["dice"].update(generator="splitmix64"),
    "an action dropped": lambda e: e["actions"].pop(len(e["actions"]) // 2),
    "an action changed": lambda e: e["actions"][0].update(player=(e["actions"][0]["player"] + 1) % 3),
    "another winner": lambda e: e["result"].update(winners=[9]),
    "another final state": lambda e: e["result"].update(state_sha256="0" * 64),
    "other rules": lambda e: e["options"]["rules"].update(hand_limit=4),
    "no actions": lambda e: e.pop("actions"),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_a_tampered_export_fails_verification(finished: Any, name: str) -> None:
    _, export, _ = finished
    verify_export(export)  # untouched, it verifies
    with pytest.raises(VerificationError):
        verify_export(_tampered(export, TAMPERINGS[name]))


def test_the_commitment_noted_at_the_start_must_match(finished: Any) -> None:
    _, export, committed = finished
    with pytest.raises(VerificationError, match="published at the start"):
        verify_export(export, "ab" * 32)
    verify_export(export, committed.upper())


def test_judges_verify_checks_a_rome_export(finished: Any, tmp_path: Path) -> None:
    _, export, committed = finished
    good, bad = tmp_path / "rome.json", tmp_path / "bad.json"
    good.write_text(json.dumps(export), encoding="utf-8")
    bad.write_text(json.dumps(_tampered(export, TAMPERINGS["another seed"])), encoding="utf-8")
    runner = CliRunner()
    ok = runner.invoke(app, ["verify", str(good), "--commitment", committed])
    assert ok.exit_code == 0, ok.output
    assert "verified" in ok.output and "turn" in ok.output
    refused = runner.invoke(app, ["verify", str(bad)])
    assert refused.exit_code == 1
