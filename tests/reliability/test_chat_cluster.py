"""Table talk across processes: two real `judges serve` processes on one PostgreSQL
schema. A message sent through one reaches the sockets on the other that may read it (through
LISTEN/NOTIFY, or Redis pub/sub), in the order the store gave their ids, and nobody else's;
a socket opened afterwards on either gets the same history.

Real PostgreSQL and Redis (JUDGES_TEST_POSTGRES_URL, JUDGES_TEST_REDIS_URL): skipped when
missing, failed instead when CI is set. The only timing figure is a generous delivery bound.
"""

from __future__ import annotations

import pytest

from cluster_support import ChatSocket, create_game, say
from postgres_support import postgres_schema
from redis_support import redis_prefix, redis_url
from server_process import Server

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]
ENV = {"JUDGES_WATCH_SECONDS": "0.3"}

pytestmark = pytest.mark.timeout(300)


@pytest.mark.parametrize("fanout", ["postgresql", "redis"])
def test_a_message_sent_through_one_process_reaches_a_socket_on_the_other(tmp_path, fanout, game):
    with postgres_schema("judges_chat") as (_, _, url):
        env = dict(ENV)
        if fanout == "redis":
            env.update(JUDGES_REDIS_URL=redis_url(), JUDGES_REDIS_PREFIX=redis_prefix("judges_chat"))
        a = Server(url, tmp_path / "a.log", env)
        b = Server(url, tmp_path / "b.log", env)
        sockets: list[ChatSocket] = []
        try:
            table = create_game(a.base, SEATS, seed=5, game=game)
            gid, tokens = table["id"], table["tokens"]
            ada_on_b = ChatSocket(b, gid, tokens[0])
            cy_on_b = ChatSocket(b, gid, tokens[2])
            watcher_on_b = ChatSocket(b, gid, None)
            sockets = [ada_on_b, cy_on_b, watcher_on_b]
            for s in sockets:
                s.pump(lambda s=s: s.history is not None)
                assert s.history == [], "an empty history first"

            # Bo talks through A: to the table, then privately to Ada, then to the table again
            assert say(a, gid, tokens[1], "Shall we share Judah?")["id"] == 1
            assert say(a, gid, tokens[1], "Only you and me", channel="private", to=[0])["id"] == 2
            assert say(a, gid, tokens[1], "Good luck all")["id"] == 3

            ada_on_b.pump(lambda: len(ada_on_b.live) >= 3)
            assert ada_on_b.texts() == ["Shall we share Judah?", "Only you and me", "Good luck all"], (
                a.output(),
                b.output(),
            )
            assert [m["id"] for m in ada_on_b.live] == [1, 2, 3]
            for outsider in (cy_on_b, watcher_on_b):
                outsider.pump(lambda o=outsider: len(o.live) >= 2)
                assert outsider.texts() == ["Shall we share Judah?", "Good luck all"]

            # a message through B reaches a socket on A too
            bo_on_a = ChatSocket(a, gid, tokens[1])
            sockets.append(bo_on_a)
            bo_on_a.pump(lambda: bo_on_a.history is not None)
            assert [m["id"] for m in bo_on_a.history or []] == [1, 2, 3]
            assert say(b, gid, tokens[0], "Agreed, Bo", channel="private", to=[1])["id"] == 4
            bo_on_a.pump(lambda: bool(bo_on_a.live))
            assert bo_on_a.texts() == ["Agreed, Bo"]

            # a socket opened later on either process gets the history its seat may read
            for server in (a, b):
                late = ChatSocket(server, gid, tokens[2])
                sockets.append(late)
                late.pump(lambda late=late: late.history is not None)
                assert [m["text"] for m in late.history or []] == ["Shall we share Judah?", "Good luck all"]
        finally:
            for s in sockets:
                s.close()
            a.stop()
            b.stop()
