"""An action's commit never waits behind the other writers (server/store/base.py, runtime.py):
on PostgreSQL it has a connection pool of its own, and in the server threads of its own, so
that the players' signs of life, the bots' leases, the upkeep's reads or a burst of any of
them (holding every connection of the shared pool, every database thread) cannot hold it up.
Real PostgreSQL (tests/postgres_support.py). No timing: the other writers stay blocked until
the action has committed, and the test checks the order of the two."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select

from judges.engine import action_to_dict
from judges.server.limits import Limits
from judges.server.store import GameStore, presence_table
from judges.server.table.service import GameService
from postgres_support import postgres_schema

pytestmark = pytest.mark.timeout(120)

BLOCKED_SECONDS = 30  # the blocked writers give up after this long: the action failed to get past them


@pytest.fixture
def pg_url():
    with postgres_schema("judges_commits") as (_, _, url):
        yield url


def seats(n: int = 3) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def test_a_commit_needs_no_connection_of_the_shared_pool(pg_url):
    """Every connection of the shared pool held (a burst of presence and lease writes): the
    action still commits, on the actions' pool."""
    store = GameStore(pg_url, pool_size=1, pool_overflow=0, pool_timeout=0.5)
    try:
        store.migrate()
        store.create_game("g1", {}, 7, 1, seats())
        held = store.engine.connect()  # the shared pool's only connection
        try:
            assert store.append_action("g1", 0, 0, {"type": "end_turn", "player": 0}, "c1") is True
        finally:
            held.close()
        assert store.load("g1").action_count == 1
    finally:
        store.close()


def test_an_action_commits_while_every_other_writer_is_blocked(pg_url):
    """The service's database threads all busy and the shared pool's connections all held by
    writers that wait: a player's action is applied, committed and acknowledged before any
    of them is let go."""
    store = GameStore(pg_url, pool_size=2, pool_overflow=0, pool_timeout=BLOCKED_SECONDS)
    store.migrate()
    release = threading.Event()
    order: list[str] = []

    def blocked_writer() -> None:
        with store.engine.connect():  # holds a connection of the shared pool, as a slow write would
            if not release.wait(BLOCKED_SECONDS):
                order.append("writers gave up")

    async def scenario() -> None:
        service = GameService(store, Limits())
        live, _, _ = await service.create(seats(), seed=9)
        loop = asyncio.get_running_loop()
        threads = service.rt.db_threads
        writers = [loop.run_in_executor(threads, blocked_writer) for _ in range(threads._max_workers)]
        seat = live.game.waiting_for()[0]
        legal = [action_to_dict(a) for a in live.game.legal_actions(seat)]
        data = next((d for d in legal if d["type"] == "end_turn"), legal[0])
        answer = await service.submit(live, seat, data, "act-1")
        order.append("action committed")
        release.set()
        await asyncio.gather(*writers)
        assert answer == {"seq": 1, "duplicate": False}
        await service.stop()

    try:
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, scenario()).result()
        assert order == ["action committed"]
        assert store.load(store.list_games()[0].id).action_count == 1
    finally:
        release.set()
        store.close()


def test_a_commit_survives_its_connection_closed_by_the_database(pg_url):
    """The actions' pool pings no connection before using it: one the database closed (a
    restart, an idle limit) fails once, and the commit is made on a new connection."""
    store = GameStore(pg_url, action_pool_size=1)
    try:
        store.migrate()
        store.create_game("g1", {}, 7, 1, seats())
        assert store.append_action("g1", 0, 0, {"type": "end_turn", "player": 0}, "c1") is True
        with store.action_engine.connect() as connection:  # the pool's one connection
            backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT pg_terminate_backend(%(pid)s)", {"pid": backend}).scalar()
        assert store.append_action("g1", 1, 1, {"type": "end_turn", "player": 1}, "c2") is True
        assert [a["seq"] for a in store.load("g1", all_actions=True).all_actions or []] == [0, 1]
        assert store.calls.totals["action"] == 3  # the second commit was tried twice
    finally:
        store.close()


def test_each_writer_s_calls_are_counted(pg_url):
    store = GameStore(pg_url)
    try:
        store.migrate()
        store.create_game("g1", {}, 7, 1, seats())
        store.append_action("g1", 0, 0, {"type": "end_turn", "player": 0}, "c1")
        store.take_bot_lease("g1", "node", 5.0)
        store.update_seat("g1", 1, lambda info: False, writer="presence")
        counts = store.calls.snapshot()["totals"]
        assert counts["action"] == 1 and counts["lease"] == 1 and counts["presence"] == 1
        assert counts["other"] >= 1  # the creation
    finally:
        store.close()


# --- the players' signs of life ------------------------------------------------------------------


def test_an_action_commits_while_a_batch_of_signs_of_life_is_being_stored(pg_url):
    """A batch of presence writes in progress (its rows locked, not committed yet): the game's
    action commits, and a change of its seats reads the signs without waiting either; a
    commit in progress (the game's row locked) does not hold up the batch. Short lock waits:
    any wait fails at once."""
    store = GameStore(pg_url, lock_timeout_ms=200)
    try:
        store.migrate()
        store.create_game("g1", {}, 7, 1, [{**seat, "token_hash": f"t{i}"} for i, seat in enumerate(seats())])
        store.store_presence([("g1", 1, "t1", 100.0)])
        with store.engine.connect() as writing, writing.begin():  # a batch, not committed yet
            writing.exec_driver_sql("UPDATE seat_presence SET seen = 200 WHERE game_id = 'g1'")
            assert store.append_action("g1", 0, 0, {"type": "end_turn", "player": 0}, "c1") is True
            read: list[float] = []
            store.update_seat("g1", 1, lambda info, table: read.append(info["seen"]) or False, table=True)
            assert read == [100.0]  # the committed sign
        with store.engine.connect() as committing, committing.begin():  # a commit in progress
            committing.exec_driver_sql("SELECT 1 FROM games WHERE id = 'g1' FOR UPDATE")
            store.store_presence([("g1", 1, "t1", 300.0), ("g1", 2, "t2", 300.0)])
        seen: dict[int, float] = {}

        def look(info, table):
            seen.update({i: s.get("seen", 0.0) for i, s in enumerate(table.seats)})
            return False

        store.update_seat("g1", 0, look, table=True)
        assert seen == {0: 0.0, 1: 300.0, 2: 300.0}
        store.store_presence([("g1", 1, "t1", 250.0)])  # an older sign changes nothing
        store.update_seat("g1", 0, look, table=True)
        assert seen[1] == 300.0
    finally:
        store.close()


def test_the_signs_of_life_of_many_seats_are_stored_in_one_call(pg_url):
    """Every seat's player shows a sign of life at once (a round of the watchdog, a burst of
    requests): the process stores them in one database call, not one per seat."""
    store = GameStore(pg_url)
    store.migrate()

    async def scenario() -> None:
        service = GameService(store, Limits())
        games = [(await service.create(seats(), seed=9 + i))[0] for i in range(5)]
        before = dict(store.calls.totals)
        for live in games:
            for seat in range(3):
                service.seating.saw(live, seat)
        await service.seating.flush_presence()
        calls = {k: n - before.get(k, 0) for k, n in store.calls.totals.items() if n != before.get(k, 0)}
        assert calls == {"presence": 1}
        with store.engine.connect() as connection:
            rows = connection.execute(select(presence_table.c.game_id, presence_table.c.seat)).all()
        held = {(live.id, i) for live in games for i, s in enumerate(live.seats) if s.get("token_hash")}
        assert held and set(rows) == held
        await service.stop()

    try:
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, scenario()).result()
    finally:
        store.close()


# --- the bots' leases ----------------------------------------------------------------------------


def test_the_bots_leases_of_many_games_are_taken_and_renewed_in_one_call(pg_url):
    """The bots of many games ask for their lease at once (a process starting, a round of the
    watchdog): one database call takes them all; renewing one lease renews with it the others
    of bots playing here that are past a quarter of their time, in the same call."""
    store = GameStore(pg_url)
    store.migrate()

    async def scenario() -> None:
        service = GameService(store, Limits())
        games = [(await service.create(seats(), seed=20 + i))[0] for i in range(6)]
        leases = service.bots.leases
        before = store.calls.totals["lease"]
        assert await asyncio.gather(*(leases.hold(live) for live in games)) == [True] * 6
        assert store.calls.totals["lease"] == before + 1
        assert {store.bot_lease(live.id)[0] for live in games} == {service.node}
        loop = asyncio.get_running_loop()
        playing = asyncio.Event()
        for live in games[1:4]:  # bots playing, their leases past a quarter of their time
            live.bot_task = loop.create_task(playing.wait())
            live.lease_until = loop.time() + 1.0
        expiry = {live.id: store.bot_lease(live.id)[1] for live in games}
        assert await leases.hold(games[0]) is True
        assert store.calls.totals["lease"] == before + 2
        renewed = {live.id for live in games if store.bot_lease(live.id)[1] > expiry[live.id]}
        assert renewed == {live.id for live in games[:4]}
        playing.set()
        await service.stop()

    try:
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, scenario()).result()
    finally:
        store.close()


def test_a_lease_asked_again_after_its_batch_was_cancelled_is_answered(pg_url):
    """A batch cancelled before it ran (its task stopped) leaves no game waiting for ever: the
    next ask runs a new batch for it."""
    store = GameStore(pg_url)
    store.migrate()

    async def scenario() -> None:
        service = GameService(store, Limits())
        live, _, _ = await service.create(seats(), seed=30)
        leases = service.bots.leases
        first = asyncio.ensure_future(leases.hold(live))
        await asyncio.sleep(0)  # the ask is made, its batch waits for others
        assert leases._batch is not None
        leases._batch.cancel()
        assert await asyncio.wait_for(leases.hold(live), BLOCKED_SECONDS) is True
        assert await first is True  # the first ask got the same answer
        await service.stop()

    try:
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, scenario()).result()
    finally:
        store.close()
