"""The bots' pool's worker processes (Limits.bot_processes), where the searches run: a bot
chooses there as it does on a thread, the workers run at a lower priority and their CPU is
counted, a worker that dies fails its job cleanly (a bot's turn is thought again, a hint
answers 503) and the pool goes on, and a stopped server, or a killed one, leaves no worker behind."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from judges.bots import make_bot
from judges.server import metrics
from judges.server.app import create_app
from judges.server.limits import FairPool, Limits, WorkerLost
from judges.server.workers import think
from judges.verify import new_game
from seats_support import with_tokens
from server_process import Server

SPECS = {0: "mcts:6:1", 1: "random", 2: "greedy"}  # no CPU budget: the search is the same each time


def run(coroutine):
    """asyncio.run on a thread of its own: the main thread may already run an event loop (the
    browser tests' Playwright keeps one for the whole session)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def play(pool: FairPool, decisions: int) -> list[object]:
    """The actions the three bots choose on `pool`, the game played on in this process."""

    async def scenario() -> list[object]:
        game = new_game({"players": 3, "seed": 23})
        bots = {seat: make_bot(spec, 100 + seat) for seat, spec in SPECS.items()}
        chosen = []
        try:
            while len(chosen) < decisions and not game.is_over:
                seat = game.waiting_for()[0]
                legal = list(game.legal_actions(seat))
                view = game.view(seat, notifications=False)
                action, bots[seat] = await pool.run("g", seat == 0, think, bots[seat], seat, legal, view)
                game.apply(action)
                chosen.append(action)
        finally:
            pool.close()
        return chosen

    return run(scenario())


def test_a_bot_chooses_in_a_worker_process_what_it_chooses_on_a_thread():
    """The same views and seeds give the same choices, decision after decision: the bot comes
    back from its worker with its generator moved on, as it does on a thread."""
    on_threads = play(FairPool(workers=2), 60)
    in_processes = play(FairPool(workers=2, processes=2), 60)
    assert len(on_threads) == 60
    assert in_processes == on_threads


def test_the_workers_run_apart_at_a_lower_priority_and_their_cpu_is_counted():
    async def scenario() -> tuple[int, int, float, float, float]:
        pool = FairPool(workers=2, processes=2, nice=5)
        before = metrics.BOT_CPU.labels("bot")._value.get()
        try:
            pid = await pool.run("g", True, os.getpid)  # heavy: a search's place
            nice = await pool.run("g", True, os.nice, 0)
            total = await pool.run("g", True, sum, range(20_000_000))  # a search's CPU, in the worker
            assert total == sum(range(20_000_000))
            return pid, nice, pool.used("g"), metrics.BOT_CPU.labels("bot")._value.get() - before, 0.0
        finally:
            pool.close()

    pid, nice, used, counted, _ = run(scenario())
    assert pid != os.getpid()
    assert nice == min(19, os.nice(0) + 5)
    assert used > 0 and counted > 0  # the worker's CPU, charged to the game and in the metrics


def test_a_worker_that_dies_fails_its_job_and_the_pool_goes_on():
    async def scenario() -> tuple[int, float]:
        pool = FairPool(workers=2, processes=2)
        lost = metrics.BOT_WORKERS_LOST._value.get()
        try:
            with pytest.raises(WorkerLost):
                await pool.run("g", True, os._exit, 1)  # the worker dies mid-job
            answer = await pool.run("g", True, sum, [1, 2, 3])
            return answer, metrics.BOT_WORKERS_LOST._value.get() - lost
        finally:
            pool.close()

    answer, lost = run(scenario())
    assert answer == 6 and lost >= 1
    assert WorkerLost().status == 503 and WorkerLost().key == "error.search_lost"


# --- in the server ------------------------------------------------------------------------------

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "mcts:4:1"}]


def create(client) -> dict:
    response = client.post("/api/games", json={"seats": SEATS, "seed": 11, "hints": True})
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def wait_for_human(client, game_id, token) -> dict:
    deadline = time.time() + 60
    while time.time() < deadline:
        data = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}).json()
        if 0 in data["waiting_for"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


def losing(pool: FairPool, times: int) -> list[int]:
    """Makes the pool's next `times` jobs fail as a dead worker's do; counts the jobs asked."""
    run, asked = pool.run, []

    async def flaky(*args, **kwargs):
        asked.append(1)
        if len(asked) <= times:
            raise WorkerLost()
        return await run(*args, **kwargs)

    pool.run = flaky
    return asked


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    limits = Limits(bot_cpu_seconds=0.1, bot_processes=2)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as c:
        yield c


def test_a_bots_turn_whose_worker_died_is_thought_again(tmp_path, monkeypatch):
    """Twice in a row the bots' worker dies: the turn is thought again at once (the watchdog,
    which would wake the bots later, is kept asleep here)."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setenv("JUDGES_WATCH_SECONDS", "3600")
    limits = Limits(bot_cpu_seconds=0.1, bot_processes=2)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)) as client:
        asked = losing(client.app.state.service.bot_pool, 2)
        data = create(client)
        game_id, token = data["id"], data["seats"][0]["token"]
        for _ in range(6):  # the human plays on until the bots have thought past the losses
            view = wait_for_human(client, game_id, token)
            if len(asked) > 2:
                break
            action = {"action": view["legal_actions"][0]}
            answer = client.post(f"/api/games/{game_id}/actions", json=action, headers={"X-Seat-Token": token})
            assert answer.status_code == 200, answer.text
        assert len(asked) > 2


def test_a_hint_whose_worker_died_answers_503_and_is_searched_when_asked_again(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_human(client, game_id, token)
    losing(client.app.state.service.bot_pool, 1)
    headers = {"X-Seat-Token": token}
    lost = client.post(f"/api/games/{game_id}/hint", headers=headers)
    assert lost.status_code == 503 and lost.json()["key"] == "error.search_lost"
    assert lost.headers["Retry-After"]
    again = client.post(f"/api/games/{game_id}/hint", headers=headers)
    assert again.status_code == 200, again.text
    assert again.json()["action"] in client.get(f"/api/games/{game_id}/view", headers=headers).json()["legal_actions"]


def test_a_stopped_server_leaves_no_worker_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    limits = Limits(bot_cpu_seconds=0.1, bot_processes=2)
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, limits=limits)
    with TestClient(app) as client:
        pool = client.app.state.service.bot_pool
        assert client.portal.call(pool.run, "g", True, os.getpid) != os.getpid()
        processes = list(pool.executor._processes.values())
        assert processes and all(p.is_alive() for p in processes)
    assert pool.executor is None
    for process in processes:
        process.join(10)
        assert not process.is_alive()


# --- a killed server ------------------------------------------------------------------------------


def descendants(pid: int) -> dict[int, str]:
    """The live processes under `pid` (its children, theirs, ...), each with its start time
    (a pid the system gives again later is another process), read from Linux's /proc."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue  # not a process, or one gone meanwhile
        if fields[0] != "Z":  # a zombie has ended, only its parent has not read its status
            parents[int(entry.name)] = (int(fields[1]), fields[19])
    found: dict[int, str] = {}
    level = {pid}
    while level:
        level = {child for child, (parent, _) in parents.items() if parent in level and child not in found}
        found.update({child: parents[child][1] for child in level})
    return found


def still_running(processes: dict[int, str]) -> list[int]:
    """Those of `processes` that have not ended."""
    running = []
    for pid, started in processes.items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and fields[19] == started:
            running.append(pid)
    return running


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from Linux's /proc")
def test_a_killed_server_leaves_no_worker_behind(tmp_path):
    """SIGKILL leaves the server no moment to stop its workers: its worker processes, their
    fork server and the resource tracker end by themselves, as soon as they see it gone."""
    server = Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log", env={"JUDGES_BOT_PROCESSES": "2"})
    try:
        response = httpx.post(f"{server.base}/api/games", json={"seats": SEATS, "seed": 11, "hints": True}, timeout=30)
        assert response.status_code == 201, response.text
        game_id, headers = response.json()["id"], {"X-Seat-Token": response.json()["token"]}
        view, deadline = f"{server.base}/api/games/{game_id}/view", time.monotonic() + 60
        while 0 not in httpx.get(view, headers=headers, timeout=30).json()["waiting_for"]:
            assert time.monotonic() < deadline, "the bots never handed the game back"
            time.sleep(0.05)
        hint = httpx.post(f"{server.base}/api/games/{game_id}/hint", headers=headers, timeout=60)
        assert hint.status_code == 200, hint.text  # a search, in a worker process
        processes = descendants(server.pid)
    except BaseException:
        server.stop()
        raise
    # the fork server and the resource tracker, and under the fork server the workers
    assert len(processes) >= 3, processes
    server.kill()
    deadline = time.monotonic() + 30
    while still_running(processes) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = still_running(processes)
    for pid in left:  # the test's own leftovers go, whatever it finds
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running 30 s after the server was killed: {left}\n{server.output()}"
