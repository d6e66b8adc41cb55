"""`judges backup` and `judges restore` (server/backup.py): a backup taken while the server
serves, restored into an empty place, serves every game at the same step with every seat,
account, session, rating and chat line; a restore is refused while a server holds the file,
and a file that is not a backup is refused without touching the database. On PostgreSQL the
pg_dump / pg_restore of docs/operations.md give back the same."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judges.cli import app as cli
from judges.server.app import create_app
from judges.server.community.rating_tables import ratings_table
from seats_support import with_tokens

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Bo"}]
run = CliRunner().invoke


def wait_for(client, game_id, tokens) -> tuple[int, dict]:
    """Bots play in the background: waits until a human seat owes a decision; (seat, its view)."""
    deadline = time.time() + 20
    while time.time() < deadline:
        data = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": tokens[0]}).json()
        owing = [seat for seat in data["waiting_for"] if tokens[seat]]
        if owing or data["ending"]:
            seat = owing[0] if owing else 0
            headers = {"X-Seat-Token": tokens[seat]}
            return seat, client.get(f"/api/games/{game_id}/view", headers=headers).json()
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


def every_row(path) -> dict[str, list]:
    """Every table's rows, sorted: what a restore must give back exactly."""
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


def play(client, game) -> dict:
    """An account (signed in: its session cookie), a rating, three games moved to different
    steps, chat lines on each; what each seat sees, by game."""
    signed_up = client.post("/api/accounts", json={"name": "Rahab", "password": "jericho-wall-7"})
    assert signed_up.status_code == 201, signed_up.text
    session = signed_up.headers["set-cookie"].split(";")[0]
    store = client.app.state.service.store
    with store.engine.begin() as conn:
        account_id = conn.exec_driver_sql("SELECT id FROM accounts WHERE name = 'Rahab'").scalar_one()
        conn.execute(
            ratings_table.insert().values(
                account_id=account_id, game=game.name, mu=27.5, sigma=6.25, games=3, updated_at=datetime.now(UTC)
            )
        )
    seen: dict = {"session": session}
    for moves in (0, 2, 5):
        created = client.post("/api/games", json=game.body(game.with_game(SEATS)))
        assert created.status_code == 201, created.text
        data = with_tokens(client, created.json())
        game_id, tokens = data["id"], [s.get("token") for s in data["seats"]]
        for _ in range(moves):
            seat, v = wait_for(client, game_id, tokens)
            action = game.hurried(v)
            headers = {"X-Seat-Token": tokens[seat]}
            client.post(f"/api/games/{game_id}/actions", headers=headers, json={"action": action})
        for seat in (0, 2):
            said = {"text": f"seat {seat} of {game_id} says shalom"}
            answer = client.post(f"/api/games/{game_id}/chat", headers={"X-Seat-Token": tokens[seat]}, json=said)
            assert answer.status_code == 200, answer.text
        wait_for(client, game_id, tokens)
        seen[game_id] = {seat: seat_state(client, game_id, tokens[seat]) for seat in (0, 2)}
        seen[game_id]["tokens"] = tokens
    return seen


def seat_state(client, game_id, token) -> dict:
    headers = {"X-Seat-Token": token}
    view = client.get(f"/api/games/{game_id}/view", headers=headers).json()
    chat = client.get(f"/api/games/{game_id}/chat", headers=headers).json()
    return {"seq": view["seq"], "state": view["state"], "waiting_for": view["waiting_for"], "chat": chat}


def test_a_restored_database_serves_everything_as_it_was(tmp_path, monkeypatch, game):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    live, copy, restored = tmp_path / "live.db", tmp_path / "backup.db", tmp_path / "restored.db"
    with TestClient(create_app(f"sqlite:///{live}")) as first:
        seen = play(first, game)
        # taken while the server serves (the online backup API)
        done = run(cli, ["backup", str(copy), "--database", f"sqlite:///{live}"])
        assert done.exit_code == 0, done.output
    expected = every_row(live)
    assert expected["chat"] and expected["ratings"] and expected["accounts"] and expected["sessions"]
    done = run(cli, ["restore", str(copy), "--database", f"sqlite:///{restored}"])
    assert done.exit_code == 0, done.output
    assert every_row(restored) == expected
    with TestClient(create_app(f"sqlite:///{restored}")) as second:
        session = seen.pop("session")
        for game_id, before in seen.items():
            for seat in (0, 2):
                assert seat_state(second, game_id, before["tokens"][seat]) == before[seat]
        assert session.startswith("jk_session=")
        me = second.get("/api/me", headers={"Cookie": session}).json()
        assert me["account"]["name"] == "Rahab"  # the session survived too
        board = second.get(f"/api/ratings?game={game.name}").json()["players"]
        assert [(p["name"], p["games"]) for p in board] == [("Rahab", 3)]
    assert max(s[0]["seq"] for s in seen.values()) >= 5  # the games had moved


def test_a_restore_waits_for_the_server_to_stop_and_refuses_what_is_no_backup(tmp_path):
    live, copy = tmp_path / "live.db", tmp_path / "backup.db"
    url = f"sqlite:///{live}"
    with TestClient(create_app(url)) as client:
        created = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
        assert created.status_code == 201
    assert run(cli, ["backup", str(copy), "--database", url]).exit_code == 0
    before = every_row(live)
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    refused = run(cli, ["restore", str(junk), "--database", url])
    assert refused.exit_code == 1 and "not a backup" in refused.output
    from judges.cli import _hold_sqlite

    held = _hold_sqlite(url)  # as `judges serve` holds it
    try:
        busy = run(cli, ["restore", str(copy), "--database", url])
    finally:
        del held
    assert busy.exit_code == 1 and "another server process" in busy.output
    assert every_row(live) == before


@pytest.mark.parametrize("url", ["postgresql://judges@127.0.0.1/judges", "sqlite:///:memory:"])
def test_what_cannot_be_backed_up_here_says_what_to_use(tmp_path, url):
    done = run(cli, ["backup", str(tmp_path / "b.db"), "--database", url])
    assert done.exit_code == 1
    assert ("pg_dump" in done.output) == url.startswith("postgresql")
    assert not (tmp_path / "b.db").exists()


def test_postgres_pg_dump_and_pg_restore_as_docs_deploy_shows(tmp_path, monkeypatch, game):
    """docs/operations.md's PostgreSQL commands (on the test's own schema): the schema dropped and
    restored from the dump serves every game, seat, chat line, session and rating as before."""
    import shutil
    import subprocess

    from sqlalchemy.engine import make_url

    from postgres_support import postgres_schema

    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump / pg_restore are not installed (Debian: postgresql-client)")
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    dump = tmp_path / "judges.dump"
    with postgres_schema("backup") as (admin, schema, url):
        libpq = make_url(url).set(drivername="postgresql", query={}).render_as_string(hide_password=False)
        with TestClient(create_app(url)) as first:
            seen = play(first, game)
            subprocess.run(["pg_dump", "--format=custom", f"--schema={schema}", "--file", str(dump), libpq], check=True)
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        subprocess.run(["pg_restore", "--dbname", libpq, str(dump)], check=True)
        with TestClient(create_app(url)) as second:
            session = seen.pop("session")
            for game_id, before in seen.items():
                for seat in (0, 2):
                    assert seat_state(second, game_id, before["tokens"][seat]) == before[seat]
            me = second.get("/api/me", headers={"Cookie": session}).json()
            assert me["account"]["name"] == "Rahab"
            board = second.get(f"/api/ratings?game={game.name}").json()["players"]
            assert [(p["name"], p["games"]) for p in board] == [("Rahab", 3)]
