"""Server games roll dice nobody can predict, and anybody can verify them afterwards.

Every server game is keyed by 256 fresh bits the server draws (no client may choose a seed
unless the server allows seeds); the game publishes the commitment to its seed at once, and
reveals the seed when it is over; its export proves every die (`judges verify`).
"""

from __future__ import annotations

import copy
import json
import time

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judges.cli import app as cli_app
from judges.engine import Options
from judges.engine.dice import commitment
from judges.server.app import create_app
from judges.server.store import GameStore
from judges.verify import VerificationError, verify_export
from seats_support import with_tokens

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'dice.db'}"


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url)) as c:
        yield c


def create(client, game=None, seats=SEATS, **extra) -> dict:
    """A table (`game`: the game's driver, tests/games_support.py; None: Judges & Kings)."""
    body = {"seats": seats, **extra} if game is None else game.body(game.with_game(seats), **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def finished_game(client, game) -> tuple[dict, str]:
    """A short game played to its end by bots (the human seat handed to the takeover bot): J&K
    one round, Rome until it falls."""
    seats, options = game.quick_finish(SEATS)
    data = create(client, game, seats, **options)
    token = data["seats"][0]["token"]
    assert client.post(f"/api/games/{data['id']}/seat/away", headers={"X-Seat-Token": token}).status_code == 200
    deadline = time.time() + 60
    while time.time() < deadline:
        view = client.get(f"/api/games/{data['id']}/view", headers={"X-Seat-Token": token}).json()
        if view["ending"]:
            return data, token
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the short game")


def export_of(client, game_id: str, token: str) -> dict:
    response = client.get(f"/api/games/{game_id}/export", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    return response.json()


def test_every_server_game_is_keyed_by_256_fresh_bits(client, db_url, game):
    first, second = create(client, game), create(client, game)
    store = GameStore(db_url)
    keys = []
    for data in (first, second):
        options = store.load(data["id"]).options
        assert options["dice"] == "blake2b"
        assert len(bytes.fromhex(options["key"])) * 8 >= 128
        keys.append(options["key"])
        assert data["dice"] == {
            "generator": "blake2b",
            "commitment": commitment(Options(dice="blake2b", key=options["key"])),
        }
    assert keys[0] != keys[1] and first["dice"]["commitment"] != second["dice"]["commitment"]


def test_a_client_cannot_choose_the_seed(client, game):
    response = client.post("/api/games", json=game.body(game.with_game(SEATS), seed=7))
    assert response.status_code == 422
    body = response.json()
    assert body["key"] == "error.seed_refused" and "seed" in body["message"]
    es = client.post("/api/games?lang=es", json=game.body(game.with_game(SEATS), seed=7)).json()
    assert "semilla" in es["text"]


def test_a_server_that_allows_seeds_plays_splitmix64_games_as_before(db_url, game):
    with TestClient(create_app(db_url, allow_seeds=True)) as c:
        data = c.post("/api/games", json=game.body(game.with_game(SEATS), seed=7)).json()
        assert data["dice"]["commitment"] == commitment(Options(seed=7))
        assert GameStore(db_url).load(data["id"]).options["dice"] == "splitmix64"


def test_the_export_waits_for_the_end_and_then_verifies(client, tmp_path, game):
    data = create(client, game)
    token = data["seats"][0]["token"]
    early = client.get(f"/api/games/{data['id']}/export", headers={"X-Seat-Token": token})
    assert early.status_code == 409 and early.json()["key"] == "error.not_over"
    assert client.get(f"/api/games/{data['id']}/export").status_code == 401
    view = client.get(f"/api/games/{data['id']}/view", headers={"X-Seat-Token": token}).json()
    assert view["dice"] == {**data["dice"], "seed": None}

    data, token = finished_game(client, game)
    exported = export_of(client, data["id"], token)
    view = client.get(f"/api/games/{data['id']}/view", headers={"X-Seat-Token": token}).json()
    assert view["dice"]["seed"] == exported["dice"]["seed"] == exported["options"]["key"]
    assert exported["dice"]["commitment"] == data["dice"]["commitment"]  # the one published at the start
    result = verify_export(exported, expected_commitment=data["dice"]["commitment"])
    assert result.ending == view["ending"] and result.winners == view["winners"]
    assert result.actions == len(exported["actions"]) > 0

    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    ran = CliRunner().invoke(cli_app, ["verify", str(path), "--commitment", data["dice"]["commitment"]])
    assert ran.exit_code == 0, ran.output
    assert "verified" in ran.output


def tampered_exports(exported: dict) -> dict[str, dict]:
    out = {}
    seed = copy.deepcopy(exported)  # another seed, its options and revealed seed agreeing
    other = ("0" if exported["options"]["key"][0] != "0" else "1") + exported["options"]["key"][1:]
    seed["options"]["key"] = seed["dice"]["seed"] = other
    out["seed"] = seed
    commitment_only = copy.deepcopy(exported)  # the seed and a commitment made to fit it
    commitment_only["options"]["key"] = commitment_only["dice"]["seed"] = other
    commitment_only["dice"]["commitment"] = commitment(Options(dice="blake2b", key=other))
    out["seed and commitment"] = commitment_only
    dropped = copy.deepcopy(exported)
    dropped["actions"].pop()
    out["log cut short"] = dropped
    # Reordered: the game's last action moved to the front. (Swapping the first two actions is
    # no tamper when they are the same action, as when a player plays two cards of one kind.)
    reordered = copy.deepcopy(exported)
    reordered["actions"].insert(0, reordered["actions"].pop())
    assert reordered["actions"] != exported["actions"]
    out["log reordered"] = reordered
    winners = copy.deepcopy(exported)
    winners["result"]["winners"] = [0] if winners["result"]["winners"] != [0] else [1]
    out["winners"] = winners
    state = copy.deepcopy(exported)
    state["result"]["state_sha256"] = "0" * 64
    out["final state"] = state
    return out


def test_a_tampered_export_fails_verification(client, tmp_path, game):
    data, token = finished_game(client, game)
    exported = export_of(client, data["id"], token)
    for name, bad in tampered_exports(exported).items():
        expected = data["dice"]["commitment"]
        with pytest.raises(VerificationError):
            verify_export(bad, expected_commitment=expected)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad))
        ran = CliRunner().invoke(cli_app, ["verify", str(path), "--commitment", expected])
        assert ran.exit_code == 1, f"{name}: {ran.output}"
        assert "NOT VERIFIED" in ran.output, name
    # Without the commitment noted at the start, a seed with a commitment made to fit it still
    # fails: the replay with another seed does not reach the stored result.
    with pytest.raises(VerificationError, match="replay"):
        verify_export(tampered_exports(exported)["seed and commitment"])
    with pytest.raises(VerificationError, match="commitment"):
        verify_export(tampered_exports(exported)["seed"])
