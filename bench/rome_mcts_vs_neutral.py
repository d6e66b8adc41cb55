"""Rome's `mcts` against the `neutral` bot, paired on deals (game seeds) no other measurement
or test uses: on each deal one seat (rotating) is played once by `mcts` and once by `neutral`,
every other seat by `neutral` both times, so the two games differ only in that seat's bot.

The seat's score (docs/decisions/0028-rome-bots-judged-by-wins-then-influence-share.md): first its
result (1 a sole win, 1/k shared among k winners, 0 otherwise: Rome's fall loses for all), then,
between equal results, its share of the factions' influence at the end. A deal counts for the
bot whose score is higher; a sign test over the deals that differ, and bootstrap 95% intervals of
the mean paired differences (result, share), give the answer's confidence.

Run: .venv/bin/python bench/rome_mcts_vs_neutral.py [--first-seed 81000] [--seeds 6] [--mcts mcts:8:1]
Each deal's row is printed as it ends (`--rows`), so a long run can be read before it finishes.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from judges.games.protocol import play_to_end
from judges.games.rome_game import FALLS, ROME, new_game
from judges.rome.engine.board import faction_influence


class SeatScore(NamedTuple):
    """A seat's end of one game: its result, its share of the factions' influence, Rome's fall."""

    result: float
    share: float
    fell: bool


class Pair(NamedTuple):
    players: int
    seed: int
    seat: int
    mcts: SeatScore
    neutral: SeatScore

    @property
    def sign(self) -> int:
        """+1 when mcts scored higher (its result, then its influence share), -1 lower, 0 equal."""
        a = (self.mcts.result, self.mcts.share)
        b = (self.neutral.result, self.neutral.share)
        return (a > b) - (a < b)


def seat_score(players: int, game_seed: int, seat: int, spec: str) -> SeatScore:
    """`seat`'s end in the deal `game_seed` when it is played by `spec`, the others by neutral."""
    specs = ["neutral"] * players
    specs[seat] = spec
    game = play_to_end(new_game(players, game_seed), ROME.seat_bots(specs, game_seed))
    outcome = game.outcome()
    assert outcome is not None
    state = game.game.state  # type: ignore[attr-defined]
    influence = [0 if f.eliminated else faction_influence(state, f.seat) for f in state.factions]
    share = influence[seat] / sum(influence) if sum(influence) else 0.0
    return SeatScore(game.returns()[seat], share, outcome.ending in FALLS)


def deals(first_seed: int, seeds: int) -> list[tuple[int, int, int]]:
    """(players, game seed, seat): `seeds` deals for each of 3-6 factions, the seat rotating; in
    rounds of one deal for each number of factions, so a run stopped early is still balanced."""
    return [(p, first_seed + 100 * p + i, i % p) for i in range(seeds) for p in (3, 4, 5, 6)]


def paired(first_seed: int, seeds: int, spec: str, on_pair: Callable[[Pair], None] = lambda pair: None) -> list[Pair]:
    rows = []
    for players, game_seed, seat in deals(first_seed, seeds):
        mine = seat_score(players, game_seed, seat, spec)
        theirs = seat_score(players, game_seed, seat, "neutral")
        rows.append(Pair(players, game_seed, seat, mine, theirs))
        on_pair(rows[-1])
    return rows


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact binomial p-value of `better` against `worse` under no difference."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(0, min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def bootstrap(diffs: Sequence[float], rounds: int = 4000, seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of the mean of `diffs` (resampled deals, a fixed seed)."""
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def summary(rows: list[Pair], spec: str) -> list[str]:
    results = [r.mcts.result - r.neutral.result for r in rows]
    shares = [r.mcts.share - r.neutral.share for r in rows]
    better, worse = sum(r.sign > 0 for r in rows), sum(r.sign < 0 for r in rows)
    lo_r, hi_r = bootstrap(results)
    lo_s, hi_s = bootstrap(shares)
    n = len(rows)
    return [
        f"  {spec}: seat's wins {sum(r.mcts.result for r in rows):.2f}, mean influence share "
        f"{sum(r.mcts.share for r in rows) / n:.3f}, Rome fell {sum(r.mcts.fell for r in rows)}",
        f"  neutral: seat's wins {sum(r.neutral.result for r in rows):.2f}, mean influence share "
        f"{sum(r.neutral.share for r in rows) / n:.3f}, Rome fell {sum(r.neutral.fell for r in rows)}",
        f"  paired result difference {sum(results) / n:+.3f} a deal (95% CI {lo_r:+.3f} .. {hi_r:+.3f})",
        f"  paired share difference {sum(shares) / n:+.3f} a deal (95% CI {lo_s:+.3f} .. {hi_s:+.3f})",
        f"  score (result, then share): mcts higher on {better} deals, lower on {worse}, equal on "
        f"{n - better - worse}; sign test p = {sign_test(better, worse):.2g}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first-seed", type=int, default=81000)
    parser.add_argument("--seeds", type=int, default=6, help="deals for each of 3-6 factions")
    parser.add_argument("--mcts", default="mcts:8:1")
    parser.add_argument("--rows", action="store_true", help="print each deal's pair as it ends")
    args = parser.parse_args()
    start = time.process_time()

    def show(pair: Pair) -> None:
        if args.rows:
            m, t = pair.mcts, pair.neutral
            print(
                f"{pair.players} {pair.seed} seat {pair.seat}: mcts {m.result:.2f} {m.share:.3f}"
                f"{' fell' if m.fell else ''} | neutral {t.result:.2f} {t.share:.3f}"
                f"{' fell' if t.fell else ''} | {pair.sign:+d} ({time.process_time() - start:.0f} s)",
                flush=True,
            )

    rows = paired(args.first_seed, args.seeds, args.mcts, show)
    cpu = time.process_time() - start
    print(f"{len(rows)} paired deals (seeds from {args.first_seed}), {args.mcts} against neutral in one seat")
    print("\n".join(summary(rows, args.mcts)))
    print(f"  {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
