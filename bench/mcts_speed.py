"""MCTS cost per decision, this checkout against a baseline git ref, side by side on CPU time.

Two ways to pick the decisions (`--mode`):

- `games` (the default): the MCTS bot plays whole seeded 2-player games against the greedy
  bot (game i: seed `--seed`+i, MCTS in seat i mod 2, round limit 60), and every decision it
  takes is timed — those it answers at once (one candidate, a free undoable step, a purchase
  past the ones it searches in a phase) as well as those it searches. This is the honest
  average: a bot that searches fewer decisions gets the credit, and pays for it in strength,
  which docs/bots.md measures separately. Each tree plays its own games (its decisions
  differ), on the same seeds.
- `positions`: every `--every`-th decision with a choice in seeded 2-player greedy games (the
  same positions for both trees); on each, a fresh seeded MCTS bot decides. A fresh bot has
  searched nothing yet in the phase, so this measures the cost of one search.

The figures are CPU milliseconds per decision with a choice (two legal actions or more; the
bot's `choose` only) and per *searched* decision (the bot's `searched` counter). The two trees
run in alternating child processes (baseline, new, baseline, new, …) and the medians are
compared, so the machine's load hits both alike; each pair's own ratio is also given, as the
median of the pairs' ratios and their range (low-high). A tree that fails (a ref that is not there, a
spec or an interface it does not have) stops the run with its error and a non-zero exit; in
`positions` mode, a baseline whose greedy games give other positions (its rules or its greedy
bot changed) is named as such, since its searches are then of other positions.

The baseline is a git ref of this repository (its `src`, extracted with git archive), or with
`--baseline-src` the `src` folder of another checkout, e.g. a worktree of ca0ff88
(`git worktree add /tmp/ca0ff88-m ca0ff88`, then `--baseline-src /tmp/ca0ff88-m/src`).

Run: .venv/bin/python bench/mcts_speed.py [--baseline REF | --baseline-src DIR] [--pairs 3] [--spec mcts]
     [--baseline-spec mcts:32:2] [--mode games|positions] [--games 2] [--seed 5001]
The default baseline is ca0ff88, the tree of 2026-12-04 (MCTS at 26-31 ms a searched decision
on this shared machine); 523f900 is the tree before the first search work (133 ms).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure_games(spec: str, games: int, seed: int) -> dict:
    """Whole games of MCTS against greedy; runs in a child whose PYTHONPATH points at one tree."""
    from judges.bots import bot_seed, make_bot
    from judges.engine import Game, Options

    calls = searched = wins = stopped = 0
    cpu = 0.0
    for i in range(games):
        game_seed = seed + i
        mine = i % 2
        game = Game.new(Options(players=2, seed=game_seed, round_limit=60))
        bots = [make_bot(spec if s == mine else "greedy", bot_seed(game_seed, s)) for s in range(2)]
        while not game.is_over:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            if seat == mine and len(legal) > 1:
                start = time.process_time()
                action = bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False))
                cpu += time.process_time() - start
                calls += 1
            else:
                action = bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False))
            game.apply(action)
        searched += bots[mine].searched
        stopped += getattr(bots[mine], "stopped", 0)  # searches stopped early (trees that have it)
        wins += mine in game.state.winners
    return {"calls": calls, "searched": searched, "stopped": stopped, "cpu": cpu, "wins": wins, "games": games}


def measure(spec: str, games: int, every: int) -> dict:
    """Isolated positions of greedy games; runs in a child whose PYTHONPATH points at one tree."""
    from judges.bots import make_bot
    from judges.engine import Game, Options

    positions = []
    for seed in range(1, games + 1):
        game = Game.new(Options(players=2, seed=seed, round_limit=30))
        bots = [make_bot("greedy", seed * 100 + s) for s in range(2)]
        n = 0
        while not game.is_over:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            if len(legal) > 1:
                n += 1
                if n % every == 0:
                    positions.append(game.clone())
            game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
    # which positions, in terms every tree shares: the log's length, the seat and its number of actions
    where = hashlib.sha256(
        repr(
            [(len(g.log), g.waiting_for()[0], len(list(g.legal_actions(g.waiting_for()[0])))) for g in positions]
        ).encode()
    )
    calls = searched = 0
    cpu = 0.0
    for k, game in enumerate(positions):
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        bot = make_bot(spec, 1000 + k)
        start = time.process_time()
        bot.choose(seat, legal, lambda: game.view(seat, notifications=False))
        cpu += time.process_time() - start
        calls += 1
        searched += bot.searched
    return {"calls": calls, "searched": searched, "cpu": cpu, "positions": where.hexdigest()[:16]}


def export_tree(ref: str, into: Path) -> Path:
    """The `src` folder of `ref`, extracted with git archive (the checkout is not touched)."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def tree_commit(src: Path) -> str:
    """The commit a checkout's `src` folder is at (`uncommitted` when it is not a git checkout)."""
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=src, capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else "uncommitted"


def run_child(src: Path, args: argparse.Namespace, label: str) -> dict:
    """One measure in a child on the tree `src`; a child that fails stops the run with its error."""
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--child", "--spec", args.spec, "--mode", args.mode]
    out = subprocess.run(
        [*command, "--games", str(args.games), "--every", str(args.every), "--seed", str(args.seed)],
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        print(f"{label} failed (spec {args.spec}, exit {out.returncode}): no comparison.", file=sys.stderr)
        print(out.stderr.strip()[-3000:], file=sys.stderr)
        sys.exit(2)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="ca0ff88", help="git ref to compare with (default: ca0ff88)")
    parser.add_argument("--spec", default="mcts", help="bot spec, e.g. mcts, mcts:32:2")
    parser.add_argument(
        "--baseline-src", type=Path, default=None, help="the src folder of another checkout to compare with"
    )
    parser.add_argument("--baseline-spec", default=None, help="the spec for the baseline (default: --spec)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--mode", choices=("games", "positions"), default="games")
    parser.add_argument("--games", type=int, default=2, help="games to play (games) or to take positions from")
    parser.add_argument("--seed", type=int, default=5001, help="first game seed (games mode)")
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.mode == "games":
            print(json.dumps(measure_games(args.spec, args.games, args.seed)))
        else:
            print(json.dumps(measure(args.spec, args.games, args.every)))
        return
    if args.baseline_src is not None:
        old_src = args.baseline_src.resolve()
        if not (old_src / "judges" / "__init__.py").is_file():
            sys.exit(f"--baseline-src {args.baseline_src}: no judges package there: no comparison")
        args.baseline, commit = str(old_src), tree_commit(old_src)
    else:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "--verify", "-q", f"{args.baseline}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if found.returncode != 0:
            sys.exit(f"the baseline {args.baseline!r} is no commit of this repository: no comparison")
        commit = found.stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline_src is None:
            old_src = export_tree(args.baseline, Path(tmp))
        new_src = ROOT / "src"
        old_args = argparse.Namespace(**{**vars(args), "spec": args.baseline_spec or args.spec})
        old, new, pure = [], [], []
        pure_src = None
        if list(new_src.glob("judges/*/*.so")):  # the compiled core is built: its pure path as well
            pure_src = Path(tmp) / "pure" / "src"
            shutil.copytree(new_src, pure_src, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        for _ in range(args.pairs):
            old.append(run_child(old_src, old_args, f"the baseline {args.baseline} ({commit})"))
            new.append(run_child(new_src, args, "this tree"))
            if pure_src is not None:
                pure.append(run_child(pure_src, args, "this tree, pure Python"))

    def per_decision(runs: list[dict]) -> tuple[float, float, int, int]:
        ms = statistics.median(1000 * r["cpu"] / max(1, r["searched"]) for r in runs)
        per_call = statistics.median(1000 * r["cpu"] / max(1, r["calls"]) for r in runs)
        return ms, per_call, runs[0]["searched"], runs[0]["calls"]

    o, n = per_decision(old), per_decision(new)
    where = (
        f"{args.games} games against greedy from seed {args.seed}"
        if args.mode == "games"
        else f"{o[3]} positions of {args.games} greedy games"
    )
    print(f"MCTS per decision, CPU time, median of {args.pairs} alternating pairs, {where}:")
    shown = [
        (f"baseline {args.baseline} ({commit}) {old_args.spec}", o, old),
        (f"this tree {args.spec}" + (" (compiled core)" if pure else ""), n, new),
    ]
    if pure:
        shown.append((f"this tree {args.spec}, pure Python", per_decision(pure), pure))
    for label, m, runs in shown:
        won = f", won {runs[0]['wins']}/{runs[0]['games']}" if "wins" in runs[0] else ""
        if runs[0].get("stopped"):
            won += f", {runs[0]['stopped']} of the searches stopped early"
        print(
            f"  {label}: {m[1]:.1f} ms per decision ({m[3]} decisions with a choice), "
            f"{m[0]:.1f} ms per searched decision ({m[2]} searched){won}"
        )
    print(f"  ratio baseline / this tree: {o[1] / n[1]:.2f}x per decision, {o[0] / n[0]:.2f}x per searched decision")

    def searched_ms(run: dict) -> float:
        return run["cpu"] / max(1, run["searched"])

    def call_ms(run: dict) -> float:
        return run["cpu"] / max(1, run["calls"])

    for side, runs in (("this tree", new), ("this tree, pure Python", pure)):
        for what, cost in (("per decision", call_ms), ("per searched decision", searched_ms)):
            if not runs:
                continue
            pairs = [cost(a) / cost(b) for a, b in zip(old, runs, strict=True)]
            print(
                f"  per pair, baseline / {side} {what}: median {statistics.median(pairs):.2f}x, "
                f"range {min(pairs):.2f}-{max(pairs):.2f}x ({', '.join(f'{x:.2f}' for x in pairs)})"
            )
    print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    if args.mode == "positions" and old[0].get("positions") != new[0]["positions"]:
        print(
            f"  (the baseline's greedy games gave other positions than this tree's: its rules or its greedy bot "
            f"differ since {commit}, so the two searched other positions; the ratio is of costs, not of one search)"
        )


if __name__ == "__main__":
    main()
