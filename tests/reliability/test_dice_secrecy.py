"""Hidden information cannot be computed: no view or websocket frame of a server game holds its
dice key, its seed or the dice's state, in any encoding, until the game is over.

The audit that found 31-bit seeds (a brute force over 2**31 seeds from one seat's own hand and
the public dice predicted every hand and die in 18 s) is answered in two ways: a server game's
dice are keyed by 256 random bits (engine/dice.py, keyed BLAKE2b), and neither the key nor the
counter ever leaves the server before the end. Then the key is revealed, and only in
`dice.seed`, for `judges verify`.
"""

from __future__ import annotations

import base64
import json

import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.store import GameStore
from judges.server.table.updates import apply_update

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


def encodings(key_hex: str) -> set[str]:
    """The key as text in every form a careless encoder could write it."""
    raw = bytes.fromhex(key_hex)
    forms = {
        key_hex.lower(),
        key_hex.upper(),
        str(int.from_bytes(raw, "big")),
        str(int.from_bytes(raw, "little")),
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        base64.b32encode(raw).decode().rstrip("="),
        json.dumps(list(raw))[1:-1],
    }
    # any 64-bit quarter of it, as hex or decimal
    for i in range(0, len(raw), 8):
        part = raw[i : i + 8]
        forms |= {part.hex(), str(int.from_bytes(part, "big")), str(int.from_bytes(part, "little"))}
    return forms


def leaks(frame: dict, secrets_text: set[str]) -> list[str]:
    text = json.dumps(frame)
    found = [s for s in secrets_text if s in text]
    state = frame.get("state", {})
    # A view carries the state's fields with these zeroed (a typed GameState has them all).
    if state.get("rng"):
        found.append("state.rng (the dice's counter)")
    options = state.get("options", {})
    if options.get("seed") or options.get("key"):
        found.append("state.options.seed/key")
    return found


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0.01")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'secrecy.db'}")) as c:
        yield c, f"sqlite:///{tmp_path / 'secrecy.db'}"


def test_no_view_or_frame_holds_the_dice_key_until_the_end(client, game):
    client, url = client
    seats, options = game.quick_finish(SEATS)
    if game.name == "judges":
        options["round_limit"] = 2
    data = client.post("/api/games", json=game.body(seats, **options)).json()
    game_id, token = data["id"], data["token"]
    client.cookies.clear()
    key = GameStore(url).load(game_id).options["key"]
    secret = encodings(key)
    headers = {"X-Seat-Token": token}
    frames = [data]
    with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as ws:
        # every frame as sent, and the view the frames make (a full view, then deltas)
        current = apply_update(None, ws.receive_json())
        frames.append(current)
        assert client.post(f"/api/games/{game_id}/seat/away", headers=headers).status_code == 200
        while not current.get("ending"):
            message = ws.receive_json()
            current = apply_update(current, message)
            frames += [message, current]
            if len(frames) % 10 == 0:
                frames.append(client.get(f"/api/games/{game_id}/view", headers=headers).json())
    assert len(frames) > 20
    assert leaks({"echo": key.upper()}, secret) and leaks({"state": {"rng": 3}}, secret)  # the search works
    during = [f for f in frames if not (f.get("ending") or f.get("set", {}).get("ending"))]
    for i, frame in enumerate(during):
        assert not leaks(frame, secret), f"frame {i} gives away {leaks(frame, secret)}"
        if "dice" in frame and "seed" in frame["dice"]:
            assert frame["dice"]["seed"] is None
    # Over: the key is revealed in dice.seed, and nowhere else.
    final = client.get(f"/api/games/{game_id}/view", headers=headers).json()
    assert final["dice"]["seed"] == key
    rest = {k: v for k, v in final.items() if k != "dice"}
    assert not leaks(rest, secret)


def test_a_bot_seat_plays_from_a_seed_that_tells_nothing_of_the_key():
    from judges.engine import Options
    from judges.server.table.service import bot_seed

    options = Options(players=3, dice="blake2b", key="ab" * 32)
    seeds = {bot_seed(options, seat) for seat in range(3)}
    assert len(seeds) == 3 and all(0 <= s < 2**62 for s in seeds)
    assert not any(str(s) in encodings(options.key) for s in seeds)
    assert bot_seed(Options(players=3, seed=7), 2) == 702  # SplitMix64 games as before
