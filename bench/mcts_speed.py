"""MCTS cost per decision, this checkout against a baseline git ref, side by side on CPU time.

The positions are the same for both: every `--every`-th decision with a choice in seeded
2-player greedy games (the greedy bot plays the same moves in both trees). On each, a fresh
seeded MCTS bot of `--spec` decides; the figure is CPU milliseconds per *searched* decision
(the bot's `searched` counter: decisions with one legal action or a free, undoable greedy step
are answered at once and cost next to nothing), and per call. The two trees run in alternating
child processes (baseline, new, baseline, new, …) and the medians are compared, so the machine's
load hits both alike.

Run: .venv/bin/python bench/mcts_speed.py [--baseline REF] [--pairs 3] [--spec mcts] [--baseline-spec mcts:32:2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(spec: str, games: int, every: int) -> dict:
    """Runs in a child whose PYTHONPATH points at one tree's `src`."""
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
    return {"calls": calls, "searched": searched, "cpu": cpu}


def export_tree(ref: str, into: Path) -> Path:
    """The `src` folder of `ref`, extracted with git archive (the checkout is not touched)."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def run_child(src: Path, args: argparse.Namespace) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--child", "--spec", args.spec]
    out = subprocess.run(
        [*command, "--games", str(args.games), "--every", str(args.every)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--baseline", default=None, help="git ref to compare with (default: where this branch left main)"
    )
    parser.add_argument("--spec", default="mcts", help="bot spec, e.g. mcts, mcts:32:2")
    parser.add_argument("--baseline-spec", default=None, help="the spec for the baseline (default: --spec)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.spec, args.games, args.every)))
        return
    if args.baseline is None:
        args.baseline = subprocess.run(
            ["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", args.baseline], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        old_src = export_tree(args.baseline, Path(tmp))
        new_src = ROOT / "src"
        old_args = argparse.Namespace(**{**vars(args), "spec": args.baseline_spec or args.spec})
        old, new = [], []
        for _ in range(args.pairs):
            old.append(run_child(old_src, old_args))
            new.append(run_child(new_src, args))

    def per_decision(runs: list[dict]) -> tuple[float, float, int, int]:
        ms = statistics.median(1000 * r["cpu"] / max(1, r["searched"]) for r in runs)
        per_call = statistics.median(1000 * r["cpu"] / max(1, r["calls"]) for r in runs)
        return ms, per_call, runs[0]["searched"], runs[0]["calls"]

    o, n = per_decision(old), per_decision(new)
    print(f"MCTS per decision, CPU time, median of {args.pairs} alternating pairs, {o[3]} positions:")
    for label, m in ((f"baseline {args.baseline} ({commit}) {old_args.spec}", o), (f"this tree {args.spec}", n)):
        print(f"  {label}: {m[0]:.1f} ms per searched decision ({m[2]} searched), {m[1]:.1f} ms per call")
    print(f"  ratio baseline / this tree: {o[0] / n[0]:.2f}x per searched decision, {o[1] / n[1]:.2f}x per call")


if __name__ == "__main__":
    main()
