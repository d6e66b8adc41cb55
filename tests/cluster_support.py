"""Helpers of the multi-process and database-failure tests: a seat's websocket that records
every frame, a human seat that plays through one server, and the checks on the stored log.

Everything is bounded: sockets and players stop when told or when their server is gone.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
from websockets.sync.client import connect

from games_support import DRIVERS, GameDriver
from judges.server.store import GameStore
from judges.server.table.updates import apply_update
from seats_support import seat_tokens
from server_process import Server


class Socket(threading.Thread):
    """A seat's websocket: applies each message (a full view, then deltas: server/table/updates.py)
    and records (arrival time, the view's seq) of each until closed, or until its server is
    gone. A delta that does not follow its view asks for a full one, as the screen does."""

    def __init__(self, ws_base: str, game_id: str, token: str, name: str, source: str | None = None) -> None:
        super().__init__(daemon=True, name=f"socket-{name}")
        # `source`: the local address the connection is made from (a client of its own)
        self.connect_options = {"source_address": (source, 0)} if source else {}
        self.url = f"{ws_base}/ws/games/{game_id}"
        self.token = token
        self.view: dict | None = None
        self.name_ = name
        self.frames: list[tuple[float, int]] = []
        self.opened = threading.Event()
        self.opened_at = 0.0
        self.closed_at: float | None = None
        self._stopping = threading.Event()
        self.start()
        assert self.opened.wait(15), f"socket {name} did not open"

    def run(self) -> None:
        try:
            with connect(
                self.url,
                additional_headers={"X-Seat-Token": self.token},
                open_timeout=10,
                close_timeout=2,
                **self.connect_options,
            ) as ws:
                self.opened_at = time.time()
                self.opened.set()
                while not self._stopping.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    if message.get("type") not in ("full", "delta"):
                        continue
                    view = apply_update(self.view, message)
                    if view is None:
                        ws.send(json.dumps({"type": "resync"}))
                        continue
                    self.view = view
                    self.frames.append((time.time(), view["seq"]))
        except Exception:
            pass  # the server was killed, or the socket closed
        finally:
            self.closed_at = time.time()
            self.opened.set()

    def close(self) -> None:
        self._stopping.set()
        self.join(10)

    @property
    def last_seq(self) -> int:
        return self.frames[-1][1] if self.frames else -1

    def wait_for_seq(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.last_seq >= seq:
                return True
            time.sleep(0.05)
        return self.last_seq >= seq


@dataclass
class Ack:
    game_id: str
    seq: int  # the game's action count after the action
    client_action_id: str
    action: dict
    at: float
    note: str = ""  # how it was acknowledged


@dataclass
class Traffic:
    """What the players' requests got: acknowledged actions and every answer's status."""

    acks: list[Ack] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # 5xx other than 503, or a 503 without Retry-After
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, response: httpx.Response, what: str) -> None:
        with self.lock:
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
            if response.status_code == 503 and response.headers.get("retry-after"):
                return
            if response.status_code >= 500:
                self.errors.append(f"{what}: {response.status_code} {response.text[:200]}")


class Player(threading.Thread):
    """A human seat playing through one server: reads its view, answers what it owes (mostly
    ending turns). A 503 is retried with the same client_action_id, as a client should: the
    answer may then be `duplicate`, which acknowledges it too."""

    def __init__(
        self,
        base: str,
        game_id: str,
        seat: int,
        token: str,
        traffic: Traffic,
        seed: int,
        game: GameDriver = DRIVERS["judges"],
    ) -> None:
        super().__init__(daemon=True, name=f"player-{seat}")
        self.base, self.game_id, self.seat, self.token = base, game_id, seat, token
        self.game = game
        self.traffic = traffic
        self.rng = random.Random(seed)
        self.stop_event = threading.Event()
        self._pause = threading.Event()
        self._idle = threading.Event()  # set while paused between two turns
        self.start()

    def stop(self) -> None:
        self.stop_event.set()
        self.join(30)

    def pause(self) -> None:
        """Stop acting after the current turn (a 503 retried to its end) and return once idle."""
        self._pause.set()
        assert self._idle.wait(60), f"player {self.seat} did not pause"

    def resume(self) -> None:
        self._idle.clear()
        self._pause.clear()

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30, headers={"X-Seat-Token": self.token}) as http:
            while not self.stop_event.is_set():
                if self._pause.is_set():
                    self._idle.set()
                    time.sleep(0.02)
                    continue
                try:
                    self._turn(http)
                except httpx.TransportError:
                    return  # the server was killed

    def _turn(self, http: httpx.Client) -> None:
        response = http.get(f"/api/games/{self.game_id}/view", params={"since": 10**9})
        self.traffic.count(response, "GET view")
        if response.status_code != 200:
            time.sleep(0.2)
            return
        v = response.json()
        if v["ending"] or self.seat not in v["waiting_for"] or not v["legal_actions"]:
            time.sleep(0.02)
            return
        action = self.game.pick(v, self.rng)
        cid = uuid.uuid4().hex
        # None when stopped before posting: the view read above is no acknowledgement.
        posted: httpx.Response | None = None
        while not self.stop_event.is_set():
            posted = http.post(f"/api/games/{self.game_id}/actions", json={"action": action, "client_action_id": cid})
            self.traffic.count(posted, f"POST {action['type']}")
            if posted.status_code != 503:
                break
            time.sleep(float(posted.headers.get("retry-after", "1")) / 4)
        if posted is not None and posted.status_code == 200:
            ack = posted.json()
            with self.traffic.lock:
                self.traffic.acks.append(
                    Ack(
                        self.game_id,
                        ack["seq"],
                        cid,
                        {**action, "player": self.seat},
                        time.time(),
                        f"through {self.base}, duplicate: {ack['duplicate']}",
                    )
                )


def create_game(base: str, seats: list[dict], seed: int, game: GameDriver = DRIVERS["judges"]) -> dict:
    """A table of `game` (J&K's seats turned into the game's, tests/games_support.py)."""
    response = httpx.post(f"{base}/api/games", json=game.body(game.with_game(seats), seed=seed), timeout=30)
    assert response.status_code == 201, response.text
    data = response.json()
    with httpx.Client(timeout=30) as client:  # every other human seat claims its invitation
        tokens = seat_tokens(client, data, base)
    return {"id": data["id"], "tokens": tokens}


def check_log(db_url: str, game_id: str, acks: list[Ack], game: GameDriver = DRIVERS["judges"]) -> list[dict]:
    """Every acknowledged action is stored as acknowledged, and the stored log replays under
    the rules from the game's seed (so no action was applied twice or out of turn). Returns
    the stored action records."""
    with GameStore(db_url) as store:
        stored = store.load(game_id, all_actions=True)
    records = stored.all_actions
    assert [r["seq"] for r in records] == list(range(stored.action_count))
    for ack in acks:
        assert ack.seq <= stored.action_count, f"action {ack.seq} was acknowledged; the store has {stored.action_count}"
        record = records[ack.seq - 1]
        stored_id = f"{ack.action['player']}:{ack.client_action_id}"  # client ids are per seat
        where = [r["seq"] for r in records if r["client_action_id"] == stored_id]
        assert record["client_action_id"] == stored_id and record["action"] == ack.action, (
            f"acknowledged action {ack.seq} was {ack.action} ({ack.note}); the store has {record['action']}; "
            f"its client id is stored at seq {where}"
        )
    replayed = game.replay(stored.options, [r["action"] for r in records])
    assert (stored.ending, stored.winners or []) == game.result(replayed)
    cids = [r["client_action_id"] for r in records if r["client_action_id"]]
    assert len(cids) == len(set(cids)), "a client action id was stored twice"
    return records


def check_delivery(sockets: list[Socket], records: list[dict], within: float) -> None:
    """Each socket saw each action committed while it was open within `within` seconds of
    the commit (a frame whose seq covers it)."""
    late = []
    for socket in sockets:
        end = (socket.closed_at or time.time()) - within
        for record in records:
            committed = record["created_at"].timestamp()
            if not socket.opened_at <= committed <= end:
                continue
            seen = next((t for t, seq in socket.frames if seq >= record["seq"] + 1), None)
            if seen is None or seen - committed > within:
                late.append((socket.name_, record["seq"], None if seen is None else round(seen - committed, 3)))
    assert not late, f"actions not seen within {within} s (socket, seq, delay): {late[:10]} of {len(late)}"


def wait_until_still(base: str, game: dict, timeout: float = 60.0) -> dict:
    """Bots play on until a human owes a decision (or the game is over): waits for that and
    returns the view."""
    humans = {seat for seat, token in enumerate(game["tokens"]) if token}
    token = next(t for t in game["tokens"] if t)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = httpx.get(f"{base}/api/games/{game['id']}/view", headers={"X-Seat-Token": token}, timeout=30)
        if response.status_code == 200:
            v = response.json()
            if v["ending"] or (v["waiting_for"] and set(v["waiting_for"]) <= humans):
                return v
        time.sleep(0.05)
    raise AssertionError(f"game {game['id']}: the bots did not hand it back within {timeout} s")


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {what}")


DELIVERY = 10.0  # seconds: liveness, not speed (the fan-out's own latency is docs/performance.md's)


class ChatSocket:
    """A seat's socket with the chat (`?chat=1`): collects the chat messages it receives."""

    def __init__(self, server: Server, game_id: str, token: str | None) -> None:
        path = f"/ws/games/{game_id}?chat=1" if token else f"/ws/games/{game_id}/spectate?chat=1"
        headers = {"X-Seat-Token": token} if token else {}
        self._connection = connect(server.ws_base + path, additional_headers=headers, open_timeout=10, close_timeout=2)
        self.ws = self._connection.__enter__()
        self.history: list[dict] | None = None
        self.live: list[dict] = []

    def pump(self, until, timeout: float = DELIVERY) -> None:
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            try:
                message = json.loads(self.ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            if message.get("type") == "chat":
                if message["history"]:
                    self.history = message["messages"]
                else:
                    self.live += message["messages"]

    def texts(self) -> list[str]:
        return [m["text"] for m in self.live]

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def say(server: Server, game_id: str, token: str, text: str, **extra) -> dict:
    response = httpx.post(
        f"{server.base}/api/games/{game_id}/chat",
        json={"text": text, **extra},
        headers={"X-Seat-Token": token},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    return response.json()
