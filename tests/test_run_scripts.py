"""`scripts/run.sh` starts the server quickly and says the truth.

- The install is stamped (a hash of pyproject.toml and scripts/setup.sh in .venv): a start whose
  stamp matches runs no pip at all; a changed pyproject.toml installs again.
- `judges serve` takes its port before it announces anything: a port in use is said so and the
  server exits 1 without "served at"; otherwise the URL is printed whole on one line, however
  narrow the terminal."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _project_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of what setup.sh reads, with a .venv whose python records each pip call (and
    answers the stamp's hashing with the real interpreter)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    calls = tmp_path / "pip-calls.txt"
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        "#!/usr/bin/env bash\n"
        f'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "$*" >> {calls}; exit 0; fi\n'
        f'exec {sys.executable} "$@"\n'
    )
    python.chmod(0o755)
    return tmp_path, calls


def _setup(project: Path, **env: str) -> None:
    subprocess.run(["bash", "scripts/setup.sh"], cwd=project, check=True, env={**os.environ, **env}, timeout=60)


def _pip_calls(calls: Path) -> int:
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def test_29_11_setup_installs_once_until_pyproject_changes(tmp_path):
    project, calls = _project_copy(tmp_path)
    _setup(project)
    first = _pip_calls(calls)
    assert first >= 1  # the first start installs
    assert (project / ".venv" / "judges-install.sha256").exists()
    _setup(project)
    assert _pip_calls(calls) == first  # unchanged: no pip at all
    with (project / "pyproject.toml").open("a") as f:
        f.write("\n# a change\n")
    _setup(project)
    assert _pip_calls(calls) > first  # changed: installed again
    again = _pip_calls(calls)
    _setup(project, JUDGES_REINSTALL="1")
    assert _pip_calls(calls) > again  # asked for: installed again


def _serve(port: int, tmp_path: Path, columns: str = "30") -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "COLUMNS": columns,  # a narrow terminal: the URL must not be wrapped
        "JUDGES_DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_29_11_serve_on_a_taken_port_says_so_and_announces_nothing(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        process = _serve(port, tmp_path)
        out, errors = process.communicate(timeout=120)
    assert process.returncode == 1
    assert "served at" not in out
    assert f"port {port} is already in use" in " ".join(errors.split())


def test_29_11_serve_prints_its_url_on_one_line(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = _serve(port, tmp_path)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"served at http://127.0.0.1:{port}/" in line
        # announced once listening: the port answers
        with socket.create_connection(("127.0.0.1", port), timeout=30):
            pass
    finally:
        process.terminate()
        process.wait(timeout=30)
