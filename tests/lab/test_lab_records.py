"""The lab's backends and records file: a Dask cluster plays the local pool's records, records
stream to a JSONL file, an interrupted run resumes, the report is built from the file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import judges
from judges.cli import app
from judges.lab import LabConfig, RecordsError, parse_variant, read_records, run_games
from judges.lab.backends import ClusterError, parse_cluster
from judges.lab.records import RecordsWriter, sort_records, without_timing
from judges.lab.report import report_from_file

runner = CliRunner()
SRC = str(Path(judges.__file__).resolve().parent.parent)


def comparable(records: list[dict]) -> list[dict]:
    """Records as two runs of the same games must agree on: sorted, timing left out, as JSON."""
    return [without_timing(r) for r in sort_records(json.loads(json.dumps(records)))]


def lab_config(**changes) -> LabConfig:
    base = {
        "players": 3,
        "games": 6,
        "bots": ["greedy", "random", "greedy"],
        "seed": 3,
        "round_limit": 30,
        "workers": 1,
        "variants": [parse_variant("wrath5:wrath_threshold=5")],
    }
    return LabConfig(**{**base, **changes})


@pytest.fixture(scope="module")
def reference() -> list[dict]:
    """The run played inline, in this process, with no records file."""
    return comparable(run_games(lab_config()))


def test_a_local_dask_cluster_plays_the_local_pools_records(tmp_path, reference):
    pool = run_games(lab_config(workers=2, records=tmp_path / "pool.jsonl"))
    cluster = run_games(lab_config(cluster="local:2", records=tmp_path / "cluster.jsonl"))
    assert len(cluster) == 12
    assert comparable(pool) == comparable(cluster) == reference
    assert comparable(read_records(tmp_path / "cluster.jsonl")) == reference
    # MCTS searches from a seeded generator: its games too are the same on every backend
    mcts = lab_config(players=2, games=2, bots=["mcts:1:1", "greedy"], round_limit=4, variants=[])
    assert comparable(run_games(mcts)) == comparable(run_games(LabConfig(**{**vars(mcts), "cluster": "local:2"})))


def test_records_stream_to_a_jsonl_file_one_line_per_game(tmp_path, reference):
    path = tmp_path / "records.jsonl"
    seen_in_file = []
    config = lab_config(records=path)
    run_games(config, on_record=lambda record: seen_in_file.append(len(read_records(path))))
    # each record is on disk before the next game is reported: a kill loses only running games
    assert seen_in_file == list(range(1, 13))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 12 and all(line.endswith("\n") and line.startswith("{") for line in lines)
    assert comparable([json.loads(line) for line in lines]) == reference


def test_resume_after_a_half_written_last_line_gives_the_uninterrupted_records(tmp_path, reference):
    whole = tmp_path / "whole.jsonl"
    run_games(lab_config(records=whole))
    lines = whole.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:5]) + lines[5][: len(lines[5]) // 2])  # killed while writing game 6
    assert len(read_records(cut)) == 5  # the half line is not a record
    played = []
    records = run_games(lab_config(records=cut, resume=True), on_record=played.append)
    assert len(played) == 12  # the 5 kept, then the 7 played
    assert comparable(records) == reference
    assert comparable(read_records(cut)) == reference
    assert cut.read_bytes().startswith(b"".join(lines[:5]))  # the kept games were not played again


def test_resume_after_killing_a_running_lab(tmp_path, reference):
    records = tmp_path / "records.jsonl"
    args = ["lab", "--players", "3", "--games", "6", "--bots", "greedy,random,greedy", "--seed", "3"]
    args += ["--round-limit", "30", "--variant", "wrath5:wrath_threshold=5", "--out", str(tmp_path / "report")]
    args += ["--records", str(records)]
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", *args, "--workers", "1", "--no-report"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while proc.poll() is None and not (records.exists() and records.read_bytes().count(b"\n") >= 2):
            time.sleep(0.005)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    held = read_records(records)
    assert 2 <= len(held) < 12
    result = runner.invoke(app, [*args, "--workers", "2", "--resume"])
    assert result.exit_code == 0, result.output
    assert comparable(read_records(records)) == reference
    assert comparable(read_records(records)[: len(held)]) == comparable(held)


def test_a_resumed_run_can_be_extended_to_more_games(tmp_path):
    path = tmp_path / "records.jsonl"
    run_games(lab_config(games=3, records=path, variants=[]))
    played = []
    records = run_games(lab_config(games=5, records=path, variants=[], resume=True), on_record=played.append)
    assert [r["seed"] for r in records] == [3, 4, 5, 6, 7]
    assert comparable(records) == comparable(run_games(lab_config(games=5, variants=[])))


def test_a_records_file_of_another_run_is_refused(tmp_path):
    path = tmp_path / "records.jsonl"
    run_games(lab_config(games=2, records=path, variants=[]))
    with pytest.raises(RecordsError, match="already holds 2 games: --resume continues that run"):
        run_games(lab_config(games=2, records=path, variants=[]))
    with pytest.raises(RecordsError, match="other bots or rules"):
        run_games(lab_config(games=2, records=path, variants=[], bots=["random"], resume=True))
    with pytest.raises(RecordsError, match="other bots or rules"):
        run_games(lab_config(games=2, records=path, variants=[], sets=["wrath_threshold=5"], resume=True))
    with pytest.raises(RecordsError, match="which this run does not play"):
        run_games(lab_config(games=2, records=path, variants=[], seed=4, resume=True))
    assert len(read_records(path)) == 2  # nothing was written by a refused run
    assert len(run_games(lab_config(games=1, records=path, variants=[], overwrite=True))) == 1
    assert len(read_records(path)) == 1


def test_a_damaged_records_file_is_refused_with_its_line(tmp_path):
    path = tmp_path / "records.jsonl"
    run_games(lab_config(games=2, records=path, variants=[]))
    good = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(good[0] + "{not json\n" + good[1], encoding="utf-8")
    with pytest.raises(RecordsError, match="line 2: not a lab record"):
        read_records(path)
    path.write_text(good[0] + good[1] + good[0], encoding="utf-8")
    with pytest.raises(RecordsError, match="line 3: the game of variant 'default', seed 3 is already on line 1"):
        read_records(path)


def test_the_command_refuses_a_used_records_file_and_a_bad_cluster(tmp_path):
    base = ["lab", "--players", "2", "--games", "1", "--round-limit", "10", "--out", str(tmp_path / "r")]
    assert runner.invoke(app, base + ["--workers", "1", "--no-report"]).exit_code == 0
    again = runner.invoke(app, base + ["--workers", "1"])
    assert again.exit_code == 2 and "--resume continues that run" in again.output
    for extra, message in (
        (["--cluster", "local:0"], "expected local:N"),
        (["--cluster", "scheduler"], "expected a scheduler address"),
        (["--cluster", "local:2", "--workers", "2"], "a --cluster has its own workers"),
        (["--resume", "--overwrite"], "exclude each other"),
    ):
        result = runner.invoke(app, base + ["--records", str(tmp_path / "other.jsonl")] + extra)
        assert result.exit_code == 2, (extra, result.output)
        assert message in result.output, (extra, result.output)
    assert not (tmp_path / "other.jsonl").exists()
    with pytest.raises(ClusterError):
        parse_cluster("local:two")
    assert parse_cluster("tcp://scheduler:8786") == ("address", "tcp://scheduler:8786")


def test_the_report_is_built_from_the_records_file(tmp_path):
    out = tmp_path / "lab"
    args = ["lab", "--players", "3", "--games", "6", "--bots", "greedy,random,greedy", "--seed", "3"]
    args += ["--round-limit", "30", "--variant", "wrath5:wrath_threshold=5", "--workers", "1", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    again = tmp_path / "again"
    result = runner.invoke(app, ["lab-report", str(out / "records.jsonl"), "--out", str(again)])
    assert result.exit_code == 0, result.output
    first = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    second = json.loads((again / "summary.json").read_text(encoding="utf-8"))
    assert first["variants"] == second["variants"]
    assert first["config"]["command"].startswith("judges lab ") and second["config"]["command"].startswith(
        "judges lab-report "
    )
    for config in (first["config"], second["config"]):
        assert config["bots"] == ["greedy", "random", "greedy"] and (config["seed"], config["last_seed"]) == (3, 8)
        assert [(v["name"], v["set"]) for v in config["variants"]] == [
            ("default", []),
            ("wrath5", ["wrath_threshold=5"]),
        ]
    assert (out / "games.csv").read_bytes() == (again / "games.csv").read_bytes()
    assert 'href="records.jsonl"' not in (again / "index.html").read_text(encoding="utf-8")  # the file is elsewhere


def test_a_report_of_a_run_still_going_counts_its_finished_games(tmp_path):
    path = tmp_path / "records.jsonl"
    games = run_games(lab_config(games=4, variants=[], seed=10))
    with RecordsWriter(path) as writer:
        for record in games[1:4]:  # game 0 is still being played
            writer.write(record)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(games[0])[:40])  # ... and being written
    summary = report_from_file(path, tmp_path / "report")
    assert summary["variants"]["default"]["games"] == 3
    config = summary["config"]
    assert (config["seed"], config["last_seed"]) == (11, 13)
    assert config["bots"] == ["greedy", "random", "greedy"]  # game 0's seats, from game 1's rotation
    with pytest.raises(RecordsError, match="holds no finished game"):
        report_from_file(tmp_path / "empty.jsonl", tmp_path / "r2")


def _start(args: list[str], pythonpath: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args],
        env={**os.environ, "PYTHONPATH": pythonpath},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _wait_for(path: Path, what: str) -> None:
    for _ in range(600):
        if path.exists() and path.stat().st_size:
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not start")


def test_a_scheduler_address_plays_on_its_workers_and_refuses_workers_with_other_code(tmp_path, reference):
    """A scheduler and workers started as a designer would (`dask scheduler`, `dask worker`):
    the run plays on them by address; a worker whose judges code differs is refused."""
    other = tmp_path / "other" / "judges"
    shutil.copytree(Path(SRC) / "judges", other, ignore=shutil.ignore_patterns("__pycache__"))
    (other / "engine" / "rules.py").write_text(
        (other / "engine" / "rules.py").read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8"
    )
    file = tmp_path / "scheduler.json"
    started = [_start(["scheduler", "--scheduler-file", str(file), "--port", "0", "--no-dashboard"], SRC)]
    try:
        _wait_for(file, "the scheduler")
        address = json.loads(file.read_text(encoding="utf-8"))["address"]
        worker = ["worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-dashboard"]
        started.append(_start(worker, SRC))
        records = run_games(lab_config(cluster=address))
        assert comparable(records) == reference
        started.append(_start(worker + ["--name", "other-code"], str(other.parent)))
        from distributed import Client

        with Client(address) as client:
            client.wait_for_workers(2, timeout=60)
        with pytest.raises(ClusterError, match="run other judges code"):
            run_games(lab_config(cluster=address, games=1))
    finally:
        for proc in reversed(started):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in started:
            proc.wait(timeout=30)
