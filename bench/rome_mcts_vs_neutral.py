"""Rome's `mcts` against the `neutral` bot, paired on deals (game seeds) no other measurement
or test uses: on each deal one seat (rotating) is played once by `mcts` and once by `neutral`,
every other seat by `neutral` both times, so the two games differ only in that seat's bot. The
figure is that seat's result (1 a sole win, 1/k shared among k winners, 0 otherwise: Rome's fall
loses for all) with each bot, and their paired difference.

Run: .venv/bin/python bench/rome_mcts_vs_neutral.py [--first-seed 61000] [--seeds 6] [--mcts mcts:8:1]
"""

from __future__ import annotations

import argparse
import math
import time

from judges.games.protocol import play_to_end
from judges.games.rome_game import FALLS, ROME, new_game


def seat_result(players: int, game_seed: int, seat: int, spec: str) -> tuple[float, bool]:
    """`seat`'s return in the deal `game_seed` when it is played by `spec`, the others by neutral."""
    specs = ["neutral"] * players
    specs[seat] = spec
    game = play_to_end(new_game(players, game_seed), ROME.seat_bots(specs, game_seed))
    outcome = game.outcome()
    assert outcome is not None
    return game.returns()[seat], outcome.ending in FALLS


def paired(first_seed: int, seeds: int, spec: str) -> list[tuple[int, int, float, float, bool, bool]]:
    """(players, seed, mcts's return, neutral's return, fell with mcts, fell with neutral) per deal."""
    rows = []
    for players in (3, 4, 5, 6):
        for i in range(seeds):
            game_seed = first_seed + 100 * players + i
            seat = i % players
            mine, fell_mine = seat_result(players, game_seed, seat, spec)
            theirs, fell_theirs = seat_result(players, game_seed, seat, "neutral")
            rows.append((players, game_seed, mine, theirs, fell_mine, fell_theirs))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first-seed", type=int, default=61000)
    parser.add_argument("--seeds", type=int, default=6, help="deals for each of 3-6 factions")
    parser.add_argument("--mcts", default="mcts:8:1")
    args = parser.parse_args()
    start = time.process_time()
    rows = paired(args.first_seed, args.seeds, args.mcts)
    cpu = time.process_time() - start
    diffs = [m - n for _, _, m, n, _, _ in rows]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    better, worse = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    print(f"{len(rows)} paired deals (seeds from {args.first_seed}), {args.mcts} against neutral in one seat")
    print(f"  {args.mcts}: seat's wins {sum(r[2] for r in rows):.2f}, Rome fell {sum(r[4] for r in rows)}")
    print(f"  neutral: seat's wins {sum(r[3] for r in rows):.2f}, Rome fell {sum(r[5] for r in rows)}")
    print(f"  paired difference {mean:+.3f} a deal (sd {sd:.3f}); mcts better on {better}, worse on {worse}")
    print(f"  {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
