"""A whole five-player *Republic of Rome* game through the API of a real server process: three
human seats played by clients that hold their view from their websocket (a full view, then
deltas) and send one of its legal actions over HTTP; two seats played by the server's bots
("neutral"). Midway the server is killed with SIGKILL and started again on the same database:
the clients reconnect and play on to the end. The game's export then passes `judges verify`
against the commitment published at creation (the dice's commit-reveal), and each client's view
rebuilt from its deltas is the one the server answers over HTTP.

    JUDGES_ROME_KILL_AT   the action count after which the server is killed (default 100; the
                          shortest games seen end after some 200)
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
from websockets.sync.client import connect as ws_connect

from judges.server.table.updates import apply_update

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from seats_support import seat_tokens  # noqa: E402
from server_process import Server  # noqa: E402

KILL_AT = int(os.environ.get("JUDGES_ROME_KILL_AT", "100"))
SEATS = [
    {"kind": "human", "name": "Cato"},
    {"kind": "bot", "bot": "neutral"},
    {"kind": "human", "name": "Livia"},
    {"kind": "bot", "bot": "neutral"},
    {"kind": "human", "name": "Gaius"},
]
WAIT = 120.0  # seconds without any progress before the test gives up


class Player:
    """A human seat's client: its view from its websocket, one of its legal actions sent over
    HTTP (a seeded random choice, a client action id per decision)."""

    def __init__(self, seat: int, token: str, rng: random.Random) -> None:
        self.seat, self.token, self.rng = seat, token, rng
        self.ws = None
        self.sockets = ExitStack()
        self.view: dict | None = None
        self.acted = 0

    def connect(self, server: Server, game_id: str) -> None:
        self.ws = self.sockets.enter_context(
            ws_connect(
                f"{server.ws_base}/ws/games/{game_id}", additional_headers={"X-Seat-Token": self.token}, open_timeout=30
            )
        )
        self.view = None

    def close(self) -> None:
        try:
            self.sockets.close()
        except Exception:  # noqa: BLE001 - the server was killed under it
            pass
        self.ws = None

    def read(self) -> None:
        """Applies the messages waiting on the socket; a gap asks for a full view."""
        assert self.ws is not None
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.005))
            except TimeoutError:
                return
            if message.get("type") not in ("full", "delta"):
                continue
            held = apply_update(self.view, message)
            if held is None:
                self.ws.send(json.dumps({"type": "resync"}))
            self.view = held

    def step(self, http: httpx.Client, base: str, game_id: str) -> bool:
        """Sends one legal action when the held view shows the seat owes one; whether it did."""
        view = self.view
        if view is None or view["ending"] or not view["my_decisions"] or not view["legal_actions"]:
            return False
        action = self.rng.choice(view["legal_actions"])
        response = http.post(
            f"{base}/api/games/{game_id}/actions",
            headers={"X-Seat-Token": self.token},
            json={"action": action, "client_action_id": f"{view['seq']}.{self.acted}"},
        )
        self.acted += 1
        # 422/409: the held view was behind (another seat's answer changed the decision): the
        # socket's next delta brings the new one
        assert response.status_code in (200, 409, 422), response.text
        if response.status_code == 422:
            assert response.json()["key"].startswith("rome.error."), response.text
        return response.status_code == 200


def play_until(server: Server, game_id: str, players: list[Player], stop) -> dict:
    """The clients play until `stop(view)` holds for the HTTP view of the first seat."""
    with httpx.Client(timeout=30) as http:
        for p in players:
            p.connect(server, game_id)
        last_progress, last_seq = time.monotonic(), -1
        while True:
            for p in players:
                p.read()
                p.step(http, server.base, game_id)
            now = http.get(f"{server.base}/api/games/{game_id}/view", headers={"X-Seat-Token": players[0].token}).json()
            if stop(now):
                return now
            if now["seq"] != last_seq:
                last_progress, last_seq = time.monotonic(), now["seq"]
            assert time.monotonic() - last_progress < WAIT, f"no progress at seq {now['seq']}: {server.output()}"


def test_a_whole_rome_game_over_the_api_survives_a_kill_and_verifies(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'games.db'}"
    server = Server(db_url, tmp_path / "server-0.log")
    players: list[Player] = []
    try:
        with httpx.Client(timeout=30) as http:
            created = http.post(f"{server.base}/api/games", json={"game": "rome", "seats": SEATS})
            assert created.status_code == 201, created.text
            data = created.json()
            game_id, commitment = data["id"], data["dice"]["commitment"]
            assert data["dice"]["generator"] == "blake2b" and len(commitment) == 64
            tokens = seat_tokens(http, data, server.base)
            early = http.get(f"{server.base}/api/games/{game_id}/export", headers={"X-Seat-Token": tokens[0]})
            assert early.status_code == 409  # the seed stays secret until the end
        rng = random.Random(46)
        players = [Player(seat, tokens[seat], rng) for seat, s in enumerate(SEATS) if s["kind"] == "human"]

        before = play_until(server, game_id, players, lambda v: v["seq"] >= KILL_AT or v["ending"])
        assert not before["ending"], "the game ended before the kill: lower JUDGES_ROME_KILL_AT"
        for p in players:
            p.close()
        server.kill()
        server = Server(db_url, tmp_path / "server-1.log")

        with httpx.Client(timeout=30) as http:
            resumed = http.get(f"{server.base}/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()
        # every action acknowledged before the kill is kept (a bot's may have been committed since)
        assert resumed["seq"] >= before["seq"]
        assert resumed["dice"]["commitment"] == commitment

        end = play_until(server, game_id, players, lambda v: v["ending"] is not None)
        assert end["ending"] and end["dice"]["seed"]  # the seed is revealed once the game is over
        for p in players:  # the view rebuilt from the socket's deltas is the server's
            with httpx.Client(timeout=30) as http:
                fresh = http.get(f"{server.base}/api/games/{game_id}/view", headers={"X-Seat-Token": p.token}).json()
            deadline = time.monotonic() + WAIT
            while (p.view is None or p.view["version"] < fresh["version"]) and time.monotonic() < deadline:
                p.read()  # the last deltas may still be on their way
            assert p.view is not None
            assert p.view["seq"] == fresh["seq"] and p.view["state"] == fresh["state"]
            assert p.view["ending"] == fresh["ending"] and p.view["winners"] == fresh["winners"]
        assert sum(p.acted for p in players) > 0

        with httpx.Client(timeout=30) as http:
            export = http.get(f"{server.base}/api/games/{game_id}/export", headers={"X-Seat-Token": tokens[0]})
        assert export.status_code == 200, export.text
        body = export.json()
        assert body["format"] == "republic-of-rome/game-export/1"
        assert body["dice"]["commitment"] == commitment and len(body["actions"]) == end["seq"]
        path = tmp_path / "export.json"
        path.write_text(json.dumps(body), encoding="utf-8")
        verified = subprocess.run(
            [sys.executable, "-m", "judges.cli", "verify", str(path), "--commitment", commitment],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "verified" in verified.stdout
        # the export tampered with is refused: one action's player changed
        body["actions"][0]["player"] = (body["actions"][0]["player"] + 1) % len(SEATS)
        path.write_text(json.dumps(body), encoding="utf-8")
        tampered = subprocess.run(
            [sys.executable, "-m", "judges.cli", "verify", str(path)], capture_output=True, text=True, cwd=tmp_path
        )
        assert tampered.returncode == 1
    finally:
        for p in players:
            p.close()
        server.stop()
