"""The bytes of a seat's live updates over a whole game, with and without the edits of
changed arrays and objects (server/table/updates.py), and the CPU the edits cost.

    .venv/bin/python bench/view_bytes.py --seed 11 --players 4

A game of greedy bots, seen by seat 0 in English as its socket would receive it (a full view,
then a delta per step, no notifications); every applied delta is checked against the full
view of that step. Prints the totals and the largest parts of the deltas with edits."""

from __future__ import annotations

import argparse
import collections
import time

import msgspec

from judges.bots import make_bot
from judges.engine import Game, Options
from judges.server.games.judges import wire
from judges.server.table import updates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = Game.new(Options(players=args.players, seed=args.seed))
    seats = [{"name": f"P{i}", "kind": "bot", "bot": "greedy"} for i in range(args.players)]
    bots = [make_bot("greedy", args.seed + i) for i in range(args.players)]
    table = wire.Table(turn_timer=None, takeover_bot="greedy", hints=True)
    before: dict[str, bytes] | None = None
    view = None
    whole = edited = 0
    cpu = 0.0
    by_part: collections.Counter[str] = collections.Counter()
    while not game.is_over:
        shared = wire.public("g", game, seats, table, 50)
        parts = wire.parts(wire.view(shared, 0, "en"), shared)
        full = updates.full_message(parts, len(game.log), b"[]")
        if before is None:
            message = full
            whole += len(full)
        else:
            names = updates.changed(before, parts)
            whole += len(updates.delta_message(names, parts, len(game.log), b"[]"))
            start = time.process_time()
            message = updates.delta_message(names, parts, len(game.log), b"[]", before, {})
            cpu += time.process_time() - start
            decoded = msgspec.json.decode(message)
            for section in ("set", "state", "patch"):
                for name, value in decoded.get(section, {}).items():
                    by_part[f"{section} {name}"] += len(msgspec.json.encode(value))
        edited += len(message)
        view = updates.apply_update(view, msgspec.json.decode(message))
        assert view == msgspec.json.decode(full)["view"], f"step {len(game.log)}: the applied delta differs"
        before = parts
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, game.legal_actions(seat), lambda: game.view(seat)))
    steps = len(game.log)
    print(f"{steps} steps: whole parts {whole / 1e6:.2f} MB, with edits {edited / 1e6:.2f} MB ({whole / edited:.1f}x)")
    print(f"the edits' CPU {cpu * 1000:.0f} ms ({cpu * 1000 / max(1, steps):.3f} ms a delta)")
    for name, size in by_part.most_common(10):
        print(f"  {name:32} {size / 1e3:8.1f} kB")


if __name__ == "__main__":
    main()
