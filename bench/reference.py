"""Stored figures: what a bench measured on a named commit and machine, kept in bench/reference/.

A bench compares side by side when it can (an older tree, a peer engine, in the same run). When
it cannot — the older tree plays other games, a peer is not installed, there is no older tree
to run — it compares with the figures stored here, and says that they were not measured side by
side: the machine's load moves absolute figures (CPU time much less than wall-clock time, but
still by 10 % or more), so a ratio to a stored figure is a rough one.

Each file is named `<commit>-<machine>.json`: the last commit that changed `src/` when it was
measured, and the kind of machine. A bench adds its figures with `--save-reference FILE`; the
benches read the newest file (by its `date`), or the one named by JUDGES_BENCH_REFERENCE.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "reference"
ROOT = FOLDER.parent.parent


def _git(*args: str) -> str:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else ""


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def reference_file() -> Path | None:
    """The stored figures the benches compare with: JUDGES_BENCH_REFERENCE, else the newest file."""
    if os.environ.get("JUDGES_BENCH_REFERENCE"):
        return Path(os.environ["JUDGES_BENCH_REFERENCE"])
    files = sorted(FOLDER.glob("*.json"), key=lambda p: json.loads(p.read_text()).get("date", ""))
    return files[-1] if files else None


def stored(bench: str) -> tuple[dict, Path] | tuple[None, str]:
    """(the bench's stored entry with the file's header, the file), or (None, why there is none)."""
    path = reference_file()
    if path is None:
        return None, f"no stored figures in {FOLDER.relative_to(ROOT)}/"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return None, f"{path} unreadable: {error}"
    if bench not in data.get("benches", {}):
        return None, f"{path.name} has no figures of {bench}"
    return {**{k: v for k, v in data.items() if k != "benches"}, **data["benches"][bench]}, path


def describe(entry: dict, path: Path) -> str:
    return (
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: src of {entry['commit']}, "
        f"{entry['machine']}, {entry['date']}, load average {entry['load_average']}; `{entry['command']}`"
    )


def compare(bench: str, figures: dict[str, float], higher_is_better: bool = True) -> None:
    """Prints each figure beside its stored value, with the ratio (> 1: this run is faster)."""
    entry, path = stored(bench)
    if entry is None:
        print(f"\nno comparison with stored figures: {path}")
        return
    assert isinstance(path, Path)
    print(f"\nagainst the stored figures ({describe(entry, path)}), not side by side (ratio > 1: this run is faster):")
    for name, value in figures.items():
        before = entry["figures"].get(name)
        if before is None:
            print(f"  {name:44} {value:>12,.1f}   (no stored figure)")
            continue
        ratio = value / before if higher_is_better else before / value
        print(f"  {name:44} {value:>12,.1f}   stored {before:>12,.1f}   {ratio:5.2f}x")


def save(path: Path, bench: str, figures: dict[str, float], load_before: float) -> None:
    """Adds (or replaces) a bench's figures in `path`, with the commit, machine and load."""
    data = json.loads(path.read_text()) if path.exists() else {"benches": {}}
    dirty = _git("status", "--porcelain", "--", "src")
    commit = _git("log", "-1", "--format=%h", "--", "src") + (" (with uncommitted changes)" if dirty else "")
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    data.update(
        commit=commit,
        machine=f"{os.cpu_count()} cores ({_cpu_model()}), {memory:.0f} GiB, CPython {platform.python_version()}",
    )
    data["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    args = sys.argv[1:]
    if "--save-reference" in args:  # the command that reproduces the figures, not the one that stored them
        at = args.index("--save-reference")
        del args[at : at + 2]
    data["benches"][bench] = {
        "date": data["date"],
        "load_average": f"{load_before:.1f}-{os.getloadavg()[0]:.1f}",
        "command": " ".join(["python", f"bench/{Path(sys.argv[0]).name}", *args]),
        "figures": {name: float(f"{value:.4g}") for name, value in figures.items()},
    }
    data = {key: data[key] for key in ("commit", "machine", "date", "benches")}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"\nstored in {path}")
