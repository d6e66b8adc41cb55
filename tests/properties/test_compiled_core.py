"""The optional compiled core (`bash scripts/compile.sh`, docs/performance.md): the same games
as pure Python, and no compiled module older than its source ever runs.

The compiled source compared is this checkout's when it is built in place, else the copy that
`JUDGES_COMPILED_SRC` names (CI builds one with `bash scripts/compile.sh --into build/compiled`
and sets it to build/compiled/src). With neither the comparison skips, and fails when CI is set."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import judges

SRC = Path(judges.__file__).resolve().parent.parent


def simulate(src: Path, *args: str) -> bytes:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, "-m", "judges.cli", "simulate", "--json", *args], env=env, capture_output=True, check=True
    )
    return done.stdout


def compiled_in(src: Path) -> list[str]:
    """The modules that run compiled when `src` is imported (`judges.compiled_modules()` there)."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, "-c", "import judges; print(*judges.compiled_modules())"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def compiled_source() -> Path:
    """This checkout's source when it runs compiled, else JUDGES_COMPILED_SRC's copy."""
    if judges.compiled_modules():
        return SRC
    chosen = os.environ.get("JUDGES_COMPILED_SRC")
    if chosen:
        modules = compiled_in(Path(chosen))
        assert modules, f"JUDGES_COMPILED_SRC={chosen} runs pure Python: its build failed or is missing"
        # the copy is of this checkout's source as it is now, not of an older one
        ours = {p.relative_to(SRC): p.read_bytes() for p in SRC.rglob("*.py")}
        theirs = {p.relative_to(chosen): p.read_bytes() for p in Path(chosen).rglob("*.py")}
        stale = sorted(str(p) for p in ours.keys() | theirs.keys() if ours.get(p) != theirs.get(p))
        assert not stale, f"JUDGES_COMPILED_SRC={chosen} was copied from another source: {stale[:5]}"
        return Path(chosen)
    message = (
        "this checkout runs pure Python (bash scripts/compile.sh builds the core) and JUDGES_COMPILED_SRC is unset"
    )
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def test_the_compiled_core_plays_the_games_pure_python_plays(tmp_path):
    compiled = compiled_source()
    assert compiled_in(compiled)  # the comparison is with a compiled run, not two pure ones
    pure = tmp_path / "src"
    shutil.copytree(compiled, pure, ignore=shutil.ignore_patterns("*.so", "__pycache__", "mypyc-c"))
    assert compiled_in(pure) == []
    for args in (
        ("--games", "40", "--players", "4", "--bot", "greedy", "--seed", "1"),
        ("--games", "40", "--players", "3", "--bot", "random", "--seed", "7"),
        ("--games", "1", "--players", "2", "--bot", "mcts", "--seed", "3"),
    ):
        assert simulate(compiled, *args) == simulate(pure, *args), args


def test_a_compiled_module_older_than_its_source_is_refused(tmp_path):
    package = tmp_path / "judges"
    (package / "engine").mkdir(parents=True)
    source = package / "engine" / "movement.py"
    built = package / "engine" / "movement.cpython-311-x86_64-linux-gnu.so"
    source.write_text("")
    built.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(built, (2_000, 2_000))
    judges._refuse_stale(package)  # built after its source: runs
    os.utime(source, (3_000, 3_000))
    with pytest.raises(ImportError, match="engine/movement.py changed after it was compiled"):
        judges._refuse_stale(package)
