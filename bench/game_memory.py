"""A served game's memory: what one table of four connected seats holds in the server after some
actions, in all (the Python heap's growth per game, tracemalloc) and in the caches the server
keeps beside the engine's game, each with its bound:

- `groups`: each seat's view as its sockets last received it, per language (server/table/hub.py,
  `ViewGroup.parts`; bytes, partly shared between seats), gone with the group's last socket;
- `labels`: the buttons' words rendered so far (server/games/judges/wire.py, `LABELS_KEPT`);
- `client_ids`: the seats' client action ids (one per action sent with one: the game's length);
- `heard`: other processes' actions not yet applied (server/table/sync.py, `MAX_HEARD`).

The board drawings (server/table/screen.py: `SVG_KEPT` drawings, `BOARD_TEXTS` texts and
`BOARD_EDITS` edits) and the replays (`REPLAY_GAMES`) are bounded for the whole process, not per
game: their bounds are printed with their size at most.

Run: PYTHONPATH=src .venv/bin/python bench/game_memory.py --games 50 --actions 120 [--languages 1]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import tracemalloc
from typing import Any

from judges.engine.actions import action_to_dict
from judges.server.games.judges import wire
from judges.server.limits import Limits
from judges.server.store import GameStore
from judges.server.table import screen, sync
from judges.server.table.service import GameService, LiveGame

LANGUAGES = ("en", "es", "pt_BR")


def size_of(value: Any, seen: set[int]) -> int:
    """Bytes of a container of plain values (dicts, lists, tuples, str, bytes, numbers), each
    object counted once."""
    if id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, dict):
        size += sum(size_of(k, seen) + size_of(v, seen) for k, v in value.items())
    elif isinstance(value, list | tuple):
        size += sum(size_of(v, seen) for v in value)
    return size


def caches(live: LiveGame) -> dict[str, int]:
    seen: set[int] = set()
    return {
        "groups": sum(size_of(g.parts, seen) for g in live.groups.values()),
        "labels": size_of(live.labels, seen),
        "client_ids": size_of(live.client_ids, seen),
        "heard": size_of(live.heard, seen),
    }


async def play(games: int, actions: int, languages: int) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="judges-memory-")
    store = GameStore(f"sqlite:///{folder}/memory.db")
    store.migrate()
    service = GameService(store, Limits())
    seats = [{"kind": "human"}] * 4
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tables = []
    for g in range(games):
        live, _, _ = await service.create(seats, seed=1000 + g)
        async with live.lock:
            for seat in range(4):  # a socket per seat, in one of the languages
                service.subscribe(live, seat, LANGUAGES[seat % languages])
        tables.append(live)
    for step in range(actions):
        for live in tables:
            waiting = live.game.waiting_for()
            if not waiting:
                continue
            seat = waiting[0]
            legal = [action_to_dict(a) for a in live.game.legal_actions(seat)]
            data = next((d for d in legal if d["type"] == "end_turn"), legal[0])
            await service.submit(live, seat, data, f"a{step}")
            for group in live.groups.values():  # the sockets read what was sent
                for sub in group.subscribers:
                    while not sub.queue.empty():
                        sub.queue.get_nowait()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    each = [caches(live) for live in tables]
    await service.stop()
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "games": games,
        "actions": sum(len(live.game.log) for live in tables) / games,
        "heap_kib_per_game": (after - before) / 1024 / games,
        "caches_kib_per_game": {k: sum(c[k] for c in each) / 1024 / games for k in each[0]},
        "caches_kib_max": {k: max(c[k] for c in each) / 1024 for k in each[0]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=120, help="actions per game")
    parser.add_argument("--languages", type=int, default=1, choices=(1, 2, 3), help="languages among the seats")
    args = parser.parse_args()
    r = asyncio.run(play(args.games, args.actions, args.languages))
    print(f"{r['games']} games of 4 connected seats ({args.languages} language(s)), {r['actions']:.0f} actions each")
    print(f"Python heap per game (tracemalloc): {r['heap_kib_per_game']:.0f} KiB")
    bounds = {
        "groups": "seats x languages with a socket open",
        "labels": f"{wire.LABELS_KEPT} words",
        "client_ids": "the game's actions",
        "heard": f"{sync.MAX_HEARD} actions",
    }
    for name, kib in r["caches_kib_per_game"].items():
        print(f"  {name:<11} {kib:7.1f} KiB a game (largest {r['caches_kib_max'][name]:.1f}); bound: {bounds[name]}")
    print(
        f"process-wide: drawings {screen.SVG_KEPT} + texts {screen.BOARD_TEXTS} (~100 KiB each) + "
        f"{screen.BOARD_EDITS} edits; replays of {screen.REPLAY_GAMES} games"
    )


if __name__ == "__main__":
    main()
