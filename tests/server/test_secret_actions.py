"""Secret decisions (§10 ballots, §5.5 and §13 a prophet's choices): the other
seats and the spectators learn that a player decided, never what, whether they read the public
log, their websocket frames or the game's replay. (A discard is not secret: the discard pile is
face up, docs/rules-reference.md § 6.) Republic of Rome's secret decisions (a faction's treasury,
its ballot, a card given from its hand) reach no other faction's view or a spectator's either.

The secret kinds are listed here from the rules, not read from the registry: a kind whose
`secret` flag were dropped (engine/decisions.py) would fail the first test, and its content
would reach the log and fail the others.
"""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from games_support import DRIVERS
from judges.engine.decisions import KINDS, secret_action_tags
from judges.i18n import render_action
from judges.server.app import create_app
from judges.server.limits import Limits
from judges.server.table.updates import apply_update
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


# --- Republic of Rome: a faction's hand, treasury and ballot ----------------------------------------

# The rules' secret decisions of Rome (engine: rome/engine/decisions.py), from the rules: a
# faction's treasury (VG 1.06.31: its redistribution), a ballot until the tally, a card given
# from one hand to another (seen by its giver and receiver only), and the other choices made at
# once, secret until the last is made (docs/rome/rules-reference.md, "Choices made at once"):
# spoils, the grain bonus, a land bill's sponsors' consent, the discards down to the hand limit.
# A persuasion's bribe and a counter-bribe are paid in the open (R58): not secret.
ROME_SECRET_KINDS = {"redistribute", "vote", "trade_cards", "spoils", "grain", "sponsor_consent", "discard"}
# the answers a hurried three-faction game reaches; the other choices made at once are played
# from a position: tests/server/test_rome_tables.py (the parts the server sends) and
# tests/rome/rules/test_secret_choices.py (each kind's views)
ROME_SECRET_ANSWERS = {"redistribute": "transfer", "vote": "vote", "trade_cards": "give_card"}


def test_romes_secret_decisions_are_registered_secret():
    from judges.rome.engine.decisions import KINDS as ROME_KINDS

    assert {name for name, kind in ROME_KINDS.items() if kind.secret} == ROME_SECRET_KINDS


def rome_table_owing(client, kind: str) -> tuple[str, list[str], dict]:
    """A three-faction Rome table of human seats, played (each seat's hurried answer) until
    seat 0 owes `kind` before the others answered theirs: the table, its seats' credentials
    and seat 0's view."""
    rome = DRIVERS["rome"]
    response = client.post("/api/games", json=rome.body([{"kind": "human"}] * 3, seed=4))
    assert response.status_code == 201, response.text
    game = response.json()["id"]
    tokens = seat_tokens(client, response.json())
    for _ in range(400):
        views = [client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": t}).json() for t in tokens]
        if kind in views[0]["my_decisions"]:
            return game, tokens, views[0]
        seat = views[0]["waiting_for"][0]
        action = rome.hurried(views[seat])
        headers = {"X-Seat-Token": tokens[seat]}
        answer = client.post(f"/api/games/{game}/actions", headers=headers, json={"action": action})
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"seat 0 never owed {kind}")


@pytest.mark.parametrize("kind", sorted(ROME_SECRET_ANSWERS))
def test_a_rome_factions_secret_answer_reaches_no_other_seat_or_spectator(client, kind):
    """Seat 0 answers a secret decision (a transfer to or from its treasury, its ballot, a card
    given to seat 1): the other factions' views (seat 1's but for the card it receives) and a
    spectator's, as their sockets rebuild them, show none of it: no other faction's hand,
    treasury or ballot, and the card given named in no frame they receive nor in the log."""
    from judges.rome.i18n import card_name

    rome = DRIVERS["rome"]
    game, tokens, mine = rome_table_owing(client, kind)
    action = next(a for a in mine["legal_actions"] if a["type"] == ROME_SECRET_ANSWERS[kind])
    if kind == "trade_cards":
        action = next(a for a in mine["legal_actions"] if a["type"] == "give_card" and a["to"] == 1)
    card = action.get("card")
    card_words = {card, card_name("en", card)} if card else set()
    watchers = [seat for seat in (1, 2) if not (kind == "trade_cards" and seat == action["to"])] + [None]
    with ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(
                client.websocket_connect(f"/ws/games/{game}", headers={"X-Seat-Token": tokens[seat]})
                if seat is not None
                else client.websocket_connect(f"/ws/games/{game}/spectate")
            )
            for seat in watchers
        }
        seen = {seat: frames_after(ws) for seat, ws in sockets.items()}  # the full views before
        answer = client.post(f"/api/games/{game}/actions", headers={"X-Seat-Token": tokens[0]}, json={"action": action})
        assert answer.status_code == 200, answer.text
        for seat, ws in sockets.items():
            seen[seat] += frames_after(ws)
    for seat, frames in seen.items():
        view = None
        for frame in frames:
            view = apply_update(view, json.loads(frame))
            own = [f["hand"] for f in view["state"]["factions"] if f["seat"] == seat]
            if not (own and card in own[0]):  # (a card of the same name in the watcher's own hand)
                assert not any(word in frame for word in card_words), (kind, seat, frame[:300])
            assert view is not None, (kind, seat)
            assert not rome.leaks(view, seat), (kind, seat, rome.leaks(view, seat))
        assert view["seq"] == mine["seq"] + 1  # the answer was seen: what it was, not
    # the public log (Rome's report in words), in every language, names no card given either
    for lang in ("en", "es", "pt_BR"):
        log = client.get(f"/api/games/{game}/log", params={"lang": lang})
        assert log.status_code == 200, log.text
        words = {card, card_name(lang, card)} if card else set()
        assert not any(word in json.dumps(log.json(), ensure_ascii=False) for word in words), (kind, lang)
