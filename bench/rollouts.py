"""Random rollouts side by side: this engine against an older one and against peer engines.

Every measure runs in its own process (so two versions of `judges` never share an
interpreter), times only its game loop on CPU time (`time.process_time`: the machine is
shared and wall-clock time measures the neighbours too), and prints actions per second.
The runs alternate — old, new, peers, then the next round in the other order — and each
ratio is the median of the per-round ratios, so a burst of load hits both sides of a ratio.

    python bench/rollouts.py --old-src /tmp/old/src              # new ÷ old
    python bench/rollouts.py --old-src /tmp/old/src --peers      # and OpenSpiel, python-chess

`bash bench/run.sh` checks out the old version and runs this. An action is one decision
of a player: Judges' automatic steps and dice, and OpenSpiel's chance nodes (backgammon's
dice), are part of the work but not counted. The peers come with the `bench` extra
(`pip install -e .[bench]`): OpenSpiel's C++ games driven from Python through `pyspiel`
(the way a Python bot drives them), and python-chess (pure Python, like this engine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW_SRC = HERE.parent / "src"

# --- workers: one measure each, in a process of its own ---------------------------------------


def judges_rollouts(games: int, players: int) -> tuple[int, float]:
    """Whole random-bot games as a rollout drives them: enumerate the legal actions of the
    seat to move, pick one, apply it (through the trusted path when the engine has one)."""
    from judges.bots import RandomBot
    from judges.engine import DEFAULT_RULES, Game, Options

    actions = 0
    cpu = 0.0
    for seed in range(games):
        options = Options(players=players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit)
        bots = [RandomBot(seed * 100 + s) for s in range(players)]
        start = time.process_time()
        game = Game.new(options)
        apply = getattr(game, "apply_legal", game.apply)
        legal_actions = game.legal_actions
        while not game.is_over:
            seat = game.waiting_for()[0]
            legal = list(legal_actions(seat))
            apply(bots[seat].choose(seat, legal, None))
        cpu += time.process_time() - start
        actions += len(game.log)
    return actions, cpu


def openspiel_rollouts(name: str, games: int) -> tuple[int, float]:
    """Uniformly random games of an OpenSpiel game; chance outcomes drawn by their odds."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                draw = rng.random()
                for outcome, p in state.chance_outcomes():  # noqa: B007 - the outcome the draw stops at
                    draw -= p
                    if draw <= 0:
                        break
                state.apply_action(outcome)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
    return actions, time.process_time() - start


def python_chess_rollouts(games: int) -> tuple[int, float]:
    """Uniformly random chess games with python-chess, to checkmate or a forced draw."""
    import chess

    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over():
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            actions += 1
    return actions, time.process_time() - start


def worker(args: argparse.Namespace) -> None:
    if args.worker == "judges":
        actions, cpu = judges_rollouts(args.games, args.players)
    elif args.worker == "python-chess":
        actions, cpu = python_chess_rollouts(args.games)
    else:
        actions, cpu = openspiel_rollouts(args.worker.removeprefix("openspiel-"), args.games)
    print(json.dumps({"actions": actions, "cpu": cpu}))


# --- the side-by-side run ---------------------------------------------------------------------

PEERS = {  # measure -> games per run (each run takes about a second of CPU here)
    "openspiel-backgammon": 300,
    "openspiel-chess": 60,
    "python-chess": 10,
}


def measure(name: str, games: int, src: Path | None = None, players: int = 4) -> dict:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, __file__, "--worker", name, "--games", str(games), "--players", str(players)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    result["rate"] = result["actions"] / result["cpu"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old-src", type=Path, help="the `src` folder of the version to compare with")
    parser.add_argument("--peers", action="store_true", help="also run OpenSpiel and python-chess")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (the ratios are their medians)")
    parser.add_argument("--games", type=int, default=30, help="Judges games per run")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return

    sides = {"new": NEW_SRC} | ({"old": args.old_src.resolve()} if args.old_src else {})
    peers = dict(PEERS) if args.peers else {}
    runs: dict[str, list[dict]] = {name: [] for name in [*sides, *peers]}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure("judges", args.games, sides[side], args.players))
        for name, games in peers.items():
            runs[name].append(measure(name, games))
        line = "  ".join(f"{name} {runs[name][-1]['rate']:,.0f}/s" for name in runs)
        print(f"round {r + 1}/{args.rounds}: {line}", flush=True)

    if "old" in runs and any(a["actions"] != b["actions"] for a, b in zip(runs["old"], runs["new"], strict=True)):
        sys.exit("the old and the new engine played different games from the same seeds")

    def median_ratio(a: str, b: str) -> float:
        return statistics.median(x["rate"] / y["rate"] for x, y in zip(runs[a], runs[b], strict=True))

    print(
        f"\nJudges, {args.players}-player random games, {args.games} per run "
        f"({runs['new'][0]['actions'] / args.games:,.0f} actions per game), {args.rounds} alternating rounds, CPU time:"
    )
    for name, results in runs.items():
        print(f"  {name:22} {statistics.median(x['rate'] for x in results):>10,.0f} actions/s (median)")
    summary: dict[str, float] = {}
    if "old" in runs:
        summary["new/old"] = median_ratio("new", "old")
    for name in peers:
        summary[f"new/{name}"] = median_ratio("new", name)
    for name, ratio in summary.items():
        print(f"  ratio {name:28} {ratio:5.2f}x  (median of the per-round ratios)")
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "ratios": summary}, indent=1))


if __name__ == "__main__":
    main()
