"""Live updates (server/table/updates.py, docs/web.md): over a random game, the view a socket builds by
applying the deltas it receives is, at every step, exactly the full view the server would send
now; and that view's state is the engine's own `PlayerView.state` for the seat. The steps mix
single actions, seat takeovers, several actions pushed at once (a catch-up from the store
brings them so) and a full resync (`broadcast(full=True)`, after a reload)."""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judges.server.limits import Limits
from judges.server.store import GameStore
from judges.server.table.service import GameService
from judges.server.table.updates import apply_update

GROUPS = [(0, "en"), (1, "es"), (2, "pt_BR"), (0, "es")]  # seat 0 twice: two languages


def run_apart(coroutine):
    """asyncio.run on a thread of its own: the browser tests' Playwright keeps an event loop
    running on the main thread for the whole session."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def play(seed: int, choices: list[tuple[int, int]]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(f"sqlite:///{Path(folder) / 'games.db'}")
        store.migrate()
        # a small notification cap, so that the property also covers the view's trimming
        service = GameService(store, Limits(max_view_notifications=7, max_seat_history=3))
        live, _, _ = await service.create([{"kind": "human"}] * 3, seed=seed, takeover_bot="random")
        subs, views = [], []
        for seat, language in GROUPS:
            sub, first = service.subscribe(live, seat, language)
            subs.append(sub)
            views.append(apply_update(None, msgspec.json.decode(first)))
        checked = 0
        for away, choice in choices:
            if live.game.is_over:
                break
            seat = live.game.waiting_for()[0]
            if away == 0:
                await service.set_away(live, seat, not live.seats[seat].get("away"), "left")
                await service.set_away(live, seat, False, "returned")
                if live.game.is_over:  # the takeover bot may have played meanwhile
                    break
                seat = live.game.waiting_for()[0]
            if away == 1:
                await service.broadcast(live, full=True)
            if away == 2:  # two actions committed, then one push (as after a catch-up)
                async with live.lock:
                    for _ in range(2):
                        if live.game.is_over:
                            break
                        s = live.game.waiting_for()[0]
                        legal = list(live.game.legal_actions(s))
                        await service.actor.apply_and_commit(live, legal[choice % len(legal)], None)
                await service.broadcast(live)
            else:
                legal = list(live.game.legal_actions(seat))
                action = legal[choice % len(legal)]
                await service.submit(live, seat, msgspec.to_builtins(action), None)
            for i, (sub, (s, language)) in enumerate(zip(subs, GROUPS)):
                types = []
                while not sub.queue.empty():
                    message = msgspec.json.decode(sub.queue.get_nowait())
                    types.append(message["type"])
                    views[i] = apply_update(views[i], message)
                    assert views[i] is not None, "a delta that does not follow the view"
                # a resync sends a full view, never a delta; every other push a delta
                assert types[:1] == (["full"] if away == 1 else ["delta"]) and set(types[1:]) <= {"delta"}, types
                group = live.groups[s, language]
                full = msgspec.json.decode(service.full_message(live, group))["view"]
                assert views[i] == full, f"step {checked}: seat {s} ({language}) differs from the full view"
                engine = msgspec.json.decode(msgspec.json.encode(live.game.view(s, notifications=False).state))
                assert full["state"] == engine, "the view's state is not the engine's view of the seat"
            checked += 1
        await service.stop()
        store.close()
        return checked


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    choices=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 2**16)), min_size=40, max_size=40),
)
def test_deltas_rebuild_the_full_view_at_every_step(seed, choices):
    # (away, action): away 0 hands the seat to a bot and back first, 1 resyncs every socket with
    # a full view first, 2 pushes two actions at once; action picks a legal one
    checked = run_apart(play(seed, choices))
    assert checked > 0


def test_a_delta_that_does_not_follow_asks_for_a_full_view():
    view = {"version": 3, "seq": 1, "state": {"round": 1}, "notifications": [], "max_notifications": 5}
    assert apply_update(view, {"type": "delta", "version": 5, "base": 4, "set": {"seq": 2}}) is None
    assert apply_update(None, {"type": "delta", "version": 1, "base": 0}) is None
    after = apply_update(view, {"type": "delta", "version": 4, "base": 3, "set": {"seq": 2}, "state": {"wrath": 1}})
    assert after == {**view, "version": 4, "seq": 2, "state": {"round": 1, "wrath": 1}}
