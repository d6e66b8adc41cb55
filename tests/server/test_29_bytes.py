"""The bytes a game costs, on the server's side: answers are compressed, the board reaches
a screen as the line edits from the drawing it holds (server/table/textdelta.py, GET .../follow), and
the middlewares that read request bodies still refuse what they refused. The whole game's
transfer, measured in Chromium: tests/browser/test_29_bytes.py."""

from __future__ import annotations

import gzip
import json

import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.table.textdelta import apply_edits, line_edits

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def test_29_9_line_edits_turn_the_old_text_into_the_new():
    old = "a\nb\nc\nd\ne"
    for new in ("a\nb\nc\nd\ne", "a\nB\nc\nd\ne", "x\na\nc\ne\ny", "", "a", "a\nb\nc\nd\ne\nf\ng"):
        edits = line_edits(old, new)
        assert apply_edits(old, edits) == new
        assert json.loads(json.dumps(edits)) == edits  # plain JSON
    assert line_edits(old, old) == []


def test_29_9_http_answers_are_gzipped(client):
    data = client.post("/api/games", json={"seats": SEATS, "seed": 3}).json()
    for path in (f"/api/games/{data['id']}/board.svg", f"/api/games/{data['id']}/world", "/api/i18n/en", "/"):
        raw = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert raw.status_code == 200
        assert raw.headers.get("content-encoding") == "gzip", path
        assert int(raw.headers["content-length"]) < len(raw.content) / 2, path  # decoded by the client
    plain = client.get(f"/api/games/{data['id']}/board.svg", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text.startswith("<svg")


def test_29_9_json_answers_are_gzipped_at_the_fastest_level_the_drawing_at_level_6(client):
    """A seat's view, read again and again by a polling client, costs the server its gzip each
    time: JSON at level 1 (the gzip header's XFL byte 4), the drawing and pages at level 6 (0)."""
    data = client.post("/api/games", json={"seats": SEATS, "seed": 3}).json()
    headers = {"Accept-Encoding": "gzip", "X-Seat-Token": data["token"]}
    for path, level_flag in (
        (f"/api/games/{data['id']}/view", 4),
        (f"/api/games/{data['id']}/world", 4),
        (f"/api/games/{data['id']}/board.svg", 0),
        ("/", 0),
    ):
        with client.stream("GET", path, headers=headers) as raw:
            assert raw.headers.get("content-encoding") == "gzip", path
            body = b"".join(raw.iter_raw())
        assert body[:2] == b"\x1f\x8b" and body[8] == level_flag, path
        assert len(gzip.decompress(body)) > len(body), path


def test_29_9_the_body_middlewares_still_refuse_under_compression(client):
    headers = {"Accept-Encoding": "gzip", "Content-Type": "application/json"}
    not_json = client.post("/api/games", content=b'{"seats": NaN}', headers=headers)
    assert not_json.status_code == 400 and not_json.json()["key"] == "error.request_json"
    huge = client.post("/api/games", content=b"[" + b"1," * 400_000 + b"1]", headers=headers)
    assert huge.status_code == 413 and huge.json()["key"] == "error.too_large"
    # a compressed request body is not inflated by the server: refused as not JSON
    packed = client.post(
        "/api/games", content=gzip.compress(b'{"seats": []}'), headers={**headers, "Content-Encoding": "gzip"}
    )
    assert packed.status_code == 400


def _follow(client, game_id: str, **params) -> dict:
    response = client.get(f"/api/games/{game_id}/follow", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_29_9_the_board_follows_as_edits_of_the_drawing_held(client):
    data = client.post("/api/games", json={"seats": SEATS, "seed": 3}).json()
    gid, token = data["id"], data["token"]
    first = _follow(client, gid)
    held, digest = first["board"]["svg"], first["board"]["hash"]
    assert held == client.get(f"/api/games/{gid}/board.svg").text
    assert [e["seq"] for e in first["log"]["entries"]] == list(range(first["seq"]))
    # the same step again: no edit at all
    again = _follow(client, gid, base=digest, since=first["seq"] - 1)
    assert again["board"] == {"hash": digest, "base": digest, "edits": []} and again["log"]["entries"] == []
    # the game moves (the seat ends its turns; the bots play): edits, far smaller than the drawing
    for _ in range(6):
        view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json()
        ends = [a for a in view["legal_actions"] if a["type"] in ("end_turn", "pass")] or view["legal_actions"][:1]
        if ends:
            client.post(f"/api/games/{gid}/actions", json={"action": ends[0]}, headers={"X-Seat-Token": token})
    for _ in range(100):  # the bots may still be playing: until two answers agree on the step
        moved = _follow(client, gid, base=digest, since=first["seq"] - 1)
        whole = _follow(client, gid)
        if whole["board"]["hash"] == moved["board"]["hash"]:
            break
    assert moved["seq"] > first["seq"]
    board, now = moved["board"], whole["board"]["svg"]
    assert "svg" not in board and board["base"] == digest
    assert apply_edits(held, board["edits"]) == now
    assert len(json.dumps(board["edits"])) < len(now) / 4
    assert [e["seq"] for e in moved["log"]["entries"]] == list(range(first["seq"], moved["seq"]))
    # a drawing the server does not know: the whole one
    unknown = _follow(client, gid, base="0" * 24)
    assert unknown["board"]["svg"].startswith("<svg") and "edits" not in unknown["board"]


def test_29_9_a_seat_socket_with_follow_sends_the_board_edits_after_the_views(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as client:
        data = client.post("/api/games", json={"seats": seats, "seed": 3}).json()
        gid, token = data["id"], data["token"]
        first = _follow(client, gid)
        held = first["board"]["svg"]
        url = f"/ws/games/{gid}?follow=1&board={first['board']['hash']}&since={first['seq'] - 1}"
        with client.websocket_connect(url, headers={"X-Seat-Token": token}) as ws:
            assert ws.receive_json()["type"] == "full"
            opening = ws.receive_json()
            assert opening["type"] == "follow" and opening["board"]["edits"] == []  # nothing new yet
            view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json()
            mine = [a for a in view["legal_actions"] if a["type"] != "end_turn"] or view["legal_actions"]
            answer = client.post(f"/api/games/{gid}/actions", json={"action": mine[0]}, headers={"X-Seat-Token": token})
            assert answer.status_code == 200, answer.text
            message = ws.receive_json()
            while message["type"] != "follow":
                assert message["type"] == "delta"  # the views first
                message = ws.receive_json()
        assert message["seq"] == first["seq"] + 1
        assert message["board"]["base"] == first["board"]["hash"] and "svg" not in message["board"]
        now = _follow(client, gid)["board"]["svg"]
        assert apply_edits(held, message["board"]["edits"]) == now
        assert [e["seq"] for e in message["log"]["entries"]] == [first["seq"]]


def test_29_9_a_delta_sends_the_edits_of_an_array_or_object_when_they_are_shorter():
    """server/table/updates.py: a part that changed in a few of its items travels as their edits."""
    from judges.server.table.updates import apply_edits, edits

    settlements = [{"owner": i % 4, "troops": i, "walls": False} for i in range(40)]
    cases = [
        (settlements, [*settlements[:3], {"owner": 1, "troops": 9, "walls": True}, *settlements[4:]]),  # one item
        (settlements, [*settlements[:3], {"x": 1}, {"x": 2}, *settlements[5:39], {"x": 3}]),  # two runs
        (settlements, [*settlements, {"owner": 0, "troops": 1, "walls": False}]),  # a log that grew
        (settlements, settlements[:-2]),  # shrank
        (settlements, settlements[:5] + settlements[6:]),  # one taken out of the middle
        (
            {str(i): {"hex": i, "army": 2} for i in range(20)},
            {
                **{str(i): {"hex": i, "army": 2} for i in range(1, 20)},
                "3": {"hex": 9, "army": 0},
                "20": {"hex": 1, "army": 1},
            },
        ),
    ]
    for old, new in cases:
        before, after = json.dumps(old, separators=(",", ":")).encode(), json.dumps(new, separators=(",", ":")).encode()
        data = edits(before, after)
        assert data is not None and len(data) < len(after) / 4, (old, new)
        assert apply_edits(old, json.loads(data)) == new
    # a value changed all over is sent whole, and so is a short one
    shuffled = [dict(s, troops=s["troops"] + 1) for s in settlements]
    compact = {"separators": (",", ":")}
    assert edits(json.dumps(settlements, **compact).encode(), json.dumps(shuffled, **compact).encode()) is None
    assert edits(b"[1,2]", b"[1,3]") is None


def test_29_9_a_seat_socket_gets_the_changed_settlements_not_all_of_them(client):
    """Steps that change a few settlements send their edits, never the forty again; the view
    the socket builds from them is the server's."""
    from judges.server.table.updates import apply_update

    data = client.post("/api/games", json={"seats": SEATS, "seed": 3}).json()
    gid, token = data["id"], data["token"]
    sizes = []
    with client.websocket_connect(f"/ws/games/{gid}", headers={"X-Seat-Token": token}) as ws:
        view = apply_update(None, ws.receive_json())
        whole = len(json.dumps(view["state"]["settlements"], separators=(",", ":")))
        for _ in range(60):
            if view["state"]["ending"] or len(sizes) >= 3:
                break
            action = view["legal_actions"][-1]  # end_turn or pass where there is one
            client.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": token})
            while True:  # the bots play until the seat owes a decision again
                message = ws.receive_json()
                assert message["type"] == "delta" and "settlements" not in message.get("state", {})
                if "state.settlements" in message.get("patch", {}):
                    sizes.append(len(json.dumps(message["patch"]["state.settlements"], separators=(",", ":"))))
                view = apply_update(view, message)
                if view["my_decisions"] or view["state"]["ending"]:
                    break
        assert view == client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json() | {
            "version": view["version"],
            "notifications": view["notifications"],
            "server_time": view["server_time"],  # the clock's reading when each was made
        }
    assert sizes and all(size < whole / 4 for size in sizes), sizes
