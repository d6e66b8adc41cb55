"""Random rollouts side by side: this engine against an older one and against peer engines.

Every measure runs in its own process (so two versions of `judges` never share an
interpreter), times only its game loop on CPU time (`time.process_time`: the machine is
shared and wall-clock time measures the neighbours too), and prints actions per second.
The runs alternate — old, new, peers, then the next round in the other order — and each
ratio is the median of the per-round ratios, so a burst of load hits both sides of a ratio.

    python bench/rollouts.py --old-src /tmp/old/src --old-name ca0ff88   # new ÷ old
    python bench/rollouts.py --old-src /tmp/old/src --peers              # and OpenSpiel, python-chess

Which path is timed: each Judges run plays its games twice over — `Game.new(options,
undoable=False)`, the path of bots, the lab and search (no copy kept for an Undo), and
`undoable=True`, the path of every server game (a copy of the position at the start of each
run of free steps) — and both are reported ("new" and "new, undoable"). When the compiled core
is built (scripts/compile.sh), "new" runs it and "new, pure" the same sources as pure Python. An older tree without
`undoable` plays its only path (it is named in the output). `bash bench/run.sh` exports the
older tree (OLD_REF) and runs this. Whether the two versions play the same games from the same
seeds is checked (a digest of every game's actions); when they do not (the rules or the random
bot changed since), the ratio is still given, marked as over other games with each side's
actions per game: random games of the same rules' length, a fair measure of the engine's speed
but not the same work. A peer that is not installed is skipped, with the reason; the figures
are also compared with the stored ones (bench/reference.py), which stand in for what cannot be
run side by side.

An action is one decision
of a player: Judges' automatic steps and dice, and OpenSpiel's chance nodes (backgammon's
dice), are part of the work but not counted. The peers come with the `bench` extra
(`pip install -e .[bench]`): OpenSpiel's C++ games driven from Python through `pyspiel`
(the way a Python bot drives them), and python-chess (pure Python, like this engine).
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW_SRC = HERE.parent / "src"
sys.path.insert(0, str(HERE))
import reference  # noqa: E402

# --- workers: one measure each, in a process of its own ---------------------------------------


def judges_rollouts(games: int, players: int, undoable: bool) -> tuple[int, float, str]:
    """Whole random-bot games as a rollout drives them: enumerate the legal actions of the
    seat to move, pick one, apply it (through the trusted path when the engine has one), on
    the `undoable` path when the engine has one. Also returns a digest of every game's actions
    (taken after the timing)."""
    import inspect

    from judges import engine
    from judges.bots import RandomBot
    from judges.engine import DEFAULT_RULES, Game, Options

    encode = getattr(engine, "action_to_dict", repr)
    path = {"undoable": undoable} if "undoable" in inspect.signature(Game.new).parameters else {}
    digest = hashlib.sha256()
    actions = 0
    cpu = 0.0
    for seed in range(games):
        options = Options(players=players, seed=seed, round_limit=DEFAULT_RULES.simulation_round_limit)
        bots = [RandomBot(seed * 100 + s) for s in range(players)]
        start = time.process_time()
        game = Game.new(options, **path)
        apply = getattr(game, "apply_legal", game.apply)
        legal_actions = game.legal_actions
        while not game.is_over:
            seat = game.waiting_for()[0]
            legal = list(legal_actions(seat))
            apply(bots[seat].choose(seat, legal, None))
        cpu += time.process_time() - start
        actions += len(game.log)
        digest.update(json.dumps([encode(a) for a in game.log], sort_keys=True, default=repr).encode())
    return actions, cpu, digest.hexdigest()[:16]


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
    if args.worker in ("judges", "judges-undoable"):
        actions, cpu, games = judges_rollouts(args.games, args.players, args.worker == "judges-undoable")
        print(json.dumps({"actions": actions, "cpu": cpu, "games": games}))
        return
    if args.worker == "python-chess":
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
PEER_MODULES = {"openspiel-backgammon": "pyspiel", "openspiel-chess": "pyspiel", "python-chess": "chess"}


def measure(name: str, games: int, src: Path | None = None, players: int = 4) -> dict:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, __file__, "--worker", name, "--games", str(games), "--players", str(players)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{name} ({src or 'the environment'}) failed:\n{done.stderr.strip()[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["rate"] = result["actions"] / result["cpu"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old-src", type=Path, help="the `src` folder of the version to compare with")
    parser.add_argument(
        "--new-src",
        type=Path,
        default=NEW_SRC,
        help="the `src` folder timed as this checkout (default: its own; e.g. build/compiled/src, the compiled copy)",
    )
    parser.add_argument("--old-name", default="old", help="what to call it (a commit): printed with its figures")
    parser.add_argument("--peers", action="store_true", help="also run OpenSpiel and python-chess")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (the ratios are their medians)")
    parser.add_argument("--games", type=int, default=30, help="Judges games per run")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    parser.add_argument("--save-reference", type=Path, help="store this run's medians there (bench/reference.py)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return

    load_before = os.getloadavg()[0]
    # side -> (the worker, its src): this checkout on both paths, the older tree on its own
    new_src = args.new_src.resolve()
    sides = {"new": ("judges", new_src), "new, undoable": ("judges-undoable", new_src)}
    compiled = sorted(new_src.glob("judges/*/*.so"))
    if new_src != NEW_SRC:
        print(f"new: {new_src}")
    if compiled:  # the compiled core is built (scripts/compile.sh): its pure-Python path too
        pure = Path(tempfile.mkdtemp(prefix="rollouts-pure-")) / "src"
        shutil.copytree(new_src, pure, ignore=shutil.ignore_patterns("*.so", "__pycache__", "mypyc-c"))
        atexit.register(shutil.rmtree, pure.parent, True)
        print(f"new: this checkout with its compiled core ({len(compiled)} modules, scripts/compile.sh)")
        sides |= {"new, pure": ("judges", pure), "new, pure, undoable": ("judges-undoable", pure)}
    if args.old_src:
        sides["old"] = ("judges", args.old_src.resolve())
        print(f"old: {args.old_name} ({args.old_src})")
    peers = {}
    for name, games in PEERS.items() if args.peers else ():
        if importlib.util.find_spec(PEER_MODULES[name]) is None:
            print(f"{name}: skipped, `{PEER_MODULES[name]}` is not installed (pip install -e '.[bench]')")
        else:
            peers[name] = games
    runs: dict[str, list[dict]] = {name: [] for name in [*sides, *peers]}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side][0], args.games, sides[side][1], args.players))
        for name, games in peers.items():
            runs[name].append(measure(name, games))
        line = "  ".join(f"{name} {runs[name][-1]['rate']:,.0f}/s" for name in runs)
        print(f"round {r + 1}/{args.rounds}: {line}", flush=True)

    same_games = "old" in runs and all(a.get("games") == b["games"] for a, b in zip(runs["old"], runs["new"]))
    if "old" in runs and not same_games:
        print(
            f"\n{args.old_name} played other games from the same seeds ({runs['old'][0]['actions'] / args.games:,.0f} "
            f"actions per game against {runs['new'][0]['actions'] / args.games:,.0f}): its rules or its random bot "
            "differ, so the ratios to it are over other random games of the same length, not the same work."
        )

    print(
        f"\nJudges, {args.players}-player random games, {args.games} per run "
        f"({runs['new'][0]['actions'] / args.games:,.0f} actions per game), {args.rounds} alternating rounds, CPU time:"
    )
    for name, results in runs.items():
        label = f"old ({args.old_name})" if name == "old" else name
        other = "  (other games)" if name == "old" and not same_games else ""
        print(f"  {label:22} {statistics.median(x['rate'] for x in results):>10,.0f} actions/s (median){other}")
    summary: dict[str, float] = {}
    spans: dict[str, tuple[float, float]] = {}
    mine = [side for side in sides if side.startswith("new")]
    for a in mine:
        for b in ["old", *peers]:
            if b in runs:
                name = f"{a}/{args.old_name if b == 'old' else b}"
                per_round = [x["rate"] / y["rate"] for x, y in zip(runs[a], runs[b], strict=True)]
                summary[name] = statistics.median(per_round)
                spans[name] = (min(per_round), max(per_round))
    for name, ratio in summary.items():
        low, high = spans[name]
        print(f"  ratio {name:36} {ratio:5.2f}x  (median of the per-round ratios; range {low:.2f}-{high:.2f})")
    print(f"  load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "ratios": summary}, indent=1))

    medians = {
        f"{'judges' if name == 'new' else name} actions/s": statistics.median(x["rate"] for x in results)
        for name, results in runs.items()
        if name == "new" or not name.startswith(("new", "old"))
    }
    reference.compare("rollouts", medians)
    entry, _ = reference.stored("rollouts")
    for name in PEERS:
        stored_rate = entry["figures"].get(f"{name} actions/s") if entry else None
        if name not in peers and stored_rate:
            print(f"  ratio new/{name:24} {medians['judges actions/s'] / stored_rate:5.2f}x  (to its stored figure)")
    if args.save_reference:
        reference.save(args.save_reference, "rollouts", medians, load_before)


if __name__ == "__main__":
    main()
