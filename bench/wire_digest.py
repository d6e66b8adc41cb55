"""The live updates' bytes as one digest: scripted games played through the table service (no
HTTP), seven sockets each (four seats in three languages, a seat in a second language, two
spectators, and a socket opened now and then between two actions), with seat takeovers, full
resyncs and fresh reads of the view; every message each socket receives is hashed (the game's
id left out, the server's clock made a counter). Run under two trees, equal digests mean their
wire bytes are the same (docs/performance.md, "A seat's view built from its version's first").
The service's own timers still run on the event loop's clock: a run much slower than another
(the first after an install, a loaded machine) may differ now and then, for any tree: run twice.

Run: PYTHONPATH=src .venv/bin/python bench/wire_digest.py [--game judges|rome] [--games 4] [--steps 250]
     PYTHONPATH=OLD/src .venv/bin/python bench/wire_digest.py ...   # the same digest, or not
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

GROUPS = [(0, "en"), (1, "es"), (2, "pt_BR"), (3, "en"), (0, "es"), (-1, "en"), (-1, "es")]


async def digest(game: str, games: int, steps: int) -> tuple[int, str]:
    from judges.server.limits import Limits
    from judges.server.store import GameStore
    from judges.server.table.played import KITS
    from judges.server.table.service import GameService

    h = hashlib.sha256()
    count = 0
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(f"sqlite:///{Path(folder) / 'games.db'}")
        store.migrate()
        service = GameService(store, Limits(max_view_notifications=7, max_seat_history=3))
        rules = KITS[game].served.parse_rules(None)
        for g in range(games):
            rng = random.Random(g)
            live, _, _ = await service.create(
                [{"kind": "human"}] * 4, seed=g, takeover_bot="random", rules=rules, game_name=game
            )
            gid = live.id.encode()
            subs: list[Any] = []

            def add(data: bytes | None, gid: bytes = gid) -> None:
                h.update((data or b"").replace(gid, b"GID"))

            for seat, language in GROUPS:
                sub, first = service.subscribe(live, seat, language)
                subs.append(sub)
                add(first)
            for step in range(steps):
                if live.played.is_over:
                    break
                seat = live.played.to_move()[0]
                r = rng.random()
                if r < 0.04:
                    await service.set_away(live, seat, True, "left")
                    await service.set_away(live, seat, False, "returned")
                elif r < 0.06:
                    await service.broadcast(live, full=True)
                elif r < 0.08 and step > 5:
                    sub, first = service.subscribe(live, rng.choice([0, 1, 2, 3, -1]), rng.choice(["en", "es"]))
                    subs.append(sub)
                    add(first)
                if live.played.is_over:
                    break
                seat = live.played.to_move()[0]
                legal = list(live.played.legal_actions(seat))
                action = legal[0] if rng.random() < 0.5 else rng.choice(legal)
                await service.submit(live, seat, live.kit.action_to_dict(action), None)
                for sub in subs:
                    while not sub.queue.empty():
                        add(sub.queue.get_nowait())
                        count += 1
                if step % 17 == 0:
                    for sub in subs:
                        add(service.views.view_bytes(live, sub.seat, sub.language))
        await service.stop()
        store.close()
    return count, h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="judges", choices=["judges", "rome"])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--steps", type=int, default=250, help="actions per game at most")
    args = parser.parse_args()
    clock = [1_800_000_000.0]

    def counter() -> float:  # the views' clock (server_time, deadlines): the same in every run
        clock[0] += 0.25
        return clock[0]

    time.time = counter
    # a takeover bot never plays between a seat's leaving and its return (its move would race the script)
    os.environ["JUDGES_BOT_DELAY"] = "3600"
    count, hexdigest = asyncio.run(digest(args.game, args.games, args.steps))
    print(f"{args.game}: {count} messages, sha256 {hexdigest}")


if __name__ == "__main__":
    main()
