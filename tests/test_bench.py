"""The benchmarks in bench/ start from a fresh `pip install -e '.[bench]'` (docs/performance.md).

Nothing is timed here: the benches' imports are checked against what the project declares,
each bench's top level is run (its imports, not its main()), and the server's benches, which
start a `judges serve` of their own, run whole at a small size.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = sorted(p for p in (ROOT / "bench").glob("*.py") if '__name__ == "__main__"' in p.read_text())


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    """The distributions a fresh `pip install -e '.[bench]'` is asked for by name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + project["optional-dependencies"]["bench"]
    return {normalized(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in requirements}


def required_imports(path: Path) -> set[str]:
    """Top-level modules the file imports, but those tried under `except ImportError` (optional)."""
    tree = ast.parse(path.read_text())
    optional: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError") for h in node.handlers
        ):
            optional.update(id(n) for statement in node.body for n in ast.walk(statement))
    names = set()
    for node in ast.walk(tree):
        if id(node) in optional:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_module_a_bench_imports_is_declared_by_the_project_or_its_bench_extra():
    local = {p.stem for p in (ROOT / "bench").glob("*.py")} | {p.stem for p in (ROOT / "tests").glob("*.py")}
    wanted = declared()
    owners = packages_distributions()
    missing = []
    for bench in BENCHES:
        for module in sorted(required_imports(bench) - set(sys.stdlib_module_names) - local - {"judges"}):
            # a module not installed here (OpenSpiel outside the bench extra) cannot be traced to its
            # distribution; the --help test below shows that the bench imports it only when it runs
            if module in owners and not {normalized(d) for d in owners[module]} & wanted:
                missing.append(f"{bench.name}: {module} (from {', '.join(owners[module])})")
    assert not missing, f"imported by a bench, declared neither in dependencies nor in the bench extra: {missing}"


def test_every_bench_imports_what_it_needs():
    """Each bench's top level (its imports) runs in a process of its own, its main() not called."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # as `python bench/x.py` would: its folder first on the path (benches import each other)
    load = "import runpy, sys; sys.path.insert(0, sys.argv[2]); runpy.run_path(sys.argv[1], run_name='bench_check')"
    running = {
        bench.name: subprocess.Popen(
            [sys.executable, "-c", load, str(bench), str(bench.parent)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for bench in BENCHES
    }
    failed = {}
    for name, process in running.items():
        _, err = process.communicate(timeout=120)
        if process.returncode != 0:
            failed[name] = err.strip().splitlines()[-1:]
    assert len(running) >= 9
    assert not failed, failed


SERVER_BENCHES_SMALL = {
    "load.py": ["--games", "3", "--seconds", "2", "--warmup", "1", "--rate", "10"],
    "spectators.py": ["--spectators", "6", "--per-address", "2", "--actions", "6", "--warmup", "1", "--resyncs", "20"],
    "gc_pauses.py": ["--games", "3", "--actions", "60", "--rounds", "1"],
    "view_bytes.py": ["--seed", "11"],
    # against this same tree as the "older" one: each scenario's attack runs whole, twice
    "account_attacks.py": [
        "--old-src",
        str(ROOT / "src"),
        "--rematches",
        "10",
        "--tries",
        "2",
        "--addresses",
        "1",
        "--flood-addresses",
        "2",
        "--seconds",
        "3",
        "--games",
        "1",
    ],
}


def test_the_server_benches_run_whole_at_a_small_size(tmp_path):
    """A bench that starts its own server claims seats and plays as players would: when the
    server's rules for seats change (a player holds one seat of a table), the bench must follow.
    Each removes the temporary folders of its servers and databases when it is done."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TMPDIR": str(temporary)}
    running = {
        name: subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / name), *arguments],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, arguments in SERVER_BENCHES_SMALL.items()
    }
    failed = {}
    for name, process in running.items():
        out, err = process.communicate(timeout=600)
        if process.returncode != 0:
            failed[name] = (err or out).strip().splitlines()[-3:]
    assert not failed, failed
    assert sorted(p.name for p in temporary.iterdir()) == [], "a bench left temporary folders behind"


def test_mcts_speed_compares_with_another_checkouts_src_pair_by_pair(tmp_path):
    """`bench/mcts_speed.py --baseline-src DIR` runs the baseline from another checkout's src (a
    worktree of an older commit) in alternating children and gives each pair's ratio and their
    range; a folder without the judges package stops it with a clear error, not a comparison."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    bench = [sys.executable, str(ROOT / "bench" / "mcts_speed.py"), "--spec", "mcts:4:1", "--mode", "positions"]
    small = ["--games", "1", "--every", "60", "--pairs", "2"]
    done = subprocess.run(
        [*bench, *small, "--baseline-src", str(ROOT / "src")], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"baseline {ROOT / 'src'}" in done.stdout
    pairs = re.findall(
        r"per pair, baseline / this tree per searched decision: median [\d.]+x, range ([\d.]+)-([\d.]+)x \(([^)]*)\)",
        done.stdout,
    )
    assert pairs, done.stdout
    low, high, each = pairs[0]
    ratios = [float(x) for x in each.split(", ")]
    assert len(ratios) == 2 and float(low) == min(ratios) and float(high) == max(ratios)
    missing = subprocess.run(
        [*bench, *small, "--baseline-src", str(tmp_path)], env=env, capture_output=True, text=True, timeout=60
    )
    assert missing.returncode != 0 and "no judges package" in missing.stderr
