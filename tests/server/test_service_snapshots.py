"""Snapshots (server/table/service.py): every SNAPSHOT_EVERY actions the state is stored as a shortcut
for loading, in the background. The action that triggers one is acknowledged and broadcast
without waiting for it (it was every hundredth action's delivery, the p99 of a load run), and
the snapshot, once written, is the state after that action."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import msgspec

from judges.server.limits import Limits
from judges.server.store import GameStore
from judges.server.table import actor as actor_module
from judges.server.table.service import GameService


def run_apart(coroutine):
    """asyncio.run on a thread of its own (the browser tests keep a loop on the main thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_an_action_is_acknowledged_and_broadcast_without_waiting_for_its_snapshot(tmp_path, monkeypatch, game):
    monkeypatch.setattr(actor_module, "SNAPSHOT_EVERY", 3)
    store = GameStore(f"sqlite:///{tmp_path / 'games.db'}")
    store.migrate()
    release = threading.Event()
    written = []
    save = store.save_snapshot

    def slow_save(game_id, seq, data):
        assert release.wait(10), "the test never released the snapshot"
        save(game_id, seq, data)
        written.append(seq)

    monkeypatch.setattr(store, "save_snapshot", slow_save)

    async def scenario():
        service = GameService(store, Limits())
        rules = game.served.parse_rules(None)  # the game's defaults
        live, _, _ = await service.create([{"kind": "human"}] * 3, seed=9, rules=rules, game_name=game.name)
        sub, _ = service.subscribe(live, 0, "en")
        for _ in range(3):
            seat = live.played.to_move()[0]
            legal = [live.kit.action_to_dict(a) for a in live.played.legal_actions(seat)]
            data = game.hurried({"legal_actions": legal})
            answer = await asyncio.wait_for(service.submit(live, seat, data, None), 5)
        assert answer["seq"] == 3 and not written, "the third action waited for its snapshot"
        messages = [msgspec.json.decode(sub.queue.get_nowait()) for _ in range(sub.queue.qsize())]
        assert messages[-1]["version"] == live.version and len(messages) == 3
        state_after = msgspec.to_builtins(live.game.state)
        release.set()
        for _ in range(500):
            if written:
                break
            await asyncio.sleep(0.01)
        assert written == [3]
        stored = store.load(live.id)
        assert stored.snapshot is not None and stored.snapshot.seq == 3
        assert msgspec.to_builtins(live.kit.from_snapshot(stored.snapshot.data).state) == state_after
        await service.stop()

    try:
        run_apart(scenario())
    finally:
        release.set()
        store.close()
