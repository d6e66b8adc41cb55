"""Moderation (server/community/moderation.py, docs/accounts.md "Muting and reporting", docs/operations.md
"Moderation"), on SQLite and on the real PostgreSQL: a player mutes another (his chat and private
messages never reach the muter, on the server), reports a message or a player with a reason;
operators (`judges admin grant NAME`) see the reports with their context, hide a message for
everyone, ban or suspend an account (sessions ended, sign-in refused, no table made, seats handed
to the takeover bot, rating frozen), close a table; each act is in the audit log with who and why;
nothing of the games is deleted."""

from __future__ import annotations

from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from typer.testing import CliRunner

from judges.cli import app as cli
from judges.server.app import create_app
from judges.server.community.moderation_store import ModerationStore
from judges.server.community.moderation_tables import sanctions_table
from judges.server.community.rating_tables import ratings_table
from judges.server.community.ratings import Entry, Outcome, RatingStore
from judges.server.store import account_seats_table, chat_table, hash_token, new_token, sessions_table
from postgres_support import postgres_schema
from seats_support import invitation_code

THREE = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]
PASSWORD = "a long secret"


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request, tmp_path, monkeypatch):
    """(test client, database URL) of a new server."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setenv("JUDGES_SIGN_IN_BURST", "200")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    with ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'games.db'}"
        if request.param == "postgresql":
            url = stack.enter_context(postgres_schema("judges_moderation"))[2]
        client = stack.enter_context(TestClient(create_app(url, allow_seeds=True), raise_server_exceptions=False))
        yield client, url


def sign_up(client, name):
    client.cookies.clear()
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text


def sign_in(client, name):
    client.cookies.clear()
    return client.post("/api/session", json={"name": name, "password": PASSWORD})


def table(client, game, names=("Ada", "Bo", "Cy")):
    """A table of three accounts (the first makes it, the others claim their invitations):
    its id and each seat's credential."""
    sign_up(client, names[0])
    data = client.post("/api/games", json=game.body(THREE, seed=5)).json()
    tokens = {data["seat"]: data["token"]}
    for name, seat in zip(names[1:], [s for s in data["seats"] if "invitation" in s], strict=True):
        sign_up(client, name)
        claimed = client.post(
            f"/api/games/{data['id']}/claim", json={"invitation": invitation_code(seat["invitation"])}
        )
        assert claimed.status_code == 200, claimed.text
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
    client.cookies.clear()
    return data["id"], [tokens[i] for i in range(3)]


def say(client, gid, token, text, channel="table", to=()):
    response = client.post(
        f"/api/games/{gid}/chat",
        json={"channel": channel, "to": list(to), "text": text},
        headers={"X-Seat-Token": token},
    )
    assert response.status_code == 200, response.text
    return response.json()["id"]


def history(client, gid, token):
    response = client.get(f"/api/games/{gid}/chat", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def next_chat(ws) -> list[str]:
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == "chat":
            return [m["text"] for m in message["messages"]]
    raise AssertionError("no chat message")


def operator(client, url, name="Op"):
    """A new account made an operator by the command line, signed in."""
    sign_up(client, name)
    result = CliRunner().invoke(cli, ["admin", "grant", name, "--database", url])
    assert result.exit_code == 0, result.output
    assert sign_in(client, name).status_code == 200


def test_a_muted_players_chat_and_private_messages_never_reach_the_muter(site, game):
    client, _ = site
    gid, (ada, bo, cy) = table(client, game)
    assert sign_in(client, "Ada").status_code == 200
    muted = client.post("/api/me/mutes", json={"game": gid, "seat": 1})
    assert muted.status_code == 200, muted.text
    assert muted.json() == {"mutes": [{"name": "Bo"}]}
    mine = client.get(f"/api/me/mutes?game={gid}").json()
    assert mine == {"mutes": [{"name": "Bo"}], "signed_in": True, "members": [0, 1, 2]}
    with client.websocket_connect(f"/ws/games/{gid}?chat=1", headers={"X-Seat-Token": ada}) as ws:
        assert next_chat(ws) == []  # the history
        say(client, gid, bo, "Bo to the table")
        say(client, gid, bo, "Bo to Ada alone", channel="private", to=[0])
        say(client, gid, cy, "Cy to the table")
        assert next_chat(ws) == ["Cy to the table"]  # Bo's two never came
    assert history(client, gid, ada) == ["Cy to the table"]
    assert history(client, gid, cy) == ["Bo to the table", "Cy to the table"]  # for Ada only
    # a message as clients receive it names no account
    public = client.get(f"/api/games/{gid}/chat/public").json()["messages"]
    assert all(set(m) == {"id", "channel", "sender", "name", "text", "at"} for m in public)
    # refused: oneself, a seat of no account, a guest asking
    assert client.post("/api/me/mutes", json={"game": gid, "seat": 0}).json()["key"] == "error.mute_self"
    assert client.post("/api/me/mutes", json={"name": "Nobody"}).status_code == 404
    unmuted = client.delete("/api/me/mutes/Bo")
    assert unmuted.json() == {"mutes": []}
    assert history(client, gid, ada) == ["Bo to the table", "Bo to Ada alone", "Cy to the table"]
    client.cookies.clear()
    assert client.post("/api/me/mutes", json={"name": "Bo"}).status_code == 401
    assert client.get("/api/me/mutes").json() == {"mutes": [], "signed_in": False, "members": []}


def test_reports_reach_the_operators_whose_acts_are_audited(site, game):
    client, url = site
    gid, (ada, bo, cy) = table(client, game)
    say(client, gid, ada, "Good luck all")
    rude = say(client, gid, bo, "You are all idiots")
    assert sign_in(client, "Cy").status_code == 200
    no_reason = client.post("/api/reports", json={"game": gid, "message": rude, "reason": " "})
    assert no_reason.status_code == 422 and no_reason.json()["key"] == "error.reason_needed"
    reported = client.post("/api/reports", json={"game": gid, "message": rude, "reason": "insults the table"})
    assert reported.status_code == 201, reported.text
    assert client.post("/api/reports", json={"name": "Bo", "reason": "rude all game"}).status_code == 201
    assert client.get("/api/admin/reports").status_code == 403  # a player is no operator
    assert client.get("/admin").status_code == 403

    operator(client, url)
    reports = client.get("/api/admin/reports").json()["reports"]
    assert [(r["reporter"], r["account"], r["text"], r["reason"]) for r in reports] == [
        ("Cy", "Bo", "You are all idiots", "insults the table"),
        ("Cy", "Bo", None, "rude all game"),
    ]
    assert [m["text"] for m in reports[0]["context"]] == ["Good luck all", "You are all idiots"]
    page = client.get("/admin?lang=es")
    assert page.status_code == 200 and "insults the table" in page.text and "Denuncias abiertas" in page.text

    # an act needs a reason; hiding keeps the message in the store, shown to no one
    body = {"game": gid, "message": rude, "report": reports[0]["id"]}
    assert client.post("/api/admin/hide", json={**body, "reason": ""}).status_code == 422
    assert client.post("/api/admin/hide", json={**body, "reason": "an insult"}).status_code == 200
    for token in (ada, bo, cy):
        assert history(client, gid, token) == ["Good luck all"]
    assert [r["id"] for r in client.get("/api/admin/reports").json()["reports"]] == [reports[1]["id"]]
    assert (
        client.post("/api/admin/dismiss", json={"report": reports[1]["id"], "reason": "said once"}).status_code == 200
    )
    assert client.get("/api/admin/reports").json()["reports"] == []
    audit = client.get("/api/admin/audit").json()["audit"]
    assert [(a["actor"], a["action"], a["account"], a["reason"]) for a in audit] == [
        ("Op", "dismiss", None, "said once"),
        ("Op", "hide", "Bo", "an insult"),
        (None, "grant", "Op", "granted on the command line"),
    ]
    with ModerationStore(client.app.state.service.store).store._session() as session:
        stored = session.execute(select(chat_table.c.text, chat_table.c.hidden_at).where(chat_table.c.id == rude)).one()
    assert stored.text == "You are all idiots" and stored.hidden_at is not None


def test_a_ban_ends_the_sessions_hands_the_seats_to_the_bot_and_freezes_the_rating(site, game):
    client, url = site
    gid, (ada, bo, cy) = table(client, game)
    said = say(client, gid, bo, "before the ban")
    assert sign_in(client, "Bo").status_code == 200
    bo_session = client.cookies.get("jk_session")
    operator(client, url)
    assert client.post("/api/admin/sanction", json={"name": "Bo", "kind": "ban", "reason": "x"}).status_code == 422
    banned = client.post("/api/admin/sanction", json={"name": "Bo", "kind": "ban", "reason": "threats in chat"})
    assert banned.status_code == 200, banned.text
    store = client.app.state.service.store
    moderation = ModerationStore(store)
    bo_id = moderation.account_id("Bo")
    with store._session() as session:
        assert session.scalars(select(sessions_table.c.id_hash).where(sessions_table.c.account_id == bo_id)).all() == []

    # his session ended; signing in is refused, clearly
    client.cookies.clear()
    client.cookies.set("jk_session", bo_session)
    assert client.get("/api/me").json() == {"account": None}
    refused = sign_in(client, "Bo")
    assert refused.status_code == 403 and refused.json()["key"] == "error.account_banned"
    # a session opened meanwhile (another process's) makes no table
    session_id = new_token()
    from judges.server.community.account_store import AccountStore

    AccountStore(store).open_session(hash_token(session_id), bo_id, 3600)
    client.cookies.clear()
    client.cookies.set("jk_session", session_id)
    made = client.post("/api/games", json=game.body(THREE))
    assert made.status_code == 403 and made.json()["key"] == "error.account_banned"
    client.cookies.clear()

    # his seat is the takeover bot's; he cannot take it back nor write with its credential
    view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": ada}).json()
    assert view["seats"][1]["away"] is True and view["sanction"] is None
    # his seat's view says why: the bot holds it while he is banned (no "take my seat back")
    mine = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": bo}).json()
    assert mine["seats"][1]["away"] is True and mine["sanction"] == {"kind": "ban", "until": None}
    assert client.get(f"/api/games/{gid}/spectate").json()["sanction"] is None
    back = client.post(f"/api/games/{gid}/seat/back", headers={"X-Seat-Token": bo})
    assert back.status_code == 403 and back.json()["key"] == "error.account_banned"
    chat = client.post(f"/api/games/{gid}/chat", json={"text": "still here"}, headers={"X-Seat-Token": bo})
    assert chat.status_code == 403
    # nothing of his game is lost: his seat's binding and his message stay
    with store._session() as session:
        assert session.scalar(select(account_seats_table.c.seat).where(account_seats_table.c.account_id == bo_id)) == 1
    assert "before the ban" in history(client, gid, cy) and said >= 1

    # his rating is frozen for a game rated meanwhile; the others' move (J&K's anchors and rating)
    if game.name == "judges":
        ada_id = moderation.account_id("Ada")
        entries = (Entry(0, 1, ada_id, None), Entry(1, 2, bo_id, None), Entry(2, 3, None, "greedy"))
        anchors = game.served.rating.anchors
        assert RatingStore(store).record(gid, Outcome(True, None, entries, anchors, game.name))
        with store._session() as session:
            rated = dict(session.execute(select(ratings_table.c.account_id, ratings_table.c.games)).all())
        assert rated == {ada_id: 1}

    # lifted: he signs in again and takes his seat back
    assert sign_in(client, "Op").status_code == 200
    assert client.post("/api/admin/lift", json={"name": "Bo", "reason": "appeal heard"}).status_code == 200
    assert sign_in(client, "Bo").status_code == 200
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": bo}).json()["sanction"] is None
    assert client.post(f"/api/games/{gid}/seat/back", headers={"X-Seat-Token": bo}).status_code == 200


def test_a_suspension_lasts_until_its_end(site, monkeypatch, game):
    client, url = site
    gid, (_, bo, _) = table(client, game)
    operator(client, url)
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    late = client.post("/api/admin/sanction", json={"name": "Bo", "kind": "suspend", "until": past, "reason": "spam"})
    assert late.status_code == 422 and late.json()["key"] == "error.suspend_until"
    until = datetime.now(UTC) + timedelta(days=2)
    suspended = client.post(
        "/api/admin/sanction", json={"name": "Bo", "kind": "suspend", "until": until.isoformat(), "reason": "spam"}
    )
    assert suspended.status_code == 200, suspended.text
    refused = sign_in(client, "Bo")
    assert refused.status_code == 403 and refused.json()["key"] == "error.account_suspended"
    assert until.strftime("%Y-%m-%d %H:%M") in refused.json()["message"]
    # his seat's view: the bot holds it while he is suspended, until the suspension's end
    sanction = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": bo}).json()["sanction"]
    assert sanction["kind"] == "suspend" and sanction["until"] == pytest.approx(until.timestamp())
    # its end come (the clock moved on): he signs in
    store = client.app.state.service.store
    with store._session(write=True) as session:
        session.execute(update(sanctions_table).values(until=datetime.now(UTC) - timedelta(seconds=1)))
        session.commit()
    assert sign_in(client, "Bo").status_code == 200
    client.cookies.clear()
    later = until.timestamp() + 60  # the views' clock past the suspension's end
    monkeypatch.setattr("judges.server.table.views.time", SimpleNamespace(time=lambda: later))
    assert client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": bo}).json()["sanction"] is None
    assert client.post(f"/api/games/{gid}/seat/back", headers={"X-Seat-Token": bo}).status_code == 200
    audit = ModerationStore(store).audit()
    assert audit[0]["action"] == "suspend" and audit[0]["detail"]["until"].startswith(until.strftime("%Y-%m-%dT%H"))


def test_an_operator_closes_a_table_its_players_are_told_and_nothing_is_deleted(site, game):
    client, url = site
    gid, (ada, bo, cy) = table(client, game)
    say(client, gid, ada, "hello")
    operator(client, url)
    closed = client.post("/api/admin/close", json={"game": gid, "reason": "players fighting"})
    assert closed.status_code == 200, closed.text
    again = client.post("/api/admin/close", json={"game": gid, "reason": "players fighting"})
    assert again.status_code == 409 and again.json()["key"] == "error.table_over"
    client.cookies.clear()
    view = client.get(f"/api/games/{gid}/view?lang=en", headers={"X-Seat-Token": bo}).json()
    assert any(n["key"] == "notification.game_closed" for n in view["seat_events"])
    action = {"type": game.progress[0], "player": 0}  # J&K: end_turn; Rome: done
    played = client.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": ada})
    assert played.status_code == 409 and played.json()["key"] == "error.game_abandoned"
    assert history(client, gid, cy) == ["hello"]
    (entry,) = [g for g in client.get("/api/lobby").json()["finished"] if g["id"] == gid]
    assert entry["ending"] == "abandoned"
    assert ModerationStore(client.app.state.service.store).audit()[0]["action"] == "close"


def test_a_closed_tables_view_says_it_is_over_to_every_seat_and_spectator(site, game):
    """Once an operator closed the table, no seat owes anything nor may act: each seat's view
    and the spectators' say the game ended, closed, with no legal action, no one awaited."""
    client, url = site
    gid, tokens = table(client, game)
    views = [client.get(f"/api/games/{gid}/view?lang=es", headers={"X-Seat-Token": t}).json() for t in tokens]
    assert any(v["legal_actions"] for v in views) and views[0]["waiting_for"] and views[0]["ending"] is None
    operator(client, url)
    assert client.post("/api/admin/close", json={"game": gid, "reason": "players fighting"}).status_code == 200
    client.cookies.clear()
    views = [client.get(f"/api/games/{gid}/view?lang=pt", headers={"X-Seat-Token": t}).json() for t in tokens]
    views.append(client.get(f"/api/games/{gid}/spectate").json())
    for view in views:
        assert view["ending"] == "closed"
        assert view["legal_actions"] == [] and view.get("action_labels", []) == [] and view["my_decisions"] == []
        assert view["waiting_for"] == [] and view["pending"] == [] and not view.get("undo")
        assert view.get("final") is None and all(s["deadline"] is None for s in view["seats"])


def test_the_command_line_grants_and_revokes_the_operators_role(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    runner = CliRunner()
    unknown = runner.invoke(cli, ["admin", "grant", "Nobody", "--database", url])
    assert unknown.exit_code == 1 and "no account named 'Nobody'" in unknown.output
    from judges.server.community.account_store import AccountStore
    from judges.server.store import GameStore

    with GameStore(url) as store:
        account = AccountStore(store).create("Ana", "$argon2id$hash", None).id
    granted = runner.invoke(cli, ["admin", "grant", "ana", "--database", url, "--reason", "new moderator"])
    assert granted.exit_code == 0 and "is an operator now" in granted.output
    assert "already" in runner.invoke(cli, ["admin", "grant", "Ana", "--database", url]).output
    with GameStore(url) as store:
        moderation = ModerationStore(store)
        assert moderation.has_role(account, "operator")
        assert runner.invoke(cli, ["admin", "revoke", "Ana", "--database", url]).exit_code == 0
        assert not moderation.has_role(account, "operator")
        assert [(a["action"], a["reason"]) for a in moderation.audit()] == [
            ("revoke", "revoked on the command line"),
            ("grant", "new moderator"),
        ]
