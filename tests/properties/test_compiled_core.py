"""The optional compiled core (`bash scripts/compile.sh`, docs/performance.md): the same games
as pure Python, and no compiled module older than its source ever runs."""

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


@pytest.mark.skipif(
    not judges.compiled_modules(), reason="this checkout runs pure Python (bash scripts/compile.sh builds the core)"
)
def test_the_compiled_core_plays_the_games_pure_python_plays(tmp_path):
    pure = tmp_path / "src"
    shutil.copytree(SRC, pure, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for args in (
        ("--games", "40", "--players", "4", "--bot", "greedy", "--seed", "1"),
        ("--games", "40", "--players", "3", "--bot", "random", "--seed", "7"),
        ("--games", "1", "--players", "2", "--bot", "mcts", "--seed", "3"),
    ):
        assert simulate(SRC, *args) == simulate(pure, *args), args


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
