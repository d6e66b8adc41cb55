"""Strength against CPU per decision: MCTS budgets against the greedy bot, as a table and a plot.

For each spec, the 2-player games of `judges lab --players 2 --games G --bots SPEC,greedy
--seed S --round-limit 60` are played — the same tasks (`lab.runner.make_tasks`: game i has
seed S+i and the bot list rotated by i, so MCTS holds each seat equally often) and the same
play (`lab.runner.play_record_game`'s bots, seeded by `bots.bot_seed`), so the wins are the
lab's — with every MCTS decision timed on CPU (`time.process_time` around `choose`, in the
worker). A decision is a call with two legal actions or more; "searched" ones are those the
bot searched (its `searched` counter). The points are written to OUT/curve.json, a markdown
table to OUT/curve.md and the plot to OUT/curve.png (95 % Wilson intervals as error bars).

    .venv/bin/python bench/mcts_curve.py --specs mcts:8:2,mcts:16:2,mcts --games 40 --seed 3001 \
        --workers 2 --out docs/bots/curve
    .venv/bin/python bench/mcts_curve.py --plot-only --out docs/bots/curve   # redraw from curve.json

`--extra FILE` adds points measured elsewhere (a JSON list of objects with label, wins, games,
ms_per_decision, optional ms_per_searched and note), drawn in grey: e.g. an older
default, measured on an older tree.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any


class _Timed:
    """A bot whose decisions with a choice are timed on CPU."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0
        self.cpu = 0.0

    def choose(self, seat: int, legal: list[Any], view: Any) -> Any:
        if len(legal) < 2:
            return self.bot.choose(seat, legal, view)
        start = time.process_time()
        action = self.bot.choose(seat, legal, view)
        self.cpu += time.process_time() - start
        self.calls += 1
        return action


def play_timed(task: Any, spec: str) -> dict[str, Any]:
    """One lab task, its `spec` seats timed. Top-level: runs in a worker."""
    from judges.bots import bot_seed, make_bot
    from judges.lab.runner import task_options
    from judges.play import play_game

    options = task_options(task)
    bots = [_Timed(make_bot(name, bot_seed(options.seed, seat))) for seat, name in enumerate(task.bots)]
    game = play_game(options, bots)  # type: ignore[arg-type]
    mine = [seat for seat, name in enumerate(task.bots) if name == spec]
    return {
        "seed": task.seed,
        "won": any(seat in game.state.winners for seat in mine),
        "calls": sum(bots[s].calls for s in mine),
        "cpu": sum(bots[s].cpu for s in mine),
        "searched": sum(getattr(bots[s].bot, "searched", 0) for s in mine),
    }


def measure(spec: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    from judges.lab.report import wilson
    from judges.lab.runner import LabConfig, make_tasks

    tasks = make_tasks(LabConfig(players=2, games=games, bots=[spec, "greedy"], seed=seed, round_limit=60))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        games_played = list(pool.map(play_timed, tasks, [spec] * len(tasks)))
    wins = sum(g["won"] for g in games_played)
    calls = sum(g["calls"] for g in games_played)
    searched = sum(g["searched"] for g in games_played)
    cpu = sum(g["cpu"] for g in games_played)
    rate, low, high = wilson(wins, len(games_played))
    return {
        "label": spec,
        "wins": wins,
        "games": len(games_played),
        "rate": rate,
        "low": low,
        "high": high,
        "ms_per_decision": 1000 * cpu / max(1, calls),
        "ms_per_searched": 1000 * cpu / max(1, searched),
        "decisions_per_game": calls / max(1, len(games_played)),
        "searched_per_game": searched / max(1, len(games_played)),
        "cpu_per_game": cpu / max(1, len(games_played)),
        "command": f"--games {games} --seed {seed}",
    }


def table(points: list[dict[str, Any]]) -> str:
    lines = [
        "| spec | wins vs greedy [95 %] | CPU ms per decision | per searched decision | searched / decisions a game |",
        "|---|---|---|---|---|",
    ]
    for p in points:
        searched = f"{p['ms_per_searched']:.1f}" if p.get("ms_per_searched") else "—"
        share = f"{p['searched_per_game']:.0f} / {p['decisions_per_game']:.0f}" if p.get("decisions_per_game") else "—"
        note = f" ({p['note']})" if p.get("note") else ""
        lines.append(
            f"| `{p['label']}`{note} | {p['wins']} / {p['games']} = {100 * p['rate']:.1f} % "
            f"[{100 * p['low']:.1f}–{100 * p['high']:.1f}] | {p['ms_per_decision']:.1f} | {searched} | {share} |"
        )
    return "\n".join(lines) + "\n"


def plot(points: list[dict[str, Any]], extra: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for group, colour in ((extra, "0.6"), (points, "tab:blue")):
        if not group:
            continue
        xs = [p["ms_per_decision"] for p in group]
        ys = [100 * p["rate"] for p in group]
        err = [[100 * (p["rate"] - p["low"]) for p in group], [100 * (p["high"] - p["rate"]) for p in group]]
        ax.errorbar(xs, ys, yerr=err, fmt="o-" if group is points else "s", color=colour, capsize=3)
        for k, (x, y, p) in enumerate(zip(xs, ys, group)):
            dy = (-14, 8, -26)[k % 3]  # neighbours' labels on different lines
            ax.annotate(p["label"], (x, y), textcoords="offset points", xytext=(5, dy), fontsize=7, color=colour)
    every = [p["ms_per_decision"] for p in points + extra]
    ax.set_xscale("log")
    ax.set_xlim(min(every) / 1.5, max(every) * 3)
    ax.set_xlabel("CPU ms per MCTS decision (log scale)")
    ax.set_ylabel("wins against greedy, % (95 % Wilson)")
    ax.set_title("MCTS strength against CPU, 2 players, seats rotated")
    ax.axhline(50, color="0.85", lw=1)
    ax.set_ylim(0, 100)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", default="mcts:8:2,mcts:16:2,mcts")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3001)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("curve"))
    parser.add_argument("--extra", type=Path, default=None, help="points measured elsewhere (JSON list)")
    parser.add_argument("--plot-only", action="store_true", help="redraw from OUT/curve.json")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "curve.json"
    if args.plot_only:
        data = json.loads(store.read_text())
        points, extra = data["points"], data["extra"]
    else:
        extra = json.loads(args.extra.read_text()) if args.extra else []
        points = []
        for spec in args.specs.split(","):
            points.append(measure(spec, args.games, args.seed, args.workers))
            print(table(points[-1:]).splitlines()[-1], flush=True)
        points.sort(key=lambda p: p["ms_per_decision"])
        store.write_text(json.dumps({"points": points, "extra": extra}, indent=2) + "\n")
    (args.out / "curve.md").write_text(table(points + extra))
    plot(points, extra, args.out / "curve.png")
    print(table(points + extra))


if __name__ == "__main__":
    main()
