"""Secret decisions (§10 ballots, §5.5 and §13 a prophet's choices): the other
seats and the spectators learn that a player decided, never what, whether they read the public
log, their websocket frames or the game's replay. (A discard is not secret: the discard pile is
face up, docs/rules-reference.md § 6.)

The secret kinds are listed here from the rules, not read from the registry: a kind whose
`secret` flag were dropped (engine/decisions.py) would fail the first test, and its content
would reach the log and fail the others.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from judges.engine.decisions import KINDS, secret_action_tags
from judges.i18n import render_action
from judges.server.app import create_app
from judges.server.limits import Limits
from judges.world import load_world
from seats_support import seat_tokens

WORLD = load_world()
HOLDINGS = {
    "Hazor": {"owner": 0, "troops": 2},
    "Hebron": {"owner": 1, "troops": 2},
    "Shechem": {"owner": 2, "troops": 2},
}
GENERALS = [{"id": 11, "owner": 1, "at": "Hebron"}, {"id": 12, "owner": 2, "at": "Shechem"}]

# The rules' secret decisions, and a position where seat 0 owes each.
SECRET_KINDS = {
    # §10: a ballot is secret until the tally
    "vote": {
        "clear_board": True,
        "settlements": {**HOLDINGS, "Kedesh": {"owner": 0, "troops": 1}},
        "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *GENERALS],
        "titles": {"Naphtali": {"holder": 10}, "Judah": {"holder": 11}},
    },
    # §5.5: the prophet's owner sees the events before they land and chooses where
    "foresee_events": {
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [{"id": 10, "owner": 0, "at": "Hazor", "prophet": True}, *GENERALS],
        "events_area": ["famine", "plague"],
    },
    # §13: and where an entering invader pair strikes
    "foresee_invasion": {
        "wrath": 12,
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [{"id": 10, "owner": 0, "at": "Hazor", "prophet": True}, *GENERALS],
    },
}


def test_the_rules_secret_decisions_are_registered_secret():
    assert {name for name, kind in KINDS.items() if kind.secret} == set(SECRET_KINDS)
    assert secret_action_tags() == {tag for name in SECRET_KINDS for tag in KINDS[name].action_tags}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("secret") / "g.db"
    app = create_app(f"sqlite:///{db}", allow_scenarios=True, allow_seeds=True, limits=Limits(create_burst=1000))
    with TestClient(app) as c:
        yield c


def frames_after(ws, count: int = 1) -> list[str]:
    return [ws.receive_text() for _ in range(count)]


@pytest.mark.parametrize("kind", sorted(SECRET_KINDS))
def test_a_secret_answer_reaches_no_other_seat_log_frame_or_replay(client, kind):
    response = client.post(
        "/api/games",
        json={"seats": [{"kind": "human"}] * 3, "seed": 4, "position": SECRET_KINDS[kind]},
    )
    assert response.status_code == 201, response.text
    game = response.json()["id"]
    tokens = seat_tokens(client, response.json())
    mine = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": tokens[0]}).json()
    assert kind in [d["kind"] for d in mine["my_decisions"]], (kind, mine["my_decisions"])
    tags = set(KINDS[kind].action_tags)
    action = next(a for a in mine["legal_actions"] if a["type"] in tags)
    # What would give it away: its words on a button, and its fields as the client sent them.
    words = {render_action(action, lang, WORLD) for lang in ("en", "es", "pt_BR")}
    content = {json.dumps(v) for k, v in action.items() if k not in ("type", "player")}

    with (
        client.websocket_connect(f"/ws/games/{game}", headers={"X-Seat-Token": tokens[1]}) as other,
        client.websocket_connect(f"/ws/games/{game}/spectate") as spectator,
    ):
        frames_after(other), frames_after(spectator)  # the full views before the action
        answer = client.post(f"/api/games/{game}/actions", headers={"X-Seat-Token": tokens[0]}, json={"action": action})
        assert answer.status_code == 200, answer.text
        seen = frames_after(other) + frames_after(spectator)
    for lang in ("en", "es", "pt_BR"):
        log = client.get(f"/api/games/{game}/log", params={"lang": lang}).json()["entries"]
        entry = next(e for e in log if e["type"] in tags)
        seen.append(json.dumps(entry, ensure_ascii=False))
        assert not any(w in entry["text"] for w in words), (kind, lang, entry)
    for frame in seen:
        assert not any(w in frame for w in words), (kind, frame[:300])
        # a foresight's terrains or an invader's target named in a frame's log or notification
        if kind in ("foresee_events", "foresee_invasion"):
            for value in content:
                assert f'"{kind}"' not in frame or value not in frame, (kind, value)
    # a running game has no replay; the log of a finished game's replay is the same public log
    assert client.get(f"/api/games/{game}/replay").status_code == 409
