"""Live updates (server/table/updates.py, docs/web.md): over a random game of either game, the view a
socket builds by applying the deltas it receives is, at every step, exactly the full view the
server would send now, and the view a fresh read builds (`view_bytes`: every part encoded anew,
nothing kept from an earlier version), for every seat and a spectator; and a J&K view's state is
the engine's own `PlayerView.state` for the seat. The steps mix single actions, seat takeovers,
several actions pushed at once (a catch-up from the store brings them so), a full resync
(`broadcast(full=True)`, after a reload) and sockets opened between two actions."""

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
from judges.server.table.played import KITS
from judges.server.table.service import GameService
from judges.server.table.tables import SPECTATOR
from judges.server.table.updates import apply_update

# seat 0 twice: two languages; a spectator
GROUPS = [(0, "en"), (1, "es"), (2, "pt_BR"), (0, "es"), (SPECTATOR, "en")]
# the groups whose socket opens later, between two actions (its group made then)
LATE = [(1, "en"), (SPECTATOR, "pt_BR")]


def run_apart(coroutine):
    """asyncio.run on a thread of its own: the browser tests' Playwright keeps an event loop
    running on the main thread for the whole session."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def play(seed: int, choices: list[tuple[int, int]], game: str = "judges") -> int:
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(f"sqlite:///{Path(folder) / 'games.db'}")
        store.migrate()
        # a small notification cap, so that the property also covers the view's trimming
        service = GameService(store, Limits(max_view_notifications=7, max_seat_history=3))
        rules = KITS[game].served.parse_rules(None)
        live, _, _ = await service.create(
            [{"kind": "human"}] * 3, seed=seed, takeover_bot="random", rules=rules, game_name=game
        )
        groups, subs, views = list(GROUPS), [], []
        for seat, language in groups:
            sub, first = service.subscribe(live, seat, language)
            subs.append(sub)
            views.append(apply_update(None, msgspec.json.decode(first)))
        checked = 0
        for away, choice in choices:
            if live.played.is_over:
                break
            seat = live.played.to_move()[0]
            if away == 0:
                await service.set_away(live, seat, not live.seats[seat].get("away"), "left")
                await service.set_away(live, seat, False, "returned")
                if live.played.is_over:  # the takeover bot may have played meanwhile
                    break
                seat = live.played.to_move()[0]
            if away == 1:
                await service.broadcast(live, full=True)
            if away == 3 and len(groups) < len(GROUPS) + len(LATE):  # a socket opened now
                late = LATE[len(groups) - len(GROUPS)]
                async with live.lock:
                    sub, first = service.subscribe(live, *late)
                groups.append(late)
                subs.append(sub)
                views.append(apply_update(None, msgspec.json.decode(first)))
            if away == 2:  # two actions committed, then one push (as after a catch-up)
                async with live.lock:
                    for _ in range(2):
                        if live.played.is_over:
                            break
                        s = live.played.to_move()[0]
                        legal = list(live.played.legal_actions(s))
                        await service.actor.apply_and_commit(live, legal[choice % len(legal)], None)
                await service.broadcast(live)
            else:
                legal = list(live.played.legal_actions(seat))
                action = legal[choice % len(legal)]
                await service.submit(live, seat, live.kit.action_to_dict(action), None)
            for i, (sub, (s, language)) in enumerate(zip(subs, groups, strict=True)):
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
                # the view read afresh: nothing kept from an earlier version (but the clock's reading)
                fresh = msgspec.json.decode(service.views.view_bytes(live, s, language))
                assert {**views[i], "server_time": 0} == {**fresh, "server_time": 0}, (
                    f"step {checked}: seat {s} ({language}) differs from its view built anew"
                )
                if game == "judges" and s != SPECTATOR:
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
    # a full view first, 2 pushes two actions at once, 3 opens a socket first; action picks a legal one
    checked = run_apart(play(seed, choices))
    assert checked > 0


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    choices=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 2**16)), min_size=30, max_size=30),
)
def test_deltas_rebuild_a_rome_tables_full_view_at_every_step(seed, choices):
    checked = run_apart(play(seed, choices, game="rome"))
    assert checked > 0


def test_a_delta_that_does_not_follow_asks_for_a_full_view():
    view = {"version": 3, "seq": 1, "state": {"round": 1}, "notifications": [], "max_notifications": 5}
    assert apply_update(view, {"type": "delta", "version": 5, "base": 4, "set": {"seq": 2}}) is None
    assert apply_update(None, {"type": "delta", "version": 1, "base": 0}) is None
    after = apply_update(view, {"type": "delta", "version": 4, "base": 3, "set": {"seq": 2}, "state": {"wrath": 1}})
    assert after == {**view, "version": 4, "seq": 2, "state": {"round": 1, "wrath": 1}}
