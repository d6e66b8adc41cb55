"""What a game's sockets hold in memory (server/table/hub.py): a seat's view parts equal to
another seat's are one copy, whether the groups were made by a push or between two pushes."""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor

from judges.server.limits import Limits
from judges.server.store import GameStore
from judges.server.table.service import GameService


def test_sockets_opened_between_two_actions_share_the_parts_every_seat_sees():
    async def scenario() -> tuple[int, int, int]:
        store = GameStore(f"sqlite:///{tempfile.mkdtemp()}/g.db")
        store.migrate()
        service = GameService(store, Limits())
        try:
            live, _, _ = await service.create([{"kind": "human"}] * 4, seed=5)
            async with live.lock:
                for seat in range(4):  # each socket opened before any action: its group made now
                    service.subscribe(live, seat, "en")
            groups = [live.groups[seat, "en"] for seat in range(4)]
            shared = [name for name, data in groups[0].parts.items() if all(g.parts[name] == data for g in groups[1:])]
            same_object = sum(all(g.parts[name] is groups[0].parts[name] for g in groups[1:]) for name in shared)
            return len(groups[0].parts), len(shared), same_object
        finally:
            await service.stop()
            store.close()

    with ThreadPoolExecutor(1) as worker:
        parts, equal, one_copy = worker.submit(asyncio.run, scenario()).result()
    assert equal > parts // 2  # the public state: most of a seat's view
    assert one_copy == equal
