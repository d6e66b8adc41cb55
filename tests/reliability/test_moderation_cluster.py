"""Moderation across processes (docs/operations.md "Moderation"): two real `judges serve`
processes on one PostgreSQL schema, with the fan-out through LISTEN/NOTIFY or Redis pub/sub. An
operator hides a message through one process: a screen served by the other loses it at once. A
player mutes another through one process: his screen served by the other stops receiving the
muted player's chat from that moment (and receives it again once he unmutes).

Real PostgreSQL and Redis (JUDGES_TEST_POSTGRES_URL, JUDGES_TEST_REDIS_URL): skipped when
missing, failed instead when CI is set. The only timing figure is a generous delivery bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from cluster_support import ChatSocket, say
from games_support import GameDriver
from judges.cli import app as cli
from postgres_support import postgres_schema
from redis_support import redis_prefix, redis_url
from seats_support import invitation_code
from server_process import Server

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]
PASSWORD = "a long secret"

pytestmark = pytest.mark.timeout(300)


@contextmanager
def two_servers(tmp_path: Path, fanout: str) -> Iterator[tuple[Server, Server, str]]:
    with postgres_schema("judges_moderation_cluster") as (_, _, url):
        env = {"JUDGES_WATCH_SECONDS": "0.3", "JUDGES_SIGN_IN_BURST": "200"}
        if fanout == "redis":
            env.update(JUDGES_REDIS_URL=redis_url(), JUDGES_REDIS_PREFIX=redis_prefix("judges_moderation"))
        a = Server(url, tmp_path / "a.log", env)
        try:
            b = Server(url, tmp_path / "b.log", env)
            try:
                yield a, b, url
            finally:
                b.stop()
        finally:
            a.stop()


def account(server: Server, name: str) -> httpx.Client:
    """A new account's client, signed in (its session cookie kept)."""
    client = httpx.Client(base_url=server.base, timeout=30)
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def table(server: Server, game: GameDriver) -> tuple[str, list[str], dict[str, httpx.Client]]:
    """A table of three accounts made through `server`: its id, each seat's credential, and
    each player's signed-in client."""
    clients = {name: account(server, name) for name in ("Ada", "Bo", "Cy")}
    data = clients["Ada"].post("/api/games", json=game.body(SEATS, seed=5)).json()
    tokens = {data["seat"]: data["token"]}
    for name, seat in zip(("Bo", "Cy"), [s for s in data["seats"] if "invitation" in s], strict=True):
        claimed = clients[name].post(
            f"/api/games/{data['id']}/claim", json={"invitation": invitation_code(seat["invitation"])}
        )
        assert claimed.status_code == 200, claimed.text
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
    return data["id"], [tokens[i] for i in range(3)], clients


def operator(server: Server, url: str) -> httpx.Client:
    client = account(server, "Op")
    result = CliRunner().invoke(cli, ["admin", "grant", "Op", "--database", url])
    assert result.exit_code == 0, result.output
    return client


@pytest.mark.parametrize("fanout", ["postgresql", "redis"])
def test_a_message_hidden_through_one_process_leaves_the_screens_of_the_other(tmp_path, fanout, game):
    with two_servers(tmp_path, fanout) as (a, b, url):
        gid, tokens, clients = table(a, game)
        op = operator(a, url)
        ada_on_b = ChatSocket(b, gid, tokens[0])
        watcher_on_b = ChatSocket(b, gid, None)
        try:
            for s in (ada_on_b, watcher_on_b):
                s.pump(lambda s=s: s.history is not None)
            rude = say(a, gid, tokens[1], "Something rude")["id"]
            say(a, gid, tokens[2], "Something kind")
            for s in (ada_on_b, watcher_on_b):
                s.pump(lambda s=s: len(s.live) >= 2)
                assert s.texts() == ["Something rude", "Something kind"], (a.output(), b.output())
                s.history = None

            hidden = op.post("/api/admin/hide", json={"game": gid, "message": rude, "reason": "insults"})
            assert hidden.status_code == 200, hidden.text
            for s in (ada_on_b, watcher_on_b):  # a fresh history, without it
                s.pump(lambda s=s: s.history is not None)
                assert [m["text"] for m in s.history or []] == ["Something kind"], (a.output(), b.output())
        finally:
            ada_on_b.close()
            watcher_on_b.close()
            for client in (op, *clients.values()):
                client.close()


@pytest.mark.parametrize("fanout", ["postgresql", "redis"])
def test_a_mute_made_through_one_process_filters_the_muters_screen_on_the_other(tmp_path, fanout, game):
    with two_servers(tmp_path, fanout) as (a, b, _):
        gid, tokens, clients = table(a, game)
        ada_on_b = ChatSocket(b, gid, tokens[0])
        try:
            ada_on_b.pump(lambda: ada_on_b.history is not None)
            say(a, gid, tokens[1], "Bo before the mute")
            ada_on_b.pump(lambda: len(ada_on_b.live) >= 1)
            ada_on_b.history = None

            muted = clients["Ada"].post("/api/me/mutes", json={"game": gid, "seat": 1})
            assert muted.status_code == 200, muted.text
            ada_on_b.pump(lambda: ada_on_b.history is not None)  # her screen reads again, without Bo
            assert ada_on_b.history == [], (a.output(), b.output())
            say(a, gid, tokens[1], "Bo to the table")
            say(a, gid, tokens[1], "Bo to Ada alone", channel="private", to=[0])
            say(b, gid, tokens[1], "Bo through B")
            say(a, gid, tokens[2], "Cy to the table")
            ada_on_b.pump(lambda: "Cy to the table" in ada_on_b.texts())
            assert ada_on_b.texts() == ["Bo before the mute", "Cy to the table"], (a.output(), b.output())

            ada_on_b.history = None
            unmuted = clients["Ada"].delete("/api/me/mutes/Bo")
            assert unmuted.status_code == 200, unmuted.text
            ada_on_b.pump(lambda: ada_on_b.history is not None)
            assert len(ada_on_b.history or []) == 5
            say(a, gid, tokens[1], "Bo again")
            ada_on_b.pump(lambda: "Bo again" in ada_on_b.texts())
            assert ada_on_b.texts()[-1] == "Bo again"
        finally:
            ada_on_b.close()
            for client in clients.values():
                client.close()
